"""The hardware claims as numbers (lesson 01, section 7): datasheet peaks, bandwidths and ridge points of the
GPUs the course names (``utils.gpu_specs``), beside this machine's measured ceilings."""

from __future__ import annotations

from utils import claims
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
    rows = [_table_row(name, fp32, dtype, half, bw) for name, fp32, dtype, half, bw, _ in datasheet_rows()]
    if mine:
        rows.append(_table_row(*mine, measured=True))
    return rows


def _tflops_digits(flops: float, measured: bool = False) -> int:
    """Decimals of a TFLOP/s figure: 2 (19.50), 4 under 1 TFLOP/s (a CPU's 0.1968), where 2 would carry ±3%;
    4 for a measured peak, its GFLOP/s to one decimal as the profile prints it (1.2786)."""
    return 4 if flops < 1e12 or measured else 2


def _table_row(name: str, fp32: float, dtype: str, half: float, bw: float,
               measured: bool = False) -> tuple[str, ...]:
    """One row, its ridge and its 16-bit / fp32 ratio worked from the figures as the row prints them. A
    ``measured`` row (this machine's) prints its rates as the profile does (GFLOP/s and GB/s to one decimal),
    so that its ridge is the one section 7's sentence works from them (t24_0001 #4: 1.28 over 43 gave 30, the
    sentence's 1278.6 over 43.5 gives 29)."""
    shown = [(claims.as_printed(x, _tflops_digits(x, measured), 1e12), _tflops_digits(x, measured))
             for x in (fp32, half)]
    (f32, d32), (f16, d16) = shown
    bw_digits = 1 if measured else 0  # a datasheet's GB/s is whole; a measured one keeps the profile's decimal
    gbs = claims.as_printed(bw, bw_digits, 1e9) or 1.0
    ratio, ridge = f16 / (f32 or 10.0 ** -d32), f16 * 1e3 / gbs
    return (name, f"{f32:.{d32}f}", f"{f16:.{d16}f} ({dtype})", f"{gbs:.{bw_digits}f}", f"{ridge:.0f}",
            f"{ratio:.0f}x" if ratio >= 10 else f"{ratio:.1f}x")  # as section 7's sentence


COLUMNS = ["device", "fp32 TFLOP/s", "16-bit TFLOP/s", "memory GB/s", "ridge (FLOPs/byte, 16-bit)",
           "16-bit / fp32"]


def ridge_range(rows: list[tuple] | None = None, factor: float = 3.0) -> tuple[float, float, list[tuple]]:
    """(lowest, highest) 16-bit ridge point of the datasheet GPUs within ``factor`` of their median, and the
    others as (name, ridge, 16-bit / fp32): what section 7 states, computed from the table it prints."""
    rows = datasheet_rows() if rows is None else rows
    ridges = sorted(r[5] for r in rows)
    median = ridges[len(ridges) // 2]
    usual = [r for r in rows if median / factor <= r[5] <= median * factor]
    others = [(r[0], r[5], r[3] / r[1]) for r in rows if r not in usual]
    return min(r[5] for r in usual), max(r[5] for r in usual), others


def more_bandwidth_pairs(rows: list[tuple] | None = None) -> list[tuple[str, str, float]]:
    """(faster, slower, bandwidth ratio) for GPUs with the same 16-bit peak and different memory bandwidth."""
    rows = datasheet_rows() if rows is None else rows
    return [(a[0], b[0], a[4] / b[4]) for a in rows for b in rows
            if a[3] == b[3] and a[2] == b[2] and a[4] > b[4]]
