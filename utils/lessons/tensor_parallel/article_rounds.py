"""Section 1's article split, round by round: the rounds whose ratio passed the 1x this split cannot pass
(its two halves run in turn), read by the course's one per-round rule (``claims.rounds_past_spread``): a
round above 1x and above the median + the spread, as printed, is a finding to explain, whatever the median,
where it clears 1x by the lesson's 5 % tolerance for timing noise too (the margin a "faster" verdict asks,
section 4); one within the median + the spread, or within 5 % of 1x, is noise. Lesson 07."""

from __future__ import annotations

from utils.claims import as_printed, half_up, printed_spread, round_above, rounds_past_spread
from utils.lessons.tensor_parallel.cost import printed_median
from utils.lessons.tensor_parallel.verdicts import TOLERANCE


def _listed(rounds: list[float]) -> str:
    """Rounds as the page prints them: "1.17x and 1.16x", "1.03x, 1.05x and 1.16x"."""
    shown = [f"{as_printed(x, 2):.2f}x" for x in rounds]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def _rounds(rounds: list[float]) -> str:
    """"round 1.01x" for one round, "rounds 1.17x and 1.16x" for more."""
    return ("round " if len(rounds) == 1 else "rounds ") + _listed(rounds)


def _clears_tolerance(x: float) -> bool:
    """Above 1x by the 5 % tolerance or more, as printed (1.05x does, 1.04x does not)."""
    return half_up(as_printed(x, 2) - 1, 2) >= TOLERANCE


def rounds_words(alone_rounds: list[float], split_rounds: list[float], verdict: str, load: str = "") -> str:
    """What the rounds above 1x say, beside the article split's ``verdict``: "" where no round passed 1x as
    printed. ``load``: the machine's load at the start, in words, for the median-above-1x branch."""
    rounds = [a / s for a, s in zip(alone_rounds, split_rounds)]
    above = [x for x in rounds if round_above(x, 1.0)]   # 1.00x printed is not above 1x
    if not above:
        return ""
    median, spread = printed_median(rounds), printed_spread(rounds)
    top = as_printed(median, 2) + as_printed(spread, 2)   # the median + the spread, as printed
    band = f"the median + the spread ({as_printed(median, 2):.2f} + {as_printed(spread, 2):.2f} = {top:.2f}x)"
    beyond = rounds_past_spread(above, median, spread, 1.0)
    past = [x for x in beyond if _clears_tolerance(x)]   # a finding: past the spread and the 5 % both
    near = [x for x in beyond if x not in past]
    inside = [x for x in above if x not in beyond]
    of_n = f"{len(above)} of {len(rounds)} rounds above 1x"
    if verdict.startswith("above"):   # the median itself passed 1x: the verdict already says "a finding"
        return (f"{of_n}, the median among them: above the bound, which this split cannot pass (its halves "
                f"run in turn), so the rounds met the machine differently{load}, and this run does not "
                "measure why")
    said = []
    if past:
        these = "that round" if len(past) == 1 else "those rounds"
        said.append(f"{_rounds(past)} passed the 1x this split cannot pass, beyond {band}: a finding "
                    f"to explain (the one-device pass meeting a busier moment in {these} is one "
                    "candidate; not measured)")
    if near:
        said.append(f"{_rounds(near)} passed 1x by less than 0.05, the lesson's 5 % tolerance for timing noise: "
                    "within noise of the bound, not a finding")
    if inside:
        one = len(inside) == 1
        named = "it" if past and not near else "the median + the spread" if past else band   # "it": the last named
        said.append(f"{'the other ' if past or near else ''}{'round' if one else 'rounds'} above 1x "
                    f"({_listed(inside)}) {'lies' if one else 'lie'} within {named}: "
                    "the rounds' noise around the median")
    return f"{of_n}: " + "; ".join(said)
