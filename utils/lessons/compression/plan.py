"""Lesson 04's hardware decisions, made in one place from the device plan (checked on every fake machine by
``tests/test_modes_compression.py``): where each timing runs, the batch it runs on, which 16-bit type is
used, and the label every timed number carries. Its lab and the ``quantize`` benchmark use the same function.

    S = lesson_settings(devices.plan(2), devices.hardware())
    S.float_device, S.float_batch, S.float_label    # fp32, pruned, folded and 16-bit models: "cuda:0" on a GPU
    S.cpu_batch, S.cpu_label                         # the trade-off table: the CPU in every mode
    S.quant_device, S.quant_batches, S.quant_kinds   # section 4: torchao on the float device, 2 batches

A label says where a number was measured, not which mode the course runs in: this lesson has no worker
processes standing in for GPUs, so nothing in it is *simulated*; a CPU timing is a real CPU timing.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from utils import devices

__all__ = ["Settings", "lesson_settings", "device_label", "CPU_LABEL"]

CPU_LABEL = " (on the CPU)"
TENSOR_CORE_BF16 = (8, 0)  # Ampere and later: bf16 on tensor cores; below it torch emulates bf16


@dataclass(frozen=True)
class Settings:
    # The float models (fp32, pruned, folded, channels removed, 16-bit) are timed here: the plan's first device.
    float_device: str  # "cpu", or "cuda:0" where there is a GPU
    float_batch: int  # images per timed forward pass there: larger on a GPU, where a CPU-sized batch times launches
    float_label: str  # " (on the CPU)" or " (on cuda:0, NVIDIA H200)": where those numbers were measured
    # The trade-off table (one table timed on one device; without a GPU its MLP family holds torch.ao's int8,
    # whose fbgemm / qnnpack kernels are CPU kernels) runs on the CPU in every mode.
    cpu_batch: int  # images per timed forward pass on the CPU
    cpu_label: str  # " (on the CPU)"
    train_device: str  # where section 5 trains each precision (the float device)
    half_dtype: torch.dtype  # the 16-bit type of section 5: bf16, except fp16 on a GPU without bf16 tensor cores
    half_name: str  # "bf16" or "fp16", as the tables name it
    train_precisions: tuple[tuple[str, torch.dtype | None], ...]  # (row name, autocast dtype) trained in section 5
    half_note: str  # one line: why this 16-bit type on this device
    # Section 4 (quantization) runs torchao on the float device, at batch 1 (memory-bound: bytes decide) and
    # at the timed batch (compute-bound: arithmetic decides), each against its roofline reference.
    quant_device: str  # "cpu" or "cuda:0"
    quant_batches: tuple[int, ...]  # (1, float_batch)
    quant_kinds: tuple[str, ...]  # torchao configurations measured: int4 weight-only needs bf16 (no T4)
    quant_label: str  # where section 4 was measured
    quant_base: str  # the baseline of section 4's speedups: "fp32" on a CPU, the 16-bit type on a GPU (the
    # practice): bf16, or fp16 on a GPU that emulates bf16 (a T4), where a bf16 baseline would inflate int8's gain
    int4_note: str  # one line: where int4 weight-only runs here, or why it does not
    legacy_int8: bool  # torch.ao's deprecated quantize_dynamic measured beside torchao: CPU kernels only


def device_label(device: str, hw: devices.Hardware | None = None) -> str:
    """`` (on the CPU)`` or `` (on cuda:0, Tesla T4)``: where a number was measured, for titles and lines."""
    device = str(device)
    if not device.startswith("cuda"):
        return CPU_LABEL
    index = int(device.partition(":")[2] or 0)
    name = hw.gpus[index].name if hw is not None and index < len(hw.gpus) else None
    return f" (on {device}, {name})" if name else f" (on {device})"


def _half_choice(device: str, hw: devices.Hardware) -> tuple[torch.dtype, tuple, str]:
    """The 16-bit type, the precisions trained, and why, on ``device``."""
    bf16, fp16 = ("bf16 autocast", torch.bfloat16), ("fp16 autocast + GradScaler", torch.float16)
    if device == "cpu":
        # Most CPUs have no fp16 arithmetic (AVX512-FP16 and AMX-FP16 ones do, and GradScaler("cpu") exists):
        # this lesson trains fp16 (with its scaler) on GPUs only, where every recent one runs it fast.
        return torch.bfloat16, (("fp32", None), bf16), (
            "On the CPU the 16-bit type is bf16: whether it computes faster depends on the CPU's bf16 "
            "instructions (above).")
    gpu = hw.gpus[int(device.partition(":")[2] or 0)]
    cc = gpu.compute_capability
    where = f"{device} ({gpu.name}, compute capability {cc[0]}.{cc[1]})" if cc else f"{device} ({gpu.name})"
    if cc is not None and cc < TENSOR_CORE_BF16:
        return torch.float16, (("fp32", None), fp16), (
            f"On {where} bf16 has no tensor-core support: torch emulates it, slowly, so this lesson uses fp16 "
            "there, the 16-bit type these tensor cores run (training it needs the GradScaler).")
    return torch.bfloat16, (("fp32", None), bf16, fp16), (
        f"On {where} tensor cores run both bf16 and fp16; bf16 is timed (fp32's range, no scaler needed).")


def _int4_choice(device: str, half_dtype: torch.dtype) -> tuple[bool, str]:
    """Whether section 4 measures int4 weight-only on ``device``, and why (int4 quantizes a bf16 model)."""
    if device == "cpu":
        return True, ("int4 weight-only runs on torchao's CPU layout (its int4 weights packed in the order its CPU "
                      "kernel reads them; a prototype config in torchao 0.18), "
                      "against the bf16 model it is made from.")
    if half_dtype != torch.bfloat16:
        return False, (f"int4 weight-only is not measured on {device}: its kernel (tinygemm) wants bf16 "
                       "tensor cores, compute capability 8 or more (an A100, not a T4).")
    return True, f"int4 weight-only runs on {device} (tinygemm), against the bf16 model it is made from."


def lesson_settings(plan: devices.Plan, hw: devices.Hardware, latency_batch: int = 256,
                    gpu_latency_batch: int = 4096) -> Settings:
    """Lesson 04's settings for ``plan`` (``devices.plan(2)``) on ``hw`` (``devices.hardware()``).

    ``latency_batch``: images per timed pass on the CPU (the notebook's ``LATENCY_BATCH``);
    ``gpu_latency_batch``: the least a GPU gets (4096 images: about 19 GFLOP, billions of floating-point
    operations, through the article's CNN, milliseconds of work, far more than the microseconds that
    launching its kernels takes).
    """
    float_device = plan.devices[0] if plan.devices[0].startswith("cuda") and hw.gpus else "cpu"
    on_gpu = float_device != "cpu"
    half_dtype, precisions, note = _half_choice(float_device, hw)
    int4, int4_note = _int4_choice(float_device, half_dtype)
    return Settings(
        float_device=float_device,
        float_batch=max(latency_batch, gpu_latency_batch) if on_gpu else latency_batch,
        float_label=device_label(float_device, hw),
        cpu_batch=latency_batch,
        cpu_label=CPU_LABEL,
        train_device=float_device,
        half_dtype=half_dtype,
        half_name="bf16" if half_dtype == torch.bfloat16 else "fp16",
        train_precisions=precisions,
        half_note=note,
        quant_device=float_device,
        quant_batches=(1, max(latency_batch, gpu_latency_batch) if on_gpu else latency_batch),
        quant_kinds=("int8_weight_only", "int8_dynamic") + (("int4_weight_only",) if int4 else ()),
        quant_label=device_label(float_device, hw),
        quant_base=("bf16" if half_dtype == torch.bfloat16 else "fp16") if on_gpu else "fp32",
        int4_note=int4_note,
        legacy_int8=not on_gpu,
    )
