"""Lesson 08, the two-devices step: its one visible sentence, in ms a step against the bound's.

``ladder.two_devices_gap`` weighs the gap against the all-reduce (the guide's one-way estimate, lesson 07's fit
of a whole all-reduce) in a paragraph, shown collapsed under this sentence; this sentence gives the gap
itself, worked from the same printed figures (``ladder.paired_step_ms``), so the two never disagree.
"""

from __future__ import annotations

from utils import claims
from utils.lessons.putting_it_together import ladder


def gap_ms(c) -> tuple[float, float, float]:
    """(the step, the step at the bound, their difference) in ms as printed (1 decimal), each worked from the
    printed figures as ``ladder.two_devices_gap`` works them: the step is the steps before over the paired
    gain, the bound's 1/n of the steps before."""
    before, after = ladder.paired_step_ms(c)
    ideal = claims.half_up(before / c.rung.workers, 1)
    return after, ideal, claims.half_up(after - ideal, 1)


def gap_answer(c) -> str:
    """One sentence: the two-devices step in ms against the bound's step, and what is left above it. Two
    outcomes: a gap the block below weighs against the all-reduce, or none (the step at or under the bound's,
    as printed)."""
    after, ideal, gap = gap_ms(c)
    said = f"Worked from the paired gain, the step took {after:.1f} ms against {ideal:.1f} ms at the bound"
    if gap <= 0:
        return said + ": no time a step above the bound's, as printed."
    return (said + f": {gap:.1f} ms a step the bound does not see (the block below sets the all-reduce "
            "against it).")
