"""Scaling, measured: samples/s of the recipe with 1 and 2 workers against the bound (lesson 03, section 3).

Weak scaling: the same batch per worker, the same threads per worker (``Settings.threads``), so that one
worker alone does not get the cores two workers would share, and the same backend for both runs (the
2-worker plan's: gloo where two ranks share a GPU), so that the ratio compares workers, not backends. The
bound comes from ``plan.lesson_settings``: 2x with a device per worker, about 1x where they share one.

One timed window says little on a shared machine: a round times 1 and 2 workers back to back (the order
alternating from round to round), the speedup is each round's own ratio, and the lesson and the ``ddp``
benchmark both report the median ratio over ``ROUNDS`` rounds with its range, a round above the bound set
apart as disturbed (no two workers can beat it) instead of averaged in.
"""

from __future__ import annotations

import statistics

from utils.launch import launch
from utils.lessons.ddp.recipe import train
from utils.lessons.ddp.settings import Settings

WARMUP_STEPS, TIMED_STEPS, ROUNDS = 3, 12, 3  # the lesson's and the benchmark's: the same method, same figure
IMPOSSIBLE_MARGIN = 1.05  # a round's ratio above bound x this cannot be true: something disturbed the 1-worker run


def samples_per_second(s: Settings, nprocs: int, backend: str | None = None, timeout: float = 300) -> float:
    """All workers' samples/s in one launch of ``train`` (one timed window after ``warmup_steps``)."""
    results = launch(train, s, nprocs=nprocs, backend=backend, timeout=timeout)
    return results[0]["samples_per_s"]


def scaling(s: Settings, backend: str, bound: float, rounds: int = ROUNDS, timeout: float = 300) -> dict:
    """Samples/s with 1 and 2 workers on ``backend`` in ``rounds`` paired rounds, against ``bound``.

    Returns ``one``, ``two`` (median samples/s), ``ones``, ``twos`` (each round's), ``ratios`` (each round's 2-worker over 1-worker), ``ratio``
    (their median, rounds above the bound left out), ``low``/``high`` (the range of the kept rounds),
    ``disturbed`` (the rounds left out), ``bound`` and ``backend``.
    """
    one, two = [], []
    for k in range(rounds):
        order = (1, 2) if k % 2 == 0 else (2, 1)  # neither always runs first
        measured = {n: samples_per_second(s, n, backend, timeout) for n in order}
        one.append(measured[1])
        two.append(measured[2])
    ratios = [b / a for a, b in zip(one, two)]
    kept = [r for r in ratios if r <= bound * IMPOSSIBLE_MARGIN] or ratios  # all disturbed: show them anyway
    return {"one": statistics.median(one), "two": statistics.median(two), "ones": one, "twos": two, "ratios": ratios,
            "ratio": statistics.median(kept), "low": min(kept), "high": max(kept),
            "disturbed": [r for r in ratios if r not in kept], "bound": bound, "backend": backend}


def verdict(r: dict) -> str:
    """One line: the median speedup with its range, against the bound, and any round set apart."""
    line = (f"median {r['ratio']:.2f}x over {len(r['ratios'])} paired rounds (range {r['low']:.2f}-"
            f"{r['high']:.2f}x), {r['ratio'] / r['bound']:.0%} of the {r['bound']:g}x bound")
    if r["disturbed"]:
        shown = ", ".join(f"{x:.2f}x" for x in r["disturbed"])
        line += f"; left out as impossible (above the bound, a disturbed round): {shown}"
    return line
