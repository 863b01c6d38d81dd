"""Each device's share of its rate alone (speed-up / n), one printer and one reading for every row of lesson 09
that prints it (A19, A24, B21; A4 prints its inverse, the GPU-hours): the share is worked from the speed-up as
printed, and the words ("it falls", "it holds") are decided from that same printed speed-up, so a 1.99x run
reads "99.5%" and "falls" in every row, never "100%" or "holds" in one of them. Used by ``figures``,
``wording``, ``summary_rows`` and ``verdicts``.
"""

from __future__ import annotations

from utils import claims


def printed_share(speedup: float, n: int = 2) -> float:
    """Each of ``n`` devices' share of its rate alone, from the speed-up as printed: 1.99x / 2 = 0.995."""
    return claims.as_printed(speedup, 2) / n


def share_of_rate(speedup: float, n: int = 2) -> int:
    """``printed_share`` in whole per cent, half up as a reader works it (1.77x / 2 = 88.5% -> 89%, 1.79x / 2 =
    89.5% -> 90%): what a row sets beside a line in whole per cent (row A19's 60%). Print it with
    ``share_text``, which never reads 100% for a share that is not all of it."""
    return int(claims.half_up(printed_share(speedup, n) * 100, 0))


def percent_text(share: float) -> str:
    """A share (0.995) in per cent, without the sign: ``claims.percent``'s whole per cent, half up ("89"), except
    that only all of it prints "100": a share under or over it that whole per cent would round to 100 gets the
    decimals that keep it off 100 ("99.5", "100.4"), so a speed-up of 1.99x never reads "100%" each."""
    whole = claims.percent(share).removesuffix("%")
    exact = claims.half_up(share * 100, 9)
    if whole != "100" or exact == 100:
        return whole
    for digits in (1, 2, 3):
        shown = claims.half_up(exact, digits)
        if shown != 100:
            return f"{shown:.{digits}f}"
    return f"{exact:g}"


def share_text(speedup: float, n: int = 2) -> str:
    """Each of ``n`` devices' share of its rate as printed beside the speed-up: "89" for 1.77x, "99.5" for
    1.99x, "100" for 2.00x (``percent_text`` of ``printed_share``)."""
    return percent_text(printed_share(speedup, n))


def share_went(speedup: float, n: int = 2) -> str:
    """Which way each device's work a second went against one device alone, from the speed-up as printed (the
    figure beside it): "falls" under n x (1.99x), "holds" at it (2.00x, printed from 1.999), "rises" past it."""
    shown = claims.as_printed(speedup, 2)
    return "falls" if shown < n else "holds" if shown == n else "rises"


WENT_WORDS = {"falls": "it falls", "holds": "it holds", "rises": "it rises: superlinear, a finding to explain"}


def per_worker_words(speedup: float, n: int = 2) -> str:
    """Each worker's work a second against one worker alone (speed-up / n), and which way it went, both from
    the speed-up as printed: "99.5% of one worker's work a second each (speed-up / 2: it falls)"."""
    return (f"{share_text(speedup, n)}% of one worker's work a second each "
            f"(speed-up / {n}: {WENT_WORDS[share_went(speedup, n)]})")
