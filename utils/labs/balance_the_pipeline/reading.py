"""Lab 02's reading of check 3's run (``labs/02_balance_the_pipeline.ipynb``): what the timed check measured
(``Pipelined``), the table of every configuration timed, and the take-away's sentences that read the rounds
(which configurations tie at the top, whether each m's best split changed, the learner's model against the
measurement, m by m), every branch written. Used by ``checks.check_pipelined`` and ``checks.take_away``; the
notebook imports them from ``checks``.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field, replace

from utils.labs.balance_the_pipeline import reference as _reference  # the answers: never printed
from utils.claims import (signed_percent, as_printed, half_up, one_side, paired_spread, printed_ratio, printed_spread,
                          round_above, within_noise)
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
    outputs: str = ""  # rule 3: the timed rows' losses against one worker's (``same_outputs.outputs_line``)
    not_counted: frozenset = frozenset()  # keys whose loss missed one worker's: their speed-ups do not count
    # m -> (the best split without the cap, the learner's prediction for it): only the m whose best split the
    # cap moved, so the reading tells the cap's effect from the layers' costs (``uncapped_splits``)
    uncapped: dict = field(default_factory=dict)


# Below this share of their busy time on a CPU, the workers waited for cores that other programs held: the
# timing cannot tell one configuration from another, so it judges nothing (check 2 has judged the choice).
BUSY_SHARE = 0.7


def busy_share(p: Pipelined) -> float | None:
    """The lowest CPU time over busy time of any stage in the learner's row and the fastest's (CPU workers
    only; None on GPUs, where a host thread's time says nothing about the device's)."""
    shares = [x for r in (p.mine, p.fastest) for x in r.cpu_share if x == x]  # x == x: not NaN
    return min(shares) if shares else None


def cores_held(p: Pipelined) -> bool:
    """Whether the workers waited for cores that other programs held (``busy_share`` under ``BUSY_SHARE``): then
    the timing judges nothing, a pass no more than a fail, and the take-away reads no miss from it."""
    busy = busy_share(p)
    return busy is not None and busy < BUSY_SHARE


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
                     f"{r.speedup:.2f}x ± {noise(r):.2f} ({lo:.2f}-{hi:.2f})"
                     + (" not counted: its loss missed one worker's" if r.key in p.not_counted else ""),
                     f"{r.bound:.2f}x", above))
    return rows


def uncapped_splits(profile, configs, cap: float | None, predict) -> dict:
    """For each timed configuration (``configs``, each m's best split that fits ``cap``) whose split the cap
    moved: m -> (the best split without the cap, by exercise A's model, and ``predict(config)``, the learner's
    speed-up for it). Empty without a cap. A split that changes with m may be the cap's doing, not the costs'."""
    moved = {}
    for c in configs if cap is not None else ():
        free = _reference.best_split_at(profile, c.m)
        if free is not None and tuple(free) != tuple(c.split_points):
            moved[c.m] = (tuple(free), predict(replace(c, split_points=tuple(free))))
    return moved


def splits_by_m(p: Pipelined) -> str:
    """Whether this run's best split on the profile changed with m (each timed m ran its own best split), and
    whether the cap or the layers' costs moved it (``_moved_by_cap``)."""
    # at m=1 nothing overlaps: every split predicts the same step, so its split says nothing about balance
    splits = {r.m: list(r.split_points) for r in sorted(p.rows, key=lambda r: r.m) if r.m > 1}
    fitting = " that fits the cap" if p.cap is not None else ""
    if not splits:
        return "Only m=1 was timed: with one micro-batch nothing overlaps, and every split predicts the same."
    if len({str(s) for s in splits.values()}) == 1:
        return (f"Every m timed above 1 ran the same best split{fitting} on this profile, "
                f"{next(iter(splits.values()))}: here it did not change with m, and no split by layer count was "
                "timed." + _moved_by_cap(p, splits))
    return (f"The best split{fitting} on this profile changed with m: "
            + ", ".join(f"m={m} {s}" for m, s in splits.items())
            + (" (at m=1 nothing overlaps: every split predicts the same)." if any(r.m == 1 for r in p.rows)
               else ".") + _moved_by_cap(p, splits))


def _predicted_at(p: Pipelined, m: int, split: list[int]) -> float | None:
    """The learner's prediction for the timed row of ``m`` at ``split`` (None if none was timed)."""
    row = next((r for r in p.rows if r.m == m and list(r.split_points) == split), None)
    return p.predicted.get(row.key) if row is not None else None


def _moved_by_cap(p: Pipelined, splits: dict[int, list[int]]) -> str:
    """Whether the cap moved any m's best split, with the split it ruled out and the learner's figures for
    both; and whether, without the cap, the best split would still change with m (the layers' costs)."""
    if p.cap is None:
        return ""
    moved = {m: p.uncapped[m] for m in splits if m in p.uncapped}
    if not moved:
        return " The cap moved no split: each is the best without it too."
    free = {m: list(moved[m][0]) if m in moved else s for m, s in splits.items()}
    each = "; ".join(f"at m={m} it would be {list(split)}" + _both(p, m, list(split), figure, splits[m])
                     for m, (split, figure) in moved.items())
    where = " and ".join(f"m={m}" for m in moved)
    if len({str(s) for s in free.values()}) == 1:
        return (f" Without the cap, {each}: the best split would be {next(iter(free.values()))} at every m timed, so "
                f"the cap, not the layers' costs, moved the split at {where}.")
    return (f" Without the cap, {each}: the best split would still change with m ("
            + ", ".join(f"m={m} {s}" for m, s in free.items()) + f"), so the layers' costs moved it too; the cap "
            f"moved it at {where}.")


def _both(p: Pipelined, m: int, free: list[int], figure: float, kept: list[int]) -> str:
    """The learner's predictions for the split the cap ruled out and the one that fits, at ``m``."""
    fitted = _predicted_at(p, m, kept)
    if not math.isfinite(figure) or fitted is None or not math.isfinite(fitted):
        return ""
    return f" (your model: {figure:.2f}x for {free}, {fitted:.2f}x for {kept})"


def ratio_to(row: Row, winner: Row) -> tuple[float, float]:
    """How ``row`` ran against ``winner``, round by round, as the page prints it: the median of each round's
    ratio of their speed-ups and that ratio's ± (``claims.printed_spread``), both at two decimals. Every row was
    timed in the same rounds, against the same worker, so a round's ratio cancels that round's busy moments."""
    ratios = [a / b for a, b in zip(row.speedups, winner.speedups)]
    return as_printed(statistics.median(ratios), 2), printed_spread(ratios)


def tied_with(rows: list[Row], key: str) -> list[Row]:
    """The rows the paired rounds cannot tell from row ``key``: their round-by-round ratio to it (``ratio_to``,
    the figures ``winners`` prints) is within its ± of 1, by the course's one noise rule (``within_noise``),
    and those ratios do not all lie on one side of 1 (``one_side``): a row slower, or faster, in every round
    is told apart, whatever its ±."""
    winner = next(row for row in rows if row.key == key)
    return sorted([row for row in rows if row.key == key or _tied(row, winner)], key=lambda x: x.m)


def _tied(row: Row, winner: Row) -> bool:
    """Whether the paired rounds cannot tell ``row`` from ``winner`` (``tied_with``'s rule, claims' one)."""
    ratios = [a / b for a, b in zip(row.speedups, winner.speedups)]  # ratio_to's rounds
    return bool(ratios) and within_noise(*ratio_to(row, winner)) and one_side(ratios, 1.0) is None


def winners(top: list[Row], mine: str, fastest: str | None = None) -> str:
    """Who ran fastest: one configuration, or several that the rounds cannot tell apart (a tie). For a tie,
    each other row's ratio to the fastest (``fastest``: its key), round by round, with the ± that decided it,
    so that a reader redoes the tie from the page (the table's ± of each speed-up does not decide it)."""
    yours = any(x.key == mine for x in top)
    if len(top) == 1:
        x = top[0]
        return (f"The fastest measured here{' was yours and' if yours else ''} used m={x.m} "
                f"({x.speedup:.2f}x one worker). ")
    names = ", ".join(f"m={x.m}" for x in top[:-1]) + f" and m={top[-1].m}"
    speeds = ", ".join(f"{x.speedup:.2f}x" for x in top)
    said = (f"The paired rounds cannot tell {names} apart: they tie for the fastest ({speeds} one worker)"
            f"{'; yours is one of them' if yours else ''}. ")
    best = next((x for x in top if x.key == fastest), None)
    if best is None:
        return said
    ratios = []
    for x in top:
        if x.key != best.key:
            median, spread = ratio_to(x, best)
            ratios.append(f"m={x.m} ran {median:.2f} ± {spread:.2f} of m={best.m}'s speed")
    return (said + "Round by round, " + "; ".join(ratios) + " (each round's ratio of the two, median ± the "
            "middle half's half-range): each covers 1, a tie. That ratio's ± decides it, not the table's ± of "
            "each speed-up, because a busy round slows both alike and cancels in their ratio. ")


def paired_words(p: Pipelined) -> str:
    """How check 3's share is worked, so that a reader does not redo it from the table's two medians: each
    paired round's ratio, then their median (a busy round slows both alike and cancels in its ratio)."""
    n = len(p.mine.speedups)
    return (f"round by round (the median of the {n} paired rounds' ratios, not one median over the other: a busy "
            "round slows both alike)")


def largest_among_fastest(top: list[Row], smaller: list[Row]) -> str:
    """Where the largest m timed is among the fastest, what that shows of the bubble against one more
    micro-batch's cost (every branch written): something only where fewer micro-batches were told apart as
    slower; a tie of every m timed, or one m timed, tells neither cost from the other."""
    if smaller:
        return ("The largest count timed was among the fastest, and fewer micro-batches ran slower: the bubble "
                "still cost more than a micro-batch.")
    if len(top) > 1:
        return ("Every m timed ties: this run does not tell whether the bubble or one more micro-batch cost "
                "more.")
    return ""


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
    sign are named with the m's where they show and what that sign means: "systematic" only where they show at
    every m timed (a learner reads it as "every configuration"); none of them, no miss shown."""
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
        those = "that m" if len(found) == 1 else "those m's"
        kind = "a systematic miss" if every else f"a miss at {those}, not at every m timed"  # "systematic": all
        said.append(f"Your model {side}-predicted at {where}{_largest_words(found) if largest else ''} "
                    f"({figures}): the measurement {'above' if side == 'under' else 'below'} the prediction "
                    f"beyond the rounds' noise (past the ±, or in every round), {kind}. " + (
                        ("Every m missed the same way: the one-worker step, the same for every m, can be the cause, "
                         "or the stages' work" if every else
                         "One worker's step cannot be the whole cause: every m's speed-up is worked against "
                         "that same step, yet " + _matched_words(rows, sides) + ". The cause is in what changes "
                         "with m, the stages' work or their waiting (an error in one worker's step can add to it)"
                         ) if side == "under" else
                        "The stages' work or their waiting cost more than your model has them cost")
                    + _measured_where(p, found, where))
    return " ".join(said)


def _measured_where(p: Pipelined, found: list[Row], where: str) -> str:
    """What the next paragraph (``model_parts``, in the same block) measures of a miss of one sign (every branch
    written): the profile covers every m, but only the learner's choice had its stages' work measured in the
    timed run, so a miss at other m's has no measured cause."""
    if not p.profiled or p.mine.key not in p.predicted:
        return "."
    if any(row.key == p.mine.key for row in found):
        return ": the next paragraph measures both for your choice."
    met = "met the measurement" if _miss(p.mine, p.predicted[p.mine.key]) is None else "missed the other way"
    return (f". Only your choice, m={p.mine.m}, had its stages' work measured in the timed run, and there your "
            f"model {met}: the cause at {where} is not measured (the next paragraph reads the work at "
            "your choice only).")


def _largest_words(found: list[Row]) -> str:
    return " (the largest count timed)" if len(found) == 1 else " (the largest counts timed)"


def _matched_words(rows: list[Row], sides: dict) -> str:
    """The m's where the model met the measurement, or else those where it missed the other way, named (every
    branch written): their miss is said in the next sentence, so "the other m's" would point ahead unnamed."""
    matched = [f"m={row.m}" for row in rows if sides[row.key] is None]
    named = matched or [f"m={row.m}" for row in rows if sides[row.key] == "over"]
    listed = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    if matched:
        return f"at {listed} your model met the measurement"
    return f"at {listed} your model missed the other way (the next sentence)"


def percent_range(lo: float, hi: float) -> str:
    """"4%-9%"; one decimal where the two round alike ("4.5%-5.2%"), one figure where they are one."""
    if f"{lo:.1%}" == f"{hi:.1%}":
        return f"{lo:.0%}" if f"{lo:.0%}" == f"{hi:.0%}" else f"{lo:.1%}"
    return f"{lo:.0%}-{hi:.0%}" if f"{lo:.0%}" != f"{hi:.0%}" else f"{lo:.1%}-{hi:.1%}"


def rounds_listed(rounds: list[float]) -> str:
    """Every paired round, lowest first, as the page prints rounds (two decimals), so that a reader counts
    those above and below the prediction as the rule counts them (``claims.round_above``): "rounds 1.51, 1.60,
    1.64"; a round printed equal to the prediction is on neither side."""
    return "rounds " + ", ".join(f"{x:.2f}" for x in sorted(rounds))


def prediction_lines(p: Pipelined) -> list[str]:
    """The learner's model against the measurement: within noise where the median is within the paired rounds'
    spread of the prediction (``_miss``), else a miss; then, at every m timed, the sign of its error."""
    r, predicted = p.mine, p.predicted[p.mine.key]
    lo, hi = r.speedup_range
    spread = noise(r)
    if cores_held(p):  # the timing judges nothing (``cores_held``): no miss, and no match, is read from it
        return [f"Your model predicted {predicted:.2f}x for your choice, against {r.speedup:.2f}x ± {spread:.2f} "
                f"measured: not judged, here or at any other m timed (the cores were held: the workers' threads "
                f"ran only {busy_share(p):.0%} of the time they were busy; rerun on an idle machine)."]
    if _miss(r, predicted) is None:
        lines = [f"Your model predicted {predicted:.2f}x for your choice: within the rounds' noise of the "
                 f"measurement ({r.speedup:.2f}x ± {spread:.2f}, every round {lo:.2f}-{hi:.2f})."]
    else:  # the rule (utils.claims): a miss where the median ± its noise clears the prediction, or all rounds
        below = _miss(r, predicted) == "over"  # the measurement below the prediction
        # the gap from the two figures as printed (1.50x against 1.59x: 6%), as a reader works it out
        gap = printed_ratio(r.speedup, predicted) - 1
        side = [s for s in r.speedups if round_above(s, predicted, below=below)]  # counted as printed
        side_all = len(side) == len(r.speedups)
        where = "every round" if side_all else f"{len(side)} of {len(r.speedups)} rounds"
        way = "below" if below else "above"
        # a count of some rounds comes with the rounds, so that a reader counts them; every round, their range
        rounds = f"; rounds {lo:.2f}-{hi:.2f}" if side_all else ": " + rounds_listed(r.speedups)
        how = (f"within the rounds' noise (± {spread:.2f}) as printed, but a miss, not noise: {where} {way} "
               f"the prediction ({predicted:.2f}x; rounds {lo:.2f}-{hi:.2f})."
               if _one_sided(r, predicted) else
               f"farther than the rounds' noise (± {spread:.2f}): a miss, not noise ({where} {way} the "
               f"prediction{rounds}).")
        lines = [f"Your model predicted {predicted:.2f}x for your choice; the median, {r.speedup:.2f}x, came "
                 f"{abs(gap):.0%} {'under' if below else 'over'} it, " + how]
    lines.append(_misses_by_m(p))
    return lines  # the model's parts, as the run measured them (``miss_cause``): collapsed below the take-away


def miss_cause(p: Pipelined) -> str:
    """Where the learner's model and the measurement part, from what the run measured of the learner's row:
    one worker's work against the profile's layers on the whole batch (the speed-up's numerator), and each
    stage's work a step against the profile's m micro-batches; the slower stage sets the pipeline's pace (the
    other waits for it), so its work is the denominator's (``_pace``). Work is a CPU worker's thread time
    (waiting for a core or a message leaves it out), a GPU's device time. The work's part is judged from the
    printed figures (``_model_with_work``): the model's figure redone with the work measured, set beside the
    measurement; what it leaves is waiting, which the model plays as none ("" without figures)."""
    r, got = p.mine, p.profiled
    if not got or not r.work or not r.baseline_work or r.key not in p.predicted:
        return ""
    one = work_change(r.baseline_work, got["one worker"])
    done, profiled = [_ms(w) for w in r.work], [_ms(g) for g in got["stages"]]
    pace = _pace_change(done, profiled)
    what = "thread CPU time" if r.cpu_workers else "device time"
    side = _miss(r, p.predicted[r.key])
    header = ("Where your model and the measurement part" if side else  # nothing parts where the model met
              "Your model's parts, as the run measured them")
    said = (f"{header} (work, {what}, medians): one worker's step worked "
            f"{_ms(r.baseline_work):.0f} ms against the {_ms(got['one worker']):.0f} ms its layers took in the "
            f"profile ({change_text(one)}); your stages worked {_ms_list(done)} a step against the profile's "
            f"{_ms_list(profiled)} ("
            + ", ".join(f"stage {i} {change_text(work_change(w, g))}"
                        for i, (w, g) in enumerate(zip(r.work, got["stages"])))
            + f"{_profile_from(r.m, got)}). {_pace_text(done, profiled, pace)} ")
    if side is None:
        return said + _met_parts(p)
    return said + _work_part(p, side, one, pace)


def _ms_list(figures: list[float]) -> str:
    """Whole-ms figures, stage by stage: "123 ms and 131 ms"."""
    shown = [f"{x:.0f} ms" for x in figures]
    return ", ".join(shown[:-1]) + " and " + shown[-1] if len(shown) > 1 else shown[0]


def _slower(figures: list[float]) -> tuple[str, float]:
    """The stage that sets the pace, the slower (its whole ms as printed): "stage 1", or "both stages" where
    they print alike, and its figure."""
    slowest = max(figures)
    which = [i for i, x in enumerate(figures) if x == slowest]
    return ("both stages" if len(which) > 1 else f"stage {which[0]}"), slowest


def _pace_change(done: list[float], profiled: list[float]) -> float:
    """How far the slower stage's work moved from the profile's slower stage's, from the whole ms as printed
    (whole percent, half up as a reader rounds: 215 / 200 is +8%): the change that moves the pipeline's step,
    whichever stage is the slower in each."""
    return half_up(max(done) / (max(profiled) or 1.0) - 1, 2)


def _pace_text(done: list[float], profiled: list[float], pace: float) -> str:
    """Which stage sets the pace, measured and in the profile, every branch written: the same stage, or the
    slower stage swapped between the profile and the run (the reader then compares two different stages)."""
    (now, slow), (then, slow_then) = _slower(done), _slower(profiled)
    said = "The slower stage sets the pace (the other waits for it): "
    if now == then:
        return said + f"{now}, {slow:.0f} ms against {slow_then:.0f} ms in the profile ({change_text(pace)})."
    was = "were the slower, both" if then == "both stages" else "was the slower,"
    return (said + f"{now} at {slow:.0f} ms in this run; in the profile {then} {was} at "
            f"{slow_then:.0f} ms ({change_text(pace)}).")


def _met_parts(p: Pipelined) -> str:
    """A model that met the measurement, redone with the work measured (``_model_with_work``), every branch
    written: still met, no cause to name; or it moves past the rounds' noise, so the model met the measurement
    only because the work's change and the stages' waiting cancelled (``_waiting`` names the waiting)."""
    r = p.mine
    worked, working = _model_with_work(p)
    rest = _miss(r, worked)
    if rest is None:
        return (f"Your model met the measurement within the rounds' noise, and so does it with the work as "
                f"measured ({working}, against {r.speedup:.2f}x ± {noise(r):.2f}): no cause to name.")
    return (f"Your model met the measurement within the rounds' noise, but not part by part: with the work as "
            f"measured it gives {working}, against {r.speedup:.2f}x ± {noise(r):.2f} measured, so the change "
            "in work and the stages' waiting pulled opposite ways and cancelled" + _waiting(r, worked, rest) + ".")


def _profile_from(m: int, got: dict) -> str:
    """What the profile's stage figures are worked from, where the check passed it ("" otherwise)."""
    if "per micro-batch" not in got:
        return ""
    return (f"; the profile's: {m} micro-batches, each the stage's layers in the per-layer table's m={m} "
            f"column plus {got['per micro-batch'] * 1e3:.2f} ms")


def _model_with_work(p: Pipelined) -> tuple[float, str]:
    """The learner's model with the work measured, from the figures as printed: its speed-up times one worker's
    work over the profile's, over the slower stage's work over the profile's slower stage's (the step moves
    with the stage that sets the pace, ``_pace_text``), rounded half up: 1.38 x (197 / 203) / (131 / 140) =
    1.43x. The figure and its working."""
    r, got = p.mine, p.profiled
    predicted = as_printed(p.predicted[r.key], 2)
    one, one_profiled = _ms(r.baseline_work), _ms(got["one worker"]) or 1.0
    slow, slow_profiled = max(_ms(w) for w in r.work) or 1.0, max(_ms(g) for g in got["stages"]) or 1.0
    value = half_up(predicted * (one / one_profiled) / (slow / slow_profiled), 2)
    return value, (f"{predicted:.2f} × ({one:.0f} / {one_profiled:.0f}) / ({slow:.0f} / {slow_profiled:.0f}) "
                   f"= {value:.2f}x")


def _work_part(p: Pipelined, side: str, one: float, pace: float) -> str:
    """The work's part in a miss (``side``: "under", the measurement above the model; "over", below), every
    branch written: the model redone with the work measured (``_model_with_work``) moved toward the measurement or
    not; reached it within the rounds' noise, fell short of it, or passed it; what is left is waiting."""
    r, predicted = p.mine, as_printed(p.predicted[p.mine.key], 2)
    worked, working = _model_with_work(p)
    way = 1 if side == "under" else -1  # the way the speed-up must move to explain the miss
    rest = _miss(r, worked)  # the measurement against the model with the work measured
    said = (f"With the work as measured, your model gives {working} (its figure, times one worker's work "
            "over the profile's, divided by the slower stage's work over the profile's slower stage's), against "
            f"{r.speedup:.2f}x ± {noise(r):.2f} measured: ")
    moved = _work_moved(one, pace, way)
    if (worked - predicted) * way <= 0:
        said += ("the work does not explain the miss: " + (f"it moved your model's figure the other way ({moved})"
                 if worked != predicted else "it leaves your model's figure where it was"))
    elif rest is None:
        said += f"the change in work explains the miss ({moved}): nothing is left beyond the rounds' noise"
    elif (rest == "under") == (side == "under"):
        said += f"the change in work explains part of the miss ({moved})"
    else:
        said += f"the change in work explains the whole miss, and more ({moved})"
    if side == "under" and pace < 0:
        said += ("; why the stages worked less is not measured here (one guess: each process ran only its own "
                 "layers, where the profile ran every layer and every micro-batch size in turn in one process)")
    # moved the other way, the miss itself is what waiting must explain, even where the rounds touch the figure
    return said + _waiting(r, worked, rest if (worked - predicted) * way > 0 else rest or side) + "."


def _work_moved(one: float, pace: float, way: int) -> str:
    """Which work figures moved the speed-up which way: the slower stage's work up, or one worker's down,
    slows it. Said as raising or lowering your model's figure, those that move it the measurement's way
    (``way``: 1 up, -1 down) first, not "toward the measurement": a change may carry the figure past it
    (t32_labs03: -13% and +7% took 1.43x to 1.76x, past 1.53x measured)."""
    parts = [(f"the slower stage's work {change_text(pace)}", -pace * way),
             (f"one worker's {change_text(one)}", one * way)]
    toward = [text for text, push in parts if push > 0]
    away = [text for text, push in parts if push < 0]
    verbs = ("raise", "lower") if way > 0 else ("lower", "raise")  # toward's verb, then away's
    said = [_moved_words(group, verb) for group, verb in ((toward, verbs[0]), (away, verbs[1])) if group]
    if len(said) == 2:  # the second group's figure is the same one: "it"
        said[1] = said[1].replace("your model's figure", "it")
    return "; ".join(said) or "neither by a whole percent, as printed"


def _moved_words(changes: list[str], verb: str) -> str:
    """Work changes and what they do to your model's figure: "one worker's +2% raises your model's figure",
    "the slower stage's work -13% and one worker's +7% both raise your model's figure"."""
    if len(changes) == 1:
        return f"{changes[0]} {verb}s your model's figure"
    return f"{' and '.join(changes)} both {verb} your model's figure"


def _waiting(r: Row, worked: float, rest: str | None) -> str:
    """What the model with the work measured leaves, as waiting, every branch written: the model's schedule
    plays the stages' waiting as none beyond its own order of passes."""
    if rest is None:
        return ""
    one_sided = one_side(r.speedups, worked) is not None and _one_sided(r, worked)  # a miss only by its rounds
    every = f", every round {'above' if rest == 'under' else 'below'} it" if one_sided else ""
    gap = f"; the rest ({worked:.2f}x against {r.speedup:.2f}x measured{every}) is not work: the stages waited "
    if rest == "under":
        return gap + ("for each other less than your model's schedule has them wait (its backward at twice its "
                      "forward is theory, not measured here)")
    return gap + "(for each other, for messages or for a core) more than your model's schedule has them wait"


def _ms(seconds: float) -> float:
    """A work figure as the take-away prints it: whole milliseconds."""
    return as_printed(seconds, 0, scale=1e-3)


def work_change(measured: float, profiled: float) -> float:
    """How far a work figure moved from the profile's, worked from the two as printed (whole ms), as a reader
    redoes it from the page, and itself as printed (whole percent): 176 ms against 180 ms is -2% (the
    unrounded 175.6 / 180.4 would print -3%)."""
    return as_printed(printed_ratio(measured, profiled, 0, scale=1e-3) - 1, 2)


def change_text(change: float) -> str:
    """A change in whole percent with its sign ("+2%", "-3%"), and a change that rounds to none as "0%": 327 ms
    against 328 ms is -0.3%, which ``+.0%`` prints "-0%", a signed zero a reader takes for a slip."""
    return "0%" if as_printed(change, 2) == 0 else f"{signed_percent(change)}"
