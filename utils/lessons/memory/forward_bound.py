"""Checkpointing's prediction, one extra forward of the blocks, where the blocks' forward timed alone came out
longer than the whole loss's forward that contains it (lesson 06, section 2). A part cannot take longer than
its whole, so that forward lies somewhere between the two: the prediction is given as the range they allow,
and the extra time measured is read in forwards at both ends, so no figure rests on the suspect one alone.

    low, high = blocks_forward_range(CKPT_TIMES, CKPT_ROUNDS)  # seconds, as the step-times table prints them
    predicted_speed(step, low, high)                        # "1.32-1.34x"
    forwards_cost(extra, low, high, noise)                  # "0.67-0.71 ± 0.10 of a forward (...): less than ..."
    ratio_in_forwards(1.17, step, low, high, noise)         # the same, from a ratio read pair by pair
    extra_share_words((1.18, 0.05), (1.20, 0.05), "of ...")  # "90% of ... ((1.18 - 1) / (1.20 - 1); ...)"
"""

from __future__ import annotations

import math

from utils import claims
from utils.lessons.memory.measure import step_ratio

FLOOR = 0.10   # the least ± on a share of a forward: a tenth, however quiet the rounds


def blocks_forward_share(rounds: dict | None) -> float:
    """The blocks' forward x the whole loss's forward that contains it, read pair by pair (``step_ratio``: the
    median of their rounds' own ratios, as printed), where it lies above 1x beyond their noise
    (``claims.within_noise``, as ``policy_cost.part_over_whole`` reads it); 1.0 where it does not, or where
    the rounds did not time both: a part within noise of its whole is not set apart from it. Lesson 06."""
    if not rounds or "forward" not in rounds or "blocks' forward" not in rounds:
        return 1.0
    share, spread, _ = step_ratio(rounds, "blocks' forward", "forward")
    return share if share > 1 and not claims.within_noise(share, spread, 1.0) else 1.0


def blocks_forward_range(times: dict, rounds: dict | None = None) -> tuple[float, float]:
    """The blocks' forward (seconds, as printed: 0.1 ms) as low and high ends: the time it took alone, and at
    most the whole loss's forward that contains it, where their paired ``rounds`` put the part above its
    whole beyond their noise (``blocks_forward_share``): the part / that share, to 0.1 ms half up. Not the fastest run of
    each: those may come from different rounds, and an outlying round's forward once set the low end alone
    (t40_0506 #1). Both ends are the blocks' forward where the rounds put it at or under its whole."""
    part = claims.as_printed(times["blocks' forward"], 1, 1e-3)
    share = blocks_forward_share(rounds)
    low = claims.half_up(part / share, 1) if share > 1 else part
    return low / 1e3, part / 1e3


def predicted_speed(step: float, low: float, high: float) -> str:
    """The step time the prediction expects, x the plain ``step``: (step + one forward) / step, at both ends
    of ``blocks_forward_range`` ("1.34x", or "1.32-1.34x" where the ends print apart)."""
    ends = [claims.half_up((step + f) / step, 2) for f in (low, high)]
    return f"{ends[0]:.2f}x" if ends[0] == ends[1] else f"{ends[0]:.2f}-{ends[1]:.2f}x"


def forward_words(times: dict, rounds: dict | None = None) -> str:
    """The forward the prediction adds (``blocks_forward_range``), in ms as printed: "28.4 ms", or, where the
    paired rounds put the part above its whole, "27.0-28.4 ms: 28.4 timed alone, at most the whole forward
    that contains it, 28.4 / 1.05 = 27.0 (the median of their rounds' own ratios)"."""
    low, high = blocks_forward_range(times, rounds)
    lo, hi = claims.as_printed(low * 1e3, 1), claims.as_printed(high * 1e3, 1)
    if lo == hi:
        return f"{hi:.1f} ms"
    return (f"{lo:.1f}-{hi:.1f} ms: {hi:.1f} timed alone, at most the whole forward that contains it, "
            f"{hi:.1f} / {blocks_forward_share(rounds):.2f} = {lo:.1f} (the median of their rounds' own ratios)")


def forwards_cost(extra: float, low: float, high: float, noise: float = 0.0) -> str:
    """Checkpointing's ``extra`` step time (seconds) in forwards of the blocks, at both ends of the forward's
    range: "0.67 ± 0.10 of a forward (67% of the predicted extra time; ± at its floor)", or "0.67-0.71 ±
    0.10 of a forward (67%-71% ...)".
    About the one predicted where the range comes within 10 % of 1 (or within ``noise``, the rounds' spread in
    seconds, where that is wider); less or more only where the whole range is. Worked from the ms as printed
    (0.1 ms), so that 19.1 / 28.4 and 19.1 / 26.9 are a reader's own divisions."""
    return _in_forwards(claims.as_printed(extra * 1e3, 1), low, high, noise)


def ratio_in_forwards(ratio: float, step: float, low: float, high: float, noise: float = 0.0,
                      working: bool = False) -> str:
    """``forwards_cost`` for a step-time ``ratio`` read pair by pair (``measure.step_ratio``, x the plain
    ``step``): its extra time is (ratio - 1) x the step, from the ratio as printed (2 decimals) and the step in
    ms as printed (0.1 ms), not rounded again, so that (1.17 - 1) x 69.7 / 21.7 is a reader's own working.
    ``noise``: the ratio's ± in seconds (its ± x the step). ``working``: print the ms it divides, "(63% of the
    predicted extra time: (1.20 - 1) x 62.2 = 12.44 ms over 19.9 ms)", where the page shows the share first
    and a fastest-run difference (12.4 ms) may sit nearby (t27_0506 #2)."""
    extra_ms = extra_from_ratio(ratio, step)
    lo_ms, hi_ms = (claims.as_printed(v * 1e3, 1) for v in (low, high))
    over = f"{hi_ms:.1f} ms" if lo_ms == hi_ms else f"{lo_ms:.1f}-{hi_ms:.1f} ms"
    # the ms the share is worked from, printed beside it, so that a reader's division finds it (t27_0506 #2)
    return _in_forwards(extra_ms, low, high, noise, f": {ratio_working(ratio, step)} over {over}" if working else "")


def extra_from_ratio(ratio: float, step: float) -> float:
    """The extra step time (ms) that a step-time ``ratio`` read pair by pair gives: (ratio - 1) x the plain
    ``step`` (seconds), both as printed (2 decimals, 0.1 ms), to 0.01 ms half up: (1.20 - 1) x 62.2 = 12.44,
    exact, where the fastest runs' difference may print 12.4 (74.6 - 62.2) or anything else."""
    return claims.half_up((claims.as_printed(ratio, 2) - 1) * claims.as_printed(step * 1e3, 1), 2)


def ratio_working(ratio: float, step: float) -> str:
    """``extra_from_ratio``'s working, as a reader redoes it: "(1.20 - 1) x 62.2 = 12.44 ms"."""
    return (f"({claims.as_printed(ratio, 2):.2f} - 1) x {claims.as_printed(step * 1e3, 1):.1f} = "
            f"{extra_from_ratio(ratio, step):.2f} ms")


def step_from_ratio(ratio: float, step: float) -> float:
    """The step time (seconds) that a ``ratio`` x the plain ``step`` gives, in ms as printed (0.1 ms, half up):
    1.18 x 62.2 = 73.4 ms: the step's *paired reading*, its median ratio set on the plain step's fastest run.
    It is not the step's own rounds' median, nor any round's time: the plain step's fastest run is one round's,
    so the reading may lie below every round of the step it reads (t35_0506 #1); the page names it so."""
    return claims.half_up(claims.as_printed(ratio, 2) * claims.as_printed(step * 1e3, 1), 1) / 1e3


def extra_share(part: tuple[float, float], whole: tuple[float, float]) -> tuple[float, float, float]:
    """One extra time's share of another, from two step-time ratios x the same plain step, each (ratio, ±) as
    printed (the ± half up, as ``step_ratio``'s rule prints it): (part - 1) / (whole - 1), the plain step cancelling: (1.18 - 1) / (1.20 - 1) = 90%. With the range
    both ± allow: the smallest part over the largest whole, and the other way round (moving one ± alone would
    read the share more exactly than the rounds measured it). The low end never under 0; the high end
    ``math.inf`` where the whole's ± reaches 1x (the whole may be no extra time at all). Returns (share, low,
    high); ``share`` is ``math.inf`` where the whole prints no extra time."""
    (p, p_pm), (w, w_pm) = ((claims.as_printed(r, 2) - 1, claims.half_up(pm, 2)) for r, pm in (part, whole))
    share = p / w if w > 0 else math.inf
    low = max(0.0, (p - p_pm) / (w + w_pm)) if w + w_pm > 0 else 0.0
    return share, low, (p + p_pm) / (w - w_pm) if w - w_pm > 0 else math.inf


def extra_share_words(part: tuple[float, float], whole: tuple[float, float], of_what: str) -> str:
    """``extra_share`` in words, half up as a reader rounds: "90% of full checkpointing's extra time
    ((1.18 - 1) / (1.20 - 1); 52%-153% within both ± 0.05 and 0.05)", or, where the whole's ± reaches 1x, an
    unread share, said so. Lesson 06 (selective checkpointing's extra time over full checkpointing's)."""
    share, low, high = extra_share(part, whole)
    (p, p_pm), (w, w_pm) = ((claims.as_printed(r, 2), claims.half_up(pm, 2)) for r, pm in (part, whole))
    if high == math.inf:
        return (f"an unread share {of_what} (that step, {w:.2f}x ± {w_pm:.2f} the plain step's time, is within "
                f"its ± of no extra time)")
    return (f"{claims.percent(share)} {of_what} (({p:.2f} - 1) / ({w:.2f} - 1); {claims.percent(low)}-"
            f"{claims.percent(high)} within both ± {p_pm:.2f} and {w_pm:.2f})")


def _in_forwards(extra_ms: float, low: float, high: float, noise: float, working: str = "") -> str:
    """The extra time (ms) over the blocks' forward at both ends of its range, ± the noise the verdict reads,
    with the verdict: the body of ``forwards_cost`` and ``ratio_in_forwards``; ``working``: how the extra ms
    were found, said after the share of the prediction. The ± is printed wherever the share is (cells 16 and
    48, the claims row), with what set it, so that 0.80 + 0.21 reaching 1 is the reader's own check (t29_0506)."""
    a, b, pm, verdict = _forwards_verdict(extra_ms, low, high, noise)
    # what set the ±: the rounds' noise in ms (over the shorter forward), or the floor where that is larger,
    # named with the share the rounds' noise gives, so that 1.3 / 21.3 = 0.06 beside 0.10 is explained (t32_0506 #2)
    # the noise in ms rounded half up, as a reader rounds a printed ± x a printed step (t36_0506 #2)
    source = (f"; ± {claims.half_up(noise * 1e3, 1):.1f} ms, the rounds' noise" if pm > FLOOR else
              "; ± at its floor, a tenth of a forward" + _under_floor(noise, low))
    if a == b:
        return (f"{a:.2f} ± {pm:.2f} of a forward ({claims.percent(a)} of the predicted extra time{working}"
                f"{source}): {verdict}")
    return (f"{a:.2f}-{b:.2f} ± {pm:.2f} of a forward ({claims.percent(a)}-{claims.percent(b)} of the predicted "
            f"extra time{working}{source}): {verdict}")


def _under_floor(noise: float, low: float) -> str:
    """Beside "± at its floor": the share of a forward the rounds' own noise (seconds) gives, worked from the ms
    as printed over the shorter forward, ": the rounds' ± 1.3 ms over 21.3 ms is 0.06"; "" where no rounds'
    noise was given."""
    noise_ms, lo_ms = claims.half_up(noise * 1e3, 1), claims.as_printed(low * 1e3, 1)
    if noise_ms <= 0:
        return ""
    return f": the rounds' ± {noise_ms:.1f} ms over {lo_ms:.1f} ms is {claims.half_up(noise_ms / lo_ms, 2):.2f}"


def _forwards_verdict(extra_ms: float, low: float, high: float, noise: float) -> tuple[float, float, float, str]:
    """The extra time (ms) in forwards at both ends of the range (fewest, most) and its ± (the rounds' noise in
    ms, as printed, over the shorter forward; at least ``FLOOR``), each as printed (2 decimals, half up), and
    the one verdict on them: the prediction holds where either end reaches 1 within that ±, judged on the
    printed figures (0.80 ± 0.21 reaches 1.01)."""
    lo_ms, hi_ms = claims.as_printed(low * 1e3, 1), claims.as_printed(high * 1e3, 1)
    fewest, most = claims.half_up(extra_ms / hi_ms, 2), claims.half_up(extra_ms / lo_ms, 2)
    pm = max(FLOOR, claims.half_up(claims.half_up(noise * 1e3, 1) / lo_ms, 2))
    verdict = ("less than the predicted forward" if round(most + pm, 2) < 1 else
               "more than the predicted forward" if round(fewest - pm, 2) > 1 else "about one forward, as predicted")
    return fewest, most, pm, verdict


def ratio_meets_forward(ratio: float, step: float, low: float, high: float, noise: float = 0.0) -> bool:
    """Whether ``ratio_in_forwards`` (same arguments) says "about one forward, as predicted": the one verdict
    the page's details follow, so that they never call a miss what the headline calls a match (t29_0506 #1)."""
    return _forwards_verdict(extra_from_ratio(ratio, step), low, high, noise)[3].endswith("as predicted")


def medians_against_pairs(full_step: float, sel_step: float, gain: float, noise: float) -> str:
    """Where the page prints full checkpointing's and selective's paired readings (``step_from_ratio``,
    seconds as printed) and, a paragraph away, the two read pair by pair (``gain``: full's step / selective's,
    ± ``noise``, as printed): a sentence where the two point opposite ways, since medians of different pairs
    need not agree; "" where they point the same way or either is flat (t29_0506 #2)."""
    full_ms, sel_ms = (claims.as_printed(s * 1e3, 1) for s in (full_step, sel_step))
    medians = claims.half_up(full_ms / sel_ms, 2)
    gain, noise = claims.as_printed(gain, 2), claims.as_printed(noise, 2)
    if (medians - 1) * (gain - 1) >= 0:
        return ""
    # judged on the printed digits (0.94 lies 0.06 from 1x, not 0.0600000001 as floats hold it)
    both_within = all(claims.half_up(abs(r - 1), 2) <= noise for r in (medians, gain))
    return (f"Full's paired reading / selective's, {full_ms:.1f} / {sel_ms:.1f} = {medians:.2f}x, points the "
            f"other way from the rounds paired directly (full's step / selective's: {gain:.2f}x ± {noise:.2f}): "
            f"medians of different pairs need not agree; "
            + ("both lie within that ± of 1x, so neither step is shown the faster." if both_within else
               "the paired rounds, the figure the verdict reads, are the one to go by."))
