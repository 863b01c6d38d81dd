"""Lesson 01's decisions on every fake machine (``pytest -m modes``): device, sizes, dtypes, peak source, labels."""

import pytest

from utils import devices
from utils.lessons.why_slow.plan import CPU_MODEL, lesson_settings

pytestmark = pytest.mark.modes


def settings(machine, isa="AVX512"):
    return lesson_settings(devices.plan(1), machine.hw, isa)


def test_everything_runs_on_the_first_device_of_the_plan(machine):
    S = settings(machine)
    assert S.device == devices.plan(1).devices[0] == ("cpu" if machine.mode == "cpu" else "cuda:0")
    assert S.simulated == (machine.mode == "cpu") and S.on_gpu == (machine.mode != "cpu")


def test_sizes_stay_small_on_cpu_and_grow_on_gpus(machine):
    S = settings(machine)
    if machine.mode == "cpu":
        assert S.model == CPU_MODEL and S.peak_matmul <= 1024 and S.stream_bytes >= 8 * 32 * 2**20
    else:
        assert S.model["width"] > CPU_MODEL["width"] and S.peak_matmul >= 4096 and S.stream_bytes >= 2**30
    for axis, values in S.grid.items():
        assert list(values) == sorted(values) and S.model[axis] in values  # the base model is on every axis
    assert list(S.transfer_sizes) == sorted(S.transfer_sizes)


def test_peak_dtypes_follow_the_isa_and_the_gpu(machine):
    S = settings(machine)
    assert S.peak_dtypes[0] == "fp32" and S.step_dtype in S.peak_dtypes
    if machine.mode == "cpu":
        assert S.peak_dtypes == ("fp32", "bf16", "int8") and S.step_dtype == "fp32"
        assert settings(machine, "DEFAULT").peak_dtypes == ("fp32", "bf16")  # no int8 dot products: not a peak
    elif "T4" in machine.name:
        assert S.peak_dtypes == ("fp32", "fp16", "int8")  # no bf16 arithmetic before compute capability 8.0
    else:
        assert S.peak_dtypes == ("fp32", "bf16", "int8")


def test_the_datasheet_is_known_for_every_fake_gpu_and_absent_on_cpu(machine):
    S = settings(machine)
    if machine.mode == "cpu":
        assert S.datasheet is None
    else:
        assert S.datasheet is not None and S.step_dtype in S.datasheet.peak_flops


def test_every_label_names_where_the_numbers_were_measured(machine):
    S = settings(machine)
    if machine.mode == "cpu":
        assert "CPU" in S.label
    else:
        assert machine.hw.gpus[0].name in S.label and "cuda:0" in S.label
    assert S.trace_dir.startswith("results/traces")


def test_the_roofline_runs_on_one_cpu_thread_and_its_matrix_vector_product_misses_the_caches(machine):
    S = settings(machine)
    assert S.measure_threads == (1 if machine.mode == "cpu" else None)
    assert 4 * S.matvec**2 >= (2**30 if S.on_gpu else 64 * 2**20)  # beyond a GPU's L2, a CPU's L3
