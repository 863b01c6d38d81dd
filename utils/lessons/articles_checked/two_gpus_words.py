"""The summary's sentence on whether two GPUs raised throughput, printed from row A24's check.

The summary's markdown says only what the course reads in the articles (two GPUs *can* raise throughput,
within 2x); whether they did in this run is a measured outcome, so it is printed here from A24's check,
which reads lesson 03's DDP workers and lesson 08's two-device step as row A3 does.
"""

from __future__ import annotations

from utils.lessons.articles_checked.checks import ABOVE, AGREES, BUSY, DISAGREES, NOISY, WAITING


def throughput_sentence(check: str) -> str:
    """One sentence for each answer A24's check can give (``checks.STATES``)."""
    if check == AGREES:
        return ("Two GPUs raised throughput in this run, within 2x, and the work per GPU did not rise (that needs "
                "superlinear scaling): row A24.")
    if check == ABOVE:
        return ("A two-GPU figure in this run passed its bound (2x, or superlinear scaling): a finding to "
                "explain, not yet a reading that two GPUs raise throughput: row A24.")
    if check == DISAGREES:
        return "Two GPUs did not raise throughput in this run (a figure slower than one device): row A24."
    if check == NOISY:
        return ("This run does not show whether two GPUs raise throughput: a figure within noise of one "
                "device, or without a spread: row A24.")
    reason = {BUSY: "its figures were timed on a busy machine", WAITING: "a figure it needs is not recorded yet"}
    return f"This run does not say whether two GPUs raise throughput: {reason.get(check, check)} (row A24)."
