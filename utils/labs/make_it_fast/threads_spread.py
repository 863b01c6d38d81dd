"""Lab 08: the thread rounds outside the median ± the spread the take-away prints, and the one rule for when
they may be called outlying. The ± is half the middle half's range (claims' ``printed_spread``), so a round it
is worked from may lie outside it, and about half of any rounds do by design. Split from ``threads_cost`` to
keep it under the course's 600 lines.

    _past_spread_text(outcome["threads"]["ratios"])   # "; round 19.36x lies beyond ...: ..."
"""

from __future__ import annotations

import statistics

from utils import claims
from utils.labs.make_it_fast.threads_groups import spread_working


def _listed(rounds: list, side: str, worked: str) -> str:
    """"round 1.95x lies below the median - the spread (2.77 - 0.12 = 2.65x)": ``rounds`` on one ``side``
    of the ± as printed, smallest first, with the working of the edge they pass."""
    shown = [f"{claims.as_printed(r, 2):.2f}x" for r in sorted(rounds)]
    listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
    which = f"round {listed} lies" if len(rounds) == 1 else f"rounds {listed} lie"
    return f"{which} {side} ({worked})"


def _outside(ratios: list, value: float, spread: float) -> tuple[list, list]:
    """The rounds below the median - the spread and beyond the median + the spread, as printed (above:
    claims' ``rounds_past_spread``, the median as the mark; below: ``round_above(..., below=True)``)."""
    bottom = claims.half_up(value - spread, 2)
    below = [r for r in ratios if claims.round_above(r, bottom, below=True)]
    return below, claims.rounds_past_spread(ratios, value, spread, value)


def _left_out(ratios: list) -> list:
    """The rounds outside the median ± the spread the page prints, as printed, on either side."""
    value, spread = claims.as_printed(statistics.median(ratios), 2), claims.printed_spread(ratios)
    below, above = _outside(ratios, value, spread)
    return below + above


def _spread_own(ratios: list) -> list:
    """The rounds the ± is worked from that it leaves out, as printed: the middle half's ends and the rounds
    between them (claims' ``middle_half``), outside the median ± the spread. A ± centred on the median reaches
    one end of the middle half only where the median sits in its middle (2.39x, 2.53x, 2.60x: 2.53x ± 0.11
    leaves out 2.39x)."""
    low, high = (claims.as_printed(r, 2) for r in claims.middle_half(ratios))
    return [r for r in _left_out(ratios) if low <= claims.as_printed(r, 2) <= high]


def _not_outlying(ratios: list) -> bool:
    """The one rule for rounds outside the ±: they are called outlying moments only where the ± sets them
    apart, and a round set apart must not carry the spread. So not where the ± leaves out a round it is worked
    from (``_spread_own``; thirty-seventh reading: 2.39x "outlying" beside a ± worked from 2.39x), nor where it
    leaves out half the rounds or more, as a ± half the middle half's range does by design (twenty-ninth
    reading). Then the ± does not give the rounds' reach: their whole range is named, and the shares' ends
    come from it."""
    left_out = _left_out(ratios)
    return bool(_spread_own(ratios)) or (bool(left_out) and 2 * len(left_out) >= len(ratios))


def _past_spread_text(ratios: list) -> str:
    """The rounds outside the median ± the spread the page prints, as printed, on either side; "" where none
    is. A few beyond the rounds the ± is worked from are named as outlying moments; else (``_not_outlying``)
    the ± is said to leave them out, with the rounds' whole range. Rounds that ``gathered`` reads as two
    groups take ``_groups_text`` instead."""
    value, spread = claims.as_printed(statistics.median(ratios), 2), claims.printed_spread(ratios)
    top, bottom = claims.half_up(value + spread, 2), claims.half_up(value - spread, 2)
    below, above = _outside(ratios, value, spread)
    clauses = []
    if below:
        clauses.append(_listed(below, "below the median - the spread",
                               f"{value:.2f} - {spread:.2f} = {bottom:.2f}x"))
    if above:
        clauses.append(_listed(above, "beyond the median + the spread",
                               f"{value:.2f} + {spread:.2f} = {top:.2f}x"))
    if not clauses:
        return ""
    if _not_outlying(ratios):
        shown = sorted(claims.as_printed(r, 2) for r in ratios)
        own = sorted(claims.as_printed(r, 2) for r in _spread_own(ratios))
        worked = (f", {' and '.join(f'{r:.2f}x' for r in own)} among them, which the ± is worked from "
                  f"({spread_working(shown)})" if own else "")
        return (f"; {'; '.join(clauses)}: the ± (half the middle half's range) leaves out {len(below + above)} "
                f"of the {len(ratios)} rounds{worked}, as a ± built from the middle half of the rounds does by "
                f"design (about half of them); the rounds run {min(shown):.2f}x to {max(shown):.2f}x")
    # from 4 rounds the ± is half the middle half's range, so a round outside it is expected now and then:
    # it is named as an outlying moment, not as a finding (no bound is passed here)
    if len(clauses) == 1:
        moment = "an outlying moment" if len(above + below) == 1 else "outlying moments"
        return f"; {clauses[0]}, which the ± does not reach: {moment} of this run, not timed apart here"
    return (f"; {clauses[0]}; {clauses[1]}: the ± reaches none of them, outlying moments of this run, not timed "
            "apart here")




def reach_below_one(value: float, spread: float) -> str:
    """", though the ± reaches 0.83x" where the median ± the spread covers 1x (claims' ``within_noise``) and the
    speed-up still counts because every round lies above 1x (claims' ``speedup_verdict``): the reason is said at
    the verdict, and how far the ± reaches, worked as a reader does (1.88 - 1.05 = 0.83); "" where the ± stays
    above 1x. A ± wider than the median reaches below zero, where no speed ratio lies (t42 reading)."""
    if not claims.within_noise(value, spread, 1.0):
        return ""
    low = claims.half_up(value - spread, 2)
    return ", though the ± reaches below zero" if low < 0 else f", though the ± reaches {low:.2f}x"


def savings_across_rounds(ms: float, ratios: list, saved_ms) -> str:
    """" (123 to 321 ms across the rounds, 1.59x to 30.50x)": what ``ms`` a step saves at the smallest and the
    largest round as printed (``saved_ms``: the saving at one speed-up), so that a saving worked from the
    median never reads as more certain than the rounds make it (t42 reading: 155 ms from 1.88x, beside a ±
    reaching 0.83x)."""
    shown = [claims.as_printed(r, 2) for r in ratios]
    low, high = min(shown), max(shown)
    return f" ({saved_ms(ms, low):.0f} to {saved_ms(ms, high):.0f} ms across the rounds, {low:.2f}x to {high:.2f}x)"
