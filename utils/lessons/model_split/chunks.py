"""Section 9's readings of lesson 02 (``notebooks/02_model_split.ipynb``): two stages per worker (interleaved
1F1B, interleaved zero bubble, ZBV) beside plain 1F1B, from the run's own figures. ``report`` re-exports them.

    say(bubble_answer(run.rows, run.plain, "this launch"))  # idle shares ± spread, speedups
    say(plain_in_section5(run.plain, sweep))                      # plain 1F1B here beside section 5's
    say(p_at_this_m(zbv_row))                                     # ZBV against p = 2x at this m, from the run
    rows_table(with_plain(run))                                   # the block's table, plain 1F1B's row last
"""

from __future__ import annotations

from dataclasses import replace

from utils.claims import as_printed, half_up, paired_spread, printed_ratio, within_noise
from utils.lessons.model_split.best import lead_word, paired_lead
from utils.lessons.model_split.bounds import printed_side
from utils.lessons.model_split.noise import (above_as_printed, beside_line, median_past_devices, ms_as_printed,
                                            printed, round_text, rounds_text)
from utils.lessons.model_split.runs import PipelineRun, Row


def with_plain(run: PipelineRun) -> PipelineRun:
    """Section 9's run with plain 1F1B, the yardstick every schedule is read beside, as its last row: the block's
    table then prints its step, one-device ms, busy ms and every round, so that its ± and each schedule's
    ratio to it can be redone from the page (plain 1F1B is timed in the same rounds but kept out of ``rows``,
    which the answer's table and verdicts read). A run without it is returned as it is."""
    return replace(run, rows=run.rows + [run.plain]) if run.plain else run


def idle_shares(r: Row) -> list[float]:
    """Each stage's idle share of the step, 1 - busy / step: the bubble as measured (with the messages' waits),
    worked from the busy and step ms as the rows table prints them (whole ms: 1 - 311 / 373 = 17%)."""
    return [max(1 - printed_ratio(b, r.seconds, 0, 1e-3), 0.0) for b in r.busy]


def measured_text(r: Row) -> str:
    """A row's median with its paired spread and every round's range, as section 9's table prints it
    ("1.52x ± 0.05 (1.41-1.64)"): the ± that every comparison beside plain 1F1B reads."""
    value, spread = printed(r)
    return f"{value:.2f}x ± {spread:.2f} ({rounds_text(*r.speedup_range)})"


def idle_spread(r: Row) -> list[float]:
    """Per worker, how far its idle share spread over the rounds: half the middle half of the rounds' own shares
    (``Row.idle_rounds``, ``claims.paired_spread``, the ± every speedup carries), rounded half up to whole
    percent as printed; 0 where the row kept no rounds."""
    rounds = r.idle_rounds or [[] for _ in r.busy]
    return [as_printed(paired_spread(k), 2) for k in rounds]


def _idle_text(r: Row) -> str:
    """Each worker's idle share ± its rounds' spread, whole percent: "25 ± 2% / 32 ± 1%"."""
    return " / ".join(f"{f * 100:.0f} ± {d * 100:.0f}%"
                      for f, d in zip((as_printed(f, 2) for f in idle_shares(r)), idle_spread(r)))


def _idle_apart(r: Row, plain: Row) -> tuple[list[int], list[int], list[int]]:
    """Worker by worker, as printed: where this row's idle share ± its spread lies wholly below plain 1F1B's
    (less idle), where the two bands overlap (not separated by these rounds), and where it lies wholly above
    (more idle): only bands that clear each other are read. No baselines' gap widens them: an idle share divides two times of the same
    round, not a speedup's one-device step."""
    less, unresolved, more = [], [], []
    shares = zip(idle_shares(r), idle_spread(r), idle_shares(plain), idle_spread(plain))
    for k, (f, d, b, bd) in enumerate(shares):
        f, b = as_printed(f, 2), as_printed(b, 2)
        if round(f + d, 9) < round(b - bd, 9):  # 9 decimals wipe the float error of the printed figures
            less.append(k)
        elif round(f - d, 9) <= round(b + bd, 9):
            unresolved.append(k)
        else:  # the band wholly above plain 1F1B's: this row idled more on that worker
            more.append(k)
    return less, unresolved, more


def _workers(schedule: str, ks: list[int]) -> str:
    """A schedule with the workers it is named for: "interleaved ZB on worker 0", "ZBV on workers 0, 1"."""
    return f"{schedule} on worker{'s' if len(ks) > 1 else ''} {', '.join(str(k) for k in ks)}"


def bubble_answer(rows: list[Row], plain: Row, where: str) -> str:
    """Section 9's answer, from the run: each two-stages-per-worker schedule's idle share of the step on each
    worker (``idle_shares``, ± ``idle_spread``) beside plain 1F1B's on the same worker, at the same batch and m
    (``plain``, timed in the same rounds; ``where`` names them), then its speedup beside plain 1F1B's
    (``_beside_plain``).
    "Less idle" only where the two shares' bands clear each other (``_idle_apart``); shares whose bands overlap
    are named as not separated, and shares wholly above plain 1F1B's as more idle, so that every worker of every
    row is classed once. Both directions are said: less idle on every worker, on some (named), or on none; more
    idle where a band clears plain 1F1B's from above; faster, slower or within noise of it, round by round."""
    every, some, none, unresolved, idler = [], [], [], [], []
    for r in rows:
        less, within, more = _idle_apart(r, plain)
        (every if len(less) == len(r.busy) else some if less else none).append(
            r.schedule if len(less) in (0, len(r.busy)) else
            f"{r.schedule} (worker {', '.join(str(k) for k in less)} only)")
        if within:
            unresolved.append(_workers(r.schedule, within))
        if more:
            idler.append(_workers(r.schedule, more))
    text = (f"Idle share of the step per worker (1 - busy / step from the medians, ± half the middle half of the "
            f"rounds' own shares; the bubble with the messages' waits): plain 1F1B m={plain.m} {_idle_text(plain)} "
            f"({where}); " + "; ".join(f"{r.schedule} {_idle_text(r)}" for r in rows) + ". ")
    found = [f"on every worker: {', '.join(every)}" if every else "",
             f"on some workers only: {', '.join(some)}" if some else "",
             f"on no worker: {', '.join(none)}" if none else ""]
    text += ("Less idle than plain 1F1B " + "; ".join(f for f in found if f)
             + " (less: the share ± its spread wholly below plain 1F1B's).")
    if idler:  # the other direction: a band wholly above plain 1F1B's
        text += " More idle than plain 1F1B (the share ± its spread wholly above it): " + "; ".join(idler) + "."
    if unresolved:
        text += (" Within what these rounds resolve (the two ± overlap, so neither less nor more idle is read): "
                 + "; ".join(unresolved) + ".")
    if not every:
        text += (" Two stages per worker did not shrink the measured bubble on every worker here"
                 + (", by more than these rounds resolve." if unresolved else "."))
    return text + " " + _beside_plain(rows, plain)


def baseline_gap(here: float, there: float) -> float:
    """How far apart two launches' one-device steps are, worked from their ms as every table prints them
    (``noise.ms_as_printed``: whole ms from 10 ms up) and rounded half up to whole percent: 679 and 669 ms are
    1.5% apart, printed 1%, the figure every reading then uses."""
    shown = ms_as_printed(there) or 0.1  # a step printed as 0.0 ms counts as its rounding step
    return half_up(abs(ms_as_printed(here) / shown - 1), 2)


WHY_CHEAPER = "a slower one-device step could make the stages' work read cheaper"


def baseline_note(here: float, there: float, batch: int) -> str:
    """The block's note on the two launches' one-device steps (``here``: this section's, ``there``: section
    5's, s): each section's speed-ups divide its own, so a speed-up carries their gap with its baseline
    alone, and a figure can move between launches by more than that: the visible line sets the rows
    beside plain 1F1B timed in this section's rounds (``_beside_plain``), not beside section 5's. Past 5 %
    (as printed) it adds that the gap may be why the stages' work reads cheaper."""
    gap = baseline_gap(here, there)
    said = (f"One device, batch {batch}: {ms_as_printed(here)} ms in this section's rounds, "
            f"{ms_as_printed(there)} ms in section 5's. Each section pairs its speed-ups with the "
            "one-device step of its own rounds, so ")
    beside = ("each row is read against its own bound, and beside plain 1F1B timed in this section's rounds, "
              "as the speed-ups' line above does, not beside section 5's speed-ups")
    if beside_line(gap, 0.05) != "above":  # as printed: "5%" is at the line
        # the 5% line: past it, the gap itself could be why the stages' work reads cheaper (said below)
        return said + f"the two are {gap:.0%} apart, not past 5% (the gap past which {WHY_CHEAPER}): {beside}."
    slower = ("; the stages' work below one device's here may be this slower one-device step rather than "
              "cheaper work") if here > there else ""
    return said + f"the two differ by {gap:.0%}: {beside}{slower}."


def _beside_plain(rows: list[Row], plain: Row) -> str:
    """Each speedup beside plain 1F1B's, timed in the same rounds against the same one-device step, read by the
    lesson's one rule for two figures of the same rounds (section 3's note; section 5's best beside its
    runner-up reads the same way, ``best.paired_lead``): each round's speedup over plain 1F1B's, their median ±
    their spread, faster or slower only where that keeps clear of 1, never two medians. Every figure as printed."""
    pv, pd = printed(plain)
    said = []
    for r in rows:  # each row's ± printed beside it, then its paired ratio: the reader checks both from the page
        v, d = printed(r)
        _, median, spread = paired_lead(r, plain)
        word = {"ahead": "faster", "behind": "slower", "not separated": "within noise of it"}[
            lead_word(median, spread)]
        said.append(f"{r.schedule} {v:.2f}x ± {d:.2f} (round by round {median:.2f} ± {spread:.2f} of it: {word})")
    return (f"Speedups beside plain 1F1B's {pv:.2f}x ± {pd:.2f}, timed in the same rounds against the same "
            f"one-device step ({ms_as_printed(plain.baseline)} ms): " + ", ".join(said) + ". Each is "
            "read round by round: its speedup over plain 1F1B's in the same round, the median of those ratios ± "
            "their spread; faster or slower only where that clears 1.")


def plain_in_section5(plain: Row, sweep: PipelineRun) -> str:
    """Plain 1F1B of section 9 beside the same configuration in section 5's sweep, another launch: both
    figures and whether they agree (``report.same_config_note``, the one noise rule across launches), or why
    no configuration ran twice (section 5 did not run this batch and m, or cut the model elsewhere)."""
    from utils.lessons.model_split.report import same_config_note  # here: report re-exports this module

    earlier = [r for r in sweep.rows if (r.batch, r.m, r.schedule, r.naive) == (plain.batch, plain.m, "1f1b", False)]
    where = f"plain 1F1B, batch {plain.batch}, m={plain.m}"
    if not earlier:
        return f"Section 5's sweep did not run {where}: no configuration ran in both launches."
    split = tuple(earlier[0].split_points or sweep.split_points)
    if tuple(plain.split_points or split) != split:
        return (f"Section 5's sweep ran {where} split {list(split)}, this section split "
                f"{list(plain.split_points)}: not the same configuration, so the two figures are not compared.")
    return same_config_note(earlier[0], plain, "section 5's sweep")


def _past_p_candidates(r: Row) -> str:
    """Where a median passes p, the two figures of the row that can give it (the next step for a learner, as
    section 5 reads them): work that was not equal (the stages' measured work against one device's) and the
    one-device step the speedup divides (to compare with an earlier section's)."""
    one = f"{ms_as_printed(r.baseline)} ms in this launch: set it beside section 5's"
    work = (f"the stages' measured work, {r.work_inflation:.2f}x one device's (under 1x: not equal work); "
            if r.work_inflation is not None else "")
    return f" Candidates, in the table of the block below: {work}the one-device step, {one}."


def p_at_this_m(r: Row) -> str:
    """A schedule whose bound reaches p, the number of devices, only as m grows (ZBV), measured at this m,
    against p by the figures as printed: past p (equal work on p devices cannot give it: a finding, which no
    reference explains), within noise of p, or short of p as its bound at this m is. The lesson's markdown
    says only what the bound does; what the measurement did at this m is this sentence, printed from the run."""
    value, spread = printed(r)
    p = r.devices
    said = (f"{r.schedule} at m={r.m} measured {value:.2f}x ± {spread:.2f}, beside its bound at this m, "
            f"{r.bound:.2f}x (p = {p}x is its bound only as m grows): ")
    if above_as_printed(r.speedup, p) and not median_past_devices(r):  # the spread covers p: noise (t34_02)
        return said + (f"within noise of p ({value:.2f}x ± {spread:.2f} covers {p}x): the median is no finding (the "
                       "table's verdict reads each round past p).")
    if above_as_printed(r.speedup, p):
        return said + (f"the median is past p = {p}x at this m, a figure {p} devices sharing equal work cannot "
                       "give: a finding to explain, which no reference explains (the table's verdict reads "
                       "it)." + _past_p_candidates(r))
    side = printed_side(r.speedups, p)  # every round on one side of p: not noise, as median_verdict reads it
    if side == "below":
        return said + f"short of p = {p}x in every round (up to {round_text(max(r.speedups))}x), as its bound is."
    if within_noise(value, spread, p) and side is None:
        return said + f"within noise of p ({value:.2f}x ± {spread:.2f} covers {p}x)."
    return said + f"short of p = {p}x at this m, as its bound is."
