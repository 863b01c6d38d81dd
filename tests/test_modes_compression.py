"""Lesson 04's decisions (and its lab's, and the ``quantize`` benchmark's) on every fake machine (``pytest -m modes``).

Lesson 04 has no worker processes: every number it times is a real measurement on the CPU or on a GPU, so
its labels name that device and never say *simulated*.
"""

from pathlib import Path

import nbformat
import pytest
import torch

from utils import devices
from utils.benchmarks import quantize as quantize_benchmark
from utils.labs.compress_under_budget import checks as lab_checks
from utils.lessons.compression import pareto
from utils.lessons.compression.plan import CPU_LABEL, device_label, lesson_settings

pytestmark = pytest.mark.modes
ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = [ROOT / "notebooks/04_compression.ipynb", ROOT / "labs/04_compress_under_budget.ipynb"]


def settings(machine, **sizes):
    return lesson_settings(devices.plan(2), machine.hw, **sizes)


def test_float_models_are_timed_on_the_plans_first_device(machine):
    s = settings(machine)
    assert s.float_device == ("cpu" if machine.mode == "cpu" else "cuda:0") == devices.plan(2).devices[0]
    assert s.train_device == s.float_device


def test_the_trade_off_table_is_timed_on_the_cpu_and_says_so(machine):
    s = settings(machine)
    assert s.cpu_label == CPU_LABEL == " (on the CPU)"


def test_quantization_runs_on_the_float_device_at_batch_1_and_the_timed_batch(machine):
    s = settings(machine, latency_batch=256, gpu_latency_batch=4096)
    assert s.quant_device == s.float_device and s.quant_label == s.float_label
    assert s.quant_batches == (1, s.float_batch)  # memory-bound, then compute-bound
    assert quantize_benchmark.note(s).endswith(s.quant_label)
    on_gpu = machine.mode != "cpu"
    # int4 quantizes a bf16 model: the CPU's layout, or a GPU with bf16 tensor cores (not a T4)
    assert ("int4_weight_only" in s.quant_kinds) == (s.half_dtype == torch.bfloat16)
    # int8 on a GPU is set beside its 16-bit model, not fp32: fp16 on a T4, which emulates bf16
    assert s.quant_base == (s.half_name if on_gpu else "fp32")
    assert s.quant_kinds[:2] == ("int8_weight_only", "int8_dynamic")
    assert s.legacy_int8 == (not on_gpu)  # torch.ao's fbgemm kernels run on the CPU only


def test_every_label_names_where_it_was_measured_and_nothing_is_simulated(machine):
    s = settings(machine)
    for label in (s.float_label, s.cpu_label, s.half_note, s.quant_label):
        assert "simulated" not in label
    if machine.mode == "cpu":
        assert s.float_label == " (on the CPU)"
    else:  # a GPU timing names the GPU, and a CPU timing on a GPU machine still says "on the CPU"
        assert s.float_label == f" (on cuda:0, {machine.hw.gpus[0].name})"
        assert s.cpu_label == " (on the CPU)" != s.float_label


def test_timed_batches_grow_on_gpus_only(machine):
    s = settings(machine, latency_batch=256, gpu_latency_batch=4096)
    assert s.cpu_batch == 256
    assert s.float_batch == (256 if machine.mode == "cpu" else 4096)
    assert settings(machine, latency_batch=8192).float_batch == 8192  # a larger CPU batch is never cut on a GPU


def test_the_16_bit_type_is_bf16_except_on_gpus_without_bf16_tensor_cores(machine):
    s = settings(machine)
    cc = machine.hw.gpus[0].compute_capability if machine.hw.gpus else None
    emulated = cc is not None and cc < (8, 0)  # a T4 (7.5): torch emulates bf16
    assert s.half_dtype == (torch.float16 if emulated else torch.bfloat16)
    assert s.half_name == ("fp16" if emulated else "bf16")
    assert ("emulates" in s.half_note) == emulated
    if emulated:
        assert "7.5" in s.half_note and "fp16" in s.half_note
        assert s.quant_base == "fp16"  # int8's speed-up on a T4 against fp16, not an emulated bf16


def test_fp16_trains_with_its_scaler_on_gpus_only_and_bf16_not_where_emulated(machine):
    s = settings(machine)
    trained = dict(s.train_precisions)
    assert trained["fp32"] is None and next(iter(trained)) == "fp32"
    assert (torch.float16 in trained.values()) == (machine.mode != "cpu")
    assert (torch.bfloat16 in trained.values()) == (s.half_dtype == torch.bfloat16)
    assert s.half_dtype in trained.values()  # the type analysed in section 5 is one that was trained
    for name, dtype in trained.items():
        if dtype == torch.float16:
            assert "GradScaler" in name


def test_the_lab_speed_check_labels_where_it_timed(machine):
    s = settings(machine)
    assert device_label("cpu", machine.hw) == s.cpu_label
    if machine.hw.gpus:
        assert machine.hw.gpus[0].name in device_label("cuda:0", machine.hw)
    model = torch.nn.Linear(2, 2)  # lab 04 times on the CPU in every mode, against the faster reference
    verdict = lab_checks.check_faster(model, lambda: torch.nn.Linear(2, 2), torch.zeros(4, 2), model, 1e-9,
                                      rounds=2, show=False)
    assert verdict.passed and "on the CPU" in verdict.message
    assert lab_checks.BAR in " ".join(verdict.message.split())  # reference named (lab 04), by one name


def test_the_trade_off_figure_says_where_it_was_measured(machine):
    s = settings(machine)
    variants = [dict(family="CNN", mb=1.7, ms=40.0, acc=0.97, front=True),
                dict(family="MLP", mb=2.9, ms=4.5, acc=0.97, front=True)]
    title = pareto.plot_front(variants, s.cpu_batch, s.cpu_label)._suptitle.get_text()
    assert title.endswith("(on the CPU)") and "simulated" not in title


def checked_cells(path):
    return [c.source for c in nbformat.read(path, as_version=4).cells
            if c.cell_type == "code" and "NBVAL_CHECK_OUTPUT" in c.source]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_outputs_nbval_compares_do_not_depend_on_the_mode(path):
    # Anything that differs between machines (S, the timed batches, devices, timings) stays out of the cells
    # whose output nbval compares, so that `make test` passes on a GPU machine as on the CPU.
    cells = checked_cells(path)
    assert cells
    for source in cells:
        for name in ("S.", "x_bench", "x_cpu", "devices.", "compare_latency", "speedup", "cuda", "LABEL"):
            assert name not in source, f"{path.name}: a checked cell uses {name!r}:\n{source}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_cell_labels_a_real_timing_as_simulated(path):
    # Issue 12, item 7: the label says where a number was measured; a CPU timing is a real CPU timing.
    code = "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code")
    assert "SIMULATED" not in code and "simulated" not in code.lower()
    assert "lesson_settings(devices.plan(2), devices.hardware()" in code  # one place decides, from the plan
