"""explain_row's verdicts, word for word, with their thresholds, and the table that shows every one of them
(``verdict_table``). Split from ``report``, which reads these words and re-exports every name here."""

from __future__ import annotations

from utils.tables import Table

# The thresholds of explain_row's verdicts (verdict_table shows them in words).
EXTRA_WORK = 1.10  # the stages' work above this multiple of one device's: the split added work
SHORT_OF_BOUND = 0.90  # the work-based prediction below this share of the bound: imbalance or extra work
STAGES_EVEN = 1.05  # the busiest stage's work within this multiple of the stages' mean: balanced, not imbalance
CONTENDED = 0.80  # CPU time below this share of a stage's busy wall time: it waited for a core

# explain_row's verdicts, word for word.
LESS_WORK_CAUSE = ("the stages measured less work than the one-device step (cheaper work in each process, or "
                   "a slower one-device step in these rounds: this run does not tell which)")
LESS_WORK_VERDICT = "above the bound, within the work-scaled reference: " + LESS_WORK_CAUSE
WITHIN_SPREAD = "median above the bound, within the rounds' noise: no cause to read"
WITHIN_SPREAD_PAST = ("median above the bound, within the rounds' noise; but a round past the number of devices is "
                      "a finding to explain")  # no spread explains a round above 2x on two devices
PAST_DEVICES = ("the median itself past the number of devices (2x on two): a finding to explain, which no reference "
                "explains")  # equal work overlapped on two devices cannot give more than 2x
AT_DEVICES = ("the median at the number of devices (2x on two) within the rounds' spread: no finding, and no "
              "reference read as explaining it")  # the spread covers 2x: noise, not work beyond 2x (t34_02)
PER_PROCESS = ("above 1x and within the per-process reference: each stage alone in its own process cost "
               "less than its share of one device's step (consistent with its caches holding half the model)")
NOISE = "some rounds at or below the bound"
ABOVE = "every round above the bound: these numbers do not explain it"
AT_THE_BOUND = "the bound within the rounds' spread of the median"  # claims' one noise rule, against the bound
GAP = "gap: "  # followed by the causes below, or by UNRESOLVED
EXTRA = "extra work"
IMBALANCE = "imbalance (the stages' work differs)"
CONTENTION = "waiting for a core (contention)"
WAITING = "waiting outside the stages' work (messages, synchronisation)"
# WAITING's place where the median is within noise of the profile's prediction too (section 7's line beside it)
WAITING_OR_OFF = "waiting, or the work's prediction is off (these rounds do not tell which)"
PREDICTED = "what the stages' measured work predicts"  # the median within noise of it, it under the bound
UNRESOLVED = "within what these numbers resolve"


def verdict_table(cpu_times: bool = True) -> Table:
    """Every verdict ``explain_row`` gives, word for word, in the order it tests them, with its thresholds.

    *work* is the stages' CPU time on CPU workers and their device time on GPUs; *predicted* is the speedup
    that work predicts (``Row.predicted``). ``cpu_times=False`` (GPU workers) leaves out the contention
    test, which only CPU times can make.
    """
    rows = [
        ("(first) the headline's verdict", "claims.speedup_verdict against the bound, with the paired spread "
                                          "(under any verdict but 'above the bound': a median past its work-scaled "
                                          "reference says by how much; one above the bound and at most that "
                                          "reference plus d reads 'within the work-scaled reference'; one not "
                                          "above the bound, faster than 1x, under it by more than d: the share of "
                                          "its gain); then one of the readings below"),
        (WITHIN_SPREAD, "median above the bound, the headline's verdict within noise or at the bound, not past "
                        "its work-scaled reference"),
        (WITHIN_SPREAD_PAST, "the same, with a round above the number of devices (2x on two)"),
        (PAST_DEVICES, "median above the bound and above the number of devices (2x on two) by more than the "
                       "rounds' spread (the median minus d above 2.00), as printed"),
        (AT_DEVICES, "median above the bound and above 2x as printed, the median minus d at or under 2.00"),
        (PER_PROCESS, "naive split: median above 1x; each round's speedup over its own round's one device / "
                      "the stages' sum timed alone (the per-process reference): their median ± their spread "
                      "covers 1 or lies under it; the reference's own median ± its spread clear of 1x"),
        (LESS_WORK_VERDICT, "median above the bound, work below one device's and the median at or below "
                            "bound / work (the work-scaled reference) plus the paired spread"),
        (NOISE, "median above the bound, the lowest round at or below it"),
        (ABOVE, "median and every round above the bound"),
        (AT_THE_BOUND, "the median ± the paired spread covers the bound (claims.within_noise), and the rounds "
                       "do not all lie below it (every round below: under the bound, and the headline says so)"),
        (GAP + IMBALANCE, f"otherwise, predicted below {SHORT_OF_BOUND:.0%} of the bound (and, where the work is "
                          f"above {EXTRA_WORK:.2f}x one device's, of the work-scaled reference too), with the "
                          f"busiest stage's work above {STAGES_EVEN:.2f}x the stages' mean"),
        (GAP + EXTRA, f"also, work printed above {EXTRA_WORK:.2f}x one device's, or predicted that short with the stages' "
                      f"work within {STAGES_EVEN:.2f}x of their mean (even stages: the work is what is left)"),
        (GAP + CONTENTION, f"also, any stage's CPU/busy below {CONTENDED:.0%}"),
        (GAP + WAITING, "also, if no contention: the median plus its spread (± d) under the work's "
                        "prediction P"),
        (GAP + WAITING_OR_OFF, "instead, where section 7 prints the profile's prediction beside the row: the "
                               "same, with the median ± d covering the profile's prediction"),
        (GAP + PREDICTED + " (P)", "else, where no cause above: the median ± d covers P, and P is under "
                                   "the bound"),
        (GAP + "the messages' estimated time (the link's fit) covers all of / is most of / is a real part of "
         "the loss",
         "also, where the block prints a traffic reading of the row (sections 5 and 9): its link time 100% / past "
         "50% / past 25% of the time the row lost to its bound"),
        (GAP + UNRESOLVED, "below the bound, outside its noise, and none of the causes above"),
        ("(last, any row) above what the measured work predicts (P), within the rounds' spread (± d)",
         "median above the work's prediction P, the median minus its spread d at or under P (a prediction may be "
         "passed: it is not a bound)"),
        ("(last, any row) ... by more than the rounds' spread (± d): a finding to explain",
         "the median minus its spread d above P"),
    ]
    if not cpu_times:
        rows = [row for row in rows if CONTENTION not in row[0]]
    return Table(["reading (as printed)", "when"], rows, title="How explain_row reads a row")
