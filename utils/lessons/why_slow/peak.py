"""The roofline's two ceilings as one object: a peak FLOP/s and a memory bandwidth, and where they meet.

Introduced in lesson 01, section 2. Both figures are measured by ``utils.machine`` (the course's one machine
profile): the peak is an n x n x n matmul of one dtype (``machine.matmul_probe``), the bandwidth the faster
of STREAM's copy and add (``machine.stream_probes``), each named by what it is ("fp32 matmul peak, 1 thread,
1024³"). ``Ceilings`` keeps those names beside the numbers, so that a plot or a sentence quoting the roof says
which ceilings it is made of. Lab 01 builds its own ``Ceilings`` from plain numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from utils import claims


@dataclass(frozen=True)
class Ceilings:
    """The roofline's two ceilings for one dtype: peak FLOP/s and memory bandwidth (bytes/s)."""

    flops: float
    bandwidth: float
    dtype: str = "fp32"
    source: str = "measured"  # "measured" or "datasheet"
    peak_name: str = ""  # the machine profile's name of each ceiling, e.g. "fp32 matmul peak, 1 thread, 1024³"
    bandwidth_name: str = ""

    @classmethod
    def of(cls, peak, bandwidth) -> "Ceilings":
        """From two ``machine.Ceiling`` (a matmul peak and a memory bandwidth): best runs as printed (G-units, one
        decimal: ``Ceiling.formatted``), and their names. The roof is worked from the figures the page prints,
        so that intensity x 30.2 GB/s is the ceiling printed beside it."""
        return cls(claims.as_printed(peak.best, 1, 1e9) * 1e9, claims.as_printed(bandwidth.best, 1, 1e9) * 1e9,
                   peak.dtype, "measured", peak.name, bandwidth.name)

    @property
    def ridge(self) -> float:
        """FLOPs per byte where the two ceilings meet: below it memory-bound, above it compute-bound."""
        return self.flops / self.bandwidth

    def attainable(self, intensity: float) -> float:
        """The roofline: min(peak, intensity x bandwidth) FLOP/s for an op doing ``intensity`` FLOPs a byte."""
        return min(self.flops, intensity * self.bandwidth)

    def bound(self, intensity: float) -> str:
        return "compute" if intensity >= self.ridge else "memory"
