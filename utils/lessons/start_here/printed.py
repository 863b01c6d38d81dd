"""Lesson 00's times as the page prints them, so that every figure worked from a time (a rate, a share of it)
is worked from the time as printed (``utils.claims``' rule): a reader who divides 64 KiB by the printed 2.13 µs
finds the printed 30.77 GB/s.

    micros(2.134e-6)      # "2.13": two decimals under 10 µs, where one decimal would carry ±2% by itself
    shown_seconds(2.134e-6)  # 2.13e-6, the seconds a rate is worked from
"""

from __future__ import annotations

from utils import claims


def us_digits(seconds: float) -> int:
    """Decimals a time gets in µs: 2 under 10 µs (2.13), 1 above (95.7, 7,089.0)."""
    return 2 if seconds < 10e-6 else 1


def micros(seconds: float) -> str:
    """A time in µs as the lesson prints it (``us_digits`` decimals, thousands separated)."""
    return f"{claims.as_printed(seconds, us_digits(seconds), 1e-6):,.{us_digits(seconds)}f}"


def shown_seconds(seconds: float) -> float:
    """``seconds`` rounded as ``micros`` prints it (never 0: a time printed as 0.00 µs counts as 0.01 µs)."""
    return (claims.as_printed(seconds, us_digits(seconds), 1e-6) or 0.01) * 1e-6


def mean_of_two(value: float, digits: int) -> str:
    """A figure worked as the mean (or half) of figures printed with ``digits`` decimals, exactly: one decimal
    more where needed ("6.595", "9.645"), none where it is not ("6.59"), so a reader who redoes it finds it."""
    text = f"{value:.{digits + 1}f}"
    return text[:-1] if text.endswith("0") else text


def micros_time_share(part: float, whole: float) -> float:
    """``part / whole`` (two times) worked from the two times as printed by ``micros``: 0.87 of 2.13 µs is 41%."""
    return shown_seconds(part) / shown_seconds(whole)


def printed_residual(fit, size: int, residual: float) -> float:
    """A fit's (``linkmodel.AlphaBeta``) residual at ``size`` as a fraction, worked from the figures the lesson
    prints and rounded half up to the whole percent the fit table prints (reader t9_0001: +8% from the
    unrounded fit beside α 0.29 µs, β 37.90 GB/s and 2.18 µs, which give +7%): the measured time as ``micros``
    prints it, less α as ``micros`` prints it plus ``size`` over β (GB/s to two decimals), over that time. The
    measured time is the fit's own: fitted / (1 - residual)."""
    measured = shown_seconds(fit.time(size) / (1 - residual))
    alpha = claims.as_printed(fit.alpha, us_digits(fit.alpha), 1e-6) * 1e-6
    line = alpha + size / ((claims.as_printed(fit.beta, 2, 1e9) or 0.01) * 1e9)
    return claims.half_up((measured - line) / measured * 100, 0) / 100


def printed_accuracy(link) -> float:
    """A link fit's ± (``machine.LinkFit``): its largest residual as the fit table prints them
    (``printed_residual``, from the printed α, β and times), so that "every size within ±26%" is the largest
    figure of the column beside it. ``LinkFit.accuracy`` (the unrounded worst residual) keeps its meaning for
    the gates; a ± printed in lesson 00 is this one."""
    fit = link.fit
    return max(abs(printed_residual(fit, n, r)) for n, r in zip(fit.sizes, fit.residuals))


def percent_shown(share: float) -> float:
    """``share`` as ``claims.percent`` prints it, half up (0.295: 30%; 0.285: 29%): margins use the printed %."""
    return int(claims.percent(share).rstrip("%")) / 100


def points(share: float) -> str:
    """A difference of two percentages, in percentage points: 0.05 -> "5 points" (45% against 50%)."""
    return f"{round(share * 100):.0f} point" + ("" if round(share * 100) == 1 else "s")


def reference_digits(bound: float, dram: bool) -> int:
    """Decimals a reference (bytes/s, printed in GB/s) is printed and worked with: two, but DRAM's (``dram``) is half
    a read rate printed to two decimals, exact at three ("10.75 / 2 = 5.375"), and is kept whole, so that a share
    beside it is the reader's own division (t38_0001 #4: 5.94 / 5.38 printed 110%, where 5.94 / 5.375 is 111%).
    Three only where ``bound`` is such a half (``regimes.printed_half``: within a byte or two a second of it)."""
    half = claims.as_printed(2 * bound, 2, 1e9) * 1e9 / 2
    exact = dram and abs(bound - half) <= 2.0
    return 3 if exact and claims.as_printed(half, 3, 1e9) != claims.as_printed(half, 2, 1e9) else 2


def reference_text(bound: float, dram: bool) -> str:
    """A reference in GB/s to its ``reference_digits``: "5.375", "12.78"."""
    digits = reference_digits(bound, dram)
    return f"{claims.as_printed(bound, digits, 1e9):.{digits}f}"


def reference_share(rate: float, bound: float, dram: bool) -> float:
    """``rate`` over its reference, both as printed (the rate to two decimals, the reference to its digits)."""
    return claims.as_printed(rate, 2, 1e9) / claims.as_printed(bound, reference_digits(bound, dram), 1e9)
