"""Why the ledger's MFU column falls as the steps make the run faster: its denominator moves. Lesson 08."""

from __future__ import annotations

from utils import claims
from utils.lessons.putting_it_together.report import final, mfu_text, ran, tokens_ratio


def _ceiling(row: dict, peaks: dict[str, float]) -> float:
    """A row's MFU denominator in GFLOP/s as printed: its precision's peak (1 decimal) x its workers."""
    return claims.half_up(row["workers"] * claims.as_printed(peaks[row["precision"]], 1, 1e9), 1)


def mfu_change(rows: list[dict], peaks: dict[str, float]) -> str:
    """One sentence: how MFU moved from the baseline to the last kept step, and why, from the printed figures:
    MFU is tokens/s over a ceiling (the matmul peak of the step's own precision x its workers), so when the
    ceiling rises more than the tokens/s, a faster step shows a lower MFU (t40_0708: 59.1% -> 8.2% read as
    the run getting worse)."""
    base, last = ran(rows)[0], final(rows)
    was, now = claims.as_printed(base["mfu"], 3), claims.as_printed(last["mfu"], 3)
    moved = "fell" if now < was else "rose" if now > was else "held"
    speed, low, high = tokens_ratio(rows), _ceiling(base, peaks), _ceiling(last, peaks)
    lead = (f"MFU {moved} from {mfu_text(base['mfu'])} (baseline) to {mfu_text(last['mfu'])} ({last['step']}) "
            f"while tokens/s went {speed:.2f}x")
    if high == low:
        return lead + ": its denominator did not change, so MFU moved with the speed."
    grew = claims.half_up(high / low, 2)
    why = (f"MFU divides by the matmul peak of the step's own precision x its workers, which went {grew:.2f}x "
           f"(from {low:,.1f} GFLOP/s, {base['precision']} on {base['workers']} worker"
           f"{'s' * (base['workers'] > 1)}, to {high:,.1f}, {last['precision']} on {last['workers']})")
    if moved == "fell" and speed > 1:
        return (f"{lead}: not the run getting worse: {why}, more than the speed did, so a faster step "
                "shows a lower MFU.")
    return f"{lead}: {why}."
