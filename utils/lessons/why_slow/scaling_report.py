"""Lesson 01's section 4 (how time scales with FLOPs), in sentences and tables printed from the run: does time
follow c x FLOPs + d along each axis, and what the fixed cost d is. Split from ``report`` (which re-exports
these names for the notebook)."""

from __future__ import annotations

from utils import claims
from utils.lessons.start_here.line_check import EDGE


def scaling_rows(series, fit) -> list[tuple]:
    status = scaling_holds(series, fit)
    rows = []
    for axis, pts in series.items():
        (c, d), worst = fit(pts)
        per_flop = [p.seconds / p.model_flops for p in pts]
        rows.append((axis, ", ".join(str(p.value) for p in pts), f"worst {worst:.1%}, {_d_text(pts, fit)}"
                     + D_NOTE.get(status[axis], ""),
                     f"{max(per_flop) / min(per_flop):.2f}x", f"{pts[-1].saved_bytes / pts[0].saved_bytes:.1f}x"))
    return rows


# What a fit's fixed cost d says, per axis verdict (``scaling_holds``): said beside d in the rows
D_NOTE = {"negative d": " (below zero beyond its ±: no step has one)",
          "d within noise": " (its ± covers zero: within noise)"}


def _d_text(pts, fit) -> str:
    """The fixed cost d with its noise (``scaling.fixed_cost_noise``), as printed everywhere: "d = -0.2 ± 0.2 ms"."""
    from utils.lessons.why_slow.scaling import fixed_cost_noise

    return f"d = {fit(pts)[0][1] * 1e3:+.1f} ± {fixed_cost_noise(pts) * 1e3:.1f} ms"


SCALING_COLUMNS = ["axis", "values", "fit c·FLOPs + d", "spread of time per FLOP",
                   "activations (weights left out), last / first"]


FOLLOWS = 0.10  # a fit of time = c x FLOPs + d within ±10 % at every point of an axis: time follows the formula


def scaling_holds(series, fit) -> dict[str, str]:
    """The one verdict per axis, computed here for the sentence and the claims table alike: "holds" (within
    FOLLOWS, d at or above zero), "d within noise" (within FOLLOWS, d below zero but its ± covers zero:
    neither sign shown, ``claims.within_noise``), "negative d" (within FOLLOWS, d below zero beyond its ±) or
    "off" (a point missed by more than FOLLOWS)."""
    from utils.lessons.why_slow.scaling import fixed_cost_is_negative

    def one(pts):
        if fit(pts)[1] > FOLLOWS:
            return "off"
        if fixed_cost_is_negative(pts):
            return "negative d"
        return "d within noise" if fit(pts)[0][1] < 0 else "holds"

    return {axis: one(pts) for axis, pts in series.items()}


def miss_text(worst: float) -> str:
    """A fit's worst miss as printed: to 0.1 %, with more digits where that would print the tolerance itself
    (10.04 % against ±10 % prints "10.04%"), so that the verdict can be read from the figure."""
    for digits in (1, 2, 3):
        if f"{worst:.{digits}%}" != f"{FOLLOWS:.{digits}%}" or worst == FOLLOWS:
            return f"{worst:.{digits}%}"
    return f"{worst:.3%}"


def axis_readings(series, fit, repeats: int | None = None) -> dict[str, str]:
    """Each axis's verdict (``scaling_holds``) in words, with its figures: the same words in the sentence and
    in the claims table. With ``repeats`` (the steps timed a point), a miss is called noisy under 5 repeats; a
    miss whose d is also below zero beyond its ± says so (both of the claim's conditions fail)."""
    from utils.lessons.why_slow.scaling import fixed_cost_is_negative

    status, out = scaling_holds(series, fit), {}
    for axis, pts in series.items():
        worst, d = miss_text(fit(pts)[1]), _d_text(pts, fit)
        out[axis] = {"holds": f"holds (within {worst}, {d})",
                     "d within noise": f"fits within {worst}, {d}: d within noise of zero",
                     "negative d": f"does not hold: only with a negative fixed cost, {d}",
                     "off": f"does not hold: misses by {worst}"}[status[axis]]
        if status[axis] == "off" and repeats:
            out[axis] += f" ({repeats} repeats a point{': noisy' if repeats < 5 else ''})"
        if status[axis] == "off" and fixed_cost_is_negative(pts):  # t27_0001: the row's second condition too
            out[axis] += f", and its fixed cost is below zero beyond its ± ({d})"
    return out


def holds_count(status: dict[str, str], differ: bool = False) -> str:
    """How many axes the fit holds on (``scaling_holds``): an axis whose d is within noise of zero holds too
    (neither sign of d is shown), named apart. ``differ``: the axes' fixed costs differ (``fixed_costs_differ``):
    the claim is judged per axis, each with its own c and d, and the differing d is a finding said after it
    (``scaling_verdict``), not a second verdict. The head of both the sentence and the claims table's verdict."""
    fits = [a for a, v in status.items() if v in ("holds", "d within noise")]
    noisy = [a for a, v in status.items() if v == "d within noise"]
    named = f" ({', '.join(fits)})" if fits else ""
    count = (f"on every axis ({len(fits)} of {len(status)})" if len(fits) == len(status) else
             f"on {len(fits)} of {len(status)} axes{named}")
    count += (f", d within noise of zero on {len(noisy)} ({', '.join(noisy)})" if noisy else "")
    if differ:
        # not "holds": the table's verdict ends "no one c and d model the whole step", and one cell says one thing
        # "fitted on each axis alone" said once (reader t20_0001: "per axis" three times); that d differs is
        # said once after it, by the sentence's fixed costs and by the table's finding
        # the count is of the axes that hold: an axis within ±10% left out for its negative d is not counted,
        # so the words name that condition too (reader t32_0001 #2: "within ±10% on 2 of 3 axes" beside three
        # misses all within 10%)
        d_too = " with d not below zero beyond its ±" if "negative d" in status.values() else ""
        return f"fitted on each axis alone: within ±{FOLLOWS:.0%}{d_too} {count}"
    return f"holds {count}"


def scaling_verdict(series, fit, repeats: int | None = None, base: dict | None = None) -> str:
    """The claims table's verdict: how many axes hold (``holds_count``, led by whether the axes' fixed costs
    agree), the reading of each axis that does not simply hold (``axis_readings``), and the fixed costs
    (``base``: the sizes every axis grows from, whose re-timing a difference in d must clear)."""
    status, read = scaling_holds(series, fit), axis_readings(series, fit, repeats)
    agreement = fixed_cost_agreement(series, fit, base)
    differ = agreement == "differ"
    text = holds_count(status, differ) + "".join(
        f"; {axis} {read[axis]}" for axis, v in status.items() if v != "holds")
    fitting = fitting_fixed_costs(series, fit)
    if differ:
        text += (f"; a finding across {_across(status)}: the fixed cost d differs ({_d_list(fitting)}), "
                 "so no one c and d model the whole step")
    elif agreement == "re-timed":  # t38_0001 #1: the gap is past the ±, but the same step moved as much
        text += (f"; {_across(status)} give d {_d_list(fitting)}, apart by no more than the base model's own "
                 f"re-timing ({retimed_ms(series, base):.1f} ms): no difference in d is shown")
    elif agreement == "within noise":
        # reader t25_0001 #1: the gap is past ±10% of the shortest step, but the ± printed beside the d cover it
        which = "the axes that fit" if len(fitting) < len(status) else "the axes"
        text += f"; {which} agree on d within its ± ({_d_list(fitting)})"
    elif len(fitting) > 1 and len(fitting) < len(status):
        text += f"; the axes that fit agree on d ({_d_list(fitting)})"
    return text


def scaling_failures(series, fit, repeats: int | None = None, base: dict | None = None) -> dict[str, str]:
    """The axes where step time = c x FLOPs + d does not hold, each with why, and "every axis" where the fixed
    costs differ by axis (``fixed_costs_differ``). With ``repeats`` (the steps timed a point), a miss is given
    with its size, and called noisy under 5 repeats. An axis whose d is within noise of zero is not a failure."""
    why = {"off": f"off by more than {FOLLOWS:.0%}", "negative d": "only with a negative fixed cost d"}
    out = {axis: why[v] for axis, v in scaling_holds(series, fit).items() if v in why}
    for axis in (a for a, v in out.items() if v == why["off"] and repeats):
        out[axis] = (f"misses by {miss_text(fit(series[axis])[1])}"
                     + (f" ({repeats} repeats a point: noisy)" if repeats < 5 else f" ({repeats} repeats a point)"))
    if fixed_costs_differ(series, fit, base):
        out["every axis"] = f"the fixed cost d differs by axis ({_d_list(fitting_fixed_costs(series, fit))})"
    return out


def fixed_costs(series, fit) -> dict[str, float]:
    """Each axis's fitted fixed cost d (seconds)."""
    return {axis: float(fit(pts)[0][1]) for axis, pts in series.items()}


# The verdicts (``scaling_holds``) whose fit places d: only these axes say what a fixed cost per step is
FITTING = ("holds", "d within noise")


def fitting_fixed_costs(series, fit) -> dict[str, float]:
    """The fixed cost d (seconds) of each axis whose fit holds (``FITTING``). A fit that misses, or that holds
    only with a negative d, does not place d: its d says nothing about a second fixed cost."""
    status = scaling_holds(series, fit)
    return {axis: d for axis, d in fixed_costs(series, fit).items() if status[axis] in FITTING}


def _d_list(ds: dict[str, float]) -> str:
    """"width +7.1 ms, context +6.4 ms": fixed costs as printed everywhere."""
    return ", ".join(f"{axis} {d * 1e3:+.1f} ms" for axis, d in ds.items())


def _across(status: dict[str, str]) -> str:
    """"axes" where every axis fits, else "the axes that fit": the finding is theirs alone."""
    return "axes" if all(v in FITTING for v in status.values()) else "the axes that fit"


def _shortest_ms(series, fit) -> float:
    """The shortest step measured on the axes whose fit holds (``FITTING``), in ms as printed (one decimal):
    where d weighs most. A failing axis's steps do not enter: its d is not compared (reader t25_0001 #1)."""
    status = scaling_holds(series, fit)
    steps = [p.seconds for axis, pts in series.items() if status[axis] in FITTING for p in pts]
    return claims.as_printed(min(steps or [p.seconds for pts in series.values() for p in pts]), 1, 1e-3)


def _printed_d(series, fit) -> dict[str, tuple[float, float]]:
    """Each fitting axis's d and its ± (``scaling.fixed_cost_noise``), in ms as printed beside it ("+7.7 ± 0.6")."""
    from utils.lessons.why_slow.scaling import fixed_cost_noise

    return {axis: (claims.as_printed(d, 1, 1e-3), claims.as_printed(fixed_cost_noise(series[axis]), 1, 1e-3))
            for axis, d in fitting_fixed_costs(series, fit).items()}


def base_times(series, base: dict | None) -> dict[str, float]:
    """The base model's step time on each panel (ms as printed), where ``base`` (the sizes every axis grows from:
    the settings' model) is given: one step, timed once per axis, so how far these differ is how far re-timing
    the same step moved in this run. {} where no base is given or an axis's values leave it out."""
    if not base:
        return {}
    found = {axis: next((p.seconds for p in pts if p.value == base.get(axis)), None) for axis, pts in series.items()}
    return {} if None in found.values() else {a: claims.as_printed(t, 1, 1e-3) for a, t in found.items()}


def retimed_ms(series, base: dict | None) -> float | None:
    """The widest gap between the base model's times (``base_times``), ms as printed; None where not measured."""
    times = list(base_times(series, base).values())
    return round(max(times) - min(times), 1) if len(times) > 1 else None


def fixed_cost_agreement(series, fit, base: dict | None = None) -> str:
    """Whether the d of the axes that fit (``fitting_fixed_costs``) agree, as one fixed cost per step must:
    "differ" where some two of them, as printed (ms, one decimal), are apart by more than the sum of the ± printed
    beside them (the course's noise rule, ``claims.within_noise``, on their gap), by more than the fit's
    tolerance (±FOLLOWS) of the shortest step of those axes, and by more than the base model moved between panels
    (``retimed_ms``, where ``base`` is given: a gap the same step's re-timing covers is noise, reader t38_0001 #1);
    "re-timed" where only that last test fails; "within noise" where every such gap past the tolerance is covered
    by the two ±; "within tolerance" otherwise (fewer than two axes fit included)."""
    ds, limit = list(_printed_d(series, fit).values()), FOLLOWS * _shortest_ms(series, fit)
    wide = [(a, b) for i, a in enumerate(ds) for b in ds[i + 1:] if round(abs(a[0] - b[0]), 1) > limit]
    past = [(a, b) for a, b in wide if not claims.within_noise(round(abs(a[0] - b[0]), 1), a[1] + b[1], 0.0)]
    if past:
        retimed = retimed_ms(series, base)
        cleared = retimed is None or any(round(abs(a[0] - b[0]), 1) > retimed for a, b in past)
        return "differ" if cleared else "re-timed"
    return "within noise" if wide else "within tolerance"


def _retimed_words(series, base: dict) -> str:
    """"the base model, a point on every panel, took 52.0, 38.5 and 39.5 ms (13.5 ms apart)"."""
    times = [f"{t:.1f}" for t in base_times(series, base).values()]
    listed = times[0] if len(times) == 1 else ", ".join(times[:-1]) + " and " + times[-1]
    return f"the base model, a point on every panel, took {listed} ms ({retimed_ms(series, base):.1f} ms apart)"


def _gap_words(series, fit) -> str:
    """"they differ by 0.4 ms," (two axes) or "their widest gap is 0.6 ms," (more): the largest gap between the
    fitting axes' d as printed (ms, one decimal), the figure ``fixed_cost_agreement`` sets against the tolerance."""
    ds = [d for d, _ in _printed_d(series, fit).values()]
    gap = round(max(ds) - min(ds), 1)
    return f"they differ by {gap:.1f} ms," if len(ds) == 2 else f"their widest gap is {gap:.1f} ms,"


def fixed_costs_differ(series, fit, base: dict | None = None) -> bool:
    """A fixed cost per step is one cost, whichever size grows: the d of the axes that fit differ only where
    ``fixed_cost_agreement`` finds a gap past their ±, the fit's tolerance of the shortest step and the base
    model's re-timing."""
    return fixed_cost_agreement(series, fit, base) == "differ"


def _unfit_d(series, fit) -> list[str]:
    """"depth's +0.2 ms comes from a fit that misses by 17.0%": per axis whose fit does not hold, its d and why
    that d places no fixed cost (the fit that gave it fails); a miss whose d is also below zero beyond its ± says
    so, as the claims row does (``axis_readings``; t28_0001: the sentence gave only the miss)."""
    from utils.lessons.why_slow.scaling import fixed_cost_is_negative

    status, ds = scaling_holds(series, fit), fixed_costs(series, fit)
    below = lambda a: (f" and lies below zero beyond its ± ({_d_text(series[a], fit)})"  # noqa: E731
                       if fixed_cost_is_negative(series[a]) else "")
    why = {"off": lambda a: f"misses by {miss_text(fit(series[a])[1])}{below(a)}",
           "negative d": lambda a: "holds only with a negative fixed cost"}
    return [f"{axis}'s {ds[axis] * 1e3:+.1f} ms comes from a fit that {why[v](axis)}"
            for axis, v in status.items() if v not in FITTING]


def fixed_cost_sentence(series, fit, base: dict | None = None) -> str:
    """Whether the fixed costs of the axes that fit agree, as one fixed cost per step must (every branch: they
    differ, they agree, fewer than two axes fit). A failing axis's d is named with why it counts for nothing."""
    fitting, unfit = fitting_fixed_costs(series, fit), _unfit_d(series, fit)
    # the shortest step of the axes that fit (``_shortest_ms``), not of the plot (t28_0001: depth's 10 ms step)
    shortest = f"{_shortest_ms(series, fit):.1f} ms"
    of = "the shortest step of the axes that fit" if unfit else "the shortest step"
    unfit_text = "; ".join(unfit)
    if len(fitting) < 2:
        one = f"only {_d_list(fitting)} comes from a fit that holds" if fitting else "no axis's fit holds"
        # the others' d are printed in ``unfit_text``: what is missing is a second one from a fit that holds
        held = "no second fixed cost comes" if fitting else "no fixed cost comes"
        return (f" Fixed cost per step: {one}; {unfit_text}. So {held} from a fit that holds, and no two axes' "
                "fixed costs can be compared here.")
    listed = ", ".join(f"{d * 1e3:+.1f} ms along {axis}" for axis, d in fitting.items())
    head = f" The fixed cost per step comes out {listed}" + (" (the axes that fit)" if unfit else "")
    # one failing axis is "it", more are "they": the closing clause names what its fit cannot show
    left = ("" if not unfit else f" ({unfit_text}: {'it is' if len(unfit) == 1 else 'they are'} left out)")
    agreement = fixed_cost_agreement(series, fit, base)
    retimed = f", and by more than {_retimed_words(series, base)}" if retimed_ms(series, base) is not None else ""
    if agreement == "re-timed":  # t38_0001 #1: a gap the same step's re-timing covers is no finding
        return (f"{head}: {_gap_words(series, fit)} more than the ± printed beside each d and ±{FOLLOWS:.0%} of "
                f"{of} ({shortest}), but no more than one step moved when timed again: {_retimed_words(series, base)}"
                f"; so no difference in fixed cost is shown{left}.")
    if agreement == "differ":
        return (f"{head}: one cost per step cannot differ by which size grows (they differ by more than the ± "
                f"printed beside each d, and by more than ±{FOLLOWS:.0%} of {of}, {shortest}{retimed}), so "
                f"c × FLOPs + d misses something: a cost that grows with some sizes but not as the formula's FLOPs "
                f"do{left}. Each axis's fit describes that axis alone.")
    # reader t25_0001 #1: a gap past ±10% of the shortest step that the printed ± cover is no finding
    # t28_0001: "within the ± printed beside each d of each other" needed a second reading; the rule is the gap
    # against the two ± added (``fixed_cost_agreement``). t29_0001: "within ±10% of the shortest step (13.6 ms)
    # of each other" still did; the gap itself is printed, then what it is set against
    near = ("apart by no more than the two ± printed beside them added together (their gap is more than "
            f"±{FOLLOWS:.0%} of {of}, {shortest}, but those ± cover it)"
            if agreement == "within noise" else
            f"{_gap_words(series, fit)} no more than {FOLLOWS:.0%} of {of} ({shortest})")
    if unfit:
        return (f"{head}: {near}, as one fixed cost per step should; {unfit_text}, so "
                f"{'its d is' if len(unfit) == 1 else 'their d are'} no second fixed cost from a fit that holds.")
    return f"{head}: {near}, as one fixed cost per step should."


def scaling_sentence(series, fit, base: dict | None = None) -> str:
    """Whether step time = c x (formula FLOPs) + d, one rate and one fixed cost per axis, fits every point
    with a fixed cost no step could lack (d >= 0 within the fit). ``base``: the sizes every axis grows from
    (``fixed_cost_agreement``)."""
    status = scaling_holds(series, fit)
    worst = {axis: fit(pts)[1] for axis, pts in series.items()}
    parts = [f"{axis} {'within' if w <= FOLLOWS else 'off by up to'} {miss_text(w)}" for axis, w in worst.items()]
    flat = {axis: max(p.seconds / p.model_flops for p in pts) / min(p.seconds / p.model_flops for p in pts)
            for axis, pts in series.items()}
    most = max(flat, key=flat.get)
    noisy = [axis for axis, v in status.items() if v == "d within noise"]
    differ = fixed_costs_differ(series, fit, base)
    how = ("" if differ else f"fitted per axis within the ±{FOLLOWS:.0%} tolerance, ")  # else: holds_count says it
    text = (f"Step time = c × (the formula's FLOPs) + d, one rate c and one fixed cost d {how}"
            f"{holds_count(status, differ)}: {', '.join(parts)}.")
    for axis in noisy:
        text += (f" Along {axis} the fixed cost comes out below zero but within noise ({_d_text(series[axis], fit)}"
                 ", the ± being the fit's worst miss at its smallest step): zero is not ruled out, and a negative "
                 "cost is not shown.")
    for axis in (a for a, v in status.items() if v == "negative d"):
        pts = series[axis]
        # ps per FLOP as printed (one decimal): the end-to-end ratio is worked from those two figures
        first, last = (claims.as_printed(p.seconds / p.model_flops, 1, 1e-12) for p in (pts[0], pts[-1]))
        text += (f" Along {axis} the line fits only with a negative fixed cost ({_d_text(pts, fit)}, below zero "
                 f"beyond its ±, the fit's worst miss at its smallest step): no step has one, so there the time is "
                 f"not a rate x FLOPs plus a fixed cost; time per FLOP went from {first:.1f} to {last:.1f} ps "
                 f"between the smallest and the largest {axis} ({last / (first or 0.1):.2f}x, end to end; the spread below "
                 "is the slowest point over the fastest).")
    return (text + fixed_cost_sentence(series, fit, base)
            + f" Time per FLOP varies most along {most} ({flat[most]:.2f}x, its slowest point over its fastest)."
            + flat_and_fit_sentence(flat, worst, [a for a, v in status.items() if v == "negative d"]))


def _tied(axis: str, shown: dict[str, str], others: list[str]) -> str:
    """", tied with width's 3.9%" for the axes of ``others`` (not ``axis``) printed the same figure."""
    same = [a for a in others if a != axis]
    return f", tied with {' and '.join(a + chr(39) + 's' for a in same)} {shown[axis]}" if same else ""


def _near_best(miss_shown: dict[str, float], axis: str) -> bool:
    """Whether ``axis``'s worst miss (in %, as printed) lies within ``EDGE`` (one noisy point's miss) of the best
    fit's: each point is the fastest of a few steps, so a smaller gap cannot tell the two fits apart
    (t39_0001 #2: 6.9% against 6.7% was printed as "the two readings differ"). Compared in tenths of a percent."""
    return round(10 * (miss_shown[axis] - min(miss_shown.values()))) <= round(1000 * EDGE)


def _near_best_sentence(axis: str, head: str, misses: str, negative: bool) -> str:
    """The flattest axis's fit misses more than the best fit's, but by no more than one noisy point's miss."""
    within = (f"misses within {round(EDGE * 100)} points of the best fit ({misses}), the most one noisy point may "
              "miss by")
    if negative:
        return (f" Here {axis} is the flattest axis and its line {within}, but only with a negative d, so neither reading "
                "gives it a fixed cost.")
    return f" Here {head}, {within}: the two readings do not tell these axes apart."


def flat_and_fit_sentence(flat: dict[str, float], worst: dict[str, float], negative=()) -> str:
    """The spread of time per FLOP and the fit's worst miss measure different things: a flat axis has one rate
    and no fixed cost; the fit allows a fixed cost d, so it can follow an axis whose time per FLOP varies and
    miss a flat one by a single noisy point. Says whether this run's flattest axis is also its best fit,
    judged on the figures as printed: 3.9% against 3.9% is a tie (the eleventh reading), so they agree.
    ``negative``: the axes whose fit holds only with a negative d, named so where the flattest is one of them
    (reader t32_0001: depth was set beside the best fit just after the sentence had left it out)."""
    # each figure as printed (claims.as_printed): the text and the comparison are made from the same number
    flat_shown = {a: claims.as_printed(v, 2) for a, v in flat.items()}  # "1.75x"
    miss_shown = {a: claims.as_printed(100 * w, 1) for a, w in worst.items()}  # "3.9%", as f"{w:.1%}" prints it
    spread = {a: f"{v:.2f}x" for a, v in flat_shown.items()}
    miss = {a: f"{w:.1f}%" for a, w in miss_shown.items()}
    flattest = [a for a in flat if flat_shown[a] == min(flat_shown.values())]
    best = [a for a in worst if miss_shown[a] == min(miss_shown.values())]
    # among axes tied for flattest, name one that is also a best fit where there is one
    axis = next((a for a in flattest if a in best), flattest[0])
    head = f"the flattest axis, {axis} ({spread[axis]}{_tied(axis, spread, flattest)})"
    if axis in negative:
        head += ", whose fit holds only with a negative d"
    if axis in negative and (axis in best or len(flat) < 2):  # both readings: no fixed cost (t35_0001 other)
        return (f" Here {axis} is the flattest axis ({spread[axis]}{_tied(axis, spread, flattest)}) and its line "
                f"misses least ({miss[axis]}{_tied(axis, miss, best)}), but only with a negative d, so neither "
                "reading gives it a fixed cost.")
    against = " and ".join(f"{a}'s" for a in best)
    if axis not in best and len(flat) >= 2 and _near_best(miss_shown, axis):
        return _near_best_sentence(axis, head, f"{miss[axis]}, against {against} {miss[best[0]]}", axis in negative)
    if axis in best or len(flat) < 2:
        return f" Here {head}, is also the best fit ({miss[axis]}{_tied(axis, miss, best)}): the two readings agree."
    return (f" The two readings differ here: {head}, is not the best fit ({miss[axis]}, against {against} "
            f"{miss[best[0]]}). Flat time per FLOP means one rate and no fixed cost; the fit allows a fixed cost "
            "d, so it can follow an axis whose time per FLOP varies and miss a flat one by one slow point.")


def activations_sentence(series) -> str:
    """How the saved activations grew along each axis against the axis's own growth (every branch written):
    per layer they are the batch of tokens x the width, so at most linear in width, depth and (with the fused
    attention) context; a larger growth means a term above linear was saved. Judged on the ratios as printed
    (one decimal, the bytes are counted, not timed): "x8.0" on a x8 axis is at it, "x8.1" past it."""
    grew = {axis: (pts[-1].value / pts[0].value,
                   claims.as_printed(pts[-1].saved_bytes / pts[0].saved_bytes, 1))
            for axis, pts in series.items()}
    parts = ", ".join(f"{axis} x{size:g}: activations x{act:.1f}" for axis, (size, act) in grew.items())
    faster = [axis for axis, (size, act) in grew.items() if act > size]
    text = (f"Saved activations (the weights autograd also keeps left out: they are the model's own, counted in "
            f"weights+grads+AdamW): {parts}. ")
    if faster:
        return text + (f"{_names(faster)} grew them faster than the axis itself: a term above linear was saved "
                       "(attention's T² scores, where a kernel keeps them).")
    under = [axis for axis, (size, act) in grew.items() if act < size]
    at = [axis for axis in grew if axis not in under]
    text += "None grew faster than its axis: linear at most, as the batch of tokens x the width per layer says."
    if at:
        text += f" {_names(at)} grew them as fast as {'its axis' if len(at) == 1 else 'their axes'}."
    if under:
        many = len(under) > 1
        # the logits (batch x tokens x vocabulary) are one such part of width and depth, never of context
        logits = "" if "context" in under else " (the logits, batch x tokens x vocabulary, for one)"
        text += (f" {_names(under)} keep{'' if many else 's'} a ratio under {'theirs' if many else 'its own'}: "
                 f"some saved parts do not grow with {'them' if many else 'it'}{logits}.")
    return text


def _names(axes) -> str:
    """"width", "width and depth", "width, depth and context": axes named as a sentence lists them."""
    axes = list(axes)
    return axes[0] if len(axes) == 1 else f"{', '.join(axes[:-1])} and {axes[-1]}"
