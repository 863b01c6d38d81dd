"""Lab 04's words on the speed check's figures, for the plan's Speed line (``checks._speed_line``): what the one
change between the learner's model and the bar did, and the speed-up the widths would give were time in
proportion to the work (a reference set on a line of its own: thirty-second reading, the Speed line was dense).
Pure functions of the printed figures; no side effects on import."""

from __future__ import annotations

from typing import TYPE_CHECKING

from utils import claims

if TYPE_CHECKING:  # for the annotations only: checks imports this module
    from utils.labs.compress_under_budget.checks import PairedSpeed


def proportional_words(ratio: float, gain: float, fewer: float, kind: str, same_kind: bool) -> str:
    """A reference beside the speed-up over the trained model (every branch written): the speed-up were time in
    proportion to the work, one multiply-add per weight a sample, a bias's add left out (``fewer``: the whole
    model's weights over yours, ``_weights``, as the plan line counts them) and, for a model stored as int8
    of the whole model is, int8's measured ``gain`` the same at every width. A reference, not a ceiling:
    per-call costs can keep a thin model below it, caches can lift it above. Judged on the printed figures."""
    if same_kind:
        ref = claims.as_printed(fewer, 2) * claims.as_printed(gain, 2)
        said = (f"were time in proportion to the work, a multiply-add a weight ({fewer:.2f}x fewer weights "
                f"than the whole model's), and int8's gain the same at every width, yours would run "
                f"{fewer:.2f}x int8 of the whole model's speed and {fewer:.2f} x {gain:.2f} = {ref:.2f}x the "
                "trained model's")
    elif kind == "float":
        ref = claims.as_printed(fewer, 2)
        said = (f"were time in proportion to the work, a multiply-add a weight ({fewer:.2f}x fewer weights "
                f"than the trained model's, both float), yours would run {ref:.2f}x the trained model's speed")
    else:
        return (f"no reference beside these speed-ups: the lab times no {kind.replace('_', ' ')} model of the "
                "whole widths to set yours against")
    shown, ref = claims.as_printed(ratio, 2), claims.as_printed(ref, 2)
    if shown < ref:
        return (f"{said}: the measured {shown:.2f}x is {shown / ref:.0%} of that; the costs that do not shrink "
                "with the widths (each call's own, the activations' traffic, the other layers) weigh more in a "
                "thinner model, and this run does not measure which")
    if shown == ref:
        return f"{said}: the measured {shown:.2f}x is that proportional speed-up"
    return (f"{said}: the measured {shown:.2f}x is above it, the thinner layers faster per multiply-add (smaller "
            "weights sit in faster caches, for one; this run does not measure why)")


def in_proportion(speed: PairedSpeed, kind: str, same_kind: bool) -> str:
    """The speed-up over the trained model beside its value in proportion to the work (``proportional_words``),
    the plan's Speed line's last sentence, on a line of its own; "" where the speed check did not count the weights (``fewer``)."""
    if speed.fewer is None:
        return ""
    words = proportional_words(speed.ratio, speed.gain, speed.fewer, kind, same_kind)
    return words[:1].upper() + words[1:] + "."


def what_it_did(change: str, speed: PairedSpeed) -> str:
    """What the one ``change`` between yours and the bar did to the speed, read from the printed ``over ±
    spread`` by the course's noise rule (``claims.speedup_verdict``), every outcome in its own words: "made the
    difference" only where yours ran faster than the bar beyond noise."""
    verdict = claims.speedup_verdict(claims.as_printed(speed.over, 2), spread=claims.as_printed(speed.spread, 2))
    if verdict.startswith("faster"):
        return f"{change} made the difference"
    if verdict.startswith("within noise"):
        return f"{change} made no difference this run can tell from its noise (its ± covers 1.00x)"
    if verdict.startswith("slower"):
        return f"{change} made yours slower, not faster"
    return f"{change} made no difference (1.00x, no spread)"  # equal as printed, every round alike
