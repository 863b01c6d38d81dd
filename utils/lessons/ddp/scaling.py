"""Scaling, measured: samples/s of the recipe with 1 and 2 workers against the bound (lesson 03, section 3).

Weak scaling: the same batch per worker, the same threads per worker (``Settings.threads``), so that one
worker alone does not get the cores two workers would share, and the same backend for both runs (the
2-worker plan's: gloo where two ranks share a GPU), so that the ratio compares workers, not backends. The
bound comes from ``plan.lesson_settings``: 2x with a device per worker, about 1x where they share one.
"""

from __future__ import annotations

from utils.launch import launch
from utils.lessons.ddp.recipe import train
from utils.lessons.ddp.settings import Settings


def samples_per_second(s: Settings, nprocs: int, backend: str | None = None, timeout: float = 300) -> float:
    """All workers' samples/s in one launch of ``train`` (one timed window after ``warmup_steps``)."""
    results = launch(train, s, nprocs=nprocs, backend=backend, timeout=timeout)
    return results[0]["samples_per_s"]


def scaling(s: Settings, backend: str, bound: float, repeats: int = 1, timeout: float = 300) -> dict:
    """Samples/s with 1 and 2 workers on ``backend``, their ratio, and ``bound`` (what the plan allows).

    ``repeats`` alternates 1- and 2-worker runs and keeps the best of each, which is the least disturbed by
    other programs on a shared machine.
    """
    one, two = [], []
    for _ in range(repeats):
        one.append(samples_per_second(s, 1, backend, timeout))
        two.append(samples_per_second(s, 2, backend, timeout))
    return {"one": max(one), "two": max(two), "ratio": max(two) / max(one), "bound": bound, "backend": backend}
