"""The mode matrix for the shared infrastructure: what ``devices`` decides on every machine learners bring.

Each lesson adds its own decisions (sizes, split points, bounds, labels) to the matrix in its own
``tests/test_modes_<slug>.py``; run them all with ``pytest -m modes``.
"""

import pytest

from utils import devices

pytestmark = pytest.mark.modes


def test_the_mode_follows_the_gpus_torch_sees(machine):
    assert machine.mode == devices.mode_for(machine.n_gpus)
    assert len(machine.hw.gpus) == machine.n_gpus


def test_two_workers_get_distinct_gpus_on_nccl_or_share_one_on_gloo(machine):
    plan = devices.plan(2)
    if machine.mode == "cpu":
        assert plan.devices == ("cpu", "cpu") and plan.backend == "gloo" and plan.simulated
    elif machine.mode == "1gpu":
        assert plan.devices == ("cuda:0", "cuda:0") and plan.backend == "gloo" and not plan.simulated
    else:
        assert plan.devices == ("cuda:0", "cuda:1") and plan.backend == "nccl"


def test_the_one_line_report_names_the_link_only_where_there_are_two_gpus(machine):
    line = devices.summary_line(machine.hw, machine.mode, devices.plan(2))
    assert line.startswith(f"Mode {machine.mode}")
    assert ("simulated on CPU" in line) == (machine.mode == "cpu")
    if machine.n_gpus >= 2:
        kind = "NVLink" if "NVLink" in machine.name or "NVSwitch" in machine.name or "ngpu" in machine.name else "PCIe"
        assert f"link {kind}" in line and machine.hw.link.bandwidth
    else:
        assert "link" not in line


def test_a_lesson_without_workers_gets_a_line_that_names_none(machine):
    """Lesson 04 times one device: its line says nothing about worker processes (t32_0304 other (c))."""
    line = devices.summary_line(machine.hw, machine.mode, devices.plan(2), workers=False)
    assert line.startswith(f"Mode {machine.mode}") and "Workers" not in line
    assert "gloo" not in line and "nccl" not in line and "simulated" not in line
    assert ("CPU cores" in line) == (machine.mode == "cpu")
