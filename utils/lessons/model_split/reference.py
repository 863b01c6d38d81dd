"""Lesson 02's naive split against its per-process reference (section 3: each stage timed alone in its own
process, one device's step over their sum), and the naive row's one verdict. ``report`` re-exports these
names; its ``median_verdict`` hands every row with a per-process reference to ``naive_verdict``, so that
section 3's sentence, the sections' notes that set the same step side by side (``same_step_note``) and the
claims table print one verdict, read against the one reference section 3 prints."""

from __future__ import annotations

from utils.claims import as_printed, rounds_past_spread
from utils.lessons.model_split.bounds import round_as_printed, rounds_spread
from utils.lessons.model_split.noise import (explained_then, noise_of_one, printed, reference_in_noise_of_one,
                                            reference_reading, reference_side, rounds_past_reference)
from utils.lessons.model_split.runs import Row

EXPLAINED = "above the bound, within the {}: explained by the reference"  # the headline's words for it


def within_process_reference(r: Row) -> bool:
    """Whether a naive split stays within its per-process reference (each stage timed alone in its own
    process): paired round by round (``noise.reference_side``: each round's speedup over its own round's
    reference, their median ± their spread), within noise of it or under it; never the two medians, which may
    come from different rounds."""
    return r.process_bound is not None and reference_side(r, r.process_bounds) != "above"


def process_reference_spread(r: Row) -> float:
    """The per-process reference's own paired spread (its rounds, ``claims.paired_spread``), as printed."""
    return rounds_spread(r.process_bounds or [])


def process_reference_noise(r: Row) -> bool:
    """Whether the per-process reference itself is within noise of 1x by the one rule (its median ± its
    rounds' spread covers 1x, and its rounds do not all lie on one side): then it offers no gain that could
    explain a naive split above 1x."""
    return r.process_bound is not None and reference_in_noise_of_one(r.process_bounds)


def process_reference_explains(r: Row) -> bool:
    """The one test every place reads (section 3's sentence, the tables, sections 5 and 8, the summary): a
    naive split above 1x is explained by its per-process reference where it stays within it, round by round
    (``within_process_reference``), and the reference itself stands clear of 1x (``process_reference_noise``)."""
    return within_process_reference(r) and not process_reference_noise(r)


def naive_verdict(r: Row) -> str | None:
    """The verdict of a row with a per-process reference (section 3's naive split) above 1x, against that
    reference alone: section 3 prints it, and no work-scaled reference. Explained by the reference where
    within it, else a finding to explain, the reference named. None where the median is within noise of 1x or
    not above it: no excess to read (``median_verdict``'s words against the 1x bound stand)."""
    value, _ = printed(r)
    if r.process_bound is None or noise_of_one(r) or value <= 1:
        return None
    pb, paired = r.process_bound, reference_reading(r, r.process_bounds)  # the one reading, round by round
    if process_reference_explains(r):  # of the median and the rounds within the ratios' spread only
        return f"above the bound, {reference_reading(r, r.process_bounds, explained_then(r, r.process_bounds))}"
    if within_process_reference(r):  # under a reference that is itself within noise of 1x: no explanation
        # the pairing round by round is left to section 3's next sentence (``naive_reading``): no nested brackets
        return (f"above the bound: a finding to explain; the per-process reference ({pb:.2f}x ± "
                f"{process_reference_spread(r):.2f}) is itself within noise of 1x: it explains nothing")
    return f"above the bound and {paired}"


def past_indices(r: Row) -> list[int]:
    """The rounds above the bound that the rounds' spread does not explain, as round numbers (from 1, as the
    rounds table numbers them): above the bound AND above the median + the spread, as printed
    (``claims.rounds_past_spread``, the rule sections 5 and 8 read rows by)."""
    value, spread = printed(r)
    return [i for i, s in enumerate(r.speedups, 1)
            if rounds_past_spread([s], value, spread, r.bound, shown=round_as_printed)]


def own_reference_explains(r: Row) -> list[int]:
    """The rounds past the median + the spread (``past_indices``) that lie within their own round's
    per-process reference (not past it beyond the ratios' spread, ``rounds_past_reference``): section 3's block
    pairs each round with its own round's reference, never with the reference's median, so such a round is no
    finding. None where no stage was timed alone, or where the reference is itself within noise of 1x
    (``process_reference_noise``, the rule of cell "How a verdict reads"), whatever the split's median: such a
    reference offers no gain over 1x, so it explains no round above 1x."""
    per_round = r.process_bounds
    if not per_round or process_reference_noise(r):
        return []
    own = set(rounds_past_reference(r, per_round))
    return [i for i in past_indices(r) if i not in own]


def findings_past(r: Row) -> list[float]:
    """The rounds past the spread (``past_indices``) less those not past their own round's per-process
    reference (``own_reference_explains``): the rounds that stay findings to explain. Section 3's sentence
    (``rounds_past_words``), the claims row (``launches_claim``) and lesson 09 read this one list."""
    explained = own_reference_explains(r)
    return [r.speedups[i - 1] for i in past_indices(r) if i not in explained]
