"""Section 8's figures as the page prints them (lesson 02): the attention/feed-forward placement's extra time
over the layers placement, paired round by round, its spread and its extra messages' price (``extra_time``),
whether it clears the noise (``resolved``), and the table's two median steps beside it (``medians_apart``).
``placement`` reads these and re-exports them; they need only the run's dict, no process group."""

from __future__ import annotations

import statistics

from utils.claims import as_printed, as_printed_sig, half_up, paired_spread, within_noise


def ms_text(ms: float, sign: bool = False, digits: int | None = None) -> str:
    """Milliseconds as printed: one decimal under 10 ms, whole above (or ``digits``, one precision for every
    figure of a sum, so that it adds up as printed); the arithmetic keeps every digit."""
    digits = (1 if abs(ms) < 10 else 0) if digits is None else digits
    return f"{ms:+.{digits}f}" if sign else f"{ms:.{digits}f}"


def sum_digits(*terms: float) -> int:
    """One decimal for every term of a printed sum where any term is under 10 ms, else whole ms."""
    return 1 if min(abs(t) for t in terms) < 10 else 0


def extra_range(got: dict) -> tuple[float, float]:
    """The lowest and highest round's extra ms (attention/feed-forward step minus layers step, same round)."""
    diffs = got["extra_rounds"]
    return min(diffs) * 1e3, max(diffs) * 1e3


def resolved(got: dict) -> bool:
    """Whether the placements' difference clears the noise, by the course's one rule (``claims.within_noise``):
    the median extra time ± the paired rounds' spread (``claims.paired_spread`` of the differences) does not
    cover 0. Only then is the difference split into causes: noise is not explained."""
    extra, noise = extra_time(got)[:2]
    return not within_noise(extra, noise, 0.0)


def medians_apart(got: dict) -> tuple[float, float, bool]:
    """The two placements' median steps as the placements table prints them (whole ms), and whether their
    difference lies outside the paired median's ± (``claims.within_noise``, as printed to 0.1 ms) widened by
    the table's rounding (each whole-ms median is up to 0.5 ms off, so their difference up to 1 ms). The paired
    median pairs each round's two steps; the two medians may come from different rounds, so they can differ."""
    placed = as_printed(got["attn/ffn"]["row"].seconds, 0, 1e-3)
    layers = as_printed(got["layers"]["row"].seconds, 0, 1e-3)
    extra, noise = extra_time(got)[:2]
    return placed, layers, not within_noise(as_printed(extra, 1), as_printed(noise, 1) + 1.0, placed - layers)


def extra_time(got: dict) -> tuple[float, float, int, float, float]:
    """The attention/feed-forward placement's extra ms per step over the layers placement (the median of the
    paired rounds' differences), their spread (ms, ``claims.paired_spread``: half the middle half's range, as
    every ± of the course), its extra messages, and what they should cost in ms: fixed (the 4-byte probe's
    time each) and bytes, worked from the probe and the activation as printed (0.062 ms to three decimals; the
    activation to three significant figures, 2.04 ms or 0.775 ms, as section 8's block prints it and divides
    by it), so that "12 x 0.062" and 12 x (0.775 - 0.052) are the reader's own products. The extra ms and its
    spread are worked from the rounds as printed, the spread rounded half up to 0.1 ms, as it is printed."""
    diffs = [as_printed(d * 1e3, 1) for d in got["extra_rounds"]]  # as ``rounds_note`` prints them (0.1 ms)
    extra = statistics.median(diffs)
    # the middle half's half range, rounded half up to the 0.1 ms the rounds and the ± are printed to, as a reader
    # works it: (16.8 - 14.5) / 2 = 1.15 -> 1.2 (not 1.1, the float 1.15 formatted to one decimal)
    noise = half_up(paired_spread(diffs), 1)
    messages = 2 * (got["attn/ffn"]["crossings"] - got["layers"]["crossings"])  # forward and backward
    tiny, one = as_printed(got["message"]["tiny"], 3, 1e-3), as_printed_sig(got["message"]["activation"], 3, 1e-3)
    return extra, noise, messages, messages * tiny, messages * max(one - tiny, 0.0)
