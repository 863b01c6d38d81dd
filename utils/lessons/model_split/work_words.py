"""Lesson 02, section 8: what the stages' measured work rise accounts for, in words, and how far a rise summed
from whole-ms figures can be trusted (each figure is rounded by up to half a ms)."""
from __future__ import annotations


def sum_rounding(figures: int) -> float:
    """The most a sum or difference of ``figures`` whole-ms figures can be off from the unrounded one: each is
    rounded by up to 0.5 ms, so four figures leave ± 2 ms."""
    return 0.5 * figures


def reference_reach(bound: float, stages_ms: list, one_ms: float) -> float | None:
    """The highest work-scaled reference (bound / work) the whole-ms work figures allow: each printed figure may
    be off by half a ms, so the stages' sum may be ``sum_rounding`` lower and one device's 0.5 ms higher; the
    same allowance section 8's work rise reads (67 + 90 against 134: 134.5 / 156 = 0.86x, beside 0.85x). None
    where the figures are so small that their rounding leaves no work at all (then no edge can be read)."""
    least = sum(stages_ms) - sum_rounding(len(stages_ms))
    return bound * (one_ms + 0.5) / least if least > 0 else None


def covers_words(reached: list, missed: list, unsure: list = (), rounding: float = 0.0) -> str:
    """What a work rise accounts for, from ``placement.work_reach``'s lists, after "accounts for" (at least as
    large, the median alone also within its spread: "covers" is kept for a figure ± its spread): every reading,
    or which; the readings within the rise's own rounding (± ``rounding`` ms) are named as undecided."""
    if not missed and not unsure:
        return f"every reading of the extra time, up to {reached[-1]}"
    said = listed(reached, "and") + (f", not {listed(missed, 'or')}" if missed else "")
    if unsure:  # the rise is known only to ± its rounding: it may or may not reach these
        said += (f"; within the ± {rounding:g} ms its whole-ms figures leave, it may or may not reach "
                 f"{listed(unsure, 'or')}")
    return said


def listed(items: list, word: str) -> str:
    """"a, b and c": a list in words."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {word} {items[-1]}"
