"""Small printers the timed rows share (lesson 09): whole µs as the rows print them, a paired figure with its
rounds, its single rounds against a bound, a message size in words. Split out of ``timed_rows`` (which
re-exports them) to keep each module under the course's 600 lines.
"""

from __future__ import annotations

from utils import claims
from utils.lessons.articles_checked.checks import paired
from utils.lessons.articles_checked.figures import DEVICES, rounds_above_words, rounds_record
from utils.lessons.model_split.noise import rounds_text  # lesson 02's one rounding of a round near 1x or 2x


def _us(seconds: float) -> int:
    """Whole µs, as the rows print them (``claims.as_printed``): sums and differences work from these."""
    return int(claims.as_printed(seconds, 0, scale=1e-6))


def rounds_words(ratios: list[float], what: str = "paired rounds") -> str:
    """"1.03x ± 0.21 (median of 6 paired rounds, range 0.71-1.42x)": the figure a verdict reads, as printed; the
    range's ends with the digits that show which side of 1x or 2x they lie (``round_text``: "0.86-1.005x"), as the
    rounds above a bound are counted, so an end printed "1.00x" is never one counted above 1x."""
    median, spread = paired(ratios)
    return (f"{median:.2f}x ± {spread:.2f} (median of {len(ratios)} {what}, range "
            f"{rounds_text(min(ratios), max(ratios))}x)")


def rounds_above_note(ratios: list[float], bound: float, devices: int | None = DEVICES) -> str:
    """"; 1 of 6 rounds above the bound (up to 2.03x, ...): a finding to explain": each single round against
    the bound by lesson 02's rule (``rounds_above_words``), the one rule for every row that lists rounds, so
    a round past a ceiling is never left unsaid beside a median under it ("" where no rounds were kept)."""
    if len(ratios) < 2:
        return ""
    return "; " + rounds_above_words(rounds_record(ratios, bound, devices))


def size_words(n: int) -> str:
    """65536 -> "64 KiB"; 4 -> "4-byte"."""
    for unit, scale in (("MiB", 2**20), ("KiB", 2**10)):
        if n >= scale:
            return f"{n // scale} {unit}"
    return f"{n}-byte"
