"""Lab 06's take-aways, printed from the run once the learner's plan is the cheapest that fits: how many plans
fit, how far apart they cost, and whether the cheapest and the next are apart beyond the cost table's noise.
Split from ``checks``, which re-exports them for the notebook."""

from __future__ import annotations

import textwrap
from collections.abc import Callable

from utils import claims
from utils.labs.fit_the_budget.checks import (MB, CountedPredictions, LabSetup, _against_noise, _as_plan, cheapest,
                                              cost_noise, costs_apart,
                                              describe_plan, plan_cost, plans, predicted, predictor, printed_cost,
                                              techniques)


def take_aways(choose: Callable, setup: LabSetup, costs: dict, rounds: dict | None = None) -> str:
    """What the run showed, printed from it: the learner's plan, and once ``choose`` gives the cheapest plan
    here, how many plans fit and how far apart they cost, and, from the cost table's ``rounds``
    (``technique_rounds``), whether the cheapest and the next are apart by more than those rounds' noise;
    never raises on a wrong or unfinished answer."""
    try:
        with CountedPredictions() as counted:
            answer = choose(setup.capacity, dict(costs), predictor(setup))
        plan = _as_plan(answer, "choose()")
    except BaseException as exc:  # noqa: BLE001 - a stub, or a plan of another form: the check says why
        return f"choose() gave no plan yet ({type(exc).__name__}): its check says why."
    fitting = sorted((p for p in plans() if predicted(setup, p).peak <= setup.usable), key=lambda p: plan_cost(p, costs))
    best, _ = cheapest(setup, costs)
    mine, peak = plan_cost(plan, costs), predicted(setup, plan).peak
    lines = [f"Your plan: {describe_plan(plan)}, predicted {peak / MB:.1f} MB of {setup.usable / MB:.1f} MB usable, "
             f"{printed_cost(plan, costs):.2f}x the plain step's time by the cost model, found with {counted.calls} "
             f"of the calculator's predictions for {len(plans())} plans."]
    if peak > setup.usable or mine > best + 1e-9:
        return _wrapped(lines + ["It is not the cheapest plan that fits here (its check says why): the rest of the "
                                 "take-aways appear once it is."])
    singles = [p for p in fitting if techniques(p) <= 1]
    lines.append(f"{len(fitting)} of {len(plans())} plans leave {setup.margin:.0%} free; " + (
        "none with fewer than two techniques: no single one is enough here." if not singles else
        f"{len(singles)} with a single technique."))
    thrifty = min(fitting, key=lambda p: predicted(setup, p).peak)
    lines.append(("The plan that saves most memory is not the cheapest; " if thrifty != fitting[0] else
                  "The plan that saves most memory is also the cheapest here; ") + cost_range(fitting, costs)
                 + _choice_matters(fitting, costs, rounds))
    if rounds and len(fitting) > 1:
        lines.append(_runner_up(fitting[0], fitting[1], costs, rounds, fitting))
    return _wrapped(lines)


def _spread(fitting: list[tuple], costs: dict) -> float:
    """How far apart the fitting plans' printed costs lie: the dearest's over the cheapest's, less 1."""
    priced = [printed_cost(p, costs) for p in fitting]
    return claims.printed_ratio(max(priced), min(priced)) - 1


def cost_range(fitting: list[tuple], costs: dict) -> str:
    """The fitting plans' costs from the cheapest to the dearest (named, with how many more cost as much: the
    model may price micro-batches at 0), each priced as printed (``printed_cost``), and how far apart:
    "1.02x to 1.15x (the dearest: ...; 1 more plan costs the same), the dearest 13% above the cheapest (1.15 /
    1.02)": a ratio, named as one beside its division, so that it does not read as the difference in the plain
    step's units that ``_choice_matters`` prints next (fortieth reading: "15% apart" beside "0.16")."""
    dearest = max(fitting, key=lambda p: printed_cost(p, costs))
    low, high = min(printed_cost(p, costs) for p in fitting), printed_cost(dearest, costs)
    tied = sum(printed_cost(p, costs) == high for p in fitting) - 1   # both rounded to 2 decimals: exact
    also = f"; {tied} more plan{'s cost' if tied > 1 else ' costs'} the same" if tied else ""
    return (f"the fitting plans' costs run from {low:.2f}x to {high:.2f}x (the dearest: {describe_plan(dearest)}"
            f"{also}), the dearest {_spread(fitting, costs):.0%} above the cheapest ({high:.2f} / {low:.2f})")


def _choice_matters(fitting: list[tuple], costs: dict, rounds: dict | None) -> str:
    """Whether the choice matters here, by the one rule the next line reads too (``_beyond_noise``): the
    dearest fitting plan against the cheapest, apart beyond the cost table's noise or not; without the
    table's rounds, only the cost model's ranking (every branch written)."""
    cheapest = min(fitting, key=lambda p: printed_cost(p, costs))
    dearest = max(fitting, key=lambda p: printed_cost(p, costs))
    if len(fitting) == 1:
        return ": one plan fits, so there is no choice to make here."
    if not rounds:
        return ": the cost model ranks them (no cost-table rounds given here to judge their gap by)."
    low, high = printed_cost(cheapest, costs), printed_cost(dearest, costs)
    gap, where, beyond, within = _beyond_noise(cheapest, dearest, costs, rounds)
    said = (f"; in the plain step's units, the dearest lies {high:.2f} - {low:.2f} = {gap:.2f} above the "
            "cheapest, ")
    if beyond:
        return said + f"more than the cost table's noise ({where}): the choice matters on this machine."
    return (said + f"{within} the cost table's noise ({where}): the cost model ranks them, the rounds do not "
            "separate them, so the choice barely matters on this machine (the hidden cases, where "
            "recomputation or micro-batches are dear, are where it does).")


def _beyond_noise(best: tuple, other: tuple, costs: dict, rounds: dict[str, list[float]]) -> tuple:
    """Two plans' costs as printed (``printed_cost``), their gap against the cost table's noise
    (``cost_noise``) once for each measured cost they differ in (cell 8's rule), by ``claims.within_noise`` on
    the printed figures: (the gap, where the allowance comes from, beyond it or not, and, for a gap not beyond
    it, "within" or, where the gap equals it, "at the edge of", in cell 7's words: ``checks._against_noise``;
    thirty-fifth reading: a tie read "within" here and "at the edge of the noise" there)."""
    noise = cost_noise(rounds)   # the one printed under the cost table
    differ = max(1, costs_apart(best, other))   # selective against every block: two costs, not one technique
    allowed = claims.as_printed(differ * noise, 2)
    where = (f"± {noise:.2f}, printed with the costs" if differ == 1 else
             f"± {allowed:.2f}: its ± {noise:.2f}, printed with the costs, for each of the {differ} costs "
             "they differ in")
    gap = claims.as_printed(printed_cost(other, costs) - printed_cost(best, costs), 2)
    edge = _against_noise(gap, allowed)[0].startswith("at the edge")
    return gap, where, not claims.within_noise(gap, allowed, 0.0), "at the edge of" if edge else "within"


def _runner_up(best: tuple, nearest: tuple, costs: dict, rounds: dict[str, list[float]],
               fitting: list[tuple] = ()) -> str:
    """The cheapest fitting plan against the next, by the cost model, beside the noise of their difference
    (``_beyond_noise``, cell 8's rule): apart beyond it, or a ranking the run cannot confirm. Other ``fitting``
    plans at the next one's printed cost are named, since none of them is "the next" alone (``_tied``)."""
    a, b = printed_cost(best, costs), printed_cost(nearest, costs)   # each from the costs as printed
    gap, where, beyond, within = _beyond_noise(best, nearest, costs, rounds)
    said = (f"{gap:.2f} apart, more than the cost table's noise ({where}): the cost table's rounds separate "
            "the two." if beyond else
            f"{gap:.2f} apart, {within} the cost table's noise ({where}): the cost model ranks them, the cost "
            "table's rounds do not tell them apart.")
    tied, against = _tied(best, nearest, costs, rounds, fitting, beyond)
    return (f"The cheapest, {describe_plan(best)}, and the next, {describe_plan(nearest)}{tied}, cost {a:.2f}x "
            f"and {b:.2f}x by the cost model: " + said + against)


def _tied(best: tuple, nearest: tuple, costs: dict, rounds: dict[str, list[float]], fitting: list[tuple],
          beyond: bool) -> tuple[str, str]:
    """The other fitting plans at the next one's printed cost (twenty-fifth reading: every block at 1.17x
    beside selective at 1.17x), as " (1 more plan costs the same: ...)", and, for each whose gap to the
    cheapest the cost table's noise reads otherwise than the next one's (it may differ from the cheapest in
    another number of techniques), a sentence saying so; ("", "") where none ties."""
    cost = printed_cost(nearest, costs)
    tied = [p for p in fitting if p not in (best, nearest) and printed_cost(p, costs) == cost]
    if not tied:
        return "", ""
    verb = "plans cost" if len(tied) > 1 else "plan costs"
    named = f" ({len(tied)} more {verb} the same: {'; '.join(describe_plan(p) for p in tied)})"
    against = ""
    for plan in tied:
        _, where, apart, within = _beyond_noise(best, plan, costs, rounds)
        if apart != beyond:
            against += (f" Against {describe_plan(plan)}, the same gap is "
                        f"{'more than' if apart else within} the cost table's noise ({where}).")
    return named, against


def _wrapped(lines: list[str]) -> str:
    """One sentence a paragraph, each wrapped to the course's 110 characters."""
    return "\n".join(textwrap.fill(line, 110, subsequent_indent="  ") for line in lines)
