"""The hardware claims as numbers (lesson 01, section 7): datasheet peaks, bandwidths and ridge points of the
GPUs the course names (``utils.gpu_specs``), beside this machine's measured ceilings."""

from __future__ import annotations

from utils.gpu_specs import KNOWN_GPUS

HALF = ("bf16", "fp16")  # the 16-bit dtype a GPU's tensor cores run, bf16 where it has it


def half_peak(spec) -> tuple[str, float]:
    for dtype in HALF:
        if dtype in spec.peak_flops:
            return dtype, spec.peak_flops[dtype]
    return "fp32", spec.peak_flops["fp32"]


def datasheet_rows() -> list[tuple]:
    """(name, fp32 peak, 16-bit dtype, its peak, memory bandwidth, ridge of the 16-bit peak) per known GPU."""
    rows = []
    for spec in KNOWN_GPUS.values():
        dtype, peak = half_peak(spec)
        rows.append((spec.name, spec.peak_flops["fp32"], dtype, peak, spec.memory_bandwidth,
                     peak / spec.memory_bandwidth))
    return rows


def table_rows(mine: tuple[str, float, str, float, float] | None) -> list[tuple[str, ...]]:
    """Formatted rows of the datasheet table, with this machine's measured row (name, fp32, dtype, 16-bit
    peak, bandwidth) appended; FLOP/s in TFLOP/s, bandwidth in GB/s."""
    rows = datasheet_rows()
    if mine:
        name, fp32, dtype, half, bw = mine
        rows.append((name, fp32, dtype, half, bw, half / bw))
    return [(name, f"{fp32 / 1e12:.2f}", f"{half / 1e12:.2f} ({dtype})", f"{bw / 1e9:.0f}", f"{ridge:.0f}",
             f"{half / 1e12 / (fp32 / 1e12):.0f}x")
            for name, fp32, dtype, half, bw, ridge in rows]


COLUMNS = ["device", "fp32 TFLOP/s", "16-bit TFLOP/s", "memory GB/s", "ridge (FLOPs/byte, 16-bit)",
           "16-bit / fp32"]
