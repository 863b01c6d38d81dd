"""Scaling, measured: samples/s of the recipe with 1 and 2 workers against the ideal 2x (lesson 03, section 3).

Weak scaling: the same batch per worker, and the same threads per worker (``Settings.threads``), so that one
worker alone does not get the cores two workers would share.
"""

from __future__ import annotations

from utils.launch import launch
from utils.lessons.ddp.recipe import train
from utils.lessons.ddp.settings import Settings


def samples_per_second(s: Settings, nprocs: int, timeout: float = 300) -> float:
    """All workers' samples/s in one launch of ``train`` (one timed window after ``warmup_steps``)."""
    results = launch(train, s, nprocs=nprocs, timeout=timeout)
    return results[0]["samples_per_s"]


def scaling(s: Settings, repeats: int = 1, timeout: float = 300) -> dict:
    """Samples/s with 1 and 2 workers and their ratio; ``bound`` is 2 (twice the work per second at best).

    ``repeats`` alternates 1- and 2-worker runs and keeps the best of each, which is the least disturbed by
    other programs on a shared machine.
    """
    one, two = [], []
    for _ in range(repeats):
        one.append(samples_per_second(s, 1, timeout))
        two.append(samples_per_second(s, 2, timeout))
    return {"one": max(one), "two": max(two), "ratio": max(two) / max(one), "bound": 2.0}
