"""The two ceilings of the roofline, measured in the run: peak FLOP/s per dtype and memory bandwidth.

Introduced in lesson 01, sections 1 and 2. A CPU has no datasheet figure that software can read, so its peak is
what a large matmul reaches (oneDNN/MKL's best kernel: close to what the cores can do); a GPU's datasheet
peak comes from ``utils.gpu_specs`` and is shown beside the same measurement. Bandwidth is a copy far larger
than the caches: it reads and writes every byte, so it moves 2 x its size.

A busy machine only ever makes a kernel slower, never faster, so each ceiling is the *fastest* of its runs
(the closest to what the hardware can do) and its spread is reported with it.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from utils import bench
from utils.lessons.why_slow.step import DTYPES


@dataclass(frozen=True)
class Rate:
    """A measured ceiling: the best rate of the runs, and the median's, in units per second."""

    best: float
    median: float
    spread: float  # (max - min) / median of the times: how much to trust it

    @classmethod
    def of(cls, work: float, m: bench.Measurement) -> "Rate":
        return cls(work / m.min, work / m.median, m.spread)


def matmul_operands(n: int, dtype: str, device: str) -> tuple[torch.Tensor, torch.Tensor]:
    """Two n x n operands; int8 values in [-64, 64) so that their products' sums stay exact in int32."""
    if dtype == "int8":
        return (torch.randint(-64, 64, (n, n), dtype=torch.int8, device=device),
                torch.randint(-64, 64, (n, n), dtype=torch.int8, device=device))
    return (torch.randn(n, n, dtype=DTYPES[dtype], device=device),
            torch.randn(n, n, dtype=DTYPES[dtype], device=device))


def matmul_peak(n: int, dtype: str, device: str = "cpu", repeats: int = 5) -> Rate:
    """FLOP/s (ops/s for int8) of an n x n x n matmul: 2n³ operations (a multiply and an add per term).

    int8 runs through ``torch._int_mm`` (int8 x int8 -> int32), the kernel torchao's int8 layers use."""
    a, b = matmul_operands(n, dtype, device)
    fn = (lambda: torch._int_mm(a, b)) if dtype == "int8" else (lambda: a @ b)
    return Rate.of(2 * n**3, bench.measure(fn, warmup=2, repeats=repeats, device=device))


def memory_bandwidth(n_bytes: int, device: str = "cpu", repeats: int = 5) -> Rate:
    """Bytes/s of ``dst.copy_(src)`` with ``n_bytes`` each: 2 x n_bytes cross the memory bus per copy."""
    src = torch.ones(n_bytes // 4, dtype=torch.float32, device=device)
    dst = torch.empty_like(src)
    return Rate.of(2 * n_bytes, bench.measure(lambda: dst.copy_(src), warmup=1, repeats=repeats, device=device))


@dataclass(frozen=True)
class Ceilings:
    """The roofline's two ceilings for one dtype: peak FLOP/s and memory bandwidth (bytes/s)."""

    flops: float
    bandwidth: float
    dtype: str = "fp32"
    source: str = "measured"  # "measured" or "datasheet"

    @property
    def ridge(self) -> float:
        """FLOPs per byte where the two ceilings meet: below it memory-bound, above it compute-bound."""
        return self.flops / self.bandwidth

    def attainable(self, intensity: float) -> float:
        """The roofline: min(peak, intensity x bandwidth) FLOP/s for an op doing ``intensity`` FLOPs a byte."""
        return min(self.flops, intensity * self.bandwidth)

    def bound(self, intensity: float) -> str:
        return "compute" if intensity >= self.ridge else "memory"


def measure_ceilings(S, repeats: int = 5) -> tuple[dict[str, Rate], Rate]:
    """Section 1's peak of every dtype of the plan and section 2's bandwidth, all on ``S.device``."""
    peaks = {dtype: matmul_peak(S.peak_matmul, dtype, S.device, repeats) for dtype in S.peak_dtypes}
    return peaks, memory_bandwidth(S.stream_bytes, S.device, repeats)
