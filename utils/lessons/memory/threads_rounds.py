"""Lesson 06's threads verdict, round by round: a round on the other side of 1x from the median, beyond the
rounds' ± (``claims.rounds_past_spread``'s rule, read against the baseline instead of a bound), is named, so
that a median "faster" is never read as faster in every round where one round was slower (and the other way
round). Used by ``summary.threads_reading``.

    numbered = list(enumerate(paired, 1))          # (round, ratio), in the order they were timed
    verdict = across_verdict(verdict, numbered, 1.29, 0.26)
"""

from __future__ import annotations

import statistics

from utils import claims

# how far past the band of a typical round (the ± and the middle half) a round must lie to be named: the
# lesson's 2 % floor on a ratio's noise (``measure.step_ratio``), so the two extremes of 5 rounds, outside the
# band by construction, are not named for a hundredth (twenty-seventh reading)
MARGIN = 0.02


def rounds_across(numbered: list[tuple[int, float]], median: float, spread: float,
                  baseline: float = 1.0) -> list[tuple[int, float]]:
    """The rounds (round number, ratio) on the other side of ``baseline`` from ``median`` that the spread does
    not explain: past the baseline AND past median ∓ spread, all as printed (``claims.round_above``, the one
    rule for counting rounds past a mark). Above the median's side: ``claims.rounds_past_spread``; below it,
    the same rule mirrored. None where the median ± spread reaches the baseline: that verdict is already
    "within noise", which no round contradicts."""
    median, spread = claims.as_printed(median, 2), claims.as_printed(spread, 2)
    if claims.within_noise(median, spread, baseline):
        return []
    if median < baseline:   # a slower median: rounds faster than the baseline, above median + spread
        past = claims.rounds_past_spread([r for _, r in numbered], median, spread, baseline)
        return [(k, r) for k, r in numbered if r in past]
    low = claims.half_up(median - spread, 2)   # a faster median: rounds slower than it, below median - spread
    return [(k, r) for k, r in numbered
            if claims.round_above(r, baseline, below=True) and claims.round_above(r, low, below=True)]


def across_verdict(verdict: str, numbered: list[tuple[int, float]], median: float, spread: float,
                   baseline: float = 1.0) -> str:
    """``verdict`` (``claims.speedup_verdict`` on the median) with the rounds that ``rounds_across`` finds
    named after it: "by the median, faster, ..., but round 3's 0.79x was slower than one thread, past the ±
    (1.29 - 0.26 = 1.03x): not faster in every round, a finding to explain". Unchanged where there are none.
    The verdict then starts "by the median", which ``summary`` reads as the rounds disagreeing."""
    said = across_clause(numbered, median, spread, baseline)
    return f"by the median, {verdict}, but{said}" if said else verdict


def across_clause(numbered: list[tuple[int, float]], median: float, spread: float, baseline: float = 1.0,
                  words: tuple[str, str, str] = ("faster", "slower", "one thread"),
                  then: str = "a finding to explain") -> str:
    """``rounds_across``'s rounds in words: " round 3's 0.79x was slower than one thread, past the ± (1.29 -
    0.26 = 1.03x): not faster in every round, a finding to explain" ("" where there are none). ``words``: what
    a ratio above the baseline is, what one below it is, and what it is measured against (a step time's ratio,
    above 1 slower, reads ("slower", "faster", "the plain loss")). ``then``: what that round changes, said
    last (the threads verdict says "a finding to explain" and then the machine's load)."""
    across = rounds_across(numbered, median, spread, baseline)
    if not across:
        return ""
    median, spread = claims.as_printed(median, 2), claims.as_printed(spread, 2)
    high = median > baseline   # the median's side; the named rounds lie on the other
    edge = claims.half_up(median - spread if high else median + spread, 2)
    names = " and ".join(f"round {k}'s {claims.as_printed(r, 2):.2f}x" for k, r in across)
    above, below, against = words
    other, side = (below, above) if high else (above, below)
    return (f" {names} {'was' if len(across) == 1 else 'were'} {other} than {against}, past the ± "
            f"({median:.2f} {'-' if high else '+'} {spread:.2f} = {edge:.2f}x): not {side} in every round, "
            f"{then}")


def middle_half(ratios: list[float]) -> tuple[float, float] | None:
    """The rounds' middle half as printed (2 decimals): the lowest and highest round left once the quarter at
    each end is set aside, the two that ``claims.paired_spread`` halves into the ±. None below 4 rounds, where
    the ± is half the whole range instead (``claims.printed_spread``)."""
    # Not claims.paired_spread: that returns one number, half the middle half's width, from the unrounded
    # ratios; the band here needs the middle half's two ends, each as the page prints it. Same quarter rule.
    if len(ratios) < 4:
        return None
    shown = sorted(claims.as_printed(r, 2) for r in ratios)
    quarter = len(shown) // 4
    return shown[quarter], shown[-1 - quarter]


def outlying_rounds(numbered: list[tuple[int, float]], median: float, spread: float, bound: float | None = None,
                    baseline: float = 1.0, margin: float = MARGIN) -> list[tuple[int, float]]:
    """The rounds (round number, ratio) past both the median ± the spread and the rounds' middle half
    (``middle_half``) by more than ``margin``, as printed (``claims.round_above``), other than those named as a
    finding elsewhere: past the ``bound`` (None: none), or across the baseline (``rounds_across``). A round of
    the middle half is never named: the ± is made from it, and by construction at least half the rounds lie in
    it, so the rounds named are always the fewer. The margin: with 5 rounds the ± is half the middle half's
    range, so the lowest and the highest round lie outside both by construction; only one further out than
    the lesson's 2 % floor is named (a 1.06x round beside 0.97-1.05x is not, a 1.08x one is)."""
    across = rounds_across(numbered, median, spread, baseline)
    median, spread = claims.as_printed(median, 2), claims.as_printed(spread, 2)
    low, high = claims.half_up(median - spread, 2), claims.half_up(median + spread, 2)
    middle = middle_half([r for _, r in numbered])
    if middle:   # the band a typical round fills: the ± and the middle half together
        low, high = min(low, middle[0]), max(high, middle[1])
    return [(k, r) for k, r in numbered if (k, r) not in across
            and not (bound is not None and claims.round_above(r, bound))
            and (claims.round_above(r, high + margin) or claims.round_above(r, low - margin, below=True))]


def outlying_clause(numbered: list[tuple[int, float]], median: float, spread: float, bound: float | None = None,
                    baseline: float = 1.0, margin: float = MARGIN, across_named: bool = True) -> str:
    """``outlying_rounds`` in words, to follow a verdict, the ``margin`` said: "; round 3's 1.50x lies more
    than 0.02 beyond the ± (1.15 ± 0.20: 0.95-1.35x): an outlying moment of this run"; from 4 rounds on, the
    middle half too and how many of the rounds: "; round 4's 0.75x lies more than 0.02 outside both the
    rounds' middle half (0.90-0.93x) and the ± (0.93 ± 0.02: 0.91-0.95x): 1 of 5 rounds, an outlying moment of
    this run". They pass no mark, so they change no verdict: the machine's load moves single rounds. The count
    is of every round that far outside both bands: a round across the baseline (``rounds_across``) that lies
    that far outside them too is counted. ``across_named``: whether the verdict before this clause already
    named those rounds (``across_verdict`` does); then they are pointed to ("2 of 7 rounds, with round 2's
    named above"); where nothing named them (``report.median_rule``), they are named here with the others, so
    that no reader looks for a naming that is not on the page (t35_0506 #2). "" where no round lies that far
    out."""
    out = outlying_rounds(numbered, median, spread, bound, baseline, margin)
    across = rounds_across(numbered, median, spread, baseline)
    median, spread = claims.as_printed(median, 2), claims.as_printed(spread, 2)
    low, high = claims.half_up(median - spread, 2), claims.half_up(median + spread, 2)
    middle = middle_half([r for _, r in numbered])
    if middle:   # the band a typical round fills: the ± and the middle half together
        low, high = min(low, middle[0]), max(high, middle[1])
    also = [(k, r) for k, r in across   # across the baseline, as far outside both bands too
            if claims.round_above(r, low - margin, below=True) or claims.round_above(r, high + margin)]
    if not across_named:   # named here, in round order, with the others
        out, also = sorted(out + also), []
    if not out:
        return ""
    low, high = claims.half_up(median - spread, 2), claims.half_up(median + spread, 2)
    names = " and ".join(f"round {k}'s {claims.as_printed(r, 2):.2f}x" for k, r in out)
    one = len(out) == 1
    band = f"the ± ({median:.2f} ± {spread:.2f}: {low:.2f}-{high:.2f}x)"
    by = f"more than {margin:.2f} " if margin > 0 else ""   # how far out a named round lies, said
    where, count, tail = f"{by}beyond {band}", "", ""
    if middle:
        span = f"{middle[0]:.2f}x" if middle[0] == middle[1] else f"{middle[0]:.2f}-{middle[1]:.2f}x"
        where = f"{by}outside both the rounds' middle half ({span}) and {band}"
        count = f"{len(out)} of {len(numbered)} rounds, " if not also else ""
        if also:   # the count after the moments, every round that far outside both bands in it
            above = " and ".join(f"round {k}'s {claims.as_printed(r, 2):.2f}x" for k, r in also)
            tail = (f"; with {above} named above, {len(out) + len(also)} of {len(numbered)} rounds lie "
                    f"{'that far ' if margin > 0 else ''}outside both")
    return (f"; {names} {'lies' if one else 'lie'} {where}: {count}"
            f"{'an outlying moment' if one else 'outlying moments'} of this run" + tail)


def rounds_past_floor(paired: list[float], cores: int, margin: float = MARGIN) -> list[int]:
    """The rounds (numbered from 1) whose own ratio, as printed, passes the bound ``cores``x by more than the
    lesson's 2 % floor (``margin``): the rounds that count as past it. A 2.03x round against 2.00x lies inside
    the noise every other ratio on the page is read with, so it counts as noise around the bound, not as a
    round past it (t39_0506 #2: that 2.03x round turned a finding into "no verdict")."""
    return [k for k, r in enumerate(paired, 1) if claims.round_above(r, cores * (1 + margin))]


def every_round_past(paired: list[float], cores: int, margin: float = MARGIN) -> str:
    """Where every round passed the bound ``cores``x as printed: how many passed it beyond the lesson's 2 %
    floor (``margin``), so that a round at 2.01x against 2.00x, 0.5 % past it, is not counted as one that
    passed it beyond noise (t30_0506: "every round passed it" leaned on such a round)."""
    beyond = rounds_past_floor(paired, cores, margin)
    near = [(k, r) for k, r in enumerate(paired, 1) if k not in beyond]
    if not near:
        return "every round passed it"
    names = " and ".join(f"round {k}'s {claims.as_printed(r, 2):.2f}x" for k, r in near)
    if len(near) == len(paired):
        return f"every round passed it as printed, but none beyond the lesson's {margin:.0%} floor"
    return (f"every round passed it as printed, all but {len(near)} beyond the lesson's {margin:.0%} floor "
            f"({names} within it)")


def reach_working(median: float, spread: float, bound: float) -> str:
    """Whether the printed range median ± spread reaches ``bound`` from above, worked from the printed figures
    (half up): the working, "2.12 - 0.13 = 1.99x" against 2.00x, or "" where the whole range clears the bound.
    A finding past a bound is one the whole range clears; every round past it as printed is not enough, 3
    rounds' ± reaching it (t76_0506 #2: 2.12x ± 0.13 was called a finding past 2.00x)."""
    median, spread = claims.as_printed(median, 2), claims.as_printed(spread, 2)
    low = claims.half_up(median - spread, 2)
    return f"{median:.2f} - {spread:.2f} = {low:.2f}x" if low <= bound else ""


def rounds_reach(paired: list[float], bound: float) -> str:
    """``reach_working`` for the rounds' own ratios (``paired``): their median as printed, ± the course's spread
    of rounds (``claims.printed_spread``), the figures the threads reading prints."""
    median = claims.half_up(statistics.median([claims.as_printed(r, 2) for r in paired]), 2)
    return reach_working(median, claims.printed_spread(paired), bound)
