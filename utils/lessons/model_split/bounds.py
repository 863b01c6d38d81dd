"""What a pipeline can gain at best: the bounds lesson 02 (``notebooks/02_model_split.ipynb``) measures against.

    pipeline_bound(m=4)                  # 2m/(m+1) = 1.6 for two equal stages
    bubble_fraction(m=4)                 # (p-1)/(m+p-1) = 0.2: each device idles a fifth of the time
    predicted_speedup([0.03, 0.01], 4)   # unequal stages: the slowest sets the pace
"""

from __future__ import annotations

from typing import Sequence


def pipeline_bound(m: int, p: int = 2) -> float:
    """Best speedup of a p-stage pipeline over one device with m micro-batches: p·m / (m + p − 1).

    With equal stages each device works m slots of the m + p − 1 that the schedule takes; the remaining
    p − 1 slots are the fill and drain *bubble*. For p = 2: 2m/(m+1), which tends to 2 as m grows.
    """
    return p * m / (m + p - 1)


def bubble_fraction(m: int, p: int = 2) -> float:
    """Fraction of a p-stage pipeline's time that each device sits idle: (p − 1) / (m + p − 1)."""
    return (p - 1) / (m + p - 1)


def predicted_speedup(stage_seconds: Sequence[float], m: int) -> float:
    """GPipe's speedup over one device when the stages' costs differ (the slowest sets the pace).

    With per-micro-batch stage costs t_k, a fill-drain pipeline takes sum(t) + (m − 1)·max(t) per pass,
    one device m·sum(t): speedup = m·sum / (sum + (m − 1)·max). Equal stages give p·m/(m + p − 1).
    """
    total, slowest = sum(stage_seconds), max(stage_seconds)
    return m * total / (total + (m - 1) * slowest)
