"""Row B7 on its own reading: fragmentation in host memory (内存), measured in the host's allocator.

Introduced in lesson 09. Each run is a fresh Python process (a heap no earlier cell has touched), with the
C allocator (malloc) every CPU program uses:

1. ``BLOCKS`` blocks of ``SMALL`` bytes in a row, each written (so that the pages are resident);
2. every other block freed: holes of ``SMALL`` bytes, each between two live blocks, so no two join;
3. ``REQUESTS`` requests of ``LARGE`` bytes, larger than any hole: timed, and the resident memory read after;
4. those freed and asked for again (``REUSES`` times): the same requests served from memory the process
   already holds.

Fragmentation costs memory where step 3 makes the process hold more although the holes hold more than it asks
for; it costs time through that memory: step 3 takes fresh pages from the operating system, step 4 does not.
Run: ``python -m utils.lessons.articles_checked.host_memory`` prints one run as JSON.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time

from utils import claims

SMALL, LARGE = 64 * 2**10, 96 * 2**10  # bytes: a hole, and a request no hole fits (both below 128 KiB, the
# size above which glibc's malloc maps memory apart instead of carving it from the heap)
BLOCKS, REQUESTS = 256, 64  # 16 MiB of blocks, 8 MiB of holes; 6 MiB asked for, less than the holes hold
RUNS, REUSES = 5, 5  # fresh processes (the figures are their medians); step 4 repeated in each


def resident() -> int:
    import psutil

    return psutil.Process().memory_info().rss


def one_run() -> dict:
    """Steps 1 to 4 in this process: bytes resident after each step, and the seconds of steps 3 and 4."""
    blocks = [bytearray(SMALL) for _ in range(BLOCKS)]  # bytearray(n) writes n zero bytes: pages resident
    full = resident()
    for i in range(0, BLOCKS, 2):
        blocks[i] = None  # a hole between two live blocks
    freed = resident()
    start = time.perf_counter()
    large = [bytearray(LARGE) for _ in range(REQUESTS)]
    new_s = time.perf_counter() - start
    after = resident()
    keep = bytearray(LARGE)  # noqa: F841 - live above the large ones (no hole fits it): freeing them keeps them
    reused = []
    for _ in range(REUSES):
        large = None
        start = time.perf_counter()
        large = [bytearray(LARGE) for _ in range(REQUESTS)]
        reused.append(time.perf_counter() - start)
    reused_s = statistics.median(reused)
    return {"full": full, "freed": freed, "after": after, "new_s": new_s, "reused_s": reused_s,
            "live": len([b for b in blocks if b is not None]) + len(large)}


def measure(runs: int = RUNS) -> dict:
    """``one_run`` in ``runs`` fresh processes: each figure's median, and what the pattern asked for."""
    out = [json.loads(subprocess.run([sys.executable, "-m", __name__], capture_output=True, text=True,
                                     check=True, timeout=60).stdout) for _ in range(runs)]
    med = {key: statistics.median(r[key] for r in out) for key in ("full", "freed", "after", "new_s", "reused_s")}
    return med | {"holes": BLOCKS // 2 * SMALL, "asked": REQUESTS * LARGE, "runs": runs,
                  "grew": med["after"] - med["freed"]}


def memory_shown(h: dict) -> bool:
    """The process grew by at least half of what it asked, with more than that free in holes: fragmentation
    cost memory (a count of bytes, whatever else runs on the cores)."""
    return h["grew"] >= h["asked"] / 2 and h["holes"] > h["asked"]


def ms_as_printed(seconds: float) -> tuple[float, str]:
    """A time in ms at three significant figures (0.146, 3.63, 12.4), as a number (``claims.as_printed``) and
    as printed: a ratio of two printed times can then be worked out again from what the row prints."""
    return claims.as_printed_sig(seconds, 3, scale=1e-3), claims.sig_text(seconds, 3, scale=1e-3)


def time_shown(h: dict) -> bool:
    """Fresh pages took longer than reused ones, as printed: the growth cost time (a timing: read on quiet
    cores)."""
    return ms_as_printed(h["new_s"])[0] > ms_as_printed(h["reused_s"])[0]


def words(h: dict) -> str:
    """Row B7's host figures and what they show, for either outcome."""
    mib = 2**20
    memory = (f"{BLOCKS} blocks of {SMALL // 2**10} KiB, every other one freed ({h['holes'] / mib:.0f} MiB free "
              f"in holes), then {REQUESTS} requests of {LARGE // 2**10} KiB ({h['asked'] / mib:.0f} MiB): the "
              f"process's resident memory grew {h['grew'] / mib:.1f} MiB")
    memory += (": no hole fits a larger request, so the holes stayed free and the heap grew" if
               memory_shown(h) else ": under half of what it asked: the allocator found room "
               "without growing, so fragmentation cost no memory here")
    (new, new_text), (reused, reused_text) = ms_as_printed(h["new_s"]), ms_as_printed(h["reused_s"])
    ratio = f"{new / reused:.1f}x" if reused else "no time to divide by"  # from the figures as printed
    timing = (f"those requests took {new_text} ms with fresh pages, {reused_text} ms again from memory the "
              f"process held ({ratio})")
    timing += (": the growth cost time" if time_shown(h) else
               ": fresh pages were no slower here, so the growth cost no time")
    return f"{memory}; {timing} (medians of {h['runs']} fresh processes)"


if __name__ == "__main__":
    print(json.dumps(one_run()))
