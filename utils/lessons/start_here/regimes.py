"""Where a CPU copy's bytes come from, and what each regime's copies are set beside (lesson 00).

Introduced in lesson 00 (``notebooks/00_start_here.ipynb``). A copy of n bytes touches 2n bytes (the source
and the destination): while those fit in half of a cache, the cache serves them; beyond the last cache, main memory
(DRAM) does. Each regime gets its own measured reference, read from this machine:

    L2, L3   the rate at which this process reads a buffer that fits in that cache (a float32 sum). A cache
             reads and writes in the same cycle, so an in-cache copy can come close to it or beat it: a
             *reference*, not a bound, drawn dotted.
    DRAM     half the rate at which this process streams a buffer far larger than the last cache: a copy
             out of DRAM moves every byte over the memory bus twice (read the source, write the
             destination), and the same threads cannot stream more than they read. A *bound*, drawn
             dashed; a copy above it is flagged, not explained away.

Cache sizes come from ``utils.devices.cpu_caches`` (Linux sysfs); where they are not readable, every size
is set beside the DRAM bound alone, and the table says so.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from utils import bench, devices

KIB, MIB = 2**10, 2**20


@dataclass(frozen=True)
class Regime:
    """One place a copy's bytes come from: ``limit`` is the cache's size in bytes (None: DRAM, no limit);
    ``reference`` in bytes/s; ``is_bound``: a law, or a reference."""

    name: str
    limit: int | None
    reference: float
    is_bound: bool

    @property
    def note(self) -> str:
        if self.is_bound:
            return "DRAM bound: measured read rate / 2 (every byte crosses the bus twice)"
        return f"{self.name} reference: measured read rate of a buffer in {self.name} (not a bound)"


def read_rate(size: int, repeats: int) -> float:
    """Bytes per second this process reads when streaming through ``size`` bytes (a float32 sum), the
    fastest of ``repeats`` runs: the closest to what the memory level can do while other programs run."""
    x = torch.ones(max(size // 4, 1), dtype=torch.float32)
    # Small buffers take microseconds: time many sums per run, so that the clock's own cost does not count.
    inner = max(1, (4 * MIB) // size)

    def run():
        for _ in range(inner):
            x.sum()
    m = bench.measure(run, warmup=2, repeats=repeats)
    return inner * size / m.min


def regime_of(size: int, regimes: list[Regime]) -> Regime:
    """The regime of a copy of ``size`` bytes: the first cache whose half holds its 2·size working set
    (source and destination). Half, not all: a cache is shared with the program's other data, and a level
    shared between cores (L3) with other programs, so a working set the size of the whole cache spills."""
    for r in regimes:
        if r.limit is None or 2 * size <= r.limit // 2:
            return r
    return regimes[-1]


def measure_regimes(largest: int, caches: dict[str, int] | None = None, repeats: int = 9) -> list[Regime]:
    """The regimes of this machine, smallest first, each with its reference measured now.

    A cache's reference reads half of L2 or a quarter of L3 (shared between cores), so that it stays resident
    beside whatever else runs, and is long enough that the call's own fixed cost hardly counts; the
    DRAM bound reads ``max(largest, 4 × the last cache)`` bytes and is measured twice, before and after the
    caches, the faster kept: another program taking a core for a moment must not lower a bound.
    """
    caches = devices.cpu_caches() if caches is None else caches
    dram_size = max([largest] + [4 * caches[k] for k in ("L2", "L3") if k in caches])
    before = read_rate(dram_size, repeats)
    regimes = [Regime(name, caches[name], read_rate(caches[name] // (2 if name == "L2" else 4), repeats), False)
               for name in ("L2", "L3") if name in caches]
    dram = max(before, read_rate(dram_size, repeats)) / 2
    return regimes + [Regime("DRAM", None, dram, True)]
