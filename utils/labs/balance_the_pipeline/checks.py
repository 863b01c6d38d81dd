"""The checks of lab 02 (``labs/02_balance_the_pipeline.ipynb``): the learner predicts what a two-stage 1F1B
step gains on a measured profile (exercise A) and chooses the split and the number of micro-batches for 1F1B
under a cap on the activations each stage keeps (B).

    check_prediction(predict_speedup)         # against 1F1B played pass by pass, on unseen profiles
    check_choice(choose_config)               # the best that fits each unseen profile's cap
    result = check_pipelined(choose_config, predict_speedup, profile, cap)   # the choice pipelined for real
    print(take_away(result))

The first two judge the learner's code on profiles it has not seen (``reference.HIDDEN``,
``reference.HIDDEN_CAPPED``), each built to test one thing, so that no answer tuned to the lab's model passes.
The third runs the learner's choice with ``torch.distributed.pipelining`` on two workers (lesson 02's
``measure_pipeline``, each worker on its own core) beside the best fitting split of every other micro-batch
count and one worker alone, round by round, and measures what each of its stages keeps (lesson 02's
``measure_memory``). What the run showed is read in ``reading`` (the table, the take-away's sentences) and
worded in ``take_away`` (the take-away and its collapsed block), both re-exported here.
"""

from __future__ import annotations

import math
import statistics
from typing import Callable, Sequence

from utils import checks
from utils.claims import as_printed, paired_spread, speedup_verdict
from utils.labs.balance_the_pipeline import reference as _reference  # the answers: kept out of the lab's names
from utils.labs.balance_the_pipeline.reading import (  # noqa: F401 - the run's reading, imported from here
    TIMED_COLUMNS, Pipelined, miss_cause, noise, percent_range, prediction_lines, splits_by_m, tied_with,
    busy_share, cores_held, largest_among_fastest, paired_words, ratio_to, timed_table_rows,
    uncapped_splits, winners)
from utils.labs.balance_the_pipeline.same_outputs import not_counted, outputs_line, wrong_loss_message
from utils.labs.balance_the_pipeline.take_away import (  # noqa: F401 - what the run showed, the notebook's names
    CHOICE_TOLERANCE, against_one_worker, memory_text, model_parts, predicted_alike, predicted_gap, take_away,
    take_away_detail, _cap_line, _profile_not_bubble)
from utils.labs.balance_the_pipeline.workload import (CANDIDATE_M, LAB_IN, LAB_OUT, LabSettings, Profile,
                                                      current_settings, lab_task)
from utils.lessons.model_split.memory import measure_memory
from utils.lessons.model_split.report import rounds_above_bound
from utils.lessons.model_split.runs import Config, PipelineRun, Row, measure_pipeline
from utils.lessons.model_split.split import stage_ranges

BANK = "labs/balance_the_pipeline"  # the lab's hints: utils/labs/balance_the_pipeline/hints.toml
PREDICTION_TOLERANCE = 0.02  # relative: the schedule played pass by pass against the learner's formula
TIMED_M = CANDIDATE_M  # every micro-batch count the profile measures is timed, each with its best split
LAB_ROUNDS = 7  # paired rounds of the timed check
# How far below the fastest configuration measured here a choice may land and still pass: the rounds' spread
# (claims.paired_spread), never under MIN_MARGIN: near its best, a step's time changes by a few percent from
# one m to the next, less than a profile measured on a shared machine can resolve; the wrong answers the lab is
# about (one micro-batch, the largest count, a split by layer count) are predicted 25-65 % slower on this lab's
# profile (``python -m utils.tools.robustness lab02-split`` measures the split's).
MIN_MARGIN, MAX_MARGIN = 0.05, 0.15
# The order a prediction is judged in: the schedule first, then what a micro-batch costs, then the overhead.
PREDICTION_ORDER = ("imbalance", "free micro-batches", "small micro-batches", "overhead", "split at m",
                    "everything")
WHY_PREDICTION = {
    "imbalance": "the schedule: 1F1B's order with unequal stages (each pass as soon as its stage is free and "
                 "its input is there, a backward twice its forward), which lesson 02 §7's GPipe formula does "
                 "not price where the first stage is the slower; and with one micro-batch nothing overlaps",
    "free micro-batches": "the schedule: 1F1B with unequal stages, and micro-batches that cost only their rows",
    "small micro-batches": "what a micro-batch costs: a micro-batch of batch/m rows costs what the profile "
                           "measured for that m, not the whole batch's cost over m; and one worker runs the whole "
                           "batch at once",
    "overhead": "the cost of each micro-batch beyond its layers (per_micro_batch): every stage pays it once per "
                "micro-batch",
    "split at m": "the stages' costs at that micro-batch size, with what a micro-batch costs beyond its layers",
    "everything": "every part of the model: the schedule, the micro-batch's own costs, the overhead",
}


# The reference's functions a learner's answer may not call (refused through wrappers too: checks.refers_to).
_REFUSED = {name: getattr(_reference, name)
            for name in ("reference_speedup", "gpipe_seconds", "one_f_one_b_seconds", "played_seconds",
                         "best_config", "best_split_at", "stage_peak_bytes", "fits", "in_flight")}
SCHEDULE = "1f1b"  # what exercise B's choice runs: lesson 02 §6's schedule that holds fewer micro-batches
MEMORY_SLACK = 0.01  # a stage's measured peak may exceed the cap by this share (the meter's rounding)


# --- the learner's answers, checked before anything is judged ---------------------------------------------


def _as_float(value, what: str) -> float:
    checks.expect(isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value),
                  f"{what} should be a finite number, got {value!r}")
    return float(value)


def _answer(choose: Callable | tuple, profile: Profile, cap: float | None = None) -> tuple[tuple[int, ...], int]:
    """``choose(profile, cap)`` (or the pair itself) as ``((split point,), m)``; ``CheckFailed`` if impossible."""
    got = choose(profile, cap) if callable(choose) else choose
    checks.expect(isinstance(got, (tuple, list)) and len(got) == 2,
                  f"choose_config should return (split_points, m), got {got!r}")
    split_points, m = got
    checks.expect(isinstance(split_points, (list, tuple)) and len(split_points) == 1,
                  f"two workers need exactly one split point, in a list: got {split_points!r}")
    points = tuple(int(k) for k in split_points)
    try:
        stage_ranges(len(profile.layers[1]), points)
    except ValueError as exc:
        raise checks.CheckFailed(str(exc)) from None
    checks.expect(isinstance(m, int) and m in profile.layers,
                  f"m should be one of the micro-batch counts the profile measured ({profile.ms}), got {m!r}")
    return points, m


# --- check 1: the prediction --------------------------------------------------------------------------------


def _prediction_miss(predict: Callable, hidden: _reference.Hidden) -> str | None:
    """Where ``predict`` is off the schedule on ``hidden`` by more than the tolerance, in words; else None."""
    p = hidden.profile
    for m in p.ms:
        for k in range(1, len(p.layers[1])):
            got = _as_float(predict(p, [k], m), f"predict_speedup(profile, [{k}], {m})")
            want = _reference.reference_speedup(p, (k,), m)
            if abs(got / want - 1) > PREDICTION_TOLERANCE:
                return f"split [{k}], m={m}: {'too high' if got > want else 'too low'}"
    return None


def check_prediction(predict: Callable):
    """Lab 02 check 1: ``predict(profile, split_points, m)`` agrees with the 1F1B schedule played pass by pass
    (``reference.one_f_one_b_seconds``), within ``PREDICTION_TOLERANCE``, for every split and m of every unseen
    profile. A miss names the profile, where, which way, and what that profile isolates."""
    def body():
        checks.expect(not checks.refers_to(predict, set(_REFUSED), tuple(_REFUSED.values())),
                      "predict_speedup calls the checks' own reference: the exercise is your own model")
        for tests in PREDICTION_ORDER:
            for hidden in (h for h in _reference.HIDDEN if h.tests == tests):
                miss = _prediction_miss(predict, hidden)
                checks.expect(miss is None,
                              f"on a profile the lab keeps apart ({hidden.what}) your prediction for {miss}; that "
                              f"profile isolates {WHY_PREDICTION[tests]}")
        return (f"your prediction agrees with 1F1B's schedule played pass by pass within "
                f"{PREDICTION_TOLERANCE:.0%}, for every split and m of {len(_reference.HIDDEN)} profiles you had not "
                "seen")

    return checks.run_check("prediction follows the schedule", body, hint=checks.stub_message(BANK, "A"))


# --- check 2: the choice, on profiles with a known answer ---------------------------------------------------


def diagnose(profile: Profile, split: tuple[int, ...], m: int, cap: float | None = None) -> str:
    """What is wrong with ``(split, m)`` on ``profile`` under ``cap``, in words, never the right answer."""
    if not _reference.fits(profile, split, m, cap):
        return ("one of its stages would keep more than the cap at once under 1F1B: how many micro-batches does "
                "each stage hold at its peak, and what does each keep per row?")
    best_split, best_m, best = _reference.best_config(profile, cap)
    at_m = _reference.best_split_at(profile, m, cap)
    at_m_speedup = _reference.reference_speedup(profile, at_m, m)
    if at_m_speedup >= best * (1 - CHOICE_TOLERANCE) and split != at_m:
        if cap is not None and _reference.best_split_at(profile, m) != at_m:
            return (f"at m={m} another split that fits the cap is faster: where the split that balances the "
                    "stages' time does not fit, the splits around it may")
        if cap is not None:  # the better split fits: passed over as too big, or never priced
            return (f"m={m} is fine there, but your split leaves one stage slower than it needs to be, and a "
                    "better balanced split fits the cap: if you ruled it out, count again what each stage holds "
                    "at once under 1F1B; if not, balance the stages on that micro-batch size's own costs")
        return (f"m={m} is fine there, but your split leaves one stage slower than it needs to be: balance the "
                f"stages on that micro-batch size's own costs")
    if m > best_m:
        if cap is not None and best_split != _reference.best_split_at(profile, best_m):
            return ("fewer micro-batches fit the cap there too and run faster, with a split that does not balance "
                    "their time exactly: where the balanced split does not fit, the splits around it may")
        if cap is not None and _reference.best_config(profile)[1] < m:
            return ("fewer micro-batches, with a split that suits them, fit the cap there too and run faster: "
                    "count again what each stage holds at once, and what each further micro-batch costs")
        return ("more micro-batches than pay off: each one's own cost (the overhead, a smaller and less efficient "
                "micro-batch) outweighs the bubble it removes")
    return ("fewer micro-batches than pay off: the bubble, (p-1)/(m+p-1) of the step, costs more there than "
            "another micro-batch would")


def _choice_on(choose: Callable, hidden: _reference.Hidden, cap: float) -> tuple[tuple[int, ...], int]:
    """The learner's choice on a hidden profile; an error in it is reported with the profile it met."""
    try:
        return _answer(choose, hidden.profile, cap)
    except checks.CheckFailed:
        raise
    except Exception as exc:
        if checks._is_not_implemented(exc):
            raise
        raise checks.CheckFailed(
            f"on a profile the lab keeps apart ({hidden.what}) choose_config raised {type(exc).__name__}: {exc}. "
            "Every profile the checks use has choices that fit its cap: which micro-batches does a stage hold at "
            "once under 1F1B?") from None


def check_choice(choose: Callable, show: bool = True):
    """Lab 02 check 2: on every unseen profile, ``choose(profile, cap)`` fits the cap (the reference's count of
    what each stage keeps under 1F1B) and reaches the best speed-up among the choices that fit (the
    reference's, over every split and m) within ``CHOICE_TOLERANCE``."""
    def body():
        checks.expect(not checks.refers_to(choose, set(_REFUSED), tuple(_REFUSED.values())),
                      "choose_config calls the checks' own reference: the exercise is your own choice")
        ties = 0
        for hidden, cap in _reference.HIDDEN_CAPPED:
            split, m = _choice_on(choose, hidden, cap)
            best = _reference.best_config(hidden.profile, cap)[2]
            got = _reference.reference_speedup(hidden.profile, split, m)
            fits = _reference.fits(hidden.profile, split, m, cap)
            ties += fits and best * (1 - CHOICE_TOLERANCE) <= got < best  # a tie: within the tolerance
            checks.expect(fits and got >= best * (1 - CHOICE_TOLERANCE),
                          f"on a profile the lab keeps apart ({hidden.what}) your split {list(split)} with m={m}"
                          + (f" reaches {got / best:.0%} of the best that fits its cap: " if fits else ": ")
                          + diagnose(hidden.profile, split, m, cap))
        tied = (f" (on {ties} of them a tie: within {CHOICE_TOLERANCE:.0%} of the best, which any tied choice "
                f"is)" if ties else "")
        return (f"your choice fits the cap and is the fastest that does on all {len(_reference.HIDDEN_CAPPED)} "
                "profiles you had not seen" + tied)

    return checks.run_check(CHOICE, body, hint=checks.stub_message(BANK, "B"), show=show)


# --- check 3: the choice, pipelined for real ----------------------------------------------------------------


def noise_margin(ratios: Sequence[float]) -> float:
    """The rounds' spread of the paired ratios (``claims.paired_spread``) within ``MIN_MARGIN``..``MAX_MARGIN``."""
    return min(max(paired_spread(list(ratios)), MIN_MARGIN), MAX_MARGIN)


def paired_ratios(run: PipelineRun, reference_key: str, key: str) -> list[float]:
    """Round by round, t_reference / t_key: both timed in the same round, so a busy moment slows both.
    Without per-round times (a run that kept none), the ratio of the two medians."""
    if not run.raw:
        return [_row(run, reference_key).seconds / _row(run, key).seconds]
    times = run.raw[0]["times"]
    return [a / b for a, b in zip(times[reference_key], times[key])]


def reference_configs(profile: Profile, batch: int, cap: float | None = None) -> list[Config]:
    """What the check times beside the learner's: each m of ``TIMED_M`` with its best split on the profile
    among those that fit ``cap`` (an m where none fits is not timed)."""
    splits = {m: _reference.best_split_at(profile, m, cap) for m in TIMED_M if m in profile.layers}
    return [Config(batch, m, SCHEDULE, split) for m, split in splits.items() if split is not None]


def measure_stage_memory(settings: LabSettings, split: tuple[int, ...], m: int) -> list[float]:
    """Each stage's peak of activations kept for the backward pass during one 1F1B step of the lab's model,
    bytes (lesson 02's ``measure_memory``, two workers). The pipeline cuts one batch into slices that share
    its storage, which the meter counts whole: the first stage's input and the last stage's targets are
    counted here at the size of the slices in flight."""
    per_stage = [stage[SCHEDULE]["saved"] for stage in
                 measure_memory(lab_task(settings), list(split), settings.batch, m, schedules=(SCHEDULE,))]
    rows, last = settings.batch // m, len(per_stage) - 1
    per_stage[0] += 4 * LAB_IN * (_reference.in_flight(0, m, len(per_stage)) * rows - settings.batch)
    per_stage[last] += 4 * LAB_OUT * (_reference.in_flight(last, m, len(per_stage)) * rows - settings.batch)
    return per_stage


def _against_fastest(task, mine: Config, refs: list[Config], rounds: int):
    """Time ``mine`` with every reference in one launch; the strongest reference (lowest median paired ratio)
    counts. The lowest of several noisy ratios is biased low, so when it misses, that reference and ``mine`` are
    timed again on their own and the fresh ratios decide. Returns (run, final run, fastest key, ratios, again)."""
    configs = [mine] + [c for c in refs if c.key != mine.key]
    run = measure_pipeline(task, mine.split_points, configs, rounds=rounds, record=False)
    wrong = not_counted(run)  # rule 3: a reference whose loss missed one worker's is no faster configuration
    ratios = {c.key: paired_ratios(run, c.key, mine.key) for c in configs if c.key not in (mine.key, *wrong)}
    if not ratios:
        return run, run, mine.key, [1.0] * rounds, False
    key = min(ratios, key=lambda k: statistics.median(ratios[k]))
    if statistics.median(ratios[key]) >= 1:  # no reference ran faster than the learner's choice
        return run, run, mine.key, [1.0] * rounds, False
    if statistics.median(ratios[key]) >= 1 - noise_margin(ratios[key]):
        return run, run, key, ratios[key], False
    best = next(c for c in configs if c.key == key)
    final = measure_pipeline(task, mine.split_points, [mine, best], rounds=rounds, record=False)
    return run, final, key, paired_ratios(final, key, mine.key), True


def _row(run: PipelineRun, key: str) -> Row:
    return next(r for r in run.rows if r.key == key)


def your_predictions(predict: Callable, profile: Profile, configs: list[Config]) -> dict[str, float]:
    """The learner's ``predict_speedup`` for each configuration timed (NaN where it gives no number)."""
    out = {}
    for c in configs:
        try:
            out[c.key] = _as_float(predict(profile, list(c.split_points), c.m), "predict_speedup")
        except Exception:  # noqa: BLE001 - check 1 names what is wrong with it
            out[c.key] = float("nan")
    return out


def over_cap(memory: list[float], cap: float) -> list[int]:
    """The stages whose measured peak passed the cap (beyond the meter's ``MEMORY_SLACK``)."""
    return [k for k, kept in enumerate(memory) if kept > cap * (1 + MEMORY_SLACK)]


def measure_choice(choose, predict, profile: Profile, cap: float | None = None,
                   settings: LabSettings | None = None, rounds: int = LAB_ROUNDS) -> Pipelined:
    """The learner's configuration: what each stage keeps, measured (with a cap), then pipelined on two workers
    beside every reference and one worker alone; the figures predicted are the learner's own model's. A
    choice over the cap is not timed (``Pipelined.rows`` empty)."""
    s = settings or current_settings()
    split, m = _answer(choose, profile, cap)
    mine = Config(s.batch, m, SCHEDULE, split)
    memory = measure_stage_memory(s, split, m) if cap is not None else None
    if memory is not None and over_cap(memory, cap):
        empty = Row(s.batch, m, SCHEDULE, float("nan"), float("nan"), [], split_points=split)
        return Pipelined(empty, [], empty, float("nan"), MIN_MARGIN, {}, False, s.label, cap, memory)
    refs = reference_configs(profile, s.batch, cap)
    run, final, key, ratios, again = _against_fastest(lab_task(s), mine, refs, rounds)
    ratio = statistics.median(ratios) if key != mine.key else 1.0
    predicted = your_predictions(predict, profile, [mine] + refs)
    profiled = profiled_work(profile, split, m)
    free = uncapped_splits(profile, refs, cap, lambda c: your_predictions(predict, profile, [c])[c.key])
    return Pipelined(_row(final, mine.key), run.rows, _row(final, key), ratio,
                     noise_margin(ratios) if key != mine.key else MIN_MARGIN, predicted, again, s.label, cap,
                     memory, profiled, outputs_line(run), frozenset(not_counted(run) | not_counted(final)), free)


def profiled_work(profile: Profile, split: Sequence[int], m: int) -> dict:
    """The profile's figures for the learner's configuration, seconds a step, worked from the figures the
    notebook prints (each layer's ms to three decimals, ``per_micro_batch``'s to two), so that a reader
    redoes them from the per-layer table: "one worker" (every layer on the whole batch), "stages" (m
    micro-batches of each stage's layers, each plus what a micro-batch costs a stage beyond them)."""
    layer_ms = {n: [as_printed(t, 3, scale=1e-3) for t in profile.layers[n]] for n in (1, m)}
    extra = as_printed(profile.per_micro_batch, 2, scale=1e-3)
    stages = [m * (sum(layer_ms[m][a:b]) + extra) * 1e-3 for a, b in stage_ranges(len(layer_ms[m]), split)]
    return {"one worker": sum(layer_ms[1]) * 1e-3, "stages": stages, "per micro-batch": extra * 1e-3}


def describe(p: Pipelined) -> str:
    """The learner's row in words: speed-up over one worker with its spread and verdict, the model's figure."""
    r = p.mine
    spread = noise(r)
    # the verdict reads the figures as printed (two decimals), so its share of the gain is the page's; with the
    # rounds, as the take-away's (``against_one_worker``), so that the two never part on a one-sided noise
    verdict = speedup_verdict(as_printed(r.speedup, 2), as_printed(r.bound, 2), spread,
                              slower="slower than one worker", rounds=r.speedups)
    verdict += f"; {rounds_above_bound(r)}" if rounds_above_bound(r) else ""
    memory = f"; {memory_text(p)}" if p.memory is not None else ""
    return (f"your split {list(r.split_points)} with m={r.m}: {r.speedup:.2f}x one worker ± {spread:.2f}{p.label} "
            f"({verdict}); your model predicted {p.predicted[r.key]:.2f}x{memory}")


def _predicts_the_schedule(predict: Callable) -> bool:
    """Whether ``predict`` passes check 1 (and is the learner's own): check 3 prints its figures beside the
    measured ones, and each m's best split, which only a right model may see."""
    try:
        return (not checks.refers_to(predict, set(_REFUSED), tuple(_REFUSED.values()))
                and all(_prediction_miss(predict, h) is None for h in _reference.HIDDEN))
    except Exception:  # noqa: BLE001 - a stub or a crash: check 1 says which
        return False


PIPELINED = "choice pipelined for real"
CHOICE = "choice is the best that fits"


def check_pipelined(choose, predict, profile: Profile, cap: float | None = None, rounds: int = LAB_ROUNDS,
                    settings: LabSettings | None = None):
    """Lab 02 check 3: the learner's choice on the measured ``profile`` keeps each stage's activations under
    ``cap`` when it runs (measured), and pipelined on two workers (1F1B) runs within the rounds' noise of the
    fastest configuration measured here (each m of ``TIMED_M`` with its best split that fits).
    Runs once ``predict`` passes check 1 and ``choose`` check 2 (its table shows the learner's predictions and
    each m's best split that fits the cap: exercise B's answer on this profile).
    Returns ``(verdict, Pipelined or None)``; the second feeds ``take_away``."""
    if not _predicts_the_schedule(predict):
        return _not_yet("check 3 pipelines your choice once check 1 passes (it sets your model's predictions "
                        "beside the measurement)", "A"), None
    if not _choice_passes(choose):
        return _not_yet("check 3 pipelines your choice once check 2 passes (its table names each micro-batch "
                        "count's best split that fits the cap: exercise B's answer on this profile)", "B"), None
    result: list[Pipelined] = []

    def body():
        p = measure_choice(choose, predict, profile, cap, settings, rounds)
        if p.memory is not None and over_cap(p.memory, p.cap):
            stages = " and ".join(f"stage {k}" for k in over_cap(p.memory, p.cap))
            checks.expect(False, f"your split {list(p.mine.split_points)} with m={p.mine.m} ran once under 1F1B: "
                                 f"{memory_text(p)}; {stages} kept more than the cap, so it was not timed. What "
                                 "does a stage keep per micro-batch, and how many micro-batches does it hold at "
                                 "once?")
        result.append(p)
        checks.expect(p.mine.key not in p.not_counted, wrong_loss_message(p.mine, p.outputs))
        again = (", timed again on its own against yours (the table below is the first launch)" if p.timed_again
                 else "")
        if cores_held(p):  # a pass judged on such a timing would mean no more than a fail: neither is given
            return (f"{describe(p)}; timed while the workers' threads ran only {busy_share(p):.0%} of the time "
                    "they were busy (other programs held the cores): this timing does not judge your choice; "
                    "check 2 did. Rerun on an idle machine to see it judged")
        if p.fastest.key == p.mine.key:
            return f"{describe(p)}; no configuration measured here ran faster than yours"
        share, allowed = reached(p)  # judged as printed: "95%" against "95%" is a pass
        paired = paired_words(p)
        if share < allowed and _tied_on_your_model(p):
            return (f"{describe(p)}; the fastest measured here, split {list(p.fastest.split_points)} with "
                    f"m={p.fastest.m}{again}, ran faster: {paired} you reached {share:.0%} of it, "
                    f"{margin_text(p)} (the "
                    f"share the rounds' noise allows, {allowed:.0%}); but your model, right on check 1, "
                    f"predicts the two within {CHOICE_TOLERANCE:.0%} of each other: the profile cannot tell them "
                    "apart, so the timing does not fail your choice (the take-away reads the profile's miss)")
        checks.expect(share >= allowed,
                      f"{describe(p)}; the fastest configuration measured here{again} ran faster: {paired} "
                      f"yours reached {share:.0%} of its throughput (their noise allows {allowed:.0%}): "
                      f"{_timed_diagnosis(p)}")
        if p.ratio >= 1:  # the first launch's fastest, timed again, ran no faster than the learner's choice
            return (f"{describe(p)}{profile_tie(p)}; split {list(p.fastest.split_points)} with m={p.fastest.m} "
                    f"looked faster in the first launch{again}: yours ran {share:.0%} of its throughput, so no "
                    "configuration measured here ran faster than yours")
        return (f"{describe(p)}{profile_tie(p)}; the fastest measured here, split {list(p.fastest.split_points)} "
                f"with m={p.fastest.m}{again}: {paired} you reached {share:.0%} of it (the rounds' noise allows "
                f"{allowed:.0%}; {margin_text(p)})")

    verdict = checks.run_check(PIPELINED, body, hint=checks.stub_message(BANK, "B"))
    return verdict, (result[0] if result else None)


def _not_yet(message: str, exercise: str) -> checks.Verdict:
    """Check 3's verdict while an earlier check stands in its way: not done yet, with that exercise's hint."""
    verdict = checks.Verdict(PIPELINED, checks.NOT_DONE, message, checks.stub_message(BANK, exercise))
    checks.HISTORY[PIPELINED] = verdict
    checks.display(verdict)
    return verdict


def _choice_passes(choose: Callable) -> bool:
    """Whether ``choose`` passes check 2 (judged again, quietly: the same verdict it printed)."""
    return check_choice(choose, show=False).passed


def _tied_on_your_model(p: Pipelined) -> bool:
    """Whether the learner's model predicts the fastest configuration within ``CHOICE_TOLERANCE`` of the
    learner's own choice: a tie the profile cannot resolve, which no choice made from it could avoid."""
    mine, best = p.predicted.get(p.mine.key), p.predicted.get(p.fastest.key)
    return mine is not None and best is not None and predicted_gap(mine, best) >= -CHOICE_TOLERANCE


def reached(p: Pipelined) -> tuple[float, float]:
    """The share of the fastest's throughput the learner's choice reached, and the share the rounds' noise
    allows (``1 - margin``), as check 3 prints them (whole percent): the check judges these, so that a reader
    who sees "95%" against "95%" sees a pass."""
    return as_printed(p.ratio, 2), as_printed(1 - p.margin, 2)


def margin_text(p: Pipelined) -> str:
    """How far the learner's share of the fastest lies from the share allowed, in percentage points, worked
    from the two shares as printed (91% against 95%: 4 points below)."""
    share, allowed = reached(p)
    points = round((share - allowed) * 100)  # whole percents: round away the floats' dust
    return "at it" if points == 0 else f"{abs(points)} points {'above' if points > 0 else 'below'} it"


def profile_tie(p: Pipelined) -> str:
    """Where the learner's model predicted another timed m within ``CHOICE_TOLERANCE`` of the learner's choice, and the
    choice is the profile's best within it: a tie on the profile, which any tied choice answers ("" if none)."""
    mine = p.predicted.get(p.mine.key)
    if mine is None or predicted_gap(mine, max(p.predicted.values())) < -CHOICE_TOLERANCE:
        return ""
    tied = [r for r in sorted(p.rows, key=lambda r: r.m) if r.m != p.mine.m and r.key in p.predicted
            and predicted_alike(p.predicted[r.key], mine)]
    if not tied:
        return ""
    others = ", ".join(f"m={r.m} ({p.predicted[r.key]:.2f}x)" for r in tied)
    return (f"; by your model your m={p.mine.m} ({mine:.2f}x) ties with {others} within {CHOICE_TOLERANCE:.0%}: "
            "any tied choice is the profile's best, and only the timing below tells them apart")


def _timed_diagnosis(p: Pipelined) -> str:
    """Which of the two decisions lost, in words (never the configuration that won)."""
    mine, best = p.mine, p.fastest
    if mine.m == best.m:
        return "at your m, another split ran faster: the stages are not balanced at that micro-batch size"
    if mine.m > best.m:
        return ("fewer micro-batches ran faster: on this machine each micro-batch costs more than the bubble it "
                "removes; does your prediction count what a micro-batch costs beyond its layers?")
    return "more micro-batches ran faster: the bubble cost you more than another micro-batch would have"
