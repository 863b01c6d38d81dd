"""Where a CPU copy's bytes come from, and what each regime's copies are set beside (lesson 00).

Introduced in lesson 00 (``notebooks/00_start_here.ipynb``). One byte model for every regime: a copy of n
bytes reads n and writes n, so 2n bytes cross the memory its bytes live in, and its rate n/t can reach at
most half of what that memory moves. Each regime's reference is therefore a measured rate, halved:

    L2, L3   half the rate at which this process reads a buffer that fits in that cache (a float32 sum).
    DRAM     half the rate at which it reads a buffer no cache holds (``dram_read_size``: at least twice the
             last cache read from the machine and twice the largest copy; ``dram_read_rule`` says which
             set it), measured in the same run. Lesson
             00 uses this, not the machine profile's STREAM figure: the profile's arrays have a fixed size,
             which a large L3 holds. (``dram_rate`` still accepts a given rate, halved the same way.)

All three are measured, so all three are *references*, not bounds: no datasheet figure of this CPU's memory
is readable by software, and a copy may pass a reference (a cache reads and writes in the same cycle; a
write may stream past the cache). A copy out of DRAM above its reference is copied again cold (lesson 00),
to tell a cache's help from a reference that is simply low.

Cache sizes come from ``utils.devices.cpu_caches`` (Linux sysfs); where they are not readable, every size
is set beside the DRAM reference alone, and the table says so.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

import torch

from utils import bench, claims, devices
from utils.plots import size_label

KIB, MIB, GIB = 2**10, 2**20, 2**30


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
        if self.name == "DRAM":
            return ("DRAM reference: read rate beyond the last cache / 2 (a copy counts each byte twice: read, "
                    "then written; not a bound)")
        return (f"{self.name} reference: read rate in {self.name} / 2 (a copy counts each byte twice: read, then "
                "written; not a bound)")


def read_rate(size: int, repeats: int) -> float:
    """Bytes per second this process reads when streaming through ``size`` bytes (a float32 sum), the
    fastest of ``repeats`` runs: the closest to what the memory level can do while other programs run."""
    x = torch.ones(max(size // 4, 1), dtype=torch.float32)
    # Small buffers take microseconds: time many sums per run, so that the clock's own cost does not count.
    inner = max(1, (4 * MIB) // size)
    # Large buffers take long per run, and a slow moment is less likely to hit every one of a few long runs:
    # at most about 1 GiB read in all, for every size.
    repeats = max(2, min(repeats, GIB // size))

    def run():
        for _ in range(inner):
            x.sum()
    m = bench.measure(run, warmup=1, repeats=repeats)
    return inner * size / m.min


def regime_of(size: int, regimes: list[Regime]) -> Regime:
    """The regime of a copy of ``size`` bytes: the first cache whose half holds its 2·size working set
    (source and destination). Half, not all: a cache is shared with the program's other data, and a level
    shared between cores (L3) with other programs, so a working set the size of the whole cache spills."""
    for r in regimes:
        if r.limit is None or 2 * size <= r.limit // 2:
            return r
    return regimes[-1]


# A DRAM read buffer larger than this is not allocated (the read and its allocation take ~1 s a GiB on one
# thread); where twice the last cache is larger, the buffer stays within it and lesson 00 says so.
DRAM_READ_CAP = 2 * GIB


def dram_read_size(largest: int, caches: dict[str, int] | None, cap: int = DRAM_READ_CAP) -> int:
    """Bytes DRAM's read rate is measured on: twice the last cache this machine reports (``caches``, from
    ``devices.cpu_caches``), so that no cache can hold the buffer, and at least the largest copy's working set
    (2 x ``largest``); at most ``cap``. Without readable cache sizes, twice the largest copy."""
    last = max([caches[k] for k in ("L2", "L3") if k in (caches or {})], default=0)
    return min(cap, max(2 * last, 2 * largest))


def dram_read_rule(read_bytes: int, largest: int, caches: dict[str, int] | None, cap: int = DRAM_READ_CAP,
                   cache_named: bool = False) -> str:
    """Which of ``dram_read_size``'s rules set ``read_bytes``, in words from this run's sizes, so that a reader
    who finds the buffer 4.0x the last cache sees why: "2 x the 64 MiB largest copy, more than 2 x the 32 MiB
    L3". ``cache_named``: the sentence around it already gives the cache's size, so the rule names the cache
    alone ("2 x the L3", t30_0001: "2.0x the 480 MiB L3 ... (2 x the 480 MiB L3, ...)" said it twice); where
    the cache set the size, the sentence's own multiple ("2.0x the 480 MiB L3") says so, and the rule adds only
    the copy it also covers (t32_0001: "2.0x the 480 MiB L3 ... (2 x the L3, ...)" still said it twice)."""
    name = next((k for k in ("L3", "L2") if k in (caches or {})), None)
    cache = (f"2 x the {name}" if cache_named else f"2 x the {size_label(caches[name])} {name}") if name else ""
    copy = f"2 x the {size_label(largest)} largest copy"
    if read_bytes == cap and read_bytes < 2 * max(largest, caches[name] if name else 0):
        return f"capped at {size_label(cap)}, under " + (f"{cache} or {copy}" if name else copy)
    if name is None or largest > caches[name]:
        return copy + (f", more than {cache}" if name else "")
    return f"also at least {copy}" if cache_named else f"{cache}, at least {copy}"


def measure_regimes(largest: int, caches: dict[str, int] | None = None, repeats: int = 9,
                    dram_rate: float | None = None) -> list[Regime]:
    """The regimes of this machine, smallest first, each with its reference (module doc: a rate, halved).

    DRAM's rate is read here on a buffer of ``dram_read_size(largest, caches)`` bytes, twice, before and
    after the caches' reads, the faster kept; ``dram_rate`` (bytes/s), where given, is used instead. A cache's
    rate reads a buffer that stays resident beside whatever else runs (``_resident_size``).
    """
    caches = devices.cpu_caches() if caches is None else caches
    dram_size = dram_read_size(largest, caches)
    before = read_rate(dram_size, repeats) if dram_rate is None else dram_rate
    regimes = [Regime(name, caches[name], read_rate(_resident_size(name, caches), repeats) / 2, False)
               for name in ("L2", "L3") if name in caches]
    dram = dram_rate if dram_rate is not None else max(before, read_rate(dram_size, repeats))
    return regimes + [Regime("DRAM", None, printed_half(dram), False)]  # measured: a reference (module doc)


def printed_half(read: float) -> float:
    """DRAM's reference in bytes/s: half the read rate *as printed* (GB/s to two decimals), since section 2's
    sentence prints that rate and halves it (claims' rule), plus one byte per second, so that a tie prints
    rounded half up in every table, as a reader rounds it (reader t10_0001: 17.81 / 2 = 8.905, printed 8.90
    from the unrounded 8.9049; now 8.91). Twice it still prints the read rate: 17.81."""
    return claims.as_printed(read, 2, 1e9) * 1e9 / 2 + 1.0


def _resident_size(name: str, caches: dict[str, int]) -> int:
    """Bytes a cache's read rate is measured on: half of L2; a quarter of L3 (shared between cores), and at
    most 4 x L2, since a virtual machine may report its host's whole L3 (hundreds of MiB), of which this
    machine's cores get a slice: a quarter of that figure would be read from DRAM."""
    if name == "L2":
        return caches["L2"] // 2
    return min(caches["L3"] // 4, 4 * caches["L2"]) if "L2" in caches else caches["L3"] // 4


def cold_copy_seconds(size: int, evict_bytes: int, repeats: int = 5) -> float:
    """Median seconds of one ``dst.copy_(src)`` of ``size`` bytes right after streaming ``evict_bytes``
    through the caches (a float32 sum): source and destination then come from DRAM, not from a cache left
    warm by the previous copy. Lesson 00 sets it beside the warm copy of a size that passes DRAM's reference."""
    src = torch.ones(size, dtype=torch.uint8)
    dst = torch.empty_like(src)
    flush = torch.ones(max(evict_bytes // 4, 1), dtype=torch.float32)
    times = []
    for _ in range(repeats + 1):  # the first round warms the code path, not the data: left out
        flush.sum()
        start = time.perf_counter()
        dst.copy_(src)
        times.append(time.perf_counter() - start)
    return statistics.median(times[1:])
