"""What a pipeline can gain at best: the bounds lesson 02 (``notebooks/02_model_split.ipynb``) measures against.

    pipeline_bound(m=4)                  # 2m/(m+1) = 1.6 for two equal stages
    bubble_fraction(m=4)                 # (p-1)/(m+p-1) = 0.2: each device idles a fifth of the time
    predicted_speedup([0.03, 0.01], 4)   # unequal stages: the slowest sets the pace
"""

from __future__ import annotations

from typing import Sequence

from utils.claims import as_printed, half_up, printed_spread
from utils.claims import one_side
from utils.claims import round_above as claims_round_above


def pipeline_bound(m: int, p: int = 2) -> float:
    """Best speedup of a p-stage pipeline over one device with m micro-batches: p·m / (m + p − 1).

    With equal stages each device works m slots of the m + p − 1 that the schedule takes; the remaining
    p − 1 slots are the fill and drain *bubble*. For p = 2: 2m/(m+1), which tends to 2 as m grows.
    """
    return p * m / (m + p - 1)


def bubble_fraction(m: int, p: int = 2) -> float:
    """Fraction of a p-stage pipeline's time that each device sits idle: (p − 1) / (m + p − 1)."""
    return (p - 1) / (m + p - 1)


def predicted_speedup(stage_seconds: Sequence[float], m: int) -> float:
    """GPipe's speedup over one device when the stages' costs differ (the slowest sets the pace).

    With per-micro-batch stage costs t_k, a fill-drain pipeline takes sum(t) + (m − 1)·max(t) per pass,
    one device m·sum(t): speedup = m·sum / (sum + (m − 1)·max). Equal stages give p·m/(m + p − 1).
    """
    total, slowest = sum(stage_seconds), max(stage_seconds)
    return m * total / (total + (m - 1) * slowest)


MARKS = (1, 2)  # the marks a round is read against everywhere: one device's 1x, two devices' 2x


def round_digits(x: float) -> int:
    """The decimals one round's ratio is printed with: two, and more until the printed figure shows which side
    of 1x and of 2x the round lies (1.0004 prints "1.0004", 1.9996 "1.9996"), and until a reader who rounds the
    printed figure half up to two decimals finds the round's own two-decimal figure, the one a median taken from
    it prints (1.00495 prints "1.00495", not "1.005", which a reader would round to 1.01 beside a median of
    1.00x: t33_02 #2). One rule for the page, the stars and every count of rounds above a mark, so that what is
    counted is what a reader sees. Rounded half up (``claims.half_up``), as a reader rounds: a ratio already
    printed as 0.995 (110.0 / 110.5) would be read back by ``round`` as 0.99, its float lying just under 0.995,
    and lose the digit that shows its side."""
    two = half_up(x, 2)
    for digits in range(2, 7):
        shown = half_up(x, digits)
        if not any(x < mark <= shown or x > mark >= shown for mark in MARKS) and half_up(shown, 2) == two:
            return digits
    return 6


def round_as_printed(x: float) -> float:
    """One round's ratio as the page prints it (``round_digits`` decimals, half up)."""
    return half_up(x, round_digits(x))


def paired_digits(one: float, split: float) -> int:
    """The decimals (of a ms) one round's two step times (s) are printed with in section 3's rounds table: 0.1 ms,
    or finer where the two ms at 0.1 would divide to another figure than the round prints (``round_as_printed``
    with ``round_digits``): 155.294 / 155.300 for a round of 0.99996. One rule for the table's ms and for every
    ratio worked from them (``runs.process_reference``), so that a reader who divides printed ms finds the ratio
    printed beside them."""
    shown = (round_as_printed(one / split), round_digits(one / split))
    for digits in range(1, 4):  # 0.1 ms to 1 µs; 0.1 µs where none of those suffices
        o, t = as_printed(one, digits, 1e-3), as_printed(split, digits, 1e-3)
        if t and (round_as_printed(o / t), round_digits(o / t)) == shown:
            return digits
    return 4


def rounds_spread(rounds) -> float:
    """The ``±`` of paired rounds as a reader works it from the rounds this lesson prints (``round_as_printed``:
    "0.95 0.97 0.998" spread (0.998 - 0.95) / 2 = 0.024, printed 0.02), rounded half up to two decimals. Not
    from the rounds cut to two decimals (0.998 read as 1.00 would give 0.03): the ± and every count of rounds
    use the one rounding the page shows."""
    return printed_spread(rounds, shown=round_as_printed)


def round_above(x: float, mark: float) -> bool:
    """Whether one round is above a mark (the bound, the devices' count) as both are printed: the round with
    ``round_digits`` decimals, the mark with two (``claims.round_above``, the course's one rule, with this
    lesson's way of printing a round). 1.005 is above 1.00x; 2.000 would be neither, so it is printed 1.9996
    or 2.0004."""
    return claims_round_above(x, mark, shown=round_as_printed)


def printed_side(rounds, mark: float) -> str | None:
    """"below" or "above" where every round, printed as this lesson prints it (``round_as_printed``), lies on
    that side of ``mark`` printed with two decimals (``claims.one_side``), else None."""
    return one_side(rounds, mark, shown=round_as_printed)
