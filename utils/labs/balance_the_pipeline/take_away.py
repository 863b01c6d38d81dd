"""Lab 02's reading of check 3's run for the learner (``labs/02_balance_the_pipeline.ipynb``): the take-away
(did pipelining pay, which m won and why, the learner's model against the run), what it leaves to the collapsed
block, and how two predictions compare as printed. Split from ``checks`` (596 lines, near the 600-line cap),
which re-exports every name."""

from __future__ import annotations

import textwrap

from utils.claims import as_printed, printed_ratio, speedup_verdict
from utils.labs.balance_the_pipeline.fewer import fewer_detail, fewer_words
from utils.labs.balance_the_pipeline.reading import (Pipelined, _miss, _model_with_work, busy_share, cores_held,
                                                     largest_among_fastest, miss_cause, noise, prediction_lines,
                                                     splits_by_m, tied_with, winners)
from utils.labs.balance_the_pipeline.workload import CANDIDATE_M
from utils.lessons.model_split.runs import Row

CHOICE_TOLERANCE = 0.02  # of the best speed-up a profile allows: a choice within it is as good


# --- two predictions, as printed ------------------------------------------------------------------------------


def predicted_gap(predicted: float, other: float) -> float:
    """How far one prediction lies from another (+: above), worked from the two as the page prints them (two
    decimals, ``claims.printed_ratio``), so that "1.53x" and "1.50x" are 2% apart, within ``CHOICE_TOLERANCE``."""
    return round(printed_ratio(predicted, other) - 1, 9)  # 9 decimals: 1.53 / 1.5 is 1.0200000000000002


def predicted_alike(predicted: float, other: float) -> bool:
    """Whether two predictions, as printed, lie within ``CHOICE_TOLERANCE`` of each other: a tie on the profile."""
    return abs(predicted_gap(predicted, other)) <= CHOICE_TOLERANCE


def memory_text(p: Pipelined) -> str:
    """Each stage's measured peak against the cap, in MB ("" without a cap)."""
    if p.memory is None or p.cap is None:
        return ""
    kept = " and ".join(f"{b / 1e6:.2f}" for b in p.memory)  # two decimals, as cell 13 prints the cap
    return f"its stages kept {kept} MB at their peaks (measured; the cap {p.cap / 1e6:.2f} MB)"


# --- what the run showed ------------------------------------------------------------------------------------


def against_one_worker(r: Row) -> str:
    """The learner's speed-up over one worker judged by the course's one noise rule (``claims.speedup_verdict``)
    on the figures as printed, the paired rounds given: "faster than the baseline" past the ± or with every
    round above 1x (then ending "(every round above 1.00x)"), "within noise: no effect shown", or "slower
    than one worker: no speed-up". No bound: the take-away asks only whether pipelining paid."""
    return speedup_verdict(as_printed(r.speedup, 2), spread=noise(r),
                           slower="slower than one worker", rounds=r.speedups)


def take_away(p: Pipelined | None) -> str:
    """Lab 02's take-away, from the run, as one answer: did pipelining beat one worker here (t39/t40 reading: the
    which-m-won and model readings sit in ``take_away_detail``'s collapsed block); what is missing while the
    checks have not run."""
    if p is None:
        return "⏳ not done yet: the take-away appears here once check 3 has pipelined your choice"
    r = p.mine
    spread, verdict = noise(r), against_one_worker(r)
    held = (f"the workers' threads ran only {busy_share(p):.0%} of the time they were busy: they waited for "
            "cores that other programs held (rerun on an idle machine)") if cores_held(p) else ""
    if verdict.startswith("faster"):  # past the rounds' noise, or every round above 1x
        every = "; every round above 1x" if verdict.endswith("(every round above 1.00x)") else ""
        answer = (f"Pipelining paid here: your choice ran {r.speedup:.2f}x one worker (± {spread:.2f}{every})"
                  f"{p.label}" + (f", though {held}." if held else "."))
    else:  # within noise of 1x, or slower
        why = held or "the pipeline's own costs (messages, the schedule's work per micro-batch) ate the overlap"
        answer = (f"Pipelining did not clearly pay in this run: your choice ran {r.speedup:.2f}x one worker "
                  f"(± {spread:.2f}){p.label}, {verdict}; {why}.")
    return textwrap.fill(answer, 110)


def which_m_won(p: Pipelined) -> str:
    """The first lines of the collapsed block: what the take-away's ± is, which m ran fastest and why fewer or
    more micro-batches did not, and the learner's model against the measurement at the learner's choice."""
    r, fastest = p.mine, p.fastest  # the fastest against the learner's choice, paired round by round
    lines = [f"The ± is the rounds' noise: half the range of the middle half of the {len(r.speedups)} paired "
             "rounds' speed-ups (not the profile's spread, (max - min) / median)."]
    top = tied_with(p.rows, fastest.key)  # the configurations the paired rounds cannot tell from the fastest
    lines.append(winners(top, r.key, fastest.key))
    if p.timed_again:  # the first launch's rows; the fastest and yours were timed again on their own
        lines[-1] += (f"(That is the first launch; timed again on their own, yours ran {p.ratio:.0%} of the "
                      f"throughput of m={fastest.m}.) ")
    smaller = [row for row in p.rows if row.m < min(x.m for x in top)]
    larger = [row for row in p.rows if row.m > max(x.m for x in top)]
    first = min(top, key=lambda x: x.m)
    if smaller:
        least = min(smaller, key=lambda x: x.m)
        fewest = f"m={first.m}, the fewest among the fastest" if len(top) > 1 else f"m={first.m}"
        slower = ("ran slower" if as_printed(least.speedup, 2) < min(as_printed(x.speedup, 2) for x in top)
                  else "fell outside the tie")  # the speed-ups as printed beside it
        lines[-1] += fewer_words(p, least, first, fewest, slower)  # only causes large enough for the gap
    if larger:
        most = max(larger, key=lambda x: x.m)
        lines[-1] += (f"With more micro-batches, each paying its own cost, m={most.m} ran "
                      f"{most.speedup:.2f}x, though the bubble by the formula (p-1)/(m+p-1) shrank to "
                      f"{1 / (most.m + 1):.0%}.")
    else:
        lines[-1] += largest_among_fastest(top, smaller)
    lines[-1] += _profile_not_bubble(p, top)
    lines += prediction_lines(p)[:1]  # your choice; every m follows in the block
    lines[-1] += work_summary(p)  # the block's finding on a miss, in one clause, before its working
    return "\n".join(lines)


def work_summary(p: Pipelined) -> str:
    """The collapsed block's finding on a miss, in one sentence before its working (t35_labs03 other 3): the
    learner's model redone with the work this run measured (``reading._model_with_work``, worked in full in
    the block) and how much of the miss that explains, every branch written: none, all of it, part, or all
    and more. "" where there is no miss, no work measured, or the cores were held (nothing is judged)."""
    r = p.mine
    if (not miss_cause(p) or cores_held(p) or r.key not in p.predicted
            or (side := _miss(r, p.predicted[r.key])) is None):
        return ""
    predicted = as_printed(p.predicted[r.key], 2)
    worked, _ = _model_with_work(p)
    way = 1 if side == "under" else -1  # the way the speed-up must move to explain the miss
    rest = _miss(r, worked)
    if (worked - predicted) * way <= 0:
        said = "the change in work does not explain the miss"
    elif rest is None:
        said = "the change in work explains the miss"
    elif rest == side:
        said = "the change in work explains part of the miss"
    else:
        said = "the change in work explains the whole miss, and more"
    return (f" With the work this run measured, your model gives {worked:.2f}x: {said} (the working, and what "
            "is left, below).")


def take_away_detail(p: Pipelined | None) -> str:
    """What the take-away leaves to the collapsed block below it, so that the visible answer stays one sentence:
    which m won and the model at the learner's choice (``which_m_won``), each m's best split, what the cap ruled out, your model at every m timed, and its parts as the run measured them
    (``model_parts``); "" before check 3 has run."""
    if p is None:
        return ""
    lines = [*which_m_won(p).split("\n"), splits_by_m(p), fewer_detail(p)] + ([_cap_line(p)] if p.cap is not None else []) + prediction_lines(p)[1:]
    return "\n".join(textwrap.fill(line, 106, break_on_hyphens=False) for line in lines + [model_parts(p)] if line)


def model_parts(p: Pipelined | None) -> str:
    """The learner's model's parts (work, waiting) as the run measured them at the learner's choice
    (``miss_cause``), the last paragraph of ``take_away_detail``; "" where nothing was measured."""
    return textwrap.fill(miss_cause(p), 106, break_on_hyphens=False) if p is not None else ""


def _profile_not_bubble(p: Pipelined, top: list[Row]) -> str:
    """Where the learner's m lost to the fastest: the profile's prediction already counts each m's bubble, so
    a gap it did not predict is the profile's miss, not the bubble ("" where the choice is among the fastest)."""
    mine, best = p.mine, p.fastest
    if (any(x.key == mine.key for x in top) or mine.key not in p.predicted or best.key not in p.predicted
            or cores_held(p)):  # a timing on held cores reads no miss (``prediction_lines`` says so)
        return ""
    pm, pb = p.predicted[mine.key], p.predicted[best.key]
    measured = f"{mine.speedup:.2f}x against {best.speedup:.2f}x"
    if as_printed(mine.speedup, 2) >= as_printed(best.speedup, 2):  # as printed, the learner's ran no slower
        return ""
    if predicted_alike(pm, pb):
        return (f" Your model, bubble counted, predicted your m={mine.m} and m={best.m} alike ({pm:.2f}x and "
                f"{pb:.2f}x): the gap measured between them ({measured}) is your model's miss, not the bubble.")
    if as_printed(pm, 2) < as_printed(pb, 2):
        return (f" Your model, bubble counted, predicted your m={mine.m} below m={best.m} too ({pm:.2f}x "
                f"against {pb:.2f}x); measured: {measured}.")
    return (f" Your model, bubble counted, predicted your m={mine.m} above m={best.m} ({pm:.2f}x against "
            f"{pb:.2f}x); measured the other way round ({measured}): your model's miss, not the bubble.")


def _cap_line(p: Pipelined) -> str:
    """Which micro-batch counts the cap left out (no split fits: not timed), and what the learner's stages
    kept when it ran."""
    timed = {r.m for r in p.rows}
    left = [m for m in CANDIDATE_M if m not in timed]  # every m the profile measures is timed (checks.TIMED_M)
    said = (f"Under the cap, m={', '.join(str(m) for m in left)} had no split that fits (not timed)"
            if left else "Every m had a split that fits the cap")
    return f"{said}; your choice: {memory_text(p)}."
