"""Lesson 08, the two-devices step: how much of one core rank 0's process kept busy in its timed steps.

Each worker times its own timed steps (``ddp.instrumentation.Meter``): their wall time, and its process's CPU
time over them, every thread's (its compute threads and the all-reduce's). CPU time over wall time is the
share of one core the process used: under 100%, part of the time it ran on no core (waiting for the other
rank, or for a core the two workers share); over 100%, its threads ran on more than one core at once.
"""

from __future__ import annotations

from utils import claims


def rank0_share(runs: list[dict]) -> tuple[float, float, float]:
    """Lesson 08: (CPU s, wall s, CPU / wall in per cent) of rank 0's timed steps, its runs of the step
    added together (``runs``: ``ladder.Compared.after``); the seconds as printed (2 decimals) and the per cent
    worked from them, half up, as a reader redoes it."""
    timed = [r for r in runs if r.get("timed_s")]
    cpu = claims.half_up(sum(r["cpu_s"] for r in timed), 2)
    wall = claims.half_up(sum(r["timed_s"] for r in timed), 2)
    return cpu, wall, claims.half_up(100 * cpu / wall, 0)


def rank0_words(runs: list[dict], threads: int | None) -> str:
    """Lesson 08: rank 0's share of one core in words, with the figures it is worked from: "rank 0's process
    used 2.70 s of CPU time in its timed steps' 3.00 s of wall time (its 3 runs added; every thread's: its 1
    compute thread and the all-reduce's): 90% of one core; under 100%: for part of that time it ran on no
    core, waiting for the other rank or for a core the two workers share (not timed apart)". ``threads``: the
    worker's torch threads (None: torch's own choice); "" where no run timed its steps."""
    n = sum(1 for r in runs if r.get("timed_s"))
    if not n:   # no run timed its steps: nothing to say
        return ""
    cpu, wall, share = rank0_share(runs)
    compute = f"its {threads} compute thread{'s' * (threads != 1)}" if threads else "its compute threads"
    added = f"its {n} runs added" if n > 1 else "its one run"
    said = (f"rank 0's process used {cpu:.2f} s of CPU time in its timed steps' {wall:.2f} s of wall time "
            f"({added}; every thread's: {compute} and the all-reduce's): {share:.0f}% of one core")
    if share < 100:   # threads can overlap, so the per cent it was off the CPU is not 100 less this one
        return said + ("; under 100%: for part of that time it ran on no core, waiting for the other rank or "
                       "for a core the two workers share (not timed apart)")
    if share == 100:
        return said
    return said + "; over 100%: for part of that time its threads ran on more than one core at once"
