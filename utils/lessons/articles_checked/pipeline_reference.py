"""Lesson 02 §5's best pipeline as the ledger keeps it: its work-scaled reference, and whether that reference
explains a median past 2m/(m+1) (rows A10, A19 and make bench's reading; ``checks.speedup_words`` words it)."""

from __future__ import annotations

import re

from utils import claims as words
from utils.lessons.articles_checked.figures import DEVICES, spread_of

# A pipeline past 2m/(m+1) stays "above its bound: a finding to explain", never agreement. Where it is within
# the work-scaled reference lesson 02 recorded (the stages' work, measured in the pipeline's own run, came to less
# than one device's), the row gives lesson 02 §5's explanation beside it; an older ledger entry kept no
# reference, and an excess under this share of the bound is given the same explanation.
EXPLAINED_MARGIN = 0.10


def work_scaled_reference(record: dict) -> float | None:
    """Lesson 02's work-scaled reference for its best pipeline: the ledger entry's ``reference``, the benchmark's
    ``work_scaled_reference``; an older ledger entry named it in ``what`` ("...; work-scaled reference 1.94x");
    None where none is recorded."""
    for key in ("reference", "work_scaled_reference"):
        if record.get(key):
            return float(record[key])
    found = re.search(r"work-scaled reference (\d+(?:\.\d+)?)x", record.get("what", ""))
    return float(found.group(1)) if found else None


def explained_by_reference(record: dict) -> bool:
    """A pipeline past 2m/(m+1) that lesson 02 explains: within its work-scaled reference plus the rounds' spread,
    as printed (lesson 02's ``within_work_reference``); else (no reference kept) past it by < ``EXPLAINED_MARGIN``.
    Never a median printed past 2 devices' 2x, even one at 2x within noise (``median_two_words``, rule 4): a
    reference past 2x explains nothing past 2x."""
    if words.as_printed(record["value"], 2) > DEVICES:  # past 2x or at it within noise: rule 4, no reference
        return False
    reference = work_scaled_reference(record)
    if reference is not None:  # the spread only where rounds were kept; 9 decimals: a difference's float error
        spread = spread_of(record) if record.get("rounds") else 0.0
        return round(words.as_printed(record["value"], 2) - spread, 9) <= words.as_printed(reference, 2)
    return record["value"] <= record["bound"] * (1 + EXPLAINED_MARGIN)


def median_past_two(record: dict) -> bool:
    """A median past 2 devices' 2x beyond its rounds' spread (median - spread > 2.00, as printed): a finding to
    explain (rule 4). Without rounds kept there is no spread, and a median printed past 2x is past it."""
    spread = spread_of(record) if record.get("rounds") else 0.0
    return round(words.as_printed(record["value"], 2) - spread, 9) > DEVICES  # 9 decimals: a float's error


def median_two_words(record: dict) -> str:
    """Cell 0's rule 4 for a median printed past 2 devices' 2x: past it beyond its rounds' spread, a finding no
    reference explains; where the spread covers 2x, at 2x within noise, and no reference is said to explain it
    (a median that may lie past 2x is read against 2x, not against a reference); "" for a median at most 2x."""
    median = words.as_printed(record["value"], 2)
    if median <= DEVICES:
        return ""
    two = f"{DEVICES} devices' {DEVICES}x"
    if not record.get("rounds"):
        return f"the median itself past {two}, with no rounds' spread kept, which no reference explains (rule 4)"
    spread = spread_of(record)
    if median_past_two(record):
        return (f"the median itself past {two} beyond its rounds' spread ({median:.2f}x - {spread:.2f} = "
                f"{median - spread:.2f}x), which no reference explains (rule 4)")
    return (f"the median at {two} (within noise: {median:.2f}x ± {spread:.2f} covers {DEVICES}x), which no "
            f"reference is said to explain: a reference past {DEVICES}x explains nothing past {DEVICES}x (rule 4)")
