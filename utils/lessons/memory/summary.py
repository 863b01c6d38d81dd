"""Lesson 06's answers as sentences and tables built from the run's figures, and the rows of its "What this
lesson measured" table (``utils.claims``): nothing here is written by hand.

    show(collectives_table(RUNS))                 # per strategy and collective (collectives.py, re-exported)
    show_claims(lesson_claims(MEASURED, TIMES, RUNS))
"""

from __future__ import annotations

import math
import statistics
import textwrap

from utils import claims
# the collectives' table and sentences live in their own module; re-exported: the notebook and tests import
# them from here
from utils.lessons.memory.collectives import (collectives_answer, collectives_sentence,  # noqa: F401
                                              collectives_table, inside_collectives, inside_ms_as_printed)
from utils.lessons.memory.forward_bound import blocks_forward_range, predicted_speed, ratio_in_forwards
# part_over_whole is re-exported: the tests import it from here, beside the other verdicts
from utils.lessons.memory.policy_cost import ms_range, part_over_whole  # noqa: F401
from utils.lessons.memory.report import relative_error
from utils.lessons.memory.sharding import wire_bytes
# time_verdict is re-exported: the notebook and the tests import it from here, beside the other verdicts
from utils.lessons.memory.step_verdicts import (accumulation_verdict, as_shown, chunked_cost,  # noqa: F401
                                                rounds_named, time_verdict)
from utils.lessons.memory.threads_rounds import (across_verdict, every_round_past, outlying_clause, reach_working,
                                                 rounds_past_floor)
from utils.tables import Table

MB = 1e6
WITHIN = 0.10  # the calculator's tolerance (not a bound): within 10 % of the measured peak
# FSDP2's 1/N: each parameter's first dimension is split in N, padded up where it does not divide, so a rank's
# share of the state can sit a little off 1/N; within 1 % of it agrees with the prediction
SHARE_TOLERANCE = 0.01


def fill(text: str) -> str:
    """A printed sentence, wrapped at the course's 110 characters. Lesson 06."""
    return textwrap.fill(text, 110)


def peaks_table(rows: dict, times: dict | None = None, label: str = "",
                relative_to: str | None = None, spreads: dict | None = None, ratios: dict | None = None) -> Table:
    """Configuration | calculator | measured | error | step ms (where timed, at 0.1 ms: the precision the
    sentences work in); ``relative_to``: the step as a multiple of that configuration's, timed in the same rounds
    (its ms given once, where first measured): ``ratios[name]`` where given (``measure.step_ratio``'s median of
    the rounds' own ratios, the sentence's figure), else divided from the ms as printed; each with its paired
    rounds' spread from ``spreads`` (name -> spread); the reference row reads "1 (reference)"."""
    body = []
    for name, (budget, m) in rows.items():
        t = (times or {}).get(name)
        ratio = (ratios or {}).get(name)
        if ratio is None and t is not None and relative_to:   # the ms as printed, a reader's division
            ratio = claims.printed_ratio(t, times[relative_to], 1, 1e-3)
        step = ("-" if t is None else f"{t * 1e3:.1f}" if relative_to is None else
                "1 (reference)" if name == relative_to else
                f"{ratio:.2f}x" + (f" ± {spreads[name]:.2f}" if spreads and name in spreads else ""))
        body.append((name, f"{budget.peak / MB:.2f}", f"{m.peak / MB:.2f}", f"{relative_error(budget.peak, m.peak):+.1%}",
                     step))
    column = "step (ms)" if relative_to is None else f"step time (x {relative_to}; above 1: slower)"
    return Table(["configuration", "calculator (MB)", "measured (MB)", "error", column], body,
                 title=f"Peak memory and step time{label}")


def noise_seconds(spread: float, step: float, floor: float = 0.0) -> float:
    """The rounds' noise in seconds: the ``± spread`` as printed beside the step's ratio (2 decimals), at least
    ``floor``, times the plain ``step``, so that "1.22x ± 0.02" on a 78.0 ms step gives 1.6 ms, as a reader
    finds it (not 1.8 ms from the unrounded 0.023). Lesson 06."""
    return max(claims.as_printed(spread, 2), floor) * step


def noise_name(spread: float, floor: float = 0.0) -> str:
    """What set the noise that ``noise_seconds`` gives, in words: the rounds' ``± spread`` as printed, or the
    ``floor`` where that is the larger, named as such ("1.21x ± 0.01" on an 81.0 ms step is 0.8 ms; the 2 %
    floor, 1.6 ms, is what a reader must be told was used). ``spread``: unrounded, to 3 decimals
    (``report.unrounded_spread``), as the rounds' working prints it: 0.015 is under a 0.02 floor though it
    prints 0.02, and the page names the floor there as its working does (t32_0506 #5). Lesson 06."""
    raw = claims.half_up(spread, 3)
    if floor > raw:
        return f"the noise floor, {floor:.0%} of the plain step, used as it exceeds the rounds' own ± {raw:.3f}"
    # half up, as the rounds' working prints it (0.045 -> ± 0.05; ``round`` gives 0.04: t34_0506 #1)
    return f"the rounds' noise, their ± {claims.half_up(spread, 2):.2f} of the plain step"


def step_parts(what: str, plain: dict, variant: dict, predicted: dict, tolerance: float,
               step_off: bool = True, forward_basis: str = "", noise: str = "the rounds' noise",
               basis: str = "") -> str:
    """A checkpointed step's extra time over the plain step, in two measured parts that add up to it: its
    forward (``loss_forward``: the loss, recording the graph) against the plain forward, and the rest (backward
    and AdamW: the step less its forward) against the plain rest; each beside what the prediction put there
    (``predicted``: {"forward": s, "rest": s}), and said where a part is off it by more than ``tolerance``
    seconds (the rounds' noise). ``plain``, ``variant``: {"forward": s, "step": s}. ``step_off``: whether the
    whole step left its prediction beyond the noise (if not, parts within the noise agree with it, nothing is
    left to locate); ``forward_basis``: where the forward's prediction came from, said beside it; ``noise``:
    what set ``tolerance`` (``noise_name``), so that its ms can be redone from the page; ``basis``: which runs
    the parts come from, said after "extra step time" (the fastest runs, beside a headline of medians). Lesson 06."""
    forward, rest = _parts(plain, variant)
    out = (f"{what}'s extra step time{basis}, {(forward + rest) * 1e3:+.1f} ms, in two parts measured in the same rounds "
           f"(they add up to it): its forward {forward * 1e3:+.1f} ms against the plain forward (the prediction "
           f"puts {ms_range(*_ends(predicted['forward']), signed=True)} there{forward_basis}), its backward and "
           f"AdamW {rest * 1e3:+.1f} ms (predicted {ms_range(*_ends(predicted['rest']), signed=True)})")
    beyond = parts_off(plain, variant, predicted, tolerance)
    if not beyond:
        return out + (f": each part within {_noise_ms(tolerance):.1f} ms of its prediction ({noise}), so "
                      + ("the parts cannot say where the step's time differs from the prediction." if step_off else
                         "the parts agree with the prediction, as the whole step's fastest run does."))
    # neither candidate below is timed in this run: each is named as a hypothesis
    fewer = (" (a hypothesis, not timed apart here: it runs the plain forward's operations but saves fewer "
             "activations for the backward, and saving them takes time the prediction left out)"
             if predicted["forward"] == 0 else
             " (the policy's cost or the fewer activations it saves: not timed apart here)")
    why = {("forward", True): fewer,
           ("backward and AdamW", True): " (the backward with its recompute took less than the plain backward "
                                         "plus the same forward timed alone; a hypothesis, not timed apart here: "
                                         "the forward timed alone pays its own call's start and end and allocates "
                                         "fresh activations, where the recompute runs inside the backward, on "
                                         "memory the backward has just freed)"}
    said = "; ".join(f"its {k} {abs(v) * 1e3:.1f} ms {'under' if v < 0 else 'over'} the prediction"
                     + why.get((k, v < 0), " (why is not timed apart here)") for k, v in beyond.items())
    # the ms first, then what set them: "by more than 1.4 ms (the noise floor, ...)" (t26_0506: hard to parse)
    return out + f". Off the prediction by more than {_noise_ms(tolerance):.1f} ms ({noise}); {said}."


def _parts(plain: dict, variant: dict) -> tuple[float, float]:
    """A variant step's extra seconds over the plain step: (its forward's, its backward and AdamW's), worked
    from the times as the step-times table prints them (0.1 ms): 24.8 - 25.4 reads -0.6 ms, as a reader's does."""
    p, v = ({part: _printed_ms(s) for part, s in d.items()} for d in (plain, variant))
    forward = v["forward"] - p["forward"]
    rest = (v["step"] - v["forward"]) - (p["step"] - p["forward"])
    return forward * 1e-3, rest * 1e-3


def _printed_ms(seconds: float) -> float:
    """``seconds`` in ms as the step-times table prints them (0.1 ms): the parts are worked from these."""
    return claims.as_printed(seconds, 1, 1e-3)


def _noise_ms(tolerance: float) -> float:
    """The rounds' noise (seconds: a printed ± x a printed step, ``noise_seconds``) in ms as printed, rounded
    half up as a reader rounds the product: 0.06 x 72.5 ms = 4.35 reads 4.4 ms (``round`` gives 4.3, 4.35 being
    stored as 4.3499...: t36_0506 #2). Every verdict against the noise reads this same figure."""
    return claims.half_up(tolerance * 1e3, 1)


def parts_off(plain: dict, variant: dict, predicted: dict, tolerance: float) -> dict[str, float]:
    """``step_parts``' parts whose extra time is off its prediction by more than ``tolerance`` seconds (the
    rounds' noise): part -> seconds off. Empty: the parts cannot say where a step left its prediction."""
    forward, rest = _parts(plain, variant)
    off = {"forward": _off(forward, predicted["forward"]), "backward and AdamW": _off(rest, predicted["rest"])}
    return {k: v for k, v in off.items() if not _within_ms(v, tolerance)}


def _ends(predicted) -> tuple[float, float]:
    """A prediction (seconds) as (low, high): a figure is both ends; a range (selective's) is itself."""
    return (predicted, predicted) if isinstance(predicted, (int, float)) else tuple(predicted)


def _off(measured: float, predicted) -> float:
    """Seconds ``measured`` lies off a prediction (a figure or a (low, high) range), both in ms as printed:
    from the nearer end, 0 inside the range."""
    low, high = (_printed_ms(v) * 1e-3 for v in _ends(predicted))
    return measured - low if measured < low else measured - high if measured > high else 0.0


def _within_ms(off: float, tolerance: float) -> bool:
    """The one rule for a miss against the rounds' noise, both in ms as printed (0.1 ms): a 1.7 ms miss is
    within a ± printed 1.7 ms. The whole step's miss and its parts' are judged by it alike."""
    return abs(claims.half_up(off * 1e3, 1)) <= _noise_ms(tolerance)


def prediction_within(measured: float, predicted: float, tolerance: float) -> bool:
    """Whether a step's time (seconds) is within ``tolerance`` seconds of its prediction, both in ms as
    printed (``_within_ms``): the rule ``prediction_miss`` words and ``step_parts``' ``step_off`` reads."""
    return _within_ms(_off(_printed_ms(measured) * 1e-3, predicted), tolerance)


def prediction_miss(measured: float, predicted: float, plain: float, tolerance: float, noise: str,
                    located: bool) -> str:
    """A step's time against its prediction, in ms as printed, judged by ``_within_ms`` against ``tolerance``
    seconds (the rounds' noise, a share of the plain step, named by ``noise``), so that the whole step and
    ``step_parts`` (the same rule, the same basis) cannot disagree: "+2.2 ms (+2.6% of the plain step): above
    it by more than 1.7 ms (the rounds' noise, ...)". ``located``: whether ``parts_off`` found a part off. Lesson 06."""
    miss = _off(_printed_ms(measured) * 1e-3, predicted)
    low, high = _ends(predicted)
    if low != high and miss == 0:   # a range (selective's prediction): inside it is no miss at all
        return "inside that range"
    end = "" if low == high else f" from its {'low' if miss < 0 else 'high'} end"
    share = claims.half_up(100 * claims.as_printed(miss, 1, 1e-3) / _printed_ms(plain), 1)   # -3.4/80.0: -4.3%
    said = f"{miss * 1e3:+.1f} ms{end} ({share:+.1f}% of the plain step)"
    # the ms first, then what set them, as ``step_parts`` says it: "(± 1.2 ms)" after "± 0.015" read as that
    # ± in ms, where 1.2 ms was the floor's (t33_0506 #2)
    ms = f"{_noise_ms(tolerance):.1f} ms"
    if prediction_within(measured, predicted, tolerance):
        return f"{said}: within {ms} of that prediction ({noise})"
    where = ("the parts below say where" if located else
             "the parts below, each within that noise of its own prediction, cannot say where")
    return f"{said}: {'above' if miss > 0 else 'below'} it by more than {ms} ({noise}); {where}"


def median_elsewhere(fastest: float, median: float, predicted, tolerance: float, working: str = "") -> str:
    """Selective's step is judged against its prediction on the prediction's own basis, the fastest run of
    each (``prediction_miss(fastest, ...)``), as its parts are; its paired reading (``step_from_ratio``: the
    headline's median ratio x the plain step's fastest run, not its rounds' median) is said beside it only
    where it falls on the other side of the rule (within against beyond, or above against below), so the two
    bases never point opposite ways unsaid (t31_0506 #1). Where the reading lies beyond the noise, the two
    bases disagree and neither is taken: the reading is a ratio set on one round's plain step, so it says
    nothing about which of selective's rounds were fast or slow (t35_0506 #1). ``working``: how the reading was
    found, "1.19 x 64.3", printed before its ms. "" where both read the same. All in ms as printed, by
    ``_within_ms``. Lesson 06."""
    def side(measured: float) -> int:
        off = _off(_printed_ms(measured) * 1e-3, predicted)
        return 0 if _within_ms(off, tolerance) else (1 if off > 0 else -1)
    fast_side, median_side = side(fastest), side(median)
    if fast_side == median_side:
        return ""
    off = _off(_printed_ms(median) * 1e-3, predicted)
    end = "" if _ends(predicted)[0] == _ends(predicted)[1] else f" from its {'low' if off < 0 else 'high'} end"
    shown = f"{working} = {_printed_ms(median):.1f} ms" if working else f"{_printed_ms(median):.1f} ms"
    said = f"its paired reading ({shown}) lies {off * 1e3:+.1f} ms{end}"
    if median_side == 0:
        return (f"{said}, within that noise: only its fastest run lies {'above' if fast_side > 0 else 'below'} "
                "it, one round's figure")
    return (f"{said}, {'above' if median_side > 0 else 'below'} it beyond that noise: the two bases disagree "
            "(the fastest runs may come from different rounds), so this run does not say whether selective "
            "met its prediction")


def share_verdict(share: float, n: int) -> str:
    """A rank's state under FSDP2 as a share of DDP's, beside the prediction 1/N: a share equal to 1/N agrees
    with a prediction (within ``SHARE_TOLERANCE``); it is not a bound reached. Lesson 06."""
    off = share * n - 1
    if abs(off) <= SHARE_TOLERANCE:
        return f"agrees with the prediction 1/{n} (within {SHARE_TOLERANCE:.0%})"
    return f"off the prediction 1/{n} by {off:+.1%}: a finding to explain"


def policy_clause(policy: float, spread: float) -> str:
    """Selective checkpointing's whole forward alone against the plain one (``policy``, x the plain time, with
    its rounds' ``spread``), as a clause of the "not shown cheap" reading: the policy's own cost is named as a
    reason only where that forward was slower beyond its ±, as printed; 0.97x ± 0.02 is no cost, and then the
    step's extra time lies in the backward and AdamW (the step less its forward). Lesson 06."""
    shown, pm = claims.as_printed(policy, 2), claims.as_printed(spread, 2)
    head = f"its whole forward alone took {shown:.2f}x ± {pm:.2f} the plain one"
    if shown > 1 and not claims.within_noise(shown, pm):   # the course's one noise rule, on the printed figures
        return head + " (the policy deciding, operation by operation, what to keep): slower beyond its ±"
    return (head + ": no cost of the policy shown there, so the step's extra time lies in its backward and "
            "AdamW (the step less its forward)")


def share_range(part: float, whole: float, part_pm: float, whole_pm: float) -> tuple[float, float]:
    """The range of ``part / whole`` that both figures' ± allow: extra step times in ms, each with its ± in ms,
    all as printed (0.1 ms: "+13.6 ms", "± 9.1 ms"). The lowest share is the smallest part over the largest
    whole, the highest the largest part over the smallest whole (moving one ± alone would read the share more
    exactly than the rounds measured it). Never under 0; where the whole's ± reaches zero, no upper end
    (``math.inf``). Lesson 06 (selective's extra time over full checkpointing's)."""
    part, whole, part_pm, whole_pm = (claims.as_printed(v, 1) for v in (part, whole, part_pm, whole_pm))
    if whole - whole_pm <= 0:   # the whole may be nothing at all: any share fits
        return 0.0, math.inf
    return max((part - part_pm) / (whole + whole_pm), 0.0), (part + part_pm) / (whole - whole_pm)


def share_with_range(part: float, whole: float, part_pm: float, whole_pm: float, of_what: str) -> str:
    """``part / whole`` in whole percent ``of_what``, with ``share_range``'s range, worked from the extra times
    in ms as the page prints them (+13.6 and +19.8 ms, not the rounded ratios 1.16x and 1.24x: 0.16 / 0.24
    would read 67% where 13.6 / 19.8 is 69%), rounded half up as a reader rounds: "69% of full's extra time
    (13.6 / 19.8 ms; 18%-162% within both steps' ± 9.1 and 5.8 ms)". Lesson 06."""
    part, whole, part_pm, whole_pm = (claims.as_printed(v, 1) for v in (part, whole, part_pm, whole_pm))
    low, high = share_range(part, whole, part_pm, whole_pm)
    if high == math.inf:
        return (f"an unread share {of_what} (that extra time, {whole:+.1f} ms, is within its ± {whole_pm:.1f} ms "
                "of zero)")
    return (f"{claims.percent(part / whole)} {of_what} ({part:.1f} / {whole:.1f} ms; {claims.percent(low)}-"
            f"{claims.percent(high)} within both steps' ± {part_pm:.1f} and {whole_pm:.1f} ms)")


def saving_share(base: float, full: float, selective: float) -> str:
    """Selective's saving of the peak as a share of full checkpointing's, from the three peaks in MB as the
    peaks table prints them (2 decimals): "32% of its saving (7.39 / 22.88 MB)", which a reader redoes from the
    table (the two rounded percents beside it, 16% and 49%, would give 33%). Lesson 06."""
    base, full, selective = (claims.as_printed(v, 2, MB) for v in (base, full, selective))
    part, whole = round(base - selective, 2), round(base - full, 2)   # round again: float subtraction
    if whole <= 0:   # full checkpointing saved nothing as printed: no share to read
        return f"no share of its saving (full checkpointing's peak, {full:.2f} MB, is not below {base:.2f} MB)"
    return f"{claims.percent(part / whole)} of its saving ({part:.2f} / {whole:.2f} MB)"


def gain_range(verdict: str, value: float, spread: float, bound: float, baseline: float = 1.0) -> str:
    """A ``claims`` verdict whose share of the bound's gain is given with the range its ``± spread`` allows
    ("80% of its gain (53%-100% across its ±)"): a share is never read more exactly than the rounds measured
    it (the range from the printed figures, rounded half up: ``claims.gain_share_range``, the course's one
    rule). The range goes right after "of its gain" wherever the verdict says it, since a note may follow
    (" (every round above 1.00x)" where the ± reaches 1x: the weak case, where the range matters most).
    Other verdicts come back unchanged. Lesson 06."""
    if "of its gain" not in verdict:
        return verdict
    return verdict.replace("of its gain", "of its gain" + claims.gain_share_range(value, spread, bound, baseline), 1)


def checkpointing_summary(ckpt: dict, full_time: tuple, label: str = "", rounds: dict | None = None) -> str:
    """The Summary's checkpointing statement with this run's figure: the theory predicts one extra forward of
    the blocks; the run says what it cost, in forwards, beside that prediction: both at each end of the
    blocks' forward's range (``forward_bound``), where the whole forward printed shorter, with the ms it divides
    ("(1.20 - 1) x 62.2 = 12.44 ms over 19.9 ms"), as section 2 and the claims row print it. ``full_time``: the
    checkpointed step x the plain one read pair by pair (``measure.step_ratio``: median, ±, each round's), never
    the fastest of each divided; ``ckpt``: the fastest times, for the step and the forward in ms; ``label``:
    the lesson's " (simulated on CPU)" where the figure stands in for a GPU's, as section 2's (t32_0506 #4);
    ``rounds``: section 2's, which cap the blocks' forward at its whole pair by pair (lesson 06)."""
    s = ckpt["step"]
    ratio, noise = full_time[0], full_time[1]
    low, high = blocks_forward_range(ckpt, rounds)
    return (f"Checkpointing every block, in this run: {ratio:.2f}x ± {noise:.2f} the plain step's time (above "
            f"1: slower), the median of each round's own ratio, against the theory's one extra forward, "
            f"{predicted_speed(s, low, high)} here: "   # the ms it divides, as section 2 prints them (t27_0506)
            + ratio_in_forwards(ratio, s, low, high, noise_seconds(noise, s), working=True) + f"{label}.")


def lesson_claims(measured: dict, ckpt: dict, chunked: dict, runs: dict, label: str = "", *,
                  full_time: tuple, selective_gain: tuple,
                  accumulation_time: tuple | None = None,
                  chunked_time: tuple[float, float, list[float]] | None = None,
                  rounds: dict | None = None) -> list[claims.Claim]:
    """The Summary's statements, each with this run's figure. ``measured``: name -> (budget, Measured) at the
    lesson's shape; ``ckpt``: step times {"step", "checkpointed step", "selective step", "blocks' forward"};
    ``chunked``: name -> (budget, Measured) at the large vocabulary; ``runs``: the sharding runs;
    ``full_time``: full checkpointing's step x the plain one, ``selective_gain``: full's step x selective's
    (above 1: selective faster), both read pair by pair (``measure.step_ratio``: median, ±, each round's; the
    fastest of each, ``ckpt``, may come from different rounds, so they give only the step and forward in ms);
    ``accumulation_time``: section 3's step
    with micro-batches, x one batch's, its noise and (optional) each round's ratio (``measure.step_ratio``), or
    None: no row;
    ``chunked_time``: section 5's chunked loss step x the plain loss's, its noise and each round's ratio
    (``measure.step_ratio``), or None: no row; ``rounds``: section 2's (``blocks_forward_range``)."""
    worst = max((abs(relative_error(b.peak, m.peak)), n) for n, (b, m) in {**measured, **chunked}.items())
    rows = [claims.Claim("the calculator's total lands within its tolerance of every measured peak (its lines: "
                         "section 1)", f"{worst[0]:.1%} off ({worst[1]})",
                         f"tolerance {WITHIN:.0%}", "within the tolerance" if worst[0] <= WITHIN else
                         "outside the tolerance: a line the calculator misses")]
    base = measured["fp32"][1].peak
    s = ckpt["step"]
    full, full_noise = full_time[0], full_time[1]
    low, high = blocks_forward_range(ckpt, rounds)   # the forward the prediction adds, at most its whole
    rows.append(claims.Claim("checkpointing every block costs time: predicted, one extra forward",
                             f"{full:.2f}x ± {full_noise:.2f} the plain step's time (above 1: slower)",
                             f"prediction {predicted_speed(s, low, high)}",
                             ratio_in_forwards(full, s, low, high, noise_seconds(full_noise, s), working=True)))
    gain, noise = as_shown(*selective_gain[:2])  # judged as printed: 1.04x ± 0.04 reaches 1x, within noise
    # the bound: selective with no recompute at all would take the plain step, so full / selective <= full / plain
    bound = claims.as_printed(full, 2)
    row = claims.against_speedup("selective recomputes less: its speed, x full checkpointing's (above 1: faster; "
                                 "bound: full's step / the plain step, selective recomputing nothing)",
                                 gain, bound, spread=noise, slower="slower than full checkpointing")
    rows.append(claims.Claim(row.claim, row.measured, row.against,
                             gain_range(row.verdict, gain, claims.as_printed(noise, 2), bound)))
    # the savings from the peaks as printed (MB, 2 decimals): a reader's division of the peaks table's figures
    sel_off, full_off = (1 - claims.printed_ratio(measured[k][1].peak, base, 2, MB)
                         for k in ("fp32 + selective checkpointing", "fp32 + checkpointing"))
    rows.append(claims.Claim("selective saves less memory than full", f"{sel_off:.0%} off the peak",
                             f"full: {full_off:.0%} off", f"saves {sel_off:.0%} vs {full_off:.0%}: " +
                             ("less, as expected" if sel_off < full_off else "as much or more: a finding to explain")))
    k = [n for n in measured if "micro-batches" in n][0]
    rows.append(claims.against_reference(f"accumulation ({k}) shrinks the peak", measured[k][1].peak, base, "MB",
                                         MB, 2))
    if accumulation_time is not None:   # no direction predicted: the theory names causes both ways
        ratio, noise, *each = accumulation_time   # each round's ratio, where given, names the outlying ones
        rows.append(claims.Claim(f"accumulation ({k}): its step time, x one batch's (above 1: slower)",
                                 f"{ratio:.2f}x ± {noise:.2f}", "reference 1x (one batch)",
                                 accumulation_verdict(ratio, noise, *each)))
    auto = [n for n in measured if "autocast" in n][0]
    rows.append(claims.against_reference(f"{auto} shrinks the peak", measured[auto][1].peak, base, "MB", MB, 2))
    plain, chunks = (chunked[n][1].peak for n in chunked)
    rows.append(claims.against_reference("a chunked cross-entropy shrinks a large-vocabulary peak", chunks, plain,
                                         "MB", MB, 2))
    if chunked_time is not None:   # by theory a little slower (the logits made again): the run says
        ratio, noise, each = chunked_time
        rows.append(claims.Claim("a chunked cross-entropy: its step time, x the plain loss's (above 1: slower; "
                                 "theory: a little recompute)", f"{ratio:.2f}x ± {noise:.2f}",
                                 "reference 1x (the plain loss)", chunked_cost(ratio, noise, each)))
    ddp, fsdp = runs["ddp"][0], runs["fsdp"][0]
    # the share from the two totals as section 6's table prints them (MB, 2 decimals), as its sentence reads it
    n, share = len(runs["fsdp"]), claims.printed_ratio(fsdp["state_bytes"], ddp["state_bytes"], 2, MB)
    rows.append(claims.Claim("FSDP2 holds 1/N of DDP's state per rank", f"{share:.3f} x DDP",
                             f"prediction 1/{n} = {1 / n:.3f} x DDP", share_verdict(share, n)))
    step = fsdp_step_claim(runs)   # what the sharding costs: section 7's question, answered with a figure
    return rows + ([step] if step else [])


def fsdp_step_claim(runs: dict) -> claims.Claim | None:
    """FSDP2's step time, x DDP's, from the two mean steps as ``collectives_sentence`` prints them (0.1 ms),
    beside the ratio of the bytes a ring sends for each; judged on the steps' range (FSDP2's fastest over
    DDP's slowest, to its slowest over DDP's fastest). None where the steps were not timed. Lesson 06."""
    ddp, fsdp = runs["ddp"][0], runs["fsdp"][0]
    if "mean_step_seconds" not in ddp or "mean_step_seconds" not in fsdp:
        return None
    d, f = (claims.as_printed(r["mean_step_seconds"], 1, 1e-3) for r in (ddp, fsdp))   # ms, as printed
    ratio = claims.printed_ratio(f, d, 1)
    sent = [sum(wire_bytes(c, v) for c, v in r["sent_per_step"].items()) for r in (ddp, fsdp)]
    ranges = ddp.get("step_range"), fsdp.get("step_range")
    if None in ranges:
        verdict = "one mean a step each, no range to judge noise by"
    else:
        low, high = ranges[1][0] / ranges[0][1], ranges[1][1] / ranges[0][0]
        verdict = ("slower in every pairing of steps" if low > 1 else "faster in every pairing of steps"
                   if high < 1 else "within the steps' noise: their range spans 1x")
    return claims.Claim("FSDP2's step time, x DDP's (above 1: slower): what sharding the state costs",
                        f"{ratio:.2f}x ({f:.1f} / {d:.1f} ms)",
                        f"reference 1x (DDP); the ring's bytes: {claims.printed_ratio(sent[1], sent[0], 2, MB):.2f}x",
                        verdict)


def threads_reading(paired: list[float], cores: int, load: float,
                    fastest: tuple[list[float], list[float]] | None = None) -> str:
    """What the CPU AdamW's rate on ``cores`` threads came to, x one thread's, read from each interleaved round's
    own ratio (``paired``) by ``claims.speedup_verdict`` against the bound ``cores`` (equal work on N threads
    gives at most Nx): their median, ± the course's spread of rounds (``claims.printed_spread``: with 3 rounds,
    half their range, from the rounds as printed). A round past the bound by more than the lesson's 2 % floor
    (``rounds_past_floor``) is a finding, never noise: where some rounds are and not every round passes it,
    those are named and the verdict reads the others (``_past_some_rounds``). A round on the other side of 1x
    past the ± is named beside the median's verdict (``_rounds_verdict``). ``load``: the machine's load average,
    said where more threads were no faster.
    ``fastest``: each round's rate (parameters/s) on one thread and on ``cores``; the fastest of each is printed
    beside it in M/s, and their ratio is given too, named for what it is (two rounds, or one round's own), so
    that it never reads as the verdict's. Lesson 06."""
    shown = sorted(claims.as_printed(r, 2) for r in paired)   # the rounds as printed: 1.50-1.90x
    median = claims.half_up(statistics.median(shown), 2)   # a reader's median of the printed rounds
    opening = _fastest_rounds(*fastest, cores) if fastest else ""
    every = all(claims.round_above(r, cores) for r in paired)   # every round past the ceiling, as printed
    beyond = rounds_past_floor(paired, cores)   # past it by more than the noise: the rounds that count as past
    if beyond and not every:
        said, verdict = _past_some_rounds(paired, beyond, median, shown, cores)
        if not verdict:   # most rounds past the bound: no verdict; the load beside the disturbed rounds
            return opening + said + f" (load {load:.1f})"
        return opening + said + _verdict_ending(verdict, cores, load)
    spread = claims.printed_spread(paired)
    verdict = _rounds_verdict(list(enumerate(paired, 1)), median, spread, cores)
    said = (f"{cores} threads ran at {median:.2f}x ± {spread:.2f} one thread's rate (the median of each round's own ratio, "
            f"{shown[0]:.2f}-{shown[-1]:.2f}x; ± half their range), against the bound {cores:.2f}x (the same work "
            f"on {cores} threads): {verdict}")
    if verdict.startswith("within noise of its bound"):   # every round past it as printed, the ± reaching it
        return opening + said + (f": {every_round_past(paired, cores)}, yet the median's ± reaches {cores}x, so "
                                 f"not a finding from these {len(paired)} rounds")
    if every:   # every round passed the ceiling: one disturbed round cannot explain them all, and each pair met
        # the same load (timed back to back), so no suspect is named
        return opening + said + (f" ({cores}x is the most {cores} threads can give the same work, and "
                                 f"{every_round_past(paired, cores)}, though each pair was timed back to back: the "
                                 "cause is not timed apart here)")
    return opening + said + _verdict_ending(verdict, cores, load)


def _past_some_rounds(paired: list[float], past: list[int], median: float, shown: list[float],
                      cores: int) -> tuple[str, str]:
    """``threads_reading`` where some rounds pass the bound beyond the lesson's 2 % floor (``past``) and others
    do not: the rounds past it are named as a
    finding (equal work on ``cores`` threads cannot pass ``cores``x, so a disturbed one-thread round is the
    first suspect where one or a few do; where most do, one disturbed round cannot explain them, and no suspect
    is named). Where they are the fewer, they are left out and the verdict reads the other rounds, their
    median ± their spread. Where they are half the rounds or more, the rounds left are the minority, and a
    verdict read from them would set aside most of what was measured: the rounds disagree, no verdict (and so
    no share of the gain, which one round could not measure to its ±). Returns the sentence and the verdict
    ("" where none). The range's ± is not printed: it would come from the round past the bound. A kept round
    past the bound as printed, by no more than the floor, is said to be noise around it, so that no reader
    counts it as past."""
    kept = [claims.as_printed(r, 2) for k, r in enumerate(paired, 1) if k not in past]
    noise = _within_floor(paired, past, cores)
    names = " and ".join(f"round {k}'s {claims.as_printed(paired[k - 1], 2):.2f}x" for k in past)
    opening = (f"{cores} threads ran at {median:.2f}x one thread's rate (the median of each round's own ratio, "
               f"{shown[0]:.2f}-{shown[-1]:.2f}x), against the bound {cores:.2f}x (the same work on {cores} "
               "threads): ")
    if len(past) >= len(kept):
        return (opening + f"{len(past)} of {len(paired)} rounds ({names}) pass the {cores}x that equal work on "
                f"{cores} threads allows, though each pair was timed back to back (the cause is not timed apart "
                f"here){noise}: the rounds disagree, no verdict from this run"), ""
    rest = claims.half_up(statistics.median(kept), 2)
    spread = claims.printed_spread(kept)
    verdict = _rounds_verdict([(k, r) for k, r in enumerate(paired, 1) if k not in past], rest, spread, cores)
    passes = "passes" if len(past) == 1 else "pass"
    others = ", ".join(f"{r:.2f}x" for r in kept) + f": {rest:.2f}x ± {spread:.2f}"
    said = (opening + f"{names} {passes} the {cores}x that equal work on {cores} threads allows, a finding to "
            f"explain (a disturbed one-thread round is the first suspect){noise}, so the verdict reads the other "
            "rounds "
            f"({others}): {verdict}")
    return said, verdict


def _within_floor(paired: list[float], past: list[int], cores: int) -> str:
    """The rounds not in ``past`` that pass ``cores``x as printed by no more than the lesson's 2 % floor, said
    as noise around the bound: " (round 2's 2.03x passes it as printed, ...)"; "" where none does."""
    near = [(k, r) for k, r in enumerate(paired, 1) if k not in past and claims.round_above(r, cores)]
    if not near:
        return ""
    names = " and ".join(f"round {k}'s {claims.as_printed(r, 2):.2f}x" for k, r in near)
    return (f" ({names} {'passes' if len(near) == 1 else 'pass'} it as printed, by no more than the lesson's "
            "2 % floor: noise around the bound)")


def _rounds_verdict(numbered: list[tuple[int, float]], median: float, spread: float, cores: int) -> str:
    """``claims.speedup_verdict`` on the median of the (round, ratio) pairs against the bound ``cores``, its
    share of the gain given with the range its ± allows (``gain_range``), and any round on the other side of
    1x past the ± named after it (``threads_rounds.across_verdict``): 1.29x ± 0.26 is faster by the median,
    but a 0.79x round was slower than one thread, which "faster" alone would hide."""
    ratios = [claims.as_printed(r, 2) for _, r in numbered]
    # a median whose ± stays under 1x is a slowdown beyond noise, named as one (as ``time_verdict`` does);
    # under 1x within noise, the verdict is reached only where every round is below 1x, and says so after it
    beyond = not claims.within_noise(median, spread, 1.0)
    slower = "slower than one thread" + (" beyond noise" if beyond else "")
    verdict = claims.speedup_verdict(median, float(cores), spread, slower=slower, rounds=ratios)
    reach = reach_working(median, spread, cores)   # every round above the bound, but the ± reaches it: noise
    if verdict.startswith("above the bound") and reach:
        verdict = f"within noise of its bound ({reach}, not above {cores:.2f}x)"
    return (across_verdict(gain_range(verdict, median, spread, cores), numbered, median, spread)
            + outlying_clause(numbered, median, spread, bound=cores))   # the other rounds beyond the ±


def _verdict_ending(verdict: str, cores: int, load: float) -> str:
    """``threads_reading``'s last clause: where more threads were no faster or slower, or some round disagreed
    with the median ("by the median", ``across_verdict``), the machine's load average, as a figure beside the
    verdict, not its cause: it is a decaying 1-minute average that counts this notebook's own threads (and
    workers that exited seconds before), and nothing here times the threads' slowdown apart; else that more
    threads divide the step."""
    if verdict.startswith(("within noise", "no faster", "slower", "by the median")):
        return (f"; the load average was {load:.1f} on {cores} cores (this notebook's own threads counted in it): "
                "the cause is not timed apart here")
    return "; more threads divide the step"


def _fastest_rounds(ones: list[float], manys: list[float], cores: int) -> str:
    """``threads_reading``'s opening: the fastest rounds' ratio, from the rates as printed (M/s). Whether the
    two fastest came from different rounds (each met its own moment of the machine's load) is checked, not
    assumed: from one round, it is that round's own ratio. Either way the verdict reads the pairs after it."""
    one, many = max(ones), max(manys)
    ratio = claims.printed_ratio(many, one, digits=0, scale=1e6)   # the rates as printed, in M/s
    first, second = ones.index(one) + 1, manys.index(many) + 1   # which round gave each fastest rate
    above = claims.as_printed(ratio, 2) > cores
    if first == second:
        source = f"both from round {first}, so that is that round's own ratio"
        said = f", above the {cores}x bound, {source}" if above else f", {source}"
    else:
        source = (f"the two come from different rounds (1 thread's from round {first}, {cores} threads' from "
                  f"round {second}), each at its own moment of the machine's load")
        said = f", above the {cores}x bound, but {source}" if above else f"; {source}"
    return (f"those fastest rounds give {ratio:.2f}x{said}; the verdict reads the rounds pair by pair "
            f"(the two counts timed back to back): ")


def precision_lines(fp32, variants: dict, mb: float = 1e6) -> str:
    """Which of the calculator's lines (``Budget.at_peak``: the plot's stacked bars) a 16-bit format shrinks,
    adds or keeps against fp32's: one sentence per variant, read from the calculator's figures. Lesson 06."""
    out = []
    for name, budget in variants.items():
        before = {k: fp32.at_peak.get(k, 0.0) for k in {**fp32.at_peak, **budget.at_peak}}
        after = {k: budget.at_peak.get(k, 0.0) for k in before}
        lines = [k for k in before if before[k] or after[k]]   # the lines with a bar in either
        shrunk = [f"{k} {before[k] / mb:.2f} -> {after[k] / mb:.2f}" for k in lines
                  if after[k] < before[k] * 0.99]
        added = [f"{k} +{(after[k] - before[k]) / mb:.2f}" for k in lines if after[k] > before[k] * 1.01]
        kept = [k for k in lines if before[k] * 0.99 <= after[k] <= before[k] * 1.01]
        said = [f"shrinks {', '.join(shrunk)} MB" if shrunk else "shrinks no line",
                f"adds {', '.join(added)} MB" if added else "", f"keeps {', '.join(kept)}" if kept else ""]
        out.append(f"{name} " + "; ".join(s for s in said if s) + ".")
    return "In the calculator's lines at the peak (the bars of the plot below): " + " ".join(out)
