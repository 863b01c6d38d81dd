"""Lesson 06's and lab 06's decisions on every fake machine (``pytest -m modes``): sizes, where the measurements
and the sharding workers run, what each label says, the lab's budget, and the notebooks' compared output."""

import contextlib
import io
import json
from pathlib import Path

import pytest

from utils import devices
from utils.labs.fit_the_budget.checks import CPU_LABEL, lab_setup, plans, predicted, techniques
from utils.lessons.memory.calculator import estimate
from utils.lessons.memory.plan import CPU_SHAPE, GPU_SHAPE, current_settings, lesson_settings

pytestmark = pytest.mark.modes
ROOT = Path(__file__).resolve().parents[1]
LESSON, LAB = ROOT / "notebooks" / "06_memory.ipynb", ROOT / "labs" / "06_fit_the_budget.ipynb"
SOURCES = [LESSON, LAB] + sorted((ROOT / "utils" / "lessons" / "memory").glob("*.py")) + sorted(
    (ROOT / "utils" / "labs" / "fit_the_budget").glob("*.py"))


def settings(machine):
    return lesson_settings(devices.plan(2), machine.hw)


def cells(path: Path) -> list[str]:
    return ["".join(c["source"]) for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]


def test_sizes_fit_a_laptop_on_cpu_and_grow_on_gpus(machine):
    s = settings(machine)
    assert current_settings() == s
    if machine.mode == "cpu":
        assert (s.shape, s.batch, s.torch_threads) == (CPU_SHAPE, 16, 1)
    else:
        assert s.shape == GPU_SHAPE and s.shape.parameters() > 20 * CPU_SHAPE.parameters()
        assert s.torch_threads is None
        peak = estimate(s.shape, s.batch).peak
        assert peak < machine.hw.gpus[0].memory_total / 5  # a small share of the smallest GPU (a T4)
    assert s.batch % s.micro_batches == 0


def test_measurements_run_on_the_first_device_of_the_plan(machine):
    s = settings(machine)
    assert s.device == devices.plan(2).devices[0] == ("cpu" if machine.mode == "cpu" else "cuda:0")
    assert s.simulated == (machine.mode == "cpu")


def test_sharding_runs_on_two_gpus_where_there_are_two_and_on_cpu_workers_otherwise(machine):
    s = settings(machine)
    plan = devices.plan(2)
    if machine.mode == "cpu":
        assert s.shard_devices == ("cpu", "cpu") and not s.shard_on_cpu
    elif machine.mode == "1gpu":  # gloo cannot all-gather CUDA tensors of ranks sharing one GPU
        assert s.shard_on_cpu and s.shard_devices == ("cpu", "cpu") and s.shard_shape == CPU_SHAPE
        assert "gloo cannot all-gather CUDA tensors" in s.shard_label and "CPU workers" in s.shard_note
    else:
        assert not s.shard_on_cpu and s.shard_devices == plan.devices == ("cuda:0", "cuda:1")
        assert plan.backend == "nccl" and "nccl" in s.shard_label


def test_every_label_names_where_its_number_was_measured(machine):
    s = settings(machine)
    simulated = machine.mode == "cpu"
    assert ("simulated on CPU" in s.label) == ("simulated on CPU" in s.shard_label) == simulated
    if not simulated:
        assert machine.hw.gpus[0].name in s.label and "cuda:0" in s.label
    assert s.device in s.describe()


def test_the_labs_capacity_needs_a_combination_in_every_mode(machine):
    s = settings(machine)
    setup = lab_setup(s)
    assert (setup.batch, setup.device) == (s.batch, s.device)
    # the lab's figures are measured on one process: on a CPU they say so, not "simulated" (no workers)
    assert setup.label == (CPU_LABEL if s.device == "cpu" else s.label)
    assert setup.shape.vocab > s.shape.vocab  # the lab's larger vocabulary: the loss's logits weigh
    assert predicted(setup, (False, 1, 1)).peak > setup.usable  # the step as given does not fit
    fitting = [p for p in plans() if predicted(setup, p).peak <= setup.usable]
    assert fitting, f"{machine.name}: no plan fits the lab's capacity"
    singles = [p for p in fitting if techniques(p) <= 1]
    assert not singles, f"{machine.name}: a single technique fits ({singles}): the lab asks to combine"


def test_no_source_names_a_second_gpu():
    for path in SOURCES:
        assert "cuda:1" not in path.read_text(), f"{path.name} hard-codes cuda:1"


@pytest.mark.parametrize("path", [LESSON, LAB], ids=lambda p: p.name)
def test_the_compared_output_uses_no_setting_and_is_the_same_in_every_mode(machine, path):
    checked = [c for c in cells(path) if c.startswith("# NBVAL_CHECK_OUTPUT")]
    assert checked and all("S." not in c and "SETUP" not in c for c in checked)
    if path != LESSON:
        return
    stored = {"".join(c["source"]): "".join("".join(o["text"]) for o in c["outputs"] if o.get("name") == "stdout")
              for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"}
    scope = {}
    exec("from utils.lessons.memory.calculator import T4_BYTES, Shape, estimate\n"
         "from utils.lessons.memory.summary import fill\n"
         "from utils.lessons.memory.widget import GPT2_SMALL, verdict", scope)
    for cell in checked:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(cell, scope)
        assert out.getvalue() == stored[cell] and stored[cell]


def test_autocast_uses_bf16_where_the_device_has_it(machine):
    s = settings(machine)
    gpus = machine.hw.gpus if machine.hw is not None else []
    cc = gpus[0].compute_capability if gpus else None
    expected = "fp16" if cc is not None and cc < (8, 0) else "bf16"  # T4 (7.5): no bf16
    assert s.autocast == expected
    from utils.lessons.memory.calculator import PRECISIONS

    # the lesson measures autocast against autocast's own layout, and names the ZeRO layout beside it
    autocast = PRECISIONS[f"{s.autocast} autocast"]
    assert autocast["master"] == 0 and autocast["copies"]
    assert PRECISIONS[f"{s.autocast} mixed"]["master"] == 4
