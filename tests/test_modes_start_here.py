"""Lesson 00's decisions on every fake machine (``pytest -m modes``)."""

import pytest

from utils import devices
from utils.lessons.start_here import loopback
from utils.lessons.start_here.bandwidth import copy_paths
from utils.lessons.start_here.plan import lesson_settings

pytestmark = pytest.mark.modes
CPU_SIZES, GPU_EXTRA = [2**16 * 4**k for k in range(6)], [2**28, 2**30]


def settings(machine):
    return lesson_settings(devices.plan(2), machine.hw, CPU_SIZES, GPU_EXTRA)


def test_copy_sizes_grow_on_gpus_and_stay_small_on_cpu(machine):
    sizes = settings(machine).copy_sizes
    assert list(sizes) == sorted(sizes) and set(CPU_SIZES) <= set(sizes)
    assert (max(sizes) == 2**30) == (machine.mode != "cpu")


def test_the_link_path_is_one_this_machine_measures(machine):
    s = settings(machine)
    if machine.mode == "cpu":  # the simulated GPUs' real path: gloo between two processes, not memcpy
        assert s.link_path == loopback.PATH
    else:
        assert s.link_path in [name for name, *_ in copy_paths(machine.hw, machine.mode)]


def test_the_link_is_gpu_to_gpu_only_with_two_gpus_in_use(machine):
    assert (settings(machine).link_path == "GPU 0 to GPU 1") == (machine.mode in ("2gpu", "ngpu"))


def test_every_gpu_path_has_the_bound_of_what_it_crosses(machine):
    if machine.mode == "cpu":
        return
    bounds = {name: bound for name, _, _, _, bound in copy_paths(machine.hw, machine.mode)}
    assert bounds["host to GPU 0, pinned"] == machine.hw.gpus[0].pcie_bandwidth
    assert bounds["GPU 0 to GPU 0"] == pytest.approx(machine.hw.gpus[0].memory_bandwidth / 2)
    if "GPU 0 to GPU 1" in bounds:
        assert bounds["GPU 0 to GPU 1"] == machine.hw.link.bandwidth > bounds["host to GPU 0, pinned"] / 2


def test_only_simulated_figures_say_simulated(machine):
    assert ("simulated on CPU" in settings(machine).label) == (machine.mode == "cpu")


def test_the_gloo_path_is_measured_exactly_where_the_workers_use_gloo(machine):
    s = settings(machine)
    gloo = machine.mode in ("cpu", "1gpu")  # 1gpu: two ranks on one GPU, which NCCL refuses
    assert bool(s.loopback_sizes) == gloo == (devices.plan(2).backend == "gloo")
    if gloo:
        assert min(s.loopback_sizes) == 4 and set(CPU_SIZES) <= set(s.loopback_sizes)  # alpha needs tiny messages
        assert s.workers_path.startswith("gloo over loopback TCP")
    else:
        assert s.workers_path.startswith("NCCL between cuda:0 and cuda:1")
