"""Lesson 02's figures as the page prints them (two decimals), and the course's one noise rule read on
them (``claims.within_noise``: the median ± the paired rounds' spread covers the figure it is set beside).

    printed(row)                    # the median speedup and the paired spread, as printed
    noise_of_one(row)               # within noise of 1x: no effect shown (section 9 reads it too)
    near_reference(row, reference)  # within noise of a reference measured in the run
    reference_reading(row, rounds)  # against a reference measured round by round: paired, the one verdict
    reference_claim(...)            # the summary's claims row against a reference (per-process, work-scaled)
    split_gain(slow, fast)          # section 7: the balanced split's gain over the unbalanced, round by round
    against_prediction(v, d, p)     # section 7: a measured figure against the profile's prediction
    ms_as_printed(s, *beside)       # milliseconds, whole or one decimal as the figures beside them need
    beside_line(share, line)        # a share against a line (25 %, 80 %), compared as printed: below, at, above

Used by ``report`` (section 3's naive split readings, the sections' tables and verdicts, section 7's balance
reading), which re-exports every public name here: ``notebooks/02_model_split.ipynb`` reads them as
``report.printed`` and so on.
"""

from __future__ import annotations

import statistics

from utils.claims import (Claim, as_printed, half_up, medians_divide_to, paired_spread, percent, printed_spread,
                          rounds_past_spread, within_noise)
from utils.claims import round_above as claims_round_above
from utils.lessons.model_split.bounds import printed_side, round_above, round_as_printed, round_digits, rounds_spread
from utils.lessons.model_split.runs import Row


NO_CAUSE = "no cause to read"  # no excess over 1x to explain (cell 15): said of the rounds the spread covers


def round_text(x: float) -> str:
    """"0.999": one round's ratio, with more digits where two would hide which side of 1x, or of the two
    devices' 2x, it lies ("1.998", not "2.00"): ``bounds.round_digits``, the rule every count of rounds uses."""
    return f"{round_as_printed(x):.{round_digits(x)}f}"


def rounds_text(lo: float, hi: float) -> str:
    """"0.995-1.07": the rounds' range, each end as ``round_text`` writes it (every table, one rounding)."""
    return f"{round_text(lo)}-{round_text(hi)}"


def printed(r: Row) -> tuple[float, float]:
    """A row's median speedup and its paired rounds' spread (``bounds.rounds_spread``: from the rounds as
    ``round_text`` prints them, rounded half up) as the page prints them, two decimals: what the noise rule reads, so that a
    reader checks every verdict from the page. Every row has 5 rounds (``ROUNDS``): ``paired_spread``'s half
    middle half."""
    return as_printed(r.speedup, 2), rounds_spread(r.speedups)


def percent_as_printed(share: float) -> int:
    """A share as the page prints it, in whole percent: the number ``claims.percent`` prints, rounded half up
    as a reader rounds (0.248 -> 25, "25%"; 33 / 40 = 0.825 -> 83, where ``round`` and ``:.0%`` give 82), so
    that a share judged against a line is the one printed with ``claims.percent`` beside it."""
    return int(half_up(share * 100, 0))  # claims.percent's rounding, as a number to compare


def beside_line(share: float, line: float) -> str:
    """The lesson's one rule for a share set beside a line (the link's 25 % and 50 % of a loss, CPU/busy's
    80 %, two baselines' 5 %): both compared as printed, in whole percent, so that a reader checks it from the
    page. "below", "above", or "at": a share printed as the line itself (24.8 % prints "25%") is neither
    under nor past it, and the sentence says it is at the line."""
    got, mark = percent_as_printed(share), percent_as_printed(line)
    return "below" if got < mark else "at" if got == mark else "above"


def above_as_printed(value: float, bound: float) -> bool:
    """Whether a median speedup (or a reference) is above its bound, both as printed with two decimals:
    ``claims.round_above``, the course's one rule, with the median printed as the page prints it ("1.78x").
    A single round is printed with more digits near 1x and 2x: count rounds with ``bounds.round_above``."""
    return claims_round_above(value, bound)


def noise_of_one(r: Row) -> bool:
    """The course's one noise rule (``claims.within_noise``) against 1x: the median ± the paired spread covers
    it, unless every round lies on one side of 1x (``claims.one_side``): that is not noise, whatever the rounding."""
    value, spread = printed(r)
    return within_noise(value, spread, 1.0) and printed_side(r.speedups, 1.0) is None


def at_bound_in_noise(r: Row) -> bool:
    """The one noise rule against the bound, read by every verdict of a row (the headline's, ``explain_row``'s,
    section 5's link reading): the median ± the paired spread covers the bound (as printed), and the rounds do
    not all lie below it. Rounds all under the bound are not noise around it (section 3's rule, as against
    1x): such a row is under its bound and lost time to it."""
    value, spread = printed(r)
    return within_noise(value, spread, as_printed(r.bound, 2)) and printed_side(r.speedups, r.bound) != "below"


def reference_in_noise_of_one(per_round) -> bool:
    """Whether a reference measured round by round (the per-process one) is itself within noise of 1x by the
    one rule: its median ± its rounds' spread covers 1x, and its rounds do not all lie on one side of 1x.
    Such a reference offers no gain over 1x, so it explains no excess over 1x."""
    if not per_round:
        return False
    median, spread = as_printed(statistics.median(per_round), 2), rounds_spread(per_round)
    return within_noise(median, spread, 1.0) and printed_side(per_round, 1.0) is None


def near_reference(r: Row, reference: float) -> bool:
    """The course's noise rule (``claims.within_noise``), set against a reference instead of 1x: the median ±
    the paired rounds' spread (``paired_spread``) covers the reference, on the figures as printed. Only outside
    it does a page read a cause into the difference."""
    value, spread = printed(r)
    return within_noise(value, spread, as_printed(reference, 2))


def noise_of_reference(r: Row, reference: float) -> str:
    """Why a difference from a reference is not read: claims' rule, the median ± the paired spread covers it."""
    value, spread = printed(r)
    return f"within noise of it ({value:.2f}x ± {spread:.2f} covers {reference:.2f}x), no cause to read"


def excess_past_weak_reference(r: Row, per_round) -> bool:
    """A median above 1x beyond noise, beside a per-round reference that is itself within noise of 1x
    (``reference_in_noise_of_one``): being near such a reference explains nothing, so the excess over 1x stays
    a finding, whatever the median's distance from the reference."""
    value, spread = printed(r)
    return value > 1 and not within_noise(value, spread, 1.0) and reference_in_noise_of_one(per_round)


def reference_gain(r: Row, reference: float) -> float:
    """The share of a reference's gain a speedup reached, (s - 1) / (reference - 1), on the figures as printed:
    the course's one measure of how close a speedup came to what it is set beside (``claims``)."""
    return (as_printed(r.speedup, 2) - 1) / (as_printed(reference, 2) - 1)


def reference_claim(claim: str, r: Row, reference: float, name: str, per_round=None) -> Claim:
    """A claims-table row setting a speedup beside a *reference* measured here (``name``: "per-process
    reference", "work-scaled reference"), which a speedup may pass, judged against that reference, not 1x, by
    claims' noise rule: the median ± the paired spread covering the reference is noise; above it, a finding;
    under it, the share of its gain (or, within noise of 1x, no gain shown at all). ``per_round``: the reference
    measured in each round (the per-process one): then each round is set beside its own round's reference and
    counted."""
    lo, hi = r.speedup_range
    if per_round:
        measured = f"{r.speedup:.2f}x (rounds {rounds_text(lo, hi)})"
        return Claim(claim, measured, f"{name} {reference:.2f}x", _per_round_verdict(r, per_round))
    value, spread = printed(r)
    reference = as_printed(reference, 2)
    measured = f"{value:.2f}x ± {spread:.2f}" if spread > 0 else f"{value:.2f}x"
    if near_reference(r, reference):
        verdict = f"within noise of it: {measured} covers it"
    elif within_noise(value, spread, 1.0):
        verdict = "under the reference, and within noise of 1x: no gain shown"
    elif value <= 1:
        verdict = "not faster than one device: no gain"
    elif value > reference:
        verdict = "above the reference by more than the rounds' spread: a finding to explain"
    else:
        verdict = f"faster, under the reference: {percent(reference_gain(r, reference))} of its gain"
    return Claim(claim, measured, f"{name} {reference:.2f}x", verdict + _devices_note(r))


def _devices_note(r: Row) -> str:
    """Beside a reference, what the speedup's own row says of a median past the devices' count (2x on two), as
    printed, so that the two rows read one relation (t34_02, other): a reference explains nothing past 2x.
    Past it beyond the spread (the median minus d above 2.00) a finding; else at 2x within noise. "" under."""
    if not above_as_printed(r.speedup, r.devices):
        return ""
    if median_past_devices(r):
        return f"; yet past {r.devices} devices' {r.devices}x beyond its spread: a finding it does not explain"
    return (f"; and at {r.devices} devices' {r.devices}x within noise (as its row against the bound reads): not "
            "read as explained by it")


def median_past_devices(r: Row) -> bool:
    """A median past the number of devices (2x on two) beyond its rounds' spread, as printed: the median minus
    the spread above 2.00 (2.10x ± 0.07). Where the spread covers 2x (2.01x ± 0.07), the median is at 2x within
    noise, no finding (the lead's rule, t34_02; lesson 09 reads its pipeline medians the same way)."""
    value, spread = printed(r)
    return above_as_printed(r.speedup, r.devices) and round(value - spread, 9) > r.devices


def under_work_reference(r: Row, wb: float) -> str:
    """A median under its work-scaled reference by more than the rounds' spread, read as cell 15 says and as the
    claims row prints it (``reference_claim``), so that each table prints it with its row
    (``report.past_work_reference``): "under its work-scaled reference (1.84x): 92% of its gain"; where the
    median ± its spread reaches the reference from under it, that is said, so that a silent row is not read as
    one: "within noise of its work-scaled reference (1.20x)". "" where the median is above the reference, within
    noise of 1x, or not above 1x (no gain to share)."""
    value, spread = printed(r)
    ref = as_printed(wb, 2)
    if value > ref or value <= 1 or within_noise(value, spread, 1.0):
        return ""
    if near_reference(r, ref):
        return f"within noise of its work-scaled reference ({ref:.2f}x)"
    return f"under its work-scaled reference ({ref:.2f}x): {percent(reference_gain(r, ref))} of its gain"


def paired_ratios(r: Row, per_round) -> list[float]:
    """Each round's speedup over the reference measured in the same round, worked from the two as the rounds
    table prints them (``round_as_printed``): 1.17 / 1.16 = 1.0086, printed "1.01"."""
    return [round_as_printed(s) / round_as_printed(p) for s, p in zip(r.speedups, per_round)]


def paired_reference(r: Row, per_round) -> tuple[float, float, int]:
    """Each round's speedup over the reference measured in the same round (``paired_ratios``): their median
    and paired spread, as printed, and how many rounds lay under their own round's reference. Paired round by
    round, as the speedup itself is: two medians may come from different rounds, so the split is never judged
    against its reference by the two medians."""
    ratios = paired_ratios(r, per_round)
    under = sum(claims_round_above(s, p, shown=round_as_printed, below=True) for s, p in zip(r.speedups, per_round))
    return half_up(statistics.median(ratios), 2), ratios_spread(ratios), under


def ratios_spread(ratios: list[float]) -> float:
    """The ± of the paired ratios as a reader works it from the rounds table: each ratio divided from the printed
    speedup and reference (``paired_ratios``) and, being printed nowhere, not rounded before the spread is taken
    (1.08 / 1.04 = 1.038 ... 1.03 / 1.06 = 0.972: ± 0.033, printed 0.03, where 1.04 and 0.97 would give 0.04)."""
    return printed_spread(ratios, shown=float)  # the claims rule, without rounding the ratios


def rounds_past_reference(r: Row, per_round) -> list[int]:
    """The rounds (numbered from 1, as the rounds table numbers them) that lie past their own round's
    reference beyond the ratios' spread: the ratio above 1 and above their median + their spread, as printed
    (``claims.rounds_past_spread``, the mark 1). The reference does not reach such a round, whatever the median
    says: it is a finding to explain, never counted as explained by the reference. Only a round that needs a
    reference is set beside it: one above the bound and past the median + the rounds' spread (the rounds
    ``reference.past_indices`` lists). A round within that spread is explained by it (cell 15's round rule),
    so a low reference in its round leaves nothing to explain: 1.02x over 0.94x, under 1.02 + 0.04."""
    value, spread = printed(r)
    needs = [rounds_past_spread([s], value, spread, r.bound, shown=round_as_printed) for s in r.speedups]
    ratio, ratio_spread, _ = paired_reference(r, per_round)
    return [i for i, x in enumerate(paired_ratios(r, per_round), 1)
            if needs[i - 1] and rounds_past_spread([x], ratio, ratio_spread, 1.0, shown=round_as_printed)]


def past_reference_words(r: Row, per_round) -> str:
    """``rounds_past_reference`` in words, with the divisions a reader redoes from the rounds table: "; round
    1 lies past its own round's reference, beyond the ratios' spread (1.17x / 1.16x = 1.01x, above 1 and above
    1.00 + 0.00 = 1.00): a finding to explain"; "" where none, and wherever the reference is itself within
    noise of 1x (``reference_in_noise_of_one``), whatever the split's median: such a reference offers no gain
    over 1x, so a round past it is read against the 1x bound instead, by the one list every place prints
    (``reference.own_reference_explains`` / ``findings_past``: the rounds above the bound past the median +
    the spread), never named a second time here."""
    past = rounds_past_reference(r, per_round)
    if not past or reference_in_noise_of_one(per_round):
        return ""
    value, spread, _ = paired_reference(r, per_round)
    ratios = paired_ratios(r, per_round)
    worked = ", ".join(f"{round_text(r.speedups[i - 1])}x / {round_text(per_round[i - 1])}x = "
                       f"{round_text(ratios[i - 1])}x" for i in past)
    which = (f"round {past[0]} lies past its own round's reference" if len(past) == 1 else
             f"rounds {', '.join(map(str, past[:-1]))} and {past[-1]} lie past their own rounds' references")
    return (f"; {which}, beyond the ratios' spread ({worked}, above 1 and above {value:.2f} + {spread:.2f} = "
            f"{as_printed(value + spread, 2):.2f}): {'a finding' if len(past) == 1 else 'findings'} to explain")


def reference_side(r: Row, per_round) -> str:
    """The one verdict of a split against a per-round reference: "within noise" (the paired ratios' median ±
    their spread covers 1, ``claims.within_noise``, and they do not all lie on one side of it), "above" or
    "under" it. Section 3's lines, its closing, the tables' verdict and the claims row all read this."""
    value, spread, _ = paired_reference(r, per_round)
    if within_noise(value, spread, 1.0) and printed_side(paired_ratios(r, per_round), 1.0) is None:
        return "within noise"
    return "above" if value > 1 else "under"


def reference_reading(r: Row, per_round, then: str = "") -> str:
    """``reference_side`` in words, with the figures a reader redoes from the rounds table: "within noise of
    the per-process reference, round by round (each round's speedup over its own round's reference: median
    0.96x ± 0.09; 3 of 5 rounds under it)", and any round past its own round's reference beyond the ratios'
    spread named a finding to explain (``past_reference_words``). ``then``: what the caller concludes of the
    reading ("explained by the reference", "no cause to read"): said of the whole split where no round lies
    past, else of the median and the other rounds only, after the findings."""
    value, spread, under = paired_reference(r, per_round)
    where = ("every round" if under == len(r.speedups) else "no round" if not under else
             f"{under} of {len(r.speedups)} rounds")
    figures = (f"(each round's speedup over its own round's reference: median {value:.2f}x ± {spread:.2f}; "
               f"{where} under it)")
    side = reference_side(r, per_round)
    if side == "within noise":
        said = f"within noise of the per-process reference, round by round {figures}"
    elif side == "above":
        said = (f"above the per-process reference by more than the paired spread, round by round {figures}: a "
                "finding to explain")
    else:
        said = f"under the per-process reference, round by round {figures}"
    past = past_reference_words(r, per_round)
    if not then:
        return said + past
    # only where nothing is left to explain ("no cause to read") would a round past the spread be lumped in
    # wrongly: "explained by the reference" already covers a round its own reference reaches
    reached = reached_by_own_reference(r, per_round) if then == NO_CAUSE else []
    if not reached:  # every round within the spread or past its own reference: ``then`` is said of the rest
        beyond = _past_the_spread(r) if then == NO_CAUSE else 0
        if not past and beyond:  # rounds past the spread that no reference reaches: findings, named below
            rest = len(r.speedups) - beyond  # "no cause to read" is said of the others only (t33_02, other)
            return f"{said}; the median and the {rest} round{'s' if rest != 1 else ''} within the spread: {then}"
        if not past:
            return f"{said}: {then}"
        rest = len(r.speedups) - len(rounds_past_reference(r, per_round))
        return f"{said}{past}; the median and the other {rest} round{'s' if rest != 1 else ''}: {then}"
    # a round past the spread that its own round's reference reaches is explained by that reference (cell 15),
    # named apart, so that ``then`` ("no cause to read") is said only of rounds the spread already covers
    named = set(reached) | set(rounds_past_reference(r, per_round))
    others = [i for i in range(1, len(r.speedups) + 1) if i not in named]
    own = (f"round {reached[0]}: explained by its own round's reference" if len(reached) == 1 else
           f"rounds {_numbers(reached)}: explained by their own rounds' references")
    rest = f"the median and {'round' if len(others) == 1 else 'rounds'} {_numbers(others)}" if others else "the median"
    return f"{said}{past}; {own}; {rest}: {then}" if past else f"{said}: {own}; {rest}: {then}"


def _past_the_spread(r: Row) -> int:
    """How many rounds lie above the bound and past the median + the rounds' spread, as printed (cell 15's
    rule, ``claims.rounds_past_spread``): the rounds "no cause to read" is not said of."""
    value, spread = printed(r)
    return len(rounds_past_spread(r.speedups, value, spread, r.bound, shown=round_as_printed))


def _numbers(indices: list[int]) -> str:
    """Round numbers in words: "4", "2 and 5", "2, 3 and 5"."""
    names = list(map(str, indices))
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def reached_by_own_reference(r: Row, per_round) -> list[int]:
    """The rounds (numbered from 1) that need a reference, above the bound and past the median + the rounds'
    spread, and that their own round's reference reaches (not in ``rounds_past_reference``): explained by it,
    as cell 15 says. None where the reference is itself within noise of 1x: it explains no round."""
    if reference_in_noise_of_one(per_round):
        return []
    value, spread = printed(r)
    past = set(rounds_past_reference(r, per_round))
    return [i for i, s in enumerate(r.speedups, 1)
            if i not in past and rounds_past_spread([s], value, spread, r.bound, shown=round_as_printed)]


def weak_reference_words(per_round) -> str:
    """Why a reference within noise of 1x explains no excess over 1x, with its own median ± spread."""
    median, own = as_printed(statistics.median(per_round), 2), rounds_spread(per_round)
    return (f"the reference ({median:.2f}x ± {own:.2f}) is itself within noise of 1x: the excess over 1x stays a "
            "finding to explain")


def reference_then(r: Row, per_round) -> str:
    """What a split within noise of its per-round reference (``reference_side``) concludes of the rounds that
    reference reaches: one rule for section 3's line, its block, its closing and the claims row. With an excess
    over 1x beyond noise, beside a reference clear of 1x, the reference explains it: "explained by the
    reference" (cell 15); with no excess over 1x (within noise of it, or slower), nothing is there to explain:
    "no cause to read". "" where the split is not within noise of the reference, or where the reference is
    itself within noise of 1x under a split above 1x (``excess_past_weak_reference`` says that instead)."""
    if reference_side(r, per_round) != "within noise":
        return ""
    if noise_of_one(r) or printed(r)[0] <= 1:
        return NO_CAUSE
    return "" if reference_in_noise_of_one(per_round) else "explained by the reference"


def explained_then(r: Row, per_round) -> str:
    """What a split above 1x concludes of the rounds a per-round reference clear of 1x reaches (within noise of
    it, or under it: cell 15's rule): "explained by the reference"; under it by more than the ratios' spread,
    with the share of the reference's gain it reached (``reference_gain``), so that no place says "explained"
    where another says only "under the reference: 50% of its gain": "explained by the reference; it reaches 50%
    of its gain". Section 3's headline, its block, its closing and the claims row all start with these words."""
    said = "explained by the reference"
    if reference_side(r, per_round) != "under":
        return said
    return f"{said}; {round_shortfall(r, per_round)}"


def round_shortfall(r: Row, per_round, figures: bool = True) -> str:
    """How far a split under its per-round reference fell short of it, round by round: 1 minus the paired
    ratios' median as the reading before it prints it (``paired_reference``): "round by round it falls 2%
    short of it (1 - 0.98)". Never a share of the gain worked from the two medians ((1.06 - 1) / (1.06 - 1) = 100% beside
    "under it", t34_02 #1): two medians may come from different rounds (cell 15). ``figures``: the ratio in
    brackets (off where the caller is itself in brackets)."""
    value, _, _ = paired_reference(r, per_round)
    said = f"round by round it falls {percent(1 - value)} short of it"
    return f"{said} (1 - {value:.2f})" if figures else said


def _per_round_verdict(r: Row, per_round) -> str:
    """The claims row's verdict against a per-round reference: the one reading (``reference_reading``, as
    section 3 prints it), after claims' noise rule against 1x, with what it leaves: a reference itself within
    noise of 1x explains no excess; under a reference above 1x, the share of its gain (``reference_gain``)."""
    value, spread = printed(r)
    said = reference_reading(r, per_round)
    side = reference_side(r, per_round)
    near = reference_then(r, per_round)  # of the rounds the reference reaches only, as section 3 says it
    if noise_of_one(r):  # the words section 3's block prints (naive._against_process_reference)
        return f"within noise of 1x ({value:.2f}x ± {spread:.2f} covers it): no gain shown; and it is " + reference_reading(
            r, per_round, near)
    if side == "above":
        return said
    if excess_past_weak_reference(r, per_round):  # near or under a reference that offers no gain over 1x
        return f"{said}; {weak_reference_words(per_round)}"
    if value <= 1:  # no share of a gain below 1x (section 3: "none of its gain")
        return f"{said}; none of the reference's gain ({value:.2f}x is at or below 1x)"
    reference = statistics.median(per_round)
    # round by round only: the two medians (1.06x beside 1.06x) may come from different rounds (t34_02 #1)
    if side == "within noise" or as_printed(reference, 2) <= 1:
        return reference_reading(r, per_round, near)
    return reference_reading(r, per_round, explained_then(r, per_round))  # under it: explained, and the share


def split_gain(slow: Row, fast: Row) -> tuple[float, float]:
    """The balanced split's gain over the unbalanced one, round by round (the unbalanced step over the balanced
    step of the same round, the ratio of their paired speedups): its median and paired spread, as printed
    (``bounds.rounds_spread``). Each ratio is worked from the two rounds as the rows table prints them (two
    decimals), so that a reader dividing the printed rounds finds the same gain. Section 7."""
    gains = [round_as_printed(f) / round_as_printed(s) for f, s in zip(fast.speedups, slow.speedups)]  # round_text
    return statistics.median(gains), rounds_spread(gains)


def speedups_apart(slow: Row, fast: Row) -> str:
    """Section 7: where the two splits' speedups, as printed, divide to another figure than the gain printed
    beside them (``split_gain``), why: each speedup is the median of its own split's rounds, and the two
    medians may come from different rounds, while the gain is the median of the two splits' speedups divided
    round by round (listed, with how many lie under 1x, as printed). "" where they divide to the gain."""
    gain, _ = split_gain(slow, fast)
    (a, _), (b, _) = printed(fast), printed(slow)
    divided = medians_divide_to(as_printed(gain, 2), a, b)  # None: the reader's division gives the gain
    if divided is None:
        return ""
    gains = [round_as_printed(f) / round_as_printed(s) for f, s in zip(fast.speedups, slow.speedups)]
    under = sum(claims_round_above(g, 1.0, shown=round_as_printed, below=True) for g in gains)
    return (f"; the two speedups printed above, {a:.2f}x / {b:.2f}x, divide to {divided:.2f}x instead: each is "
            "the median of its own split's rounds, and the two medians may come from different rounds, while the "
            "gain divides the two splits' speedups within each round (in round order "
            f"{', '.join(round_text(g) for g in gains)}; {under} of {len(gains)} under 1x) and takes their median")


def against_prediction(value: float, spread: float, predicted: float) -> str:
    """A measured figure beside what the profile predicted, by claims' one noise rule on the figures as
    printed: "within noise of it", "below it" or "above it"."""
    v, d, p = as_printed(value, 2), as_printed(spread, 2), as_printed(predicted, 2)
    if within_noise(v, d, p):
        return "within noise of it"
    return "below it" if v < p else "above it"


def ms_as_printed(seconds: float, *others: float):
    """Milliseconds as printed: whole where every figure beside it is 10 ms or more, else one decimal, so that
    a ratio computed from the printed figures is the one a reader computes."""
    digits = 0 if min((seconds,) + others) >= 0.01 else 1
    ms = as_printed(seconds, digits, 1e-3)
    return int(ms) if digits == 0 else ms  # "173 ms", not "173.0 ms"


def medians_note(slow: Row, fast: Row, gain: float, earlier: Row | None = None, where: str = "") -> str:
    """Section 7's block: why the ratio of the two splits' median steps need not be their gain (``gain``, the
    median of the rounds' paired ratios: each round's unbalanced step over its balanced step, while the two
    medians may come from different rounds), and, where the same configuration ran in an ``earlier`` launch
    (named ``where``), how far apart the two launches' one-device steps lie (over 5 %: not one baseline)."""
    a, b = ms_as_printed(slow.seconds, fast.seconds), ms_as_printed(fast.seconds, slow.seconds)
    divided = medians_divide_to(gain, a, b)  # claims' one rule: None where a / b prints as the gain
    said = f"The two median step times, {a} / {b} ms, give {gain if divided is None else divided:.2f}x"
    said += (f", as the median of the paired ratios, {gain:.2f}x, does." if divided is None else
             f"; the gain printed above, {gain:.2f}x, is the median of each round's unbalanced step over its "
             "balanced step: paired in the same round, while the two medians may come from different rounds.")
    if earlier is None:
        return said
    here, there = ms_as_printed(fast.baseline, earlier.baseline), ms_as_printed(earlier.baseline, fast.baseline)
    apart = here / there - 1  # from the two steps as printed: the reader's own division
    line = beside_line(abs(apart), 0.05)  # the lesson's one rule for a line: as printed, a tie is at it
    if line != "above":
        return said + f" One device's step: {here} ms here, {there} ms in {where}: " + (
            "within 5 % of each other." if line == "below" else "5% apart, at the 5 % line: taken as one baseline.")
    return said + (f" One device's step: {here} ms here, {there} ms in {where} ({percent(abs(apart))} "
                   f"{'slower' if apart > 0 else 'faster'} here): each launch pairs its speedups with its own "
                   "one-device rounds, so the two launches' speedups do not share a baseline.")


def row_label(r: Row) -> str:
    """A row as its table names it: "batch 32 gpipe m=4", with its split where it ran its own ("split [3]"),
    so that two splits of one schedule are told apart."""
    name = "naive split" if r.naive else f"{r.schedule} m={r.m}"
    return f"batch {r.batch} {name}" + (f", split {list(r.split_points)}" if r.split_points else "")


def steps_note(rows: list[Row], names: list[str] | None = None) -> str:
    """Where a table prints each row's median step beside one device's and the paired speedup (``rows_table``,
    ``link_table``): the rows whose two medians, as printed, give another ratio than the speedup printed beside
    them, with the division, and why the two differ (as ``medians_note`` says it for section 7). ``names``:
    each row's name as its table prints it (section 8's "layers", "attn/ffn"); by default ``row_label``."""
    apart = []
    for r, name in zip(rows, names or [row_label(r) for r in rows]):
        one, step = ms_as_printed(r.baseline), as_printed(r.seconds, 0, 1e-3)  # as both tables print them
        medians = medians_divide_to(r.speedup, one, step)  # the two printed medians divided, or None
        if medians is not None:
            apart.append(f"{name}: {one} / {step:.0f} = {medians:.2f}x, beside {r.speedup:.2f}x")
    if not apart:
        return ("In every row, one device's median step over the row's median step gives the speedup printed "
                "beside them.")
    return (f"In {len(apart)} of {len(rows)} rows, one device's median step over the row's median step gives "
            f"another ratio than the speedup printed beside them ({'; '.join(apart)}). The speedup, and the time "
            "lost to the bound worked from it, is the median of each round's one-device step over the same "
            "round's step, paired in the same round, while the two medians may come from different rounds.")
