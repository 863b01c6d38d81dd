"""Lab 00's reading of timed rounds: the split's messages against lesson 00's ping-pong of the same sizes, by
one rule for every case (a sign test), in words printed from the run (every branch written). Used by
``checks.measured_report``; introduced in ``labs/00_fix_the_article.ipynb``."""

from __future__ import annotations

import dataclasses
import math
import statistics

from utils import claims
from utils.labs.fix_the_article import split  # the two ping-pongs' protocols, where they differ
from utils.labs.fix_the_article.twins import same_messages, span_us, twin_words  # noqa: F401 (same_messages: checks)
from utils.lessons.start_here.line_check import printed_time  # lesson 00's: alpha + n / beta from the printed two
from utils.labs.fix_the_article.verdict import (  # noqa: F401 (the rule for one plan's rounds, re-exported)
    JUMP, SIGN_LEVEL, gap_of, jump_words, jumped_rounds, known_rounds, ping_pong_jumps, rounds_words, rule_words,
    set_aside, side_of, sign_test_least, verdict_of)


def us_ratio(over: float, under: float) -> float:
    """``over / under`` (seconds) worked from the two as the page prints them, in whole microseconds
    (``claims.printed_ratio``): 288 µs over 195 µs is 1.48x, the reader's own division, even where the
    unrounded seconds give 1.47x. Rounded half up to the two decimals every ratio of the lab prints
    (``claims.half_up``): 252 µs over 96 µs is 2.625, printed 2.63, where ``:.2f`` alone gives 2.62 (t30_labs03
    #2); the rule's sides of 1 and the rounds' medians and ranges are then read from the ratios as printed."""
    return claims.half_up(claims.printed_ratio(over, under, 0, 1e-6), 2)


def size_row(fit, n: int, measured: float) -> tuple[float, float, float, float]:
    """One size of the link's table, as printed: (measured µs, fitted µs, measured / fitted, residual). The
    fitted time is worked from alpha and beta as the sentence above the table prints them (lesson 00's
    ``printed_time``), and the ratio and the residual from the two printed times, half up as a reader rounds
    (the residual is (measured - fitted) / measured, ``utils.linkmodel``'s): 74.8 against 81.2 is 0.92x, -9%."""
    shown = claims.as_printed(measured, 1, 1e-6) or 0.1
    fitted = claims.as_printed(printed_time(fit, n), 1, 1e-6) or 0.1
    return shown, fitted, claims.half_up(shown / fitted, 2), claims.half_up(1 - fitted / shown, 2)


def printed_fit(fit):
    """``fit`` with alpha and beta as the link's sentence prints them (µs to one decimal, GB/s to two), the
    fit every prediction of the lab is worked from, as the link's table is (``size_row``): a reader who redoes
    2 x 114.3 µs + 524,288 bytes / 1.74 GB/s finds the printed 530 µs, not the unrounded fit's 529. Its
    residuals are redone against the same measured times, so its band (``fit_band``) is the fit's."""
    alpha = claims.as_printed(fit.alpha, 1, 1e-6) * 1e-6
    beta = claims.as_printed(fit.beta, 2, 1e9) * 1e9
    measured = _measured_times(fit)
    residuals = tuple(1 - (alpha + n / beta) / t if math.isfinite(t) else r
                      for n, t, r in zip(fit.sizes, measured, fit.residuals))
    return dataclasses.replace(fit, alpha=alpha, beta=beta, residuals=residuals)


def _measured_times(fit) -> list[float]:
    """The measured seconds at the fit's own sizes, from its residuals: r = (measured - fitted) / measured,
    so measured = fitted / (1 - r) (infinite where r >= 1: no upper end)."""
    return [fit.time(n) / (1 - r) if r < 1 else math.inf for n, r in zip(fit.sizes, fit.residuals)]


def fit_band(fit) -> tuple[float, float]:
    """How far the fit's own sizes ran from what it predicts for them: the lowest and highest of measured /
    fitted, as the link's table prints them (``size_row``), over every size but the one farthest from its
    prediction (``band_left_out``), so that one size cannot stretch the band by itself (a first size slowed
    by a busy moment once made it 0.87-9.09x, when every other size ran 0.87-1.22x). A residual of +25% is
    1.33x the prediction, one of -25% is 0.80x (a residual of 100% or more: no upper end)."""
    ratios = _size_ratios(fit)
    left_out = band_left_out(fit)
    kept = [x for n, x in ratios if left_out is None or n != left_out[0]]
    return min(kept), max(kept)


def full_band(fit) -> tuple[float, float]:
    """``fit_band`` with no size left out: the lowest and highest measured / fitted over every one of the
    fit's sizes, for a comparison of cuts that send the size ``fit_band`` leaves out."""
    ratios = [x for _, x in _size_ratios(fit)]
    return min(ratios), max(ratios)


def _size_ratios(fit) -> list[tuple[int, float]]:
    """Each of the fit's sizes with its measured / fitted as the link's table prints it (``size_row``)."""
    return [(n, size_row(fit, n, t)[2] if math.isfinite(t) else math.inf)
            for n, t in zip(fit.sizes, _measured_times(fit))]


def band_left_out(fit) -> tuple[int, float] | None:
    """The size the band leaves out, with its ratio: the one farthest from its prediction, either way (2x over
    it as far as 0.5x), the first of a tie; None where the fit has under 3 sizes (a band needs 2 left)."""
    ratios = _size_ratios(fit)
    if len(ratios) < 3:
        return None
    return max(ratios, key=lambda pair: max(pair[1], 1 / pair[1]))


def plan_band(fit, sent) -> tuple[tuple[float, float], int | None]:
    """The band messages of the sizes ``sent`` are judged on, and the size it holds that ``fit_band`` leaves
    out (None where it holds none): ``fit_band``, but where they send the very size it leaves out, every size,
    that one included (``full_band``): a band that leaves out the size a plan sends cannot judge that plan
    (16,384 bytes at 2.13x makes 0.76-1.45x into 0.76-2.13x; t29_labs03 #1)."""
    left_out = band_left_out(fit)
    if left_out is None or left_out[0] not in set(sent):
        return fit_band(fit), None
    return full_band(fit), left_out[0]


def band_named(band: tuple[float, float], included: int | None = None, why: str = "this plan sends it") -> str:
    """"the fit's band 0.76-1.45x", or, where it holds the size ``fit_band`` leaves out (``plan_band``), "the
    fit's band at its own sizes, 16,384 bytes included (this plan sends it), 0.76-2.13x"."""
    if included is None:
        return f"the fit's band {band_words(band)}"
    return f"the fit's band at its own sizes, {included:,} bytes included ({why}), {band_words(band)}"


def band_source(fit) -> str:
    """What the band is measured on, in words, after the band itself ("0.74-1.54x, measured / predicted at
    ..."): "its own sizes except 4 bytes, the farthest at 9.09x" (``band_left_out``), or "its own sizes"."""
    left_out = band_left_out(fit)
    if left_out is None:
        return "its own sizes"
    n, x = left_out
    at = "the farthest, with a residual of 100% or more" if math.isinf(x) else f"the farthest at {x:.2f}x"
    return f"its own sizes except {n:,} bytes, {at}"


def worst_residual(fit) -> float:
    """The largest residual, in size, as the link's table prints it (``size_row``): the ± its sentence says."""
    return max(abs(size_row(fit, n, t)[3]) if math.isfinite(t) else 1.0
               for n, t in zip(fit.sizes, _measured_times(fit)))


def residual_words(fit) -> tuple[str, str]:
    """The residuals the link's sentence names, as its table prints them (``size_row``): ("residuals up to
    ±10%", "") where the band keeps every size; else the range over the band's sizes ("residuals -31% to
    +21%") and the left-out size's own ("residual +50%"), so a ± stretched by that one size is never said of
    the rest (t39_labs03: "up to ±50%" beside sizes that ran -31% to +21%)."""
    left_out = band_left_out(fit)
    if left_out is None:
        return f"residuals up to ±{worst_residual(fit):.0%}", ""
    printed = {n: size_row(fit, n, t)[3] if math.isfinite(t) else 1.0
               for n, t in zip(fit.sizes, _measured_times(fit))}
    far = printed.pop(left_out[0])
    lo, hi = (claims.signed_percent(r) for r in (min(printed.values()), max(printed.values())))
    kept = f"residuals {lo}" if lo == hi else f"residuals {lo} to {hi}"
    return kept, f"residual {claims.signed_percent(far)}"


def band_words(band: tuple[float, float]) -> str:
    """"0.83-1.33x" (two decimals, as the page prints ratios), "1.00x" where both ends print alike, "0.50x or
    more" where it has no upper end."""
    lo, hi = band
    if math.isinf(hi):
        return f"{lo:.2f}x or more"
    return spread_words(band)


def spread_words(ratios) -> str:
    """The cases' medians as a range at two decimals ("0.73-0.80x"), one figure where they print alike: a
    rounding to one decimal would hide a range ("0.7x" for 0.73-0.80x)."""
    lo, hi = f"{min(ratios):.2f}", f"{max(ratios):.2f}"
    return f"{lo}x" if lo == hi else f"{lo}-{hi}x"


def miss_sentence(ratios, pp_ratios, band: tuple[float, float], rounds: dict[str, list[float]],
                  pp_rounds: dict[str, list[float]] | None = None,
                  tables: list[tuple[float, float, float] | None] | None = None,
                  source: str = "its own sizes", medians: dict[str, tuple[float, float]] | None = None,
                  twins: list[int | None] | None = None,
                  bands: dict[str, tuple[tuple[float, float], int | None]] | None = None) -> str:
    """What the measurement says about lesson 00's model (every branch written), one short paragraph a line
    (the model, the link, the rule, one line a plan, the verdict): the caller wraps each line. ``ratios`` and
    ``pp_ratios``: for each case, the median round of the split's messages and of the ping-pong of the same
    sizes, over the model's time (medians, as the fit is made on medians). ``band``: the fit's own sizes,
    measured / fitted (``fit_band``). ``rounds``: for each case, every round's split over that same round's
    ping-pong; a case shows a gap when enough of its rounds fall on one side of 1 (``gap_of``: a sign test,
    one rule for every case). ``pp_rounds``: each case's ping-pong seconds, round by round; a round where the
    ping-pong itself jumped (``jumped_rounds``) has its ratio lowered by the jump: below 1, its side is unknown
    and it is set aside whichever verdict it would lead to (``verdict.known_rounds``), said where one is.
    ``tables``: each case's ping-pong median beside the link table's own measured and fitted times for the
    same messages (``table_pairs``), for the link's line. ``source``: what the band is measured on
    (``band_source``). ``medians``: each case's split and ping-pong median, seconds, as the table prints them
    (the excess of a longer split, ``excess_words``).
    ``twins``: for each case, the other case that timed the same messages (``same_messages``), if any.
    ``bands``: for each case, the band its own messages are judged on (``plan_band``; ``band`` where absent)."""
    n, jumped, cases = plan_verdicts(rounds, pp_rounds)
    spans = [span_us((pp_rounds or {}).get(name, [])) for name in rounds]
    lines = [
        f"The model: alpha + n / beta, fitted as in lesson 00 (this lab's run) on medians. Over the {len(ratios)} "
        f"plans, the median rounds of the split's messages took {spread_words(ratios)} its prediction, those of "
        f"the ping-pong of the same sizes {spread_words(pp_ratios)} (its band: {band_words(band)}, "
        f"measured / predicted at {source}).",
        "The link: " + _lower_first(drift_sentence(pp_ratios, band, [len(jumped.get(name, ())) for name in rounds],
                                                   n, tables, list(rounds), spans, twins,
                                                   [bands[name] for name in rounds] if bands else None).strip()),
        f"The rule, the same for every plan: the split's messages differ from the ping-pong of the same bytes "
        f"when at least {sign_test_least(n)} of {n} rounds fall on one side of 1 as printed (a sign test: a coin "
        f"does that less than 1 time in {round(1 / SIGN_LEVEL)}). ",
    ]
    if _any_set_aside(rounds, jumped):  # said only where a plan has such a round
        lines[-1] += (f"A round in which the ping-pong itself took over {JUMP:.0f}x its fastest round has its ratio "
                      "lowered by that jump: above 1, it is counted (it would be above 1 without the jump too); "
                      "below 1, its side is unknown, so it is set aside, whichever verdict it would lead to, and "
                      "the plan is judged on its other rounds. " + SPLIT_JUMPS_COUNTED)
    else:  # the bound is stated either way: cell 25 says the block states it
        lines[-1] += jump_words(rounds, jumped)
    lines[-1] += "For each plan, its rounds above 1, and the median and range of its rounds' ratios (table below):"
    lines += ["- " + rounds_words(name, rounds[name], cases[name], jumped.get(name, set())) for name in rounds]
    return "\n".join(lines + _verdict_lines(ratios, pp_ratios, band, rounds, cases, tables, medians, bands))


# The jump rule is the ping-pong's only (t29_labs03, other problems): the ping-pong is the yardstick, and a
# jumped yardstick misreads the split; the split's own time, a jump included, is the thing measured.
SPLIT_JUMPS_COUNTED = ("Only the ping-pong's jumps are set aside: a round whose split's messages jumped is counted "
                       "as it fell, their time, jump included, being what is measured (a busy spell may lengthen "
                       "them as well as the split's step does; the table below shows every round). ")


def _verdict_lines(ratios, pp_ratios, band: tuple[float, float], rounds: dict[str, list[float]],
                   cases: dict[str, str], tables: list | None = None,
                   medians: dict[str, tuple[float, float]] | None = None,
                   bands: dict[str, tuple[tuple[float, float], int | None]] | None = None) -> list[str]:
    """The report's verdict (every branch written): what the rule showed, never more. Where it showed no
    difference, that is said as a failure to show one, not as a finding that the two cost the same.
    ``tables``: each case's ping-pong beside the link table's time for its messages (``table_pairs``);
    ``medians``: each case's split and ping-pong median, seconds (``owner_words``); ``bands``: each case's own
    band (``plan_band``), ``band`` where absent: a plan is judged on a band that holds the sizes it sends."""
    shorter = [name for name, gap in cases.items() if gap == "shorter"]
    if all(gap != "longer" for gap in cases.values()):
        if shorter:
            return [f"By that rule the rounds showed the split's messages longer in no plan, and shorter than the "
                    f"ping-pong of the same bytes in {len(shorter)} ({plans_named(shorter)})."]
        return ["By that rule the rounds showed the split's messages longer in no plan: this run shows no "
                "difference between a split's messages and a ping-pong's of the same bytes (which is not the "
                "same as showing that they cost the same: the ranges above say how widely the rounds scattered)."]
    medians, bands = medians or {}, bands or {}
    owners = [f"- {name}: "
              + owner_words(x, pp, bands.get(name, (band, None))[0], _median_shown(rounds[name]), pair,
                            medians.get(name), len(rounds[name]), bands.get(name, (band, None))[1])
              for name, x, pp, pair in zip(rounds, ratios, pp_ratios, tables or [None] * len(rounds))
              if cases[name] == "longer"]
    return (["Whose miss it is where the split's messages are longer, from both figures:"] + owners
            + ["The split's excess over the ping-pong of the same bytes has a candidate cause: "
               "alpha and beta were fitted on a loop of messages that nothing interrupts, while a split's message "
               "leaves from the middle of a training step; what the receiving worker was doing then is not "
               "measured here, so the cause is not shown. A model holds for the situation it was measured in."])


def _median_shown(ratios: list[float]) -> float:
    """The median of rounds' ratios as the page prints it, half up: an even count's median falls between two
    printed ratios (2.62 and 2.63 give 2.625, printed 2.63, not ``:.2f``'s 2.62)."""
    return claims.half_up(statistics.median(ratios), 2)


def _lower_first(sentence: str) -> str:
    """A sentence that follows a colon: its first letter in lower case ("The link: the ping-pong's ...")."""
    return sentence[:1].lower() + sentence[1:]


def plan_verdicts(rounds: dict[str, list[float]], pp_rounds: dict[str, list[float]] | None
              ) -> tuple[int, dict[str, set[int]], dict[str, str]]:
    """The rounds' count, each case's rounds in which the ping-pong jumped, and each case's verdict."""
    jumped = {name: jumped_rounds(pp) for name, pp in (pp_rounds or {}).items()}
    cases = {name: verdict_of(r, jumped.get(name, set())) for name, r in rounds.items()}
    return max(len(r) for r in rounds.values()), jumped, cases


def _any_set_aside(rounds: dict[str, list[float]], jumped: dict[str, set[int]]) -> bool:
    """Whether any plan has a round the rule sets aside (``verdict.set_aside``): the rule says why only then."""
    return any(set_aside(r, jumped.get(name, set())) for name, r in rounds.items())


def plans_named(names: list[str]) -> str:
    """Plan names quoted and joined ('"a, 8 MB" and "b, 6 MB"'): the names hold commas of their own, so a list
    joined by commas alone cannot be read back (how many plans, which)."""
    quoted = [f'"{name}"' for name in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def owner_words(split_x: float, pp_x: float, band: tuple[float, float], excess: float,
                pair: tuple[float, float, float] | None = None, medians: tuple[float, float] | None = None,
                n_rounds: int = 0, included: int | None = None) -> str:
    """Whose miss a case's is, where its split ran longer than the ping-pong of the same bytes (every branch
    written, judged on the figures as printed). ``split_x`` and ``pp_x``: the split's and the ping-pong's
    medians over the prediction; ``band``: the fit's own sizes, measured / fitted (``fit_band``); ``excess``:
    the median of the ``n_rounds`` rounds' ratios, split over ping-pong; ``pair``: the ping-pong's median
    beside the link table's measured and fitted times for the same messages (``table_pairs``; None where it
    lacks a size); ``medians``: the split's and the ping-pong's median, seconds (``excess_words``);
    ``included``: the size ``fit_band`` leaves out where this plan sends it and ``band`` holds it (``plan_band``).
    The split is judged on the band first, in every branch: a "miss" is a ratio outside the band (inside it,
    the fit predicts no better than that for any size). A ping-pong outside the band has its gap split in two
    by the link table (``_ping_pong_side``); a split's miss on the ping-pong's side is not the split's alone.
    The verdict comes first, then the figures it rests on (t33_labs03: at the end of a 7-line sentence, it was
    read last)."""
    lo, hi = claims.as_printed(band[0], 2), claims.as_printed(band[1], 2)
    split, pp = claims.as_printed(split_x, 2), claims.as_printed(pp_x, 2)
    own = excess_words(split_x, pp_x, excess, medians, n_rounds)
    where = "above" if split > hi else "under" if split < lo else "inside"
    pp_where = "above" if pp > hi else "under" if pp < lo else "inside"
    # named "the split over the prediction", never "it took": beside the rounds' excess, two equal figures
    # (2.35x and 2.35x) read as one (t36_labs03 other 1)
    figures = (f"{own[0].upper()}{own[1:]}; the split over the prediction: {split_x:.2f}x, {where} "
               f"{band_named(band, included)}, and the ping-pong of the same bytes {pp_x:.2f}x, "
               f"{_ping_pong_side(pp, lo, hi, pair)}.")
    return f"{_owner_verdict(where, pp_where)}. {figures}"


def _owner_verdict(where: str, pp_where: str) -> str:
    """Whose miss, from where the split's median (``where``) and the ping-pong's (``pp_where``) lie against the
    band, "above", "under" or "inside" (``owner_words``, every branch written)."""
    if where == "inside":
        return "no miss of the model" + cancelled_words(pp_where)
    too = " (the ping-pong of the same bytes left the band on that side too)" if pp_where == where else ""
    if where == "above":
        return f"a miss, not the split's alone{too}" if too else "the miss is the split's own"
    return f"a miss under the prediction, not the split's excess{too}"


def excess_words(split_x: float, pp_x: float, excess: float, medians: tuple[float, float] | None = None,
                 n_rounds: int = 0) -> str:
    """The split's excess over the ping-pong of the same bytes, each figure named by what it is (every branch
    written): from the table's two medians (``medians``, seconds; their ratio as printed, ``us_ratio``), which
    the prediction's two ratios (``split_x``, ``pp_x``) also come from, then round by round (``excess``: the
    median of the rounds' ratios, which the sign test reads), a different figure: one median over the other
    is not the median of the ratios. Where the ping-pong ran under the prediction, the excess is more than the
    split's whole miss over it, and says so. Without ``medians``: the rounds' figure alone."""
    rounds = f"the {n_rounds} rounds'" if n_rounds else "its rounds'"
    by_rounds = f"the median of {rounds} ratios is {excess:.2f}x"
    if medians is None:
        return f"the split's excess over the ping-pong of the same bytes, round by round: {by_rounds}"
    # said plainly: the median of the ratios, not a ratio of the medians (t29_labs03, other problems)
    by_rounds = f"the median of {rounds} ratios, not a ratio of the two medians, is {excess:.2f}x"
    ratio = us_ratio(*medians)
    split_us, pp_us = (claims.as_printed(seconds, 0, 1e-6) for seconds in medians)
    # the split's own ratio over the prediction is printed next in ``owner_words``: named here, not repeated
    more = (", more than the split's ratio to the prediction given next, as that ping-pong ran under the prediction"
            if ratio > claims.as_printed(split_x, 2) and claims.as_printed(pp_x, 2) < 1 else "")
    return (f"the split's excess over the ping-pong of the same bytes, from the table's medians: {split_us:,.0f} µs "
            f"against {pp_us:,.0f} µs, {ratio:.2f}x{more} (round by round, {by_rounds})")


def cancelled_words(pp_where: str) -> str:
    """Said where the split's median lies inside the fit's band (its callers' only case): where the ping-pong's
    of the same bytes lies outside it, the model lands in the band only because two gaps pulled opposite ways
    (the link's, the split's own), which the verdict must say (every branch written; "" where both lie inside)."""
    if pp_where == "inside":
        return ""
    faster, longer = ("faster", "longer") if pp_where == "under" else ("slower", "shorter")
    return (f", but only because two gaps cancelled: the ping-pong of the same bytes ran {faster} than the fit "
            f"({pp_where} its band) and the split's median took {longer} than that ping-pong's: the model's "
            "agreement here is a coincidence")


def _ping_pong_side(pp: float, lo: float, hi: float, pair: tuple[float, float, float] | None) -> str:
    """Where a case's ping-pong (over the prediction, as printed) lies against the band, and, outside it, its
    gap split in two where the link table timed the same messages (``table_words``): the fit's own miss at
    those sizes, and the ping-pong now against the table then. The band spreads the fit's residuals; it is no
    tolerance for one measurement of the same bytes against another, so the second factor is named, not judged
    on it. Without a table time, the causes are named, not told apart."""
    if lo <= pp <= hi:
        return "inside it"
    side = "above it" if pp > hi else "under it"
    if pair:
        return f"{side} ({table_words(pair)})"
    return (f"{side} (the link table holds no time for these message sizes: the fit's miss at them, the link now "
            "against when fitted, or the rounds' briefer ping-pong, not told apart)")


def shorter_ping_pong() -> str:
    """How the rounds' ping-pong differs from the fit's, the candidate cause every link sentence names beside
    the link's own drift: fewer round trips, fewer untimed, and right after a training step."""
    return (f"a median of {split.ROUND_PINGS} after {split.ROUND_WARMUP} untimed, right after a training step, "
            f"against the fit's {split.LINK_REPEATS} after {split.LINK_WARMUP}")


def drift_sentence(pp_ratios: list[float], band: tuple[float, float], jumps: list[int] | None = None,
                   n_rounds: int = 0, tables: list[tuple[float, float, float] | None] | None = None,
                   names: list[str] | None = None, spans: list[tuple[float, float] | None] | None = None,
                   twins: list[int | None] | None = None,
                   bands: list[tuple[tuple[float, float], int | None]] | None = None) -> str:
    """Whether the link drifted between the fit and the rounds: shown only when the ping-pong's median left
    the fit's band (``fit_band``: measured / fitted at the fit's own sizes) on the same side in every case
    (every branch written), judged on the figures as printed (two decimals). ``bands``: each case's own band
    (``plan_band``), the one its plan's line prints, ``band`` where absent: a case whose plan sends the size
    ``fit_band`` leaves out is judged on the band that holds it, here as in its line (t29_labs03, left).
    ``jumps``: for each case, how many of its ``n_rounds`` ping-pong rounds took over JUMP x its fastest
    (``jumped_rounds``), the one figure that tells why a single case left the band. ``tables``: for each
    case, its ping-pong's median and the link table's own measured and fitted times for the same messages,
    µs as printed (``table_pairs``; None where the table lacks a size). ``names``, ``spans`` and ``twins``:
    each case's plan, its ping-pong's range of rounds (µs as printed, ``twins.span_us``) and the other case
    that timed the same messages (``same_messages``): a case out of the band is named, and set beside its
    twin where one timed the same bytes."""
    own_bands = bands or [(band, None)] * len(pp_ratios)
    ends = [tuple(claims.as_printed(end, 2) for end in own) for own, _ in own_bands]
    pp_ratios = [claims.as_printed(r, 2) for r in pp_ratios]
    above = [r > hi for r, (_, hi) in zip(pp_ratios, ends)]
    below = [r < lo for r, (lo, _) in zip(pp_ratios, ends)]
    out = [up or down for up, down in zip(above, below)]
    note = own_bands_note(bands)
    which_band = "the fit's band" + note
    if not any(out):
        return f"The ping-pong's medians stayed within {which_band} in every case: no drift of the link shown. "
    why = _why_out(pp_ratios, ends, out, jumps or [0] * len(out), n_rounds, tables or [None] * len(out),
                   _Cases(names, spans or [None] * len(out), twins or [None] * len(out)))
    if not (all(above) or all(below)):
        return _left_where(above, below, which_band) + why
    which = "slower" if above[0] else "faster"
    side = f"In every case the ping-pong's median ran {which} than the fit, outside its band{note}"
    judged = "your predictions are judged against the fit as it was measured above, a reference for its own moment. "
    if any(tables or []):
        # where the link table timed the same messages, its gap may be the fit's own miss at those sizes, not a
        # drift: each case's gap is split in two, never one cause claimed for all (t42_labs03, contradiction 1)
        return f"{side}; {judged}{why}"
    return (f"{side}: the link drifted between the fit and these rounds, or the rounds' briefer ping-pong "
            f"({shorter_ping_pong()}) times it otherwise: not told apart here (what else ran on the machine then "
            f"is not measured); {judged}")


def own_bands_note(bands: list[tuple[tuple[float, float], int | None]] | None) -> str:
    """Where a case is judged on a band that holds the size ``fit_band`` leaves out (``plan_band``), which
    band, in words after "the fit's band" (every branch written): " (a plan that sends 16,384 bytes on the
    band with them included, 0.76-2.13x, as in its line below)"; "" where every case is on the fit's band."""
    held = [(own, n) for own, n in bands or [] if n is not None]
    if not held:
        return ""
    own, n = held[0]
    return (f" (a plan that sends {n:,} bytes on the band with them included, {band_words(own)}, as in its line "
            "below)")


def _left_where(above: list[bool], below: list[bool], which_band: str = "the fit's band") -> str:
    """Where the cases left the band, not all on one side: every case out, some above and some below (no one
    direction), or some out and the rest inside (no drift of the link as a whole)."""
    out = [up or down for up, down in zip(above, below)]
    if all(out):
        return (f"The ping-pong's median left {which_band} in every case, above it in {sum(above)} and below it "
                f"in {sum(below)}: no one drift in one direction shown. ")
    others = "the other" if len(out) - sum(out) == 1 else "the others"
    return (f"The ping-pong's median left {which_band} in {sum(out)} of {len(out)} cases and stayed inside it "
            f"in {others}: no drift of the link as a whole shown. ")


@dataclasses.dataclass(frozen=True)
class _Cases:
    """What names a case out of the band beyond its ratio: its plan (None: by its ratio alone), its ping-pong's
    range of rounds, and the other case that timed the same messages."""

    names: list[str] | None
    spans: list[tuple[float, float] | None]
    twins: list[int | None]

    def label(self, i: int) -> str:
        return f'"{self.names[i]}" ' if self.names else ""


def _why_out(pp_ratios: list[float], ends: list[tuple[float, float]], out: list[bool], jumps: list[int],
             n_rounds: int, tables: list[tuple[float, float, float] | None], cases: _Cases | None = None) -> str:
    """Why some cases' ping-pong left the band, from the figures only, each case named by its ratio as printed.
    The cases split on what differs between them, never on the side (a case "above" set against "otherwise"
    reads as if the other left below). Above the band with its median a jumped round (``median_jumped``): the
    link was slower in those rounds than when fitted. Any other case whose messages the link table timed: its
    gap split in two (``table_words``), the fit's own miss at those sizes and the ping-pong now against the
    table then. The rest's cause is not told, each case with its own jump count (never "did not jump" beside
    jumps). Where a cause named is the rounds' briefer ping-pong, how it is briefer is said once. Where
    another case timed the same messages (a twin), its ping-pong is printed beside: the same procedure on the
    same bytes, run lower, rules the procedure out (``twins.twin_words``). ``ends``: each case's band, as
    printed (``drift_sentence``)."""
    cases = cases or _Cases(None, [None] * len(out), [None] * len(out))
    lifted = [out_ and r > hi and median_jumped(j, n_rounds)
              for r, out_, j, (_, hi) in zip(pp_ratios, out, jumps, ends)]
    jumped = "; ".join(f"{cases.label(i)}at {r:.2f}x, {j} of {n_rounds} rounds took over {JUMP:.0f}x its fastest, "
                       "over half" for i, (r, j, yes) in enumerate(zip(pp_ratios, jumps, lifted)) if yes)
    said = "" if not any(lifted) else (
        f"Where the ping-pong's median is a jumped round above the band ({jumped}), the link was slower during "
        "those rounds than when fitted. ")
    tabled, rest, procedure = [], [], False
    for i, (r, out_, j, up, pair) in enumerate(zip(pp_ratios, out, jumps, lifted, tables)):
        if not out_ or up:
            continue
        if pair:  # the table timed the same messages: the gap's two factors, printed
            k = cases.twins[i]  # another case that timed the same messages: the same procedure, other rounds
            twin = twin_words(pair, tables[k], cases.names[k] if cases.names else "another plan", pp_ratios[k],
                              not out[k], cases.spans[i], (j, n_rounds, JUMP)) if k is not None else None
            procedure = procedure or not (twin and twin.ruled_out)
            # "about": the two factors, each rounded, need not multiply to the printed ratio to the digit
            tabled.append(f"{cases.label(i)}at {r:.2f}x, about the product of two: "
                          f"{table_words(pair, told=not (twin and twin.ruled_out))}{twin.text if twin else ''}")
        else:
            procedure = True
            rest.append(cases.label(i) + _unlifted_words(r, j, ends[i][0], n_rounds))
    if tabled:
        said += f"Where the link table timed the same messages, the gap splits in two ({'; '.join(tabled)}). "
    if rest:
        said += (f"Where its rounds' jumps do not explain it ({'; '.join(rest)}) and the link table holds no "
                 "measured time for its messages' sizes to set beside it, this report does not tell which of "
                 "three causes does: the fit's own miss at those sizes, the link faster or slower than when "
                 "fitted, or the rounds' briefer ping-pong. ")
    if procedure:
        said += f"The rounds' ping-pong is the briefer (fewer repeats): {shorter_ping_pong()}. "
    return said


def table_words(pair: tuple[float, float, float], told: bool = True) -> str:
    """A ping-pong's gap from the fit split in two, where the link table timed the same messages (``pair``: the
    ping-pong's median, the table's measured and fitted time for those messages, µs as printed): the fit's own
    miss at those sizes (measured over fitted, in the fit's own run), then the ping-pong now over the table's
    measured time then, whose cause is the link now against when fitted or the rounds' briefer ping-pong, not
    told apart. Each ratio is the reader's own division of the two printed times. A 4th item, the step's
    messages where they are all one size (``table_pairs``), says how the table's time adds up from its rows
    (``rows_words``). ``told``: without it, the two causes are left to the caller (``twins.twin_words``)."""
    pp, table, fitted, *n = pair
    causes = (": the link now against when fitted, or the rounds' briefer ping-pong, not told apart" if told
              else "")
    return (f"the fit's own miss at these sizes, the link table's {rows_words(table, *n)} against "
            f"{rows_words(fitted, *n)} fitted, "
            f"{claims.half_up(table / fitted, 2):.2f}x; the ping-pong against that table, {pp:,.0f} µs against "
            f"{table:,.1f} µs, {claims.half_up(pp / table, 2):.2f}x{causes}")


def rows_words(total: float, messages: int = 1) -> str:
    """A link table time for a step's ``messages`` of one size, as its rows add up: "151.6 µs (2 x 75.8 µs, its
    two messages)", the row being what the link table prints; one message: the row itself."""
    if messages < 2:
        return f"{total:,.1f} µs"
    return f"{total:,.1f} µs ({messages} x {total / messages:,.1f} µs, its {messages} messages)"


def table_time(link_fit, sizes: list[int], column: int = 0) -> float | None:
    """The link table's own time for a step's messages: its rows' measured µs (``column`` 0) or fitted µs (1)
    as the table prints them (``size_row``, one decimal), one a message, added up; None where a message's size
    has no row."""
    rows = {n: size_row(link_fit.fit, n, t)[column] for n, t in zip(link_fit.fit.sizes, link_fit.seconds)}
    if not sizes or any(n not in rows for n in sizes):
        return None
    return claims.half_up(sum(rows[n] for n in sizes), 1)


def table_pairs(link_fit, runs) -> list[tuple[float, float, float, int] | None]:
    """For each timed case (a ``SplitRun``), its ping-pong's median in whole µs as the report's table prints
    it, beside the link table's own measured and fitted times for the same messages (``table_time``), and
    how many messages of one size those are (0 where their sizes differ: ``rows_words``); None where the table
    has no row for one of its sizes."""
    pairs = []
    for run in runs:
        sizes = [m.nbytes for m in run.messages]
        table = table_time(link_fit, sizes)
        median = claims.as_printed(statistics.median(run.ping_pong_seconds()), 0, 1e-6)
        one_size = len(sizes) if len(set(sizes)) == 1 else 0
        pairs.append((median, table, table_time(link_fit, sizes, column=1), one_size) if table else None)
    return pairs


def median_jumped(jumps: int, n_rounds: int) -> bool:
    """Whether a case's median ping-pong round is a jumped one: over half its rounds jumped. A jumped round is
    longer than any other (over JUMP x the fastest), so the jumped rounds are the longest; with over half of
    them jumped, the middle round (both middle rounds, for an even count) is one of them."""
    return 2 * jumps > n_rounds > 0


def _unlifted_words(pp_ratio: float, jumps: int, lo: float, n_rounds: int) -> str:
    """One case out of the band that its jumps do not explain, with its own jump count: none; a median below
    the band (a jump only lengthens a round, so it cannot pull a median down); or too few jumps to be the
    median (half its rounds or fewer)."""
    if jumps == 0:
        return f"at {pp_ratio:.2f}x, no round took over {JUMP:.0f}x its fastest"
    jumped = f"at {pp_ratio:.2f}x, {jumps} of {n_rounds} rounds took over {JUMP:.0f}x its fastest"
    if pp_ratio < lo:
        return f"{jumped}, but a jump only lengthens a round, so it cannot take the median below the band"
    half = "only half" if 2 * jumps == n_rounds else "under half"
    return f"{jumped}, {half}, so its median is not a jumped round"
