"""Checkpointing's prediction, one extra forward of the blocks, where the blocks' forward timed alone came out
longer than the whole loss's forward that contains it (lesson 06, section 2). A part cannot take longer than
its whole, so that forward lies somewhere between the two: the prediction is given as the range they allow,
and the extra time measured is read in forwards at both ends, so no figure rests on the suspect one alone.

    low, high = blocks_forward_range(CKPT_TIMES)            # seconds, as the step-times table prints them
    predicted_speed(step, low, high)                        # "1.32-1.34x"
    forwards_cost(extra, low, high, noise)                  # "0.67-0.71 of a forward (...): less than ..."
    ratio_in_forwards(1.17, step, low, high, noise)         # the same, from a ratio read pair by pair
"""

from __future__ import annotations

from utils import claims


def blocks_forward_range(times: dict) -> tuple[float, float]:
    """The blocks' forward (seconds, as printed: 0.1 ms) as low and high ends: the time it took alone, and at
    most the whole loss's forward that contains it (``times["forward"]``), where that printed shorter. Both
    ends are the blocks' forward where the whole is longer or was not timed."""
    part = claims.as_printed(times["blocks' forward"], 1, 1e-3) / 1e3
    whole = times.get("forward")
    if whole is None:
        return part, part
    whole = claims.as_printed(whole, 1, 1e-3) / 1e3
    return min(part, whole), part


def predicted_speed(step: float, low: float, high: float) -> str:
    """The step time the prediction expects, x the plain ``step``: (step + one forward) / step, at both ends
    of ``blocks_forward_range`` ("1.34x", or "1.32-1.34x" where the ends print apart)."""
    ends = [claims.half_up((step + f) / step, 2) for f in (low, high)]
    return f"{ends[0]:.2f}x" if ends[0] == ends[1] else f"{ends[0]:.2f}-{ends[1]:.2f}x"


def forward_words(low: float, high: float) -> str:
    """The forward the prediction adds, in ms as printed: "28.4 ms", or, where the whole forward bounds it,
    "26.9-28.4 ms: 28.4 timed alone, at most the whole forward that contains it, 26.9"."""
    lo, hi = claims.as_printed(low * 1e3, 1), claims.as_printed(high * 1e3, 1)
    if lo == hi:
        return f"{hi:.1f} ms"
    return f"{lo:.1f}-{hi:.1f} ms: {hi:.1f} timed alone, at most the whole forward that contains it, {lo:.1f}"


def forwards_cost(extra: float, low: float, high: float, noise: float = 0.0) -> str:
    """Checkpointing's ``extra`` step time (seconds) in forwards of the blocks, at both ends of the forward's
    range: "0.67 of a forward (67% of the predicted extra time)", or "0.67-0.71 of a forward (67%-71% ...)".
    About the one predicted where the range comes within 10 % of 1 (or within ``noise``, the rounds' spread in
    seconds, where that is wider); less or more only where the whole range is. Worked from the ms as printed
    (0.1 ms), so that 19.1 / 28.4 and 19.1 / 26.9 are a reader's own divisions."""
    return _in_forwards(claims.as_printed(extra * 1e3, 1), low, high, noise)


def ratio_in_forwards(ratio: float, step: float, low: float, high: float, noise: float = 0.0) -> str:
    """``forwards_cost`` for a step-time ``ratio`` read pair by pair (``measure.step_ratio``, x the plain
    ``step``): its extra time is (ratio - 1) x the step, from the ratio as printed (2 decimals) and the step in
    ms as printed (0.1 ms), not rounded again, so that (1.17 - 1) x 69.7 / 21.7 is a reader's own working.
    ``noise``: the ratio's ± in seconds (its ± x the step)."""
    extra_ms = (claims.as_printed(ratio, 2) - 1) * claims.as_printed(step * 1e3, 1)
    return _in_forwards(extra_ms, low, high, noise)


def _in_forwards(extra_ms: float, low: float, high: float, noise: float) -> str:
    """The extra time (ms) over the blocks' forward at both ends of its range, with the verdict: the body of
    ``forwards_cost`` and ``ratio_in_forwards``."""
    lo_ms, hi_ms = claims.as_printed(low * 1e3, 1), claims.as_printed(high * 1e3, 1)
    fewest, most = extra_ms / hi_ms, extra_ms / lo_ms
    tolerance = max(0.1, noise * 1e3 / lo_ms)
    verdict = ("less than the predicted forward" if most < 1 - tolerance else
               "more than the predicted forward" if fewest > 1 + tolerance else "about one forward, as predicted")
    a, b = claims.half_up(fewest, 2), claims.half_up(most, 2)
    if a == b:
        return f"{a:.2f} of a forward ({claims.percent(a)} of the predicted extra time): {verdict}"
    return (f"{a:.2f}-{b:.2f} of a forward ({claims.percent(a)}-{claims.percent(b)} of the predicted extra "
            f"time): {verdict}")
