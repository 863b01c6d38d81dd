"""Lesson 02's one way of setting a measured price beside a fitted one (the link's α, a message's price, two
layouts' fits): as a *factor*. A fit's accuracy is its worst residual, (measured - fitted) / measured
(``utils.linkmodel``): a share of the *measured* time, so "±79%" lets a measured time lie from 1/1.79 of the
fitted one (measured = fitted / (1 + 0.79)) up to 4.76x it (fitted / (1 - 0.79)). The ledger keeps only the
worst |residual|, not its side, so both sides are allowed. Every sentence prints that tolerance and the
deviation as factors ("1.64x", or "1/1.73 of" below), never as a signed percent, which a reader would set
beside "±79%" as a band of the fitted price.
``link`` (sections 5 and 8) and ``placement`` (section 8) print through these.

    factor_text(0.060, 0.104)            # "1/1.73 of": the probe against the fit's α, as printed
    against_fit(0.060, 0.104, 0.55)      # "below": 1.73 is beyond a factor of 1.55 below
    tolerance_text(0.79)                 # "a factor of 1.79 below, 4.76 above"
"""

from __future__ import annotations

from utils.claims import as_printed, as_printed_sig, half_up, sig_text

PRICE_FIGURES = 3  # a message's price in ms, to 3 significant figures wherever the page prints one (section 8's too)


def price_text(ms: float) -> str:
    """"0.485": a message's price (ms) as every sentence prints it, so one price reads the same in every cell."""
    return sig_text(ms, PRICE_FIGURES)


def tolerance(accuracy: float) -> tuple[float, float]:
    """A fit's accuracy (its worst |residual|, a share of the measured time) as the two factors the lesson
    compares prices by, (below, above): ±55% -> (1.55, 2.22), ±79% -> (1.79, 4.76). Above is infinite where
    the fit missed by 100% or more (no factor above is ruled out)."""
    shown = as_printed(accuracy, 2)  # the whole percent printed ("±79%"), as a reader redoes the factors
    above = half_up(1 / (1 - shown), 2) if shown < 1 else float("inf")
    return half_up(1 + shown, 2), above


def tolerance_text(accuracy: float) -> str:
    """"a factor of 1.79 below, 4.76 above": a fit's accuracy as every comparing sentence prints it."""
    below, above = tolerance(accuracy)
    return f"a factor of {below:.2f} below, " + (f"{above:.2f} above" if above != float("inf") else "any above")


def accuracy_text(accuracy: float) -> str:
    """"±79% of the measured time": the fit's worst residual, saying what it is a share of."""
    return f"±{accuracy:.0%} of the measured time"


def alpha_ms(alpha: float) -> float:
    """A fitted α (s) in ms as the traffic tables print it (to 0.1 µs: "α 18.5 µs" is 0.0185 ms), so that a
    factor against it is the one a reader divides from the page (0.051 / 0.0185 = 2.76, not 0.051 / 0.019)."""
    return as_printed(alpha, 1, 1e-6) / 1e3


def alpha_text(alpha: float) -> str:
    """"18.5 µs = 0.0185 ms": a fitted α as the traffic tables print it, and in the ms it is set beside."""
    return f"{as_printed(alpha, 1, 1e-6):.1f} µs = {alpha_ms(alpha):.4f} ms"


def factor(over: float, under: float, digits: int = 2) -> float:
    """How many times the larger of two figures (as printed) is the smaller, rounded as a reader rounds it;
    infinite where the smaller one is 0 (no factor reaches it)."""
    small, large = sorted((over, under))
    return half_up(large / small, digits) if small > 0 else float("inf")


def factor_text(over: float, under: float, digits: int = 2) -> str:
    """``over`` against ``under`` as a factor a reader sets beside the tolerance: "1.64x" at or above it,
    "1/1.73 of" below it (the factor the other way). Reads in a sentence as "is 1.64x its α", "is 1/1.73 of
    its α"."""
    shown = factor(over, under, digits)
    if shown == float("inf"):
        return "infinitely far from" if over != under else f"{1:.{digits}f}x"
    return f"{shown:.{digits}f}x" if over >= under else f"1/{shown:.{digits}f} of"


def against_fit(over: float, under: float, accuracy: float, digits: int = 2) -> str:
    """"above", "below" or "within": ``over`` (the measured price) against ``under`` (the fitted one), both as
    printed, by the factor as ``factor_text`` prints it against the tolerance on its side as printed: beyond
    it only where the printed factor exceeds it (1.79 against a factor of 1.79 below is within)."""
    below, above = tolerance(accuracy)
    if factor(over, under, digits) <= (above if over >= under else below):
        return "within"
    return "above" if over > under else "below"


def _side_text(over: float, under: float, accuracy: float) -> str:
    """Which side of the tolerance a factor is read against, in words: "0.58 ms is 1.45x 0.40 ms, within the
    1.69 allowed above" (both as printed), so the reader sets the factor beside the right one of the two."""
    below, above = tolerance(accuracy)
    side, allowed = ("above", above) if over >= under else ("below", below)
    limit = "any factor" if allowed == float("inf") else f"the {allowed:.2f}"
    return f"{price_text(over)} ms is {factor_text(over, under)} {price_text(under)} ms, within {limit} allowed {side}"


def layout_reading(pinned_ms: float, placed_ms: float, accuracy: float) -> str:
    """What pinning changed, from two fits of this run that differ only in the workers' layout: the price
    of one message in each (ms, as printed) against the two fits' accuracy (the larger of the two)."""
    pinned_ms, placed_ms = as_printed_sig(pinned_ms, PRICE_FIGURES), as_printed_sig(placed_ms, PRICE_FIGURES)
    how, pinned, placed = against_fit(pinned_ms, placed_ms, accuracy), price_text(pinned_ms), price_text(placed_ms)
    if how == "within" and pinned == placed:  # the same price as printed: the fits agree
        return f"The two layouts give the same price ({pinned} ms): pinning did not change what a message costs."
    if how == "within":  # apart, by less than the fits resolve: no effect shown, none ruled out
        return (f"The two layouts' prices ({pinned} vs {placed} ms, a factor of {factor(pinned_ms, placed_ms):.2f} "
                f"apart) differ by less than their fits' accuracy ({tolerance_text(accuracy)}): "
                f"{_side_text(pinned_ms, placed_ms, accuracy)}; no effect of pinning on what a message costs is shown.")
    return (f"In the pipeline's layout a message costs {factor_text(pinned_ms, placed_ms)} what it costs in lesson "
            f"00's ({pinned} vs {placed} ms), beyond the fits' accuracy ({tolerance_text(accuracy)}): the layout, "
            "the one difference between the two fits, made it "
            + ("dearer (pinned, a worker's gloo threads run on its own core beside its compute, where unpinned "
               "they could run on any core)." if how == "above" else "cheaper."))


def ledger_reading(now_ms: float, then_ms: float, accuracy: float) -> str:
    """Lesson 00's layout measured now against lesson 00's own fit (ms of one message, as printed): the same
    path, another run, against the two fits' accuracy (the larger of the two)."""
    now_ms, then_ms = as_printed_sig(now_ms, PRICE_FIGURES), as_printed_sig(then_ms, PRICE_FIGURES)
    how, now, then = against_fit(now_ms, then_ms, accuracy), price_text(now_ms), price_text(then_ms)
    if how == "within" and now == then:
        return f"Lesson 00's layout measured now gives lesson 00's price ({now} ms): the path has not moved."
    if how == "within":
        return (f"Lesson 00's layout measured now agrees with lesson 00's fit within its accuracy "
                f"({tolerance_text(accuracy)}; {now} vs {then} ms, a factor of {factor(now_ms, then_ms):.2f} "
                "apart): this run shows no change in the path since lesson 00's run.")
    return (f"Lesson 00's layout measured now is {factor_text(now_ms, then_ms)} lesson 00's fit ({now} vs {then} "
            f"ms), beyond its accuracy ({tolerance_text(accuracy)}): the same path moved between lesson 00's run "
            "and this one (this run does not tell why).")
