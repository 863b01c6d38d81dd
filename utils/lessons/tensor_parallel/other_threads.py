"""The worker's other threads (gloo's) as a candidate for a part of the miss: read from both ranks' figures as
the miss table prints them (ms, two decimals), so that the sentence never names one rank's CPU time as a cause
that the other rank's, printed beside it, contradicts, and never says a process wanted more than its one core
where its printed CPU times, added, stay under its step. Lesson 07."""

from __future__ import annotations

from utils.claims import as_printed, half_up

# What a whole core over the step does not tell: the CPU times cover the whole step, so a process under one
# core on average may still have had both threads ready at once for a moment, inside the all-reduces
MOMENTS = "moments of it inside the all-reduces are not ruled out"


def _ms(rank: dict, key: str) -> float:
    """One of a rank's seconds in ms as the miss table prints it (2 decimals; a negative CPU time as 0)."""
    return as_printed(max(rank.get(key) or 0.0, 0.0), 2, 1e-3)


def threads_ms(ranks: list[dict]) -> list[float]:
    """Each rank's other threads' CPU time, in ms as printed."""
    return [_ms(r, "other_threads_cpu") for r in ranks]


def cpu_over_step(rank: dict) -> float:
    """The step's thread and the other threads' CPU time added, in ms, from the two as printed (21.41 + 0.86 is
    22.27): the process's whole CPU time over the step, to set beside the step's own ms."""
    return half_up(_ms(rank, "thread_cpu") + _ms(rank, "other_threads_cpu"), 2)


def whole_core(ranks: list[dict]) -> list[int]:
    """The ranks whose process used a whole core or more over its step: its CPU time, as printed, reaches the
    step's ms as printed. Only there do the printed figures show its threads competing for its one core."""
    return [i for i, r in enumerate(ranks) if cpu_over_step(r) >= _ms(r, "step")]


def core_reading(ranks: list[dict]) -> str:
    """Each rank's CPU time over its step and what it supports about oversubscription, every outcome: a whole
    core reached on some rank (the threads competed for it there), or under one core on every rank (not
    shown over the step; moments of it are not ruled out)."""
    used = " and ".join(f"{cpu_over_step(r):.2f} ms{' of CPU' * (i == 0)} in rank {i}'s {_ms(r, 'step'):.2f} ms "
                        "step" for i, r in enumerate(ranks))
    head = f"the step's thread and gloo's together used {used}"
    full = whole_core(ranks)
    if not full:
        each = " each" if len(ranks) > 1 else ""
        return f"{head}, under one core{each}: oversubscription over the step is not shown ({MOMENTS})"
    named = " and ".join(f"rank {i}" for i in full)
    return (f"{head}: a whole core or more on {named}, so there gloo's threads and the step's thread competed "
            "for the process's one core (oversubscription)")


def threads_candidate(ranks: list[dict], why: str) -> str:
    """Gloo's threads beside a part of the miss that the run does not explain (``why``: what is not known):
    both ranks' figures, and a candidate only as far as ``core_reading`` supports. '' where none used any."""
    ms = threads_ms(ranks)
    if max(ms, default=0.0) <= 0:
        return ""
    used = " and ".join(f"{t:.2f} ms{' of CPU' * (i == 0)} on rank {i}" for i, t in enumerate(ms))
    reading = core_reading(ranks)
    if whole_core(ranks):
        return (f"; one candidate for {why} this run does not rule out: the worker's other threads (gloo's) "
                f"used {used} beside the step's thread; {reading}")
    return (f"; gloo's threads are not shown to be {why}: the worker's other threads (gloo's) used {used} "
            f"beside the step's thread; {reading}")


def gap_candidate(ranks: list[dict], later: int, why: str) -> str:
    """Gloo's threads as the candidate for ``why`` (rank ``later`` computing longer, or being waited for),
    against the other rank's: a candidate only where the later rank's threads used more CPU, as printed;
    otherwise the two figures and that they do not explain the gap by themselves. Either way each rank's CPU
    time over its step (``core_reading``) says whether oversubscription over the step is shown. '' where
    neither used any."""
    ms = threads_ms(ranks)
    first = 1 - later   # the rank that did not finish late
    if ms[later] <= 0 and ms[first] <= 0:
        return ""
    used = (f"the worker's other threads (gloo's) used {ms[first]:.2f} ms of CPU on rank {first} and "
            f"{ms[later]:.2f} ms on rank {later}, the rank waited for")
    if ms[later] > ms[first]:
        return (f"; one candidate for {why} this run does not rule out: {used}, beside the step's thread; "
                f"{core_reading(ranks)}")
    return f"; {used}: they do not explain {why} by themselves; {core_reading(ranks)}"
