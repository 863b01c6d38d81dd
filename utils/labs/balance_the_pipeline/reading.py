"""Lab 02's reading of check 3's run (``labs/02_balance_the_pipeline.ipynb``): what the timed check measured
(``Pipelined``), the table of every configuration timed, and the take-away's sentences that read the rounds
(which configurations tie at the top, whether each m's best split changed, the learner's model against the
measurement, m by m), every branch written. Used by ``checks.check_pipelined`` and ``checks.take_away``; the
notebook imports them from ``checks``.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from utils.claims import as_printed, one_side, paired_spread, printed_ratio, printed_spread, within_noise
from utils.lessons.model_split.report import rounds_above_bound
from utils.lessons.model_split.runs import Row


@dataclass
class Pipelined:
    """What the timed check measured: the learner's row, every reference's, and the verdict's figures."""

    mine: Row
    rows: list[Row]  # every configuration timed (the learner's among them)
    fastest: Row  # the reference that ran fastest against the learner's (paired), or the learner's own
    ratio: float  # the learner's throughput over the fastest's: median of the paired rounds
    margin: float  # how far below 1 the ratio may be and be noise
    predicted: dict[str, float]  # config key -> speed-up the learner's predict_speedup gives
    timed_again: bool
    label: str
    cap: float | None = None  # bytes each stage may keep (exercise B); None: no cap
    memory: list[float] | None = None  # each stage's measured peak of kept activations, bytes
    # the profile's own figures for the learner's configuration, seconds a step: "one worker" (its layers on the
    # whole batch) and "stages" (each stage's m micro-batches of its layers, plus what each costs beyond them)
    profiled: dict | None = None


CAUSE_SHARE = 0.10  # a work figure this far from the profile's is named as a cause of the model's miss


TIMED_COLUMNS = ["m", "split", "your model predicts", "measured ± noise (range)", "bound 2m/(m+1)",
                 "rounds above the bound"]


def noise(row: Row) -> float:
    """The ± of a row's paired rounds as the page prints it (``claims.printed_spread``): the one figure the
    table, the verdicts and the take-away print and judge by, so that a reader can redo each verdict."""
    return printed_spread(row.speedups)


def timed_table_rows(p: Pipelined) -> list[tuple]:
    """One row per timed configuration (``TIMED_COLUMNS``): m, split, the profile's prediction, the measured
    speed-up with its noise (``noise``: the ± the take-away judges the model by) and range, its bound, and
    the rounds above that bound read by lesson 02's one rule (``report.rounds_above_bound``: explained by
    the rounds' spread, or a finding to explain)."""
    rows = []
    for r in sorted(p.rows, key=lambda r: (r.m, r.split_points)):
        lo, hi = r.speedup_range
        mark = " (yours)" if r.key == p.mine.key else ""
        above = rounds_above_bound(r) or ("the median itself" if r.speedup > r.bound else "none")
        rows.append((f"{r.m}{mark}", str(list(r.split_points)), f"{p.predicted.get(r.key, float('nan')):.2f}x",
                     f"{r.speedup:.2f}x ± {noise(r):.2f} ({lo:.2f}-{hi:.2f})", f"{r.bound:.2f}x", above))
    return rows


def splits_by_m(p: Pipelined) -> str:
    """Whether this run's best split on the profile changed with m (each timed m ran its own best split)."""
    # at m=1 nothing overlaps: every split predicts the same step, so its split says nothing about balance
    splits = {r.m: list(r.split_points) for r in sorted(p.rows, key=lambda r: r.m) if r.m > 1}
    fitting = " that fits the cap" if p.cap is not None else ""
    if not splits:
        return "Only m=1 was timed: with one micro-batch nothing overlaps, and every split predicts the same."
    if len({str(s) for s in splits.values()}) == 1:
        return (f"Every m timed above 1 ran the same best split{fitting} on this profile, "
                f"{next(iter(splits.values()))}: here it did not change with m, and no split by layer count was "
                "timed.")
    return (f"The best split{fitting} on this profile changed with m: "
            + ", ".join(f"m={m} {s}" for m, s in splits.items())
            + (" (at m=1 nothing overlaps: every split predicts the same)." if any(r.m == 1 for r in p.rows)
               else "."))


def tied_with(rows: list[Row], key: str) -> list[Row]:
    """The rows the paired rounds cannot tell from row ``key``: their round-by-round ratio to it is within its
    spread (``claims.paired_spread``) of 1, by the course's one noise rule (``within_noise``) at two decimals,
    as the page prints ratios. Every row was timed in the same rounds, against the same worker."""
    winner = next(row for row in rows if row.key == key)
    tied = []
    for row in rows:
        ratios = [a / b for a, b in zip(row.speedups, winner.speedups)]
        if row.key == key or (ratios and within_noise(as_printed(statistics.median(ratios), 2),
                                                      as_printed(paired_spread(ratios), 2))):
            tied.append(row)
    return sorted(tied, key=lambda x: x.m)


def winners(top: list[Row], mine: str) -> str:
    """Who ran fastest: one configuration, or several that the rounds' spread cannot tell apart (a tie)."""
    yours = any(x.key == mine for x in top)
    if len(top) == 1:
        x = top[0]
        return (f"The fastest measured here{' was yours and' if yours else ''} used m={x.m} "
                f"({x.speedup:.2f}x one worker). ")
    names = ", ".join(f"m={x.m}" for x in top[:-1]) + f" and m={top[-1].m}"
    speeds = ", ".join(f"{x.speedup:.2f}x" for x in top)
    return (f"At the top, {names} tie ({speeds} one worker: the paired rounds' noise covers the "
            f"difference){'; yours is one of them' if yours else ''}. ")


def _miss(row: Row, predicted: float) -> str | None:
    """The sign of the model's error at one configuration, by the course's one noise rule
    (``utils.claims``): None (noise) where the median ± the paired rounds' spread, as printed (two
    decimals), covers the prediction, unless every round lies on one side of it (``one_side``); else
    "under" (it predicted too little) where the measurement lies above the prediction, "over" below it."""
    value, spread, base = _printed(row, predicted)
    side = one_side(row.speedups, predicted)
    if within_noise(value, spread, base):
        if side is None or (side == "above") == (value <= base):  # rounds on both sides, or rounded across
            return None
        return "under" if side == "above" else "over"
    return "under" if value > base else "over"


def _printed(row: Row, predicted: float) -> tuple[float, float, float]:
    """The median, its spread and the prediction as the page prints them: the noise rule reads these."""
    return as_printed(row.speedup, 2), noise(row), as_printed(predicted, 2)


def _one_sided(row: Row, predicted: float) -> bool:
    """A miss that the ± alone would call noise: every round on one side of the prediction (``_miss``)."""
    return within_noise(*_printed(row, predicted))


def _misses_by_m(p: Pipelined) -> str:
    """The model against the measurement at every m timed, by the sign of its error (``_miss``). Errors of one
    sign are a systematic miss, named with the m's where they show and what that sign means; none of them, no
    miss shown."""
    rows = sorted((row for row in p.rows if row.key in p.predicted), key=lambda row: row.m)
    sides = {row.key: _miss(row, p.predicted[row.key]) for row in rows}
    under = [row for row in rows if sides[row.key] == "under"]
    over = [row for row in rows if sides[row.key] == "over"]
    if not under and not over:
        return (f"At every m timed ({', '.join(str(row.m) for row in rows)}) the measurement was within the "
                "rounds' noise (the table's ±) of your model's prediction: no systematic miss shown.")
    said = []
    for side, found in (("under", under), ("over", over)):
        if not found:
            continue
        every = len(found) == len(rows)
        where = "every m timed" if every else "m=" + ", ".join(str(row.m) for row in found)
        # "the largest counts" only where the misses are the top m's timed, with none between them that matched
        largest = not every and [row.m for row in found] == [row.m for row in rows[-len(found):]]
        figures = "; ".join(f"m={row.m}: {p.predicted[row.key]:.2f}x predicted, {row.speedup:.2f}x measured "
                            f"± {noise(row):.2f}"
                            + (f", every round {'above' if side == 'under' else 'below'} it"
                               if _one_sided(row, p.predicted[row.key]) else "") for row in found)
        said.append(f"Your model {side}-predicted at {where}{_largest_words(found) if largest else ''} "
                    f"({figures}): the measurement {'above' if side == 'under' else 'below'} the prediction "
                    "beyond the rounds' noise (past the ±, or in every round), a systematic miss. " + (
                        ("Every m missed the same way: the one-worker step, the same for every m, can be the cause, "
                         "or the stages' work" if every else
                         "The one-worker step alone is not the cause: it is the same for every m, and "
                         + _matched_words(rows, sides) + ", though it can add to the stages' part"
                         ) if side == "under" else
                        "The stages' work or their waiting cost more than your model has them cost")
                    + _measured_where(p, found, where))
    return " ".join(said)


def _measured_where(p: Pipelined, found: list[Row], where: str) -> str:
    """What the next line measures of a systematic miss (every branch written): only the learner's choice is
    profiled, so a miss at other m's has no measured cause."""
    if not p.profiled or p.mine.key not in p.predicted:
        return "."
    if any(row.key == p.mine.key for row in found):
        return ": the next line measures both for your choice."
    met = "met the measurement" if _miss(p.mine, p.predicted[p.mine.key]) is None else "missed the other way"
    return (f". Only your choice, m={p.mine.m}, is profiled, and there your model {met}: the cause at {where} "
            "is not measured (the next line reads the work at your choice only).")


def _largest_words(found: list[Row]) -> str:
    return " (the largest count timed)" if len(found) == 1 else " (the largest counts timed)"


def _matched_words(rows: list[Row], sides: dict) -> str:
    """The m's where the model met the measurement, or missed the other way (every branch written)."""
    matched = [str(row.m) for row in rows if sides[row.key] is None]
    if matched:
        return f"at m={', '.join(matched)} the model met the measurement"
    return "at the other m's the model missed the other way"


def percent_range(lo: float, hi: float) -> str:
    """"4%-9%"; one decimal where the two round alike ("4.5%-5.2%"), one figure where they are one."""
    if f"{lo:.1%}" == f"{hi:.1%}":
        return f"{lo:.0%}" if f"{lo:.0%}" == f"{hi:.0%}" else f"{lo:.1%}"
    return f"{lo:.0%}-{hi:.0%}" if f"{lo:.0%}" != f"{hi:.0%}" else f"{lo:.1%}-{hi:.1%}"


def prediction_lines(p: Pipelined) -> list[str]:
    """The learner's model against the measurement: within noise where the median is within the paired rounds'
    spread of the prediction (``_miss``), else a miss; then, at every m timed, the sign of its error."""
    r, predicted = p.mine, p.predicted[p.mine.key]
    lo, hi = r.speedup_range
    spread = noise(r)
    if _miss(r, predicted) is None:
        lines = [f"Your model predicted {predicted:.2f}x for your choice: within the rounds' noise of the "
                 f"measurement ({r.speedup:.2f}x ± {spread:.2f}, every round {lo:.2f}-{hi:.2f})."]
    else:  # the rule (utils.claims): a miss where the median ± its noise clears the prediction, or all rounds
        below = _miss(r, predicted) == "over"  # the measurement below the prediction
        # the gap from the two figures as printed (1.50x against 1.59x: 6%), as a reader works it out
        gap = printed_ratio(r.speedup, predicted) - 1
        side = [s for s in r.speedups if (s < predicted if below else s > predicted)]
        where = "every round" if len(side) == len(r.speedups) else f"{len(side)} of {len(r.speedups)} rounds"
        way, rounds = ("below" if below else "above"), f"rounds {lo:.2f}-{hi:.2f}"
        how = (f"within the rounds' noise (± {spread:.2f}) as printed, but a miss, not noise: {where} {way} "
               f"the prediction ({predicted:.3f}x; rounds {lo:.3f}-{hi:.3f}: three decimals, as two hide it)."
               if _one_sided(r, predicted) else
               f"farther than the rounds' noise (± {spread:.2f}): a miss, not noise ({where} {way} the "
               f"prediction; {rounds}).")
        lines = [f"Your model predicted {predicted:.2f}x for your choice; the median, {r.speedup:.2f}x, came "
                 f"{abs(gap):.0%} {'under' if below else 'over'} it, " + how]
    lines.append(_misses_by_m(p))
    cause = miss_cause(p)
    if cause:
        lines.append(cause)
    return lines


def miss_cause(p: Pipelined) -> str:
    """Where the learner's model and the measurement part, from what the run measured of the learner's row:
    one worker's work against the profile's layers on the whole batch (the speed-up's numerator), and each
    stage's work a step against the profile's m micro-batches (its denominator's). Work is a CPU worker's
    thread time (waiting for a core or a message leaves it out), a GPU's device time. Every branch written:
    the work that moved names the cause; neither moved, the gap is waiting, which the model plays as none
    ("" without the figures)."""
    r, got = p.mine, p.profiled
    if not got or not r.work or not r.baseline_work or r.key not in p.predicted:
        return ""
    one = work_change(r.baseline_work, got["one worker"])
    # together: the sum of the stages' figures as printed, against the sum of the profile's as printed
    stages = as_printed(printed_ratio(sum(_ms(w) for w in r.work), sum(_ms(g) for g in got["stages"]), 0) - 1, 2)
    what = "thread CPU time" if r.cpu_workers else "device time"
    said = (f"Where your model and the measurement part (work, {what}, medians; a gap over {CAUSE_SHARE:.0%} "
            "is named as a cause where the model missed): one worker's step worked "
            f"{_ms(r.baseline_work):.0f} ms against the "
            f"{_ms(got['one worker']):.0f} ms its layers took in the profile ({one:+.0%}); your stages worked "
            + " and ".join(f"{_ms(w):.0f}" for w in r.work) + " ms a step against the profile's "
            + " and ".join(f"{_ms(g):.0f}" for g in got["stages"]) + f" ms ({stages:+.0%} together: "
            + ", ".join(f"stage {i} {work_change(w, g):+.0%}"
                        for i, (w, g) in enumerate(zip(r.work, got["stages"])))
            + "). ")
    side = _miss(r, p.predicted[r.key])
    if side is None:
        return said + "Your model met the measurement within the rounds' noise: no cause to name."
    sign = -1 if side == "under" else 1  # the way a stage's work must move to explain the miss
    moved = _stages_moved(r.work, got["stages"], sign)
    stage_words = (f"the work of {moved} cost {'less' if sign < 0 else 'more'} in the pipeline than the "
                   "profile timed it")
    if side == "under":
        causes = ([stage_words + " (why is not measured here: one guess is that each process ran only its "
                   "own layers, where the profile ran every layer and every micro-batch size in turn in one "
                   "process)"] if moved else []) + (
                  [f"one worker's step cost more than its layers did in the profile ({one:+.0%})"]
                  if one > CAUSE_SHARE else [])
    else:
        causes = ([stage_words] if moved else []) + (
                  [f"one worker's step cost less than its layers did in the profile ({one:+.0%})"]
                  if one < -CAUSE_SHARE else [])
    if causes:
        return (said + f"The measured speed-up came {'above' if side == 'under' else 'below'} your model "
                "because " + "; and ".join(causes) + _small_one_worker(one, sign) + ".")
    return (said + f"No work figure (one worker's, stage 0's, stage 1's) moved by over {CAUSE_SHARE:.0%} the "
            "way of the miss, so the work does not explain it: the stages waited " + (
                "for each other less than your model's schedule has them wait (its backward at twice its "
                "forward is theory, not measured here)." if side == "under" else
                "(for each other, for messages or for a core) more than your model's schedule has them "
                "wait."))


def _ms(seconds: float) -> float:
    """A work figure as the take-away prints it: whole milliseconds."""
    return as_printed(seconds, 0, scale=1e-3)


def work_change(measured: float, profiled: float) -> float:
    """How far a work figure moved from the profile's, worked from the two as printed (whole ms), as a reader
    redoes it from the page, and itself as printed (whole percent), which the naming rule reads: 176 ms
    against 180 ms is -2% (the unrounded 175.6 / 180.4 would print -3%), and 110 against 100 is +10%, not over
    ``CAUSE_SHARE``."""
    return as_printed(printed_ratio(measured, profiled, 0, scale=1e-3) - 1, 2)


def _stages_moved(work: list[float], profiled: list[float], sign: int) -> str:
    """The stages whose work a step moved from the profile's by over ``CAUSE_SHARE`` the way ``sign`` (-1:
    less, +1: more), each with its change: "stage 0 (-18%)", "stages 0 (-30%) and 1 (-28%)"; "" if none."""
    changes = [work_change(w, g) for w, g in zip(work, profiled)]
    named = [f"{i} ({c:+.0%})" for i, c in enumerate(changes) if c * sign > CAUSE_SHARE]
    return "" if not named else ("stage " if len(named) == 1 else "stages ") + " and ".join(named)


def _small_one_worker(one: float, sign: int) -> str:
    """One worker's step moved the miss's way, under the naming rule: a candidate that adds to the named cause
    (it moves every m's speed-up alike), "" where it did not move that way or is named already."""
    if 0 < -sign * one <= CAUSE_SHARE:  # ``one`` as printed (``work_change``): a "+0%" does not count
        return (f"; one worker's step ({one:+.0%}, under the {CAUSE_SHARE:.0%} rule) moved every speed-up "
                "the same way and may add to it")
    return ""
