"""The summary's sentence on whether two GPUs raised throughput, printed from row A24's check.

The summary's markdown says only what the course reads in the articles (two GPUs *can* raise throughput,
within 2x); whether they did in this run is a measured outcome, so it is printed here from A24's check,
which reads lesson 03's DDP workers and lesson 08's two-device step as row A3 does.
"""

from __future__ import annotations

from utils.lessons.articles_checked.checks import ABOVE, AGREES, BUSY, DISAGREES, NOISY, WAITING


# What A24's check reads (DDP training only), and the other two-device runs this page times, each read in its
# own row (t31_09 #3): the sentence must not stretch one method's outcome to every two-GPU run. A24 reads the
# ledger, so its figures are the lessons' runs, not this page's (t35_09 #4); every two-device run this page
# times is named beside it, the case study's DDP workers (row B22) among them.
DDP_TRAINING = "two DDP workers in training (lessons 03 and 08)"
OTHERS = ("this page's own two-device runs, tensor parallel inference (row A21), the article's split (row A11) "
          "and the case study's CNN on two DDP workers (row B22), are read in their own rows")


def throughput_sentence(check: str) -> str:
    """One sentence for each answer A24's check can give (``checks.STATES``), naming what it read."""
    if check == AGREES:
        said = (f"Two GPUs raised throughput in the lessons' runs for {DDP_TRAINING}, within 2x, and the work per GPU did "
                "not rise (that needs superlinear scaling): row A24")
    elif check == ABOVE:
        said = (f"A two-GPU figure of {DDP_TRAINING} in the lessons' runs passed its bound (2x, or superlinear scaling): a "
                "finding to explain, not yet a reading that two GPUs raise throughput: row A24")
    elif check == DISAGREES:
        said = (f"Two GPUs did not raise throughput in the lessons' runs for {DDP_TRAINING} (a figure slower than one "
                "device): row A24")
    elif check == NOISY:
        said = (f"The lessons' runs do not show whether two GPUs raise throughput for {DDP_TRAINING}: a figure within "
                "noise of one device, or without a spread: row A24")
    else:
        reason = {BUSY: "its figures were timed on a busy machine", WAITING: "a figure it needs is not recorded yet"}
        said = (f"This page cannot say whether two GPUs raise throughput for {DDP_TRAINING}: "
                f"{reason.get(check, check)} (row A24)")
    return f"{said}; {OTHERS}."
