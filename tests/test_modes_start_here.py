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


@pytest.mark.parametrize("l3, added", [(32 * 2**20, None), (504 * 2**20, 2**28), (None, None)])
def test_a_cpu_copy_always_leaves_the_caches_so_that_dram_and_its_bound_are_measured(l3, added):
    caches = {"L2": 2**21} | ({"L3": l3} if l3 else {})
    s = lesson_settings(devices.plan(2, mode_name="cpu", n_gpus=0), devices.hardware(n_gpus=0), CPU_SIZES, GPU_EXTRA,
                        caches=caches)
    assert list(s.copy_sizes) == CPU_SIZES + ([added] if added else [])
    if l3:
        assert 2 * max(s.copy_sizes) > l3 // 2  # the largest copy's working set is beyond half the last cache
