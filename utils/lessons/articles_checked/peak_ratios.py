"""Rows B13 and B15: a matmul peak of a lower precision over fp32's, measured in this run, with the range its
spreads allow (lesson 01's ceilings, timed again here). Introduced in lesson 09; ``checks`` reads it, and
``wording`` prints it."""

from __future__ import annotations

from utils import claims as words

# A ceiling whose rounds spread wider than this (slowest over fastest - 1) is not one rate: a ratio of it
# reads as inconclusive, however far its range lies from the comparison (a quiet machine gives one figure).
WIDE_SPREAD = 0.5


def peak_ratio(m, dtype: str) -> tuple[float, float, float]:
    """``dtype``'s matmul peak over fp32's, and how low and high it may read given both peaks' spreads (a rate
    at its slowest round is about best / (1 + spread)): the ratio from the two peaks as the profile prints them
    (G-units, one decimal), printed to one decimal, and both ends from that ratio and the spreads as printed
    (whole per cent), so a reader redoes "4.7x / (1 + 59%) = 3.0x" from the page."""
    other, fp32 = m["peaks"].peak(dtype), m["peaks"].peak("fp32")
    ratio = words.as_printed(words.printed_ratio(other.best, fp32.best, 1, scale=1e9), 1)
    other_spread, fp32_spread = (words.as_printed(c.spread, 2) for c in (other, fp32))
    return ratio, ratio / (1 + other_spread), ratio * (1 + fp32_spread)


def too_wide(m, dtype: str) -> bool:
    """Whether ``dtype``'s peak or fp32's spread so widely over their rounds that their ratio is no evidence."""
    return max(m["peaks"].peak(dtype).spread, m["peaks"].peak("fp32").spread) > WIDE_SPREAD
