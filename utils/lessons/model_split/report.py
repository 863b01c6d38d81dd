"""Tables, plots and plain-words readings of lesson 02's measurements (``notebooks/02_model_split.ipynb``).

    show(rows_table(run))     # step time, speedup against its bound, busy (and, on CPU workers, CPU) time
    explain_row(row)          # one line: how close to the bound, and what the measured work says about the gap
    show(verdict_table())     # every verdict explain_row can give, word for word, with its thresholds
    naive_reading(row, spans) # what the naive split's timeline and numbers say, in two sentences
    plot_speedups(run)        # measured speedup per m (min-max bars) beside 2m/(m+1), bubbles on top
    plot_schedule(spans)      # the measured Gantt chart, laid out tight

The figures as printed and the noise rule read on them (``printed``, ``noise_of_one``, ``reference_claim``,
``split_gain``, ...) live in ``noise.py``; they are re-exported here.
"""

from __future__ import annotations

import textwrap

from utils.claims import Claim, as_printed, percent, printed_ratio, runs_agree, speedup_verdict, within_noise
from utils.lessons.model_split.figures import plot_ideal, plot_schedule, plot_speedups  # noqa: F401 (re-exported)
from utils.lessons.model_split.link import (LINK_SMALL, at_price, link_cause, link_reading,  # noqa: F401
                                           planning_verdict, link_sources, link_table, link_time, lost_time,  # re-exported
                                           largest_share, price_table, probe_line, probe_price, probe_reading,
                                           reread_at_probe, step_share)
from utils.lessons.model_split.bounds import round_above, round_as_printed, round_digits, rounds_spread  # noqa: F401
from utils.lessons.model_split.noise import (above_as_printed, against_prediction, ms_as_printed,  # noqa: F401
                                            beside_line, median_past_devices, percent_as_printed,
                                            at_bound_in_noise, near_reference, noise_of_one, noise_of_reference,
                                            printed, reference_claim, reference_in_noise_of_one, reference_gain,
                                            under_work_reference, round_text, rounds_text, split_gain, medians_note,
                                            steps_note, row_label, speedups_apart)
from utils.lessons.model_split.reference import (EXPLAINED, naive_verdict,  # noqa: F401 (re-exported)
                                                process_reference_explains, process_reference_noise,
                                                process_reference_spread, within_process_reference)
from utils.lessons.model_split.rounds_above import (past_reach_words, rounds_above_bound,  # noqa: F401
                                                    rounds_in_noise, rounds_past_devices)  # re-exported
from utils.lessons.model_split.headline_cells import verdict_head, verdicts_note  # noqa: F401 (re-exported)
from utils.lessons.model_split.host import WHO_WAITED, load_note  # noqa: F401 (load_note re-exported)
from utils.lessons.model_split.runs import PipelineRun, Row
from utils.lessons.model_split.work_words import reference_reach
from utils.tables import Table

# explain_row's verdicts and thresholds (verdict_table shows them in words): in verdicts.py, re-exported
from utils.lessons.model_split.verdicts import (ABOVE, AT_THE_BOUND, CONTENDED, CONTENTION, EXTRA,  # noqa: F401
                                               EXTRA_WORK, GAP, IMBALANCE, LESS_WORK_CAUSE, LESS_WORK_VERDICT,
                                               NOISE, PAST_DEVICES, AT_DEVICES, PER_PROCESS, PREDICTED,
                                               SHORT_OF_BOUND, STAGES_EVEN, UNRESOLVED, WAITING, WAITING_OR_OFF, WITHIN_SPREAD,
                                               WITHIN_SPREAD_PAST, verdict_table)


def _work_name(r: Row) -> str:
    return "CPU" if r.cpu_workers else "device"


def config_name(r: Row) -> str:
    """"naive split", "gpipe m=4", "ZBV m=4": what a row ran."""
    return "naive split" if r.naive else f"{r.schedule} m={r.m}"


def headline_table(rows: list[Row], title: str | None = None) -> Table:
    """The answer of a sweep in six columns: each configuration's speedup over one device (median of every
    paired round, and their range) beside its bound and beside the bound scaled by the work its stages
    measured (``Row.work_bound``: the bound assumes the split does exactly one device's work), and the
    course's verdict against the bound (``claims.speedup_verdict``: a slowdown is never a share of it), its head
    only (``verdict_head``: the rest is the block's, ``headline_cells.verdicts_note``)."""
    out = []
    for r in rows:
        lo, hi = r.speedup_range
        wb = r.work_bound
        verdict = verdict_head(headline_verdict(r))
        out.append((r.batch, config_name(r), f"{r.speedup:.2f}x ({rounds_text(lo, hi)})", f"{r.bound:.2f}x",
                    f"{wb:.2f}x" if wb else "n/a", verdict))
    return Table(["batch", "schedule", "speedup (range)", "bound", "work-scaled reference", "verdict"], out,
                 title=title, wrap=48)


def rows_table(run: PipelineRun, title: str | None = None) -> Table:
    """Every measured row in full (the "How this was measured" block): step time, speedup against its bound
    and the work-scaled reference, each stage's busy wall time and, where the workers are CPU processes, its CPU
    time, the work against one device's, and every round's paired speedup, none left out.

    *busy ms* is the time inside a stage's forward and backward spans (CUDA events on a GPU). On CPU
    workers, *CPU ms* is its main thread's CPU time per step (waiting costs none, and neither do other
    programs' turns on the cores); *CPU/busy* near 100 % means the stage ran whenever it worked, far below,
    it waited for a core. *work vs 1 dev*: both stages' work (CPU time on CPU workers, device time on GPUs)
    over the one-device step's (*one device CPU ms*, or busy ms on GPUs), divided from the whole ms printed:
    above 1, the split adds work; below 1, less work than the one-device step (cheaper work in each process, or
    a slower one-device step: one run does not tell which).
    """
    cpu = any(r.cpu_workers for r in run.rows)
    splits = len({r.split_points for r in run.rows}) > 1  # name the split where the rows differ in it
    rows = []
    for r in run.rows:
        lo, hi = r.speedup_range
        work, wb = r.work_inflation, r.work_bound
        name = config_name(r) + (f", split {list(r.split_points)}" if splits and r.split_points else "")
        row = [r.batch, name, f"{r.seconds * 1e3:.0f}", f"{ms_as_printed(r.baseline)}",
               f"{r.speedup:.2f}x ({rounds_text(lo, hi)})", f"{r.bound:.2f}x", f"{wb:.2f}x" if wb else "",
               " / ".join(f"{b * 1e3:.0f}" for b in r.busy)]
        if cpu:
            row += [" / ".join(f"{c * 1e3:.0f}" for c in r.cpu), " / ".join(percent(f) for f in r.cpu_share)]
        one_work = f"{r.work_ms[1]:.0f}" if r.baseline_work else ""  # the work's denominator, printed
        rows.append(tuple(row + [one_work, f"{work:.2f}x" if work else "", every_round(r)]))
    columns = ["batch", "schedule", "step ms", "one device ms", "speedup (range)", "bound", "work-scaled reference",
               "busy ms per stage"] + (["CPU ms per stage", "CPU/busy"] if cpu else []) + [
        f"one device {'CPU' if cpu else 'busy'} ms", "work vs 1 dev", "every round (* above the devices' count)"]
    return Table(columns, rows, title=title)


def every_round(r: Row) -> str:
    """Every round's paired speedup in the order measured; a star marks a round above the number of devices,
    which equal work overlapped on that many devices cannot give (a finding: cheaper work, or a disturbed
    one-device step), reported and counted in the median like the others."""
    return " ".join(round_text(s) + ("*" if round_above(s, r.devices) else "") for s in r.speedups)


def _above_devices(r: Row) -> str:
    if not r.above_devices:
        return ""
    return (f"{len(r.above_devices)} of {len(r.speedups)} rounds above {r.devices}x (" +
            ", ".join(f"{round_text(s)}x" for s in r.above_devices) + "), kept in the median")


def cpu_busy_note(rows: list[Row]) -> str:
    """What this run's CPU/busy figures say (CPU workers only; "" elsewhere), both directions: below
    ``CONTENDED`` a stage waited for a core inside its passes (``host.WHO_WAITED``: its own gloo threads or other
    programs, which this run does not tell apart); above 100 % its thread's CPU time also covers
    what it ran outside the timed passes."""
    shares = [f for r in rows for f in r.cpu_share]
    if not shares:
        return ""
    low, high = min(shares), max(shares)
    # printed half up (claims.percent), the rounding percent_as_printed and beside_line judge them by
    text = f"CPU/busy ran from {percent(low)} to {percent(high)} over these rows."
    percents = [percent_as_printed(f) for f in shares]  # counted as printed: "100%" is not above 100 %
    if max(percents) > 100:
        above = sum(p > 100 for p in percents)
        text += (f" {above} of {len(shares)} stage figures are above 100 %: a stage's thread used more CPU time "
                 "than it spent inside its timed forward and backward passes, because its CPU time also covers "
                 "what it runs outside them (sends, receives and the schedule's bookkeeping between passes).")
    where = beside_line(low, CONTENDED)  # as printed: a lowest printed 80% is at the line, not below it
    if where == "below":
        text += f" Below {CONTENDED:.0%}, a stage waited for a core inside its passes (for {WHO_WAITED})."
    elif where == "at":
        text += f" The lowest is at the {CONTENDED:.0%} line, not below it: no stage shows waiting for a core."
    else:
        text += f" None is below {CONTENDED:.0%}: no stage shows waiting for a core."
    return text


def baseline_cpu_note(r: Row) -> str:
    """The one-device step's CPU time over its wall time (CPU workers), divided from the two medians the rows
    table prints beside it in whole ms ("one device CPU ms", "one device ms"), so that a reader redoes it from
    the page; judged against ``CONTENDED`` as printed (``beside_line``): at or above it, the step ran whenever
    it worked; below it, it waited for a core."""
    cpu, wall = as_printed(r.baseline_cpu, 0, 1e-3), as_printed(r.baseline, 0, 1e-3)
    share = printed_ratio(r.baseline_cpu, r.baseline, 0, 1e-3)
    said = (f"one device, batch {r.batch}: CPU time / wall time {cpu:.0f} / {wall:.0f} ms = {percent(share)} "
            f"(medians of {len(r.speedups)} rounds, as the table prints them)")
    if beside_line(share, CONTENDED) == "below":
        return said + f": below {CONTENDED:.0%}, it waited for a core"
    return said + f": not below {CONTENDED:.0%}, it ran whenever it worked"


def _gaps(r: Row, profile: float | None = None) -> list[str]:
    """What the measured work opened between this row's speedup and its bound. ``profile``: the profile's
    prediction for this row (section 7), where the page prints it beside the row: a median under the work's
    prediction but within noise of the profile's does not show waiting (``balance._measured_against_both``)."""
    gaps = []
    # as printed: a work printed 1.10x is not above 1.10x, whichever side of it the unrounded figure lies
    extra = r.work_inflation is not None and as_printed(r.work_inflation, 2) > EXTRA_WORK
    short = _short_of_bound(r, extra)
    if short and stage_imbalance(r) > STAGES_EVEN:  # tested first: an unbalanced split also adds work
        gaps.append(IMBALANCE)
    if extra or (short and stage_imbalance(r) <= STAGES_EVEN):  # even stages: only the work is left to blame
        gaps.append(EXTRA)
    if r.cpu_share and beside_line(min(r.cpu_share), CONTENDED) == "below":  # as printed
        gaps.append(CONTENTION)
    against = against_prediction(*printed(r), r.predicted) if r.predicted is not None else ""
    v, d = printed(r)
    if against == "below it" and CONTENTION not in gaps:  # the one noise rule: v + d under the work's P
        under = f"{v:.2f}x ± {d:.2f} under the work's {r.predicted:.2f}x"
        met = profile is not None and within_noise(v, d, as_printed(profile, 2))  # the profile's p, as printed
        gaps.append(f"{WAITING_OR_OFF}: {under}, within noise of the profile's {profile:.2f}x" if met else
                    f"{WAITING}: {under}")
    elif against == "within noise of it" and not gaps and as_printed(r.predicted, 2) < as_printed(r.bound, 2):
        gaps.append(f"{PREDICTED} ({r.predicted:.2f}x)")  # the work's own prediction is under the bound
    return gaps


def _short_of_bound(r: Row, extra: bool) -> bool:
    """The work predicts well short of the bound, and the extra work alone does not account for it (the
    prediction is short of the work-scaled reference too, bound / work)."""
    if r.predicted is None or not _below_share(r.predicted, SHORT_OF_BOUND, r.bound):
        return False
    return not extra or r.work_bound is None or _below_share(r.predicted, SHORT_OF_BOUND, r.work_bound)


def _below_share(value: float, share: float, of: float) -> bool:
    """``value`` below ``share`` of ``of``, both as printed (two decimals): the reader's own check (0.91x is
    not below 90% of 1.00x); 9 decimals wipe the float error of the product (0.9 * 1.1)."""
    return round(as_printed(value, 2) - share * as_printed(of, 2), 9) < 0


def stage_imbalance(r: Row) -> float:
    """The busiest stage's work over the stages' mean (1.00: balanced), from this row's measured work."""
    return max(r.work) / (sum(r.work) / len(r.work)) if r.work and sum(r.work) else 1.0


def row_verdict(r: Row, link: tuple[float, float] | None = None, profile: float | None = None) -> str:
    """The verdict alone: above, at or below the bound, and why (see ``verdict_table``). ``link``: the
    link's fitted (α, β), where a traffic reading (``link_reading``) is printed beside: its cause joins the
    gap's. ``profile``: the profile's prediction, where section 7 prints it beside the row (``_gaps``)."""
    lo = r.speedup_range[0]
    if above_as_printed(r.speedup, r.bound):
        if not headline_verdict(r).startswith("above the bound"):  # the spread covers the excess: noise
            return WITHIN_SPREAD_PAST if r.above_devices else WITHIN_SPREAD
        if above_as_printed(r.speedup, r.devices):  # past 2x: no reference may be read as explaining it
            return PAST_DEVICES if median_past_devices(r) else AT_DEVICES
        if process_reference_explains(r):
            return PER_PROCESS
        if within_work_reference(r) and r.process_bound is None:  # section 3 reads its per-process one alone
            return LESS_WORK_VERDICT
        return NOISE if lo <= r.bound else ABOVE
    if at_bound_in_noise(r):  # the one rule, as the headline's verdict and section 5's link reading read it
        return AT_THE_BOUND
    causes = _gaps(r, profile) + ([link_cause(r, *link)] if link and link_cause(r, *link) else [])
    return GAP + (", ".join(causes) or UNRESOLVED)


def explain_row(r: Row, link: tuple[float, float] | None = None, profile: float | None = None) -> str:
    """One line, from this row's numbers only: measured speedup, its range, the bound, the work the stages
    measured (CPU time on CPU workers, device time on GPUs), and the verdict. ``link``: the link's fitted
    (α, β) where the block prints a traffic reading of the same rows; ``profile``: the profile's prediction
    where section 7 prints it beside the row (``row_verdict``)."""
    lo, hi = r.speedup_range
    parts = [f"{r.speedup:.2f}x (every round: {rounds_text(lo, hi)}) against a {r.bound:.2f}x bound"]
    if r.above_devices:
        parts.append(_above_devices(r))
    same = r.prediction_is_reference  # one micro-batch: what the work predicts is the reference, said once
    if r.work_inflation is not None:
        parts.append(f"{_work_name(r)} work {r.work_inflation:.2f}x one device's, so the work-scaled reference is "
                     f"{r.work_bound:.2f}x" + (" (what that work predicts)" if same else ""))
    if r.predicted is not None and not same:
        parts.append(f"{_work_name(r)} times predict {r.predicted:.2f}x")
    if r.cpu_share:
        parts.append("CPU/busy " + " / ".join(percent(f) for f in r.cpu_share))
    return "; ".join(parts) + f" -> {reading(r, link, profile)}"


def within_work_reference(r: Row) -> bool:
    """Whether a speedup above its bound stays within the work-scaled reference (bound / work, above the bound
    when the split made the work cheaper), allowing the paired rounds' spread, as the bound itself does."""
    wb = r.work_bound
    return wb is not None and wb > r.bound and as_printed(r.speedup, 2) <= as_printed(wb, 2) + rounds_spread(r.speedups)


def headline_verdict(r: Row) -> str:
    """``median_verdict``, with the rounds above the bound counted whatever the median (section 3's rule):
    where the median is above the bound too, its verdict reads them with it, as the count says, except the
    rounds past the devices' count, which no reference explains (``_past_devices_apart``), and, under a median
    the work-scaled reference explains, a round past that reference + d too (``past_reach_words``)."""
    said = median_verdict(r)
    above = sum(round_above(s, r.bound) for s in r.speedups) - len(r.above_devices)  # 2x: never with the median
    counted = "rounds above the bound" in said or "(every round above" in said  # claims' verdict said them
    # "read with the median" only under an "above the bound" verdict; every other one reads them round by round
    if said.startswith("above the bound") and not counted and (above or r.above_devices):
        said += f"; {above} of {len(r.speedups)} rounds above the bound, read with the median" if above else ""
        # but not a round past what explains the median: the work-scaled reference + d (cell 15's round rule)
        past = past_reach_words(r) if above and "within the work-scaled reference" in said else ""
        said += (f", except {past}" if past else "") + _past_devices_apart(r, said)
    passed = past_work_reference(r) if r.process_bound is None else ""  # section 3 prints no work reference
    return f"{said}; {passed}" if passed else said


def _past_devices_apart(r: Row, said: str) -> str:
    """The rounds past the devices' count, kept out of the rounds "read with the median" (cell 15's rule 1: no
    reference explains them), each named once: " (1 more past 2x: named above)" where ``said`` names them
    already, else "; 2.01x past 2 devices' 2x: a finding to explain"; "" where none."""
    if not r.above_devices:
        return ""
    shown = [f"{round_text(s)}x" for s in r.above_devices]
    if all(x in said for x in shown):
        return f" ({len(shown)} more past {r.devices}x: named above)"
    return f"; {', '.join(shown)} past {r.devices} devices' {r.devices}x: " + (
        "a finding to explain" if len(shown) == 1 else "findings to explain")


def _passed(r: Row, reference: float, name: str, note: str = "", edge: float | None = None) -> str:
    """A median above a reference measured in the run (as printed), read by the noise rule: the median minus
    the rounds' spread at or under it (or under ``edge``, the most its figures' rounding allows) is within that
    spread; beyond it, a finding to explain. ``note``: what sets this figure apart from another printed beside
    it ("imbalance included, ...") or gives its edge."""
    value, spread = printed(r)
    said = f"above {name} ({reference:.2f}x{note})"
    if value - spread <= as_printed(max(reference, edge or reference), 2):
        return f"{said}, within the rounds' spread (± {spread:.2f})"
    return f"{said} by more than the rounds' spread (± {spread:.2f}): a finding to explain"


def past_work_reference(r: Row) -> str:
    """The headline's words on the work-scaled reference, for every verdict but "above the bound" (which reads
    the reference itself, ``median_verdict``): a median past the reference says by how much (``_passed``); one
    above the bound but at or under the reference is "within the work-scaled reference" (section 5's promise);
    one at or under the bound, faster than 1x but under the reference by more than d, the share of its gain
    (``noise.under_work_reference``, cell 15's rule, as the summary prints it). "" where none applies."""
    wb = r.work_bound
    if wb is None or median_verdict(r).startswith("above the bound"):
        return ""
    if not above_as_printed(r.speedup, r.bound) and (under := under_work_reference(r, wb)):
        return under
    value, spread = printed(r)
    if not above_as_printed(r.speedup, wb):
        if not above_as_printed(r.speedup, r.bound):
            return ""
        # cell 33's "within" covers any median above the bound up to the reference
        return f"within the work-scaled reference ({wb:.2f}x){_under_share(r)}"
    if above_as_printed(r.speedup, r.bound) and value - spread <= as_printed(wb, 2):  # cell 33's words, as printed
        return f"within the work-scaled reference ({wb:.2f}x) plus the rounds' spread (± {spread:.2f})"
    # a reference worked from whole-ms figures is known only to their rounding: past it only beyond that edge
    reach = reference_reach(r.bound, *r.work_ms)
    if reach is None:  # every median is within a reference its rounding cannot bound
        return _passed(r, wb, "its work-scaled reference", ", unbounded within its whole-ms work figures' rounding",
                       float("inf"))
    wider = as_printed(reach, 2) > as_printed(wb, 2)
    note = f", up to {reach:.2f}x within its whole-ms work figures' rounding" if wider else ""
    return _passed(r, wb, "its work-scaled reference", note, reach)


def past_prediction(r: Row) -> str:
    """Where a median passes what the stages' measured work predicts (``Row.predicted``, as printed), the line
    says so: a prediction, like the reference, may be passed; "" where it is not."""
    if r.predicted is None or not above_as_printed(r.speedup, r.predicted):
        return ""
    if r.prediction_is_reference and r.process_bound is None and past_work_reference(r):
        return ""  # the same figure as the work-scaled reference, which the headline's verdict already read
    # a second work-based figure beside the work-scaled reference: say why the two differ (t31_02), as
    # section 7's line does, so that two verdicts in one reading are not read as one figure's
    apart = (", imbalance included, unlike the work-scaled reference"
             if r.work_bound is not None and not r.prediction_is_reference else "")
    return _passed(r, r.predicted, "what the measured work predicts", apart)


def median_verdict(r: Row) -> str:
    """The verdict the headline table prints (``claims.speedup_verdict`` against the bound, the paired spread),
    on the figures as printed (two decimals), so that a table and the claims table give one share. Within noise
    is claims' one rule (``claims.within_noise``: the median ± the paired spread covers 1x), under every bound.
    Above the bound but within a reference measured here (per process, or scaled by the work), the reference
    explains it; rounds above the bound under a median below it are said by one rule (``rounds_above_bound``)."""
    spread = rounds_spread(r.speedups)
    said = speedup_verdict(as_printed(r.speedup, 2), as_printed(r.bound, 2), spread, slower="slower than one device",
                           rounds=r.speedups, shown=round_as_printed)  # rounds on one side of 1x, as printed: not noise
    naive = None if above_as_printed(r.speedup, r.devices) else naive_verdict(r)
    if naive:  # section 3's one verdict, against the one reference section 3 prints
        return naive
    if said.startswith(AT_BOUND_VERDICT) and not at_bound_in_noise(r):  # every round under the bound
        said = under_bound_verdict(r)
    if said.startswith("above the bound"):
        if above_as_printed(r.speedup, r.devices):  # before any reference: none explains a median past 2x
            return past_devices_verdict(r)
        if within_work_reference(r):
            return _work_reference_verdict(r, spread)
    # every verdict but "above the bound" reads its rounds above the bound one by one (section 3's rule)
    if said.startswith((AT_BOUND_VERDICT, "faster, under the bound", "within noise", "slower than one device")):
        rounds = rounds_above_bound(r) or rounds_in_noise(r)  # the second: a median above the bound, as printed
        said += "; " + rounds if rounds else ""
    return said


def under_bound_verdict(r: Row) -> str:
    """A median whose spread reaches the bound while every round lies under it: not noise around the bound
    (the one rule, ``at_bound_in_noise``), so under it, read by the share of its gain, as printed."""
    value, bound = as_printed(r.speedup, 2), as_printed(r.bound, 2)
    return (f"faster, under the bound: {percent((value - 1) / (bound - 1))} of its gain (every round below the "
            "bound: not noise around it)")


AT_BOUND_VERDICT = "at the bound (within noise)"  # claims.speedup_verdict's words for a median at its bound


def past_devices_verdict(r: Row) -> str:
    """A median above its bound and past the number of devices (2x on two), as printed: equal work overlapped
    on that many devices cannot give it, so no reference (per process, or scaled by the work) is read as
    explaining it, whatever the reference measured; the rounds past that count are listed. Where the rounds'
    spread covers 2x (``median_past_devices``), the median is at 2x within noise, and each round past 2x is
    still a finding by that alone (cell 15's rule 1)."""
    if not median_past_devices(r):
        value, spread = printed(r)
        rounds = rounds_past_devices(r)
        return (f"above the bound, at {r.devices} devices' {r.devices}x (within noise: {value:.2f}x ± {spread:.2f} "
                f"covers {r.devices}x), no reference read as explaining it" + (f"; {rounds}" if rounds else ""))
    past = ", ".join(f"{round_text(s)}x" for s in r.above_devices)
    rounds = f" ({len(r.above_devices)} of {len(r.speedups)} rounds past {r.devices}x: {past})" if past else ""
    return (f"above the bound, the median itself past {r.devices} devices' {r.devices}x: a finding to explain, "
            f"which no reference explains{rounds}")


def _under_share(r: Row) -> str:
    """Beside "within the work-scaled reference", the share of its gain where the median is under the reference
    by more than d, as printed: " (under it by more than d: 90% of its gain)", the figure the summary's row
    against that reference prints (``reference_claim``), in every verdict that says "within"; "" otherwise."""
    (value, spread), wb = printed(r), as_printed(r.work_bound, 2)
    if round(value + spread, 9) >= wb:
        return ""
    return f" (under it by more than d: {percent(reference_gain(r, wb))} of its gain)"


def _work_reference_verdict(r: Row, spread: float) -> str:
    """A median above the bound, within the work-scaled reference: explained by it, saying the rounds' spread
    where the median passes the reference itself, and the share of its gain where it is under it by more than d
    (``_under_share``); but rounds above the devices' count (2x on two devices, the hard limit of equal work)
    are not explained by it: counted, and left as a finding."""
    if r.above_devices:  # section 5's text says what such a round can be (cheaper work, a disturbed step)
        return (f"above the bound, within the work-scaled reference ({r.work_bound:.2f}x) in the median"
                f"{_under_share(r)}; {rounds_past_devices(r)}, not explained by the reference")
    if as_printed(r.speedup, 2) > as_printed(r.work_bound, 2):
        return (f"above the bound, within the work-scaled reference ({r.work_bound:.2f}x) plus the rounds' "
                f"spread (± {spread:.2f}): explained by the reference")
    return EXPLAINED.format("work-scaled reference") + _under_share(r)


def speedup_claim(claim: str, r: Row) -> Claim:
    """A claims-table row of a speedup against its bound, with the headline table's verdict (one rounding)."""
    spread = rounds_spread(r.speedups)
    noise = f" ± {spread:.2f}" if spread > 0 else ""
    return Claim(claim, f"{r.speedup:.2f}x{noise}", f"bound {r.bound:.2f}x", headline_verdict(r))


def reading(r: Row, link: tuple[float, float] | None = None, profile: float | None = None) -> str:
    """The headline's verdict, then what this row's numbers say about it (``row_verdict``): one row, one verdict;
    last, where the median passed what the measured work predicts, that too (``past_prediction``). Past its
    work-scaled reference, a finding: no ``WITHIN_SPREAD`` ("no cause to read") of the same excess beside it."""
    passed, verdict_head, said = past_prediction(r), headline_verdict(r), row_verdict(r, link, profile)
    found = r.process_bound is None and past_work_reference(r).endswith("a finding to explain")  # in the head
    said = "" if found and said == WITHIN_SPREAD else _not_repeated(verdict_head, said)
    head = verdict_head if not said else f"{verdict_head}; {said}"  # said once
    return head + (f"; {passed}" if passed else "")


def _not_repeated(head: str, said: str) -> str:
    """``row_verdict``'s words less what the headline's verdict beside them already says (one line, each
    reading once): "" for PAST_DEVICES, the cause alone after "within the work-scaled reference"."""
    if said in (PAST_DEVICES, AT_DEVICES):
        return ""
    if said == LESS_WORK_VERDICT and "within the work-scaled reference" in head:
        return LESS_WORK_CAUSE
    if said == ABOVE and "(every round above" in head:
        return "these numbers do not explain it"
    if said == AT_THE_BOUND and "rounds above the bound (up to" in head:
        return ""  # the rounds above the bound, read against the same spread, already read it
    return said


def verdict(r: Row) -> str:  # explain_row's last part: above the bound (and why), at it, or what opened the gap
    return row_verdict(r)


def say(text: str, width: int = 110) -> None:
    """Print a sentence of the run wrapped to the course's output width."""
    print(textwrap.fill(text, width))


def balance_reading(slow: Row, fast: Row, predicted: dict) -> tuple[str, str]:
    """Section 7's answer, from this run: each split's speedup against its own prediction from the profile
    (``predicted``: split points -> predicted speedup), then the balanced split's gain over the unbalanced one
    (``split_gain``) against the predicted ratio, each by claims' noise rule. A ratio that agrees can hide two
    speedups that both missed: the sentence says which. Returns ``(sentence, the claims table's verdict)``."""
    gain, spread = split_gain(slow, fast)
    g, d = as_printed(gain, 2), as_printed(spread, 2)
    ratio = as_printed(printed_ratio(predicted[fast.split_points], predicted[slow.split_points]), 2)  # as printed
    states, each = [], []
    for name, r in (("unbalanced", slow), ("balanced", fast)):
        (v, vd), p = printed(r), as_printed(predicted[r.split_points], 2)
        states.append(against_prediction(v, vd, p))
        each.append(f"the {name} split {list(r.split_points)} measured {v:.2f}x ± {vd:.2f} over one device "
                    f"({headline_verdict(r)}, bound {r.bound:.2f}x), predicted {p:.2f}x: "
                    f"{states[-1]}")
    shown = ("within noise of 1x: no gain shown" if within_noise(g, d, 1.0) else
             "slower than the unbalanced split: no gain" if g < 1 else "faster")
    on_ratio = against_prediction(g, d, ratio)
    text = (f"Against the profile's predictions: {each[0]}; {each[1]}. The balanced split ran {g:.2f}x "
            f"± {d:.2f} as fast as the unbalanced (median of {len(fast.speedups)} paired rounds"
            f"{speedups_apart(slow, fast)}): {shown}; the profile "
            f"predicted {ratio:.2f}x: {on_ratio}.")
    if on_ratio != "within noise of it":
        text += " The profile's prediction missed the ratio as measured."
    elif all(st == "within noise of it" for st in states):
        text += " The profile predicted each split's speedup and their ratio."
    elif states[0] == states[1]:
        paired = f"{g:.2f}x ± {d:.2f}"
        text += " " + _shares_beside_ratio(slow, fast, predicted, paired, states[0].removesuffix(" it"))
    else:
        text += " The ratio agrees with the profile's though the two splits' speedups do not both agree."
    short = {"within noise of it": "within noise", "below it": "below", "above it": "above"}
    verdict = (f"{shown}; {on_ratio.replace(' it', ' the prediction')}; each split against its own: "
               f"{printed(slow)[0]:.2f}x vs {predicted[slow.split_points]:.2f}x ({short[states[0]]}), "
               f"{printed(fast)[0]:.2f}x vs {predicted[fast.split_points]:.2f}x ({short[states[1]]})")
    return text, verdict


def _shares_beside_ratio(slow: Row, fast: Row, predicted: dict, gain: str, side: str) -> str:
    """Both splits off their own predictions on one side (``side``: "below" or "above"), the paired ratio
    (``gain``, as printed with its ±) within noise of the predicted one: by how much each missed (whole percent,
    half up), and that the ratio held on the paired figure alone. Never the two medians' division: they may come
    from different rounds (t39_02 #2). "Cancel" only where the two shares print equal; else the points between."""
    (vs, _), (vf, _) = printed(slow), printed(fast)
    ps, pf = as_printed(predicted[slow.split_points], 2), as_printed(predicted[fast.split_points], 2)
    shares = [percent(abs(vs / ps - 1)), percent(abs(vf / pf - 1))]  # as printed, half up
    points = abs(int(shares[0][:-1]) - int(shares[1][:-1]))  # from the two printed percents
    how = ("shares that cancel in the ratio" if not points else
           f"shares that differ by {points} point{'s' if points != 1 else ''}")
    return (f"Both splits ran {side} their own predictions, by {shares[0]} (unbalanced) and {shares[1]} "
            f"(balanced): {how}; the paired ratio ({gain}) is within noise of the predicted one, so the predicted "
            "ratio held though neither predicted speedup did.")


def same_config_note(first: Row, again: Row, where: str) -> str:
    """One configuration measured in two launches (``first`` in ``where``, ``again`` here), by the one noise
    rule: they agree where either median ± its paired spread covers the other's median; otherwise the ± of one
    launch understates how far the figure moves from launch to launch."""
    (v1, d1), (v2, d2) = printed(first), printed(again)
    split = f", split {list(again.split_points)}" if again.split_points else ""
    said = (f"The same configuration (batch {again.batch}, {config_name(again)}{split}) measured {v1:.2f}x ± "
            f"{d1:.2f} (rounds {rounds_text(*first.speedup_range)}) in {where} and {v2:.2f}x ± {d2:.2f} here: ")
    if runs_agree(v1, d1, v2, d2):
        return said + "within noise of each other."
    return (said + "outside each other's noise: the ± of one launch understates how far a figure moves between "
            "launches, so compare figures within one launch (as the lesson's tables do), not across launches.")


def references_past_devices(rows: list[Row], name=config_name) -> str:
    """Where a work-scaled reference passes the number of devices (2x on two), say so and why, from the rows'
    measured work; where none does, say that too. The reference is the bound over the stages' work: below one
    device's work it can pass 2x, which is work the split saved (each stage, in its own process, on its own
    part of the model), or a slow one-device step, never two devices giving more than 2x on equal work."""
    refs = [r for r in rows if r.work_bound]
    if not refs:
        return ""
    devices = refs[0].devices
    past = [r for r in refs if above_as_printed(r.work_bound, r.devices)]
    if not past:
        return (f"No work-scaled reference here passes {devices}x, the number of devices (the highest: "
                f"{max(r.work_bound for r in refs):.2f}x).")
    names = ", ".join(f"{name(r)} {r.work_bound:.2f}x ({_work_name(r)} work {r.work_inflation:.2f}x one device's)"
                      for r in past)
    one = len(past) == 1
    return (f"{'A' if one else len(past)} work-scaled reference{'' if one else 's'} pass{'es' if one else ''} "
            f"{devices}x, the number of devices: {names}. Two devices do not give more than {devices}x on equal "
            "work: a reference is the bound over the stages' measured work, and here the stages, each in its own "
            "process on its own part of the model, measured less work than one device's step on the whole (a "
            "smaller working set can run faster per sample, e.g. in the caches), or the one-device step ran slow "
            "in these rounds: this run does not tell which. The part of a speedup above "
            f"{devices}x would be work the split saved, not more overlap.")


# Section 3, the naive split: in naive.py, re-exported for the notebook (and read by the summary above).
from utils.lessons.model_split.naive import (  # noqa: E402, F401
    naive_headline, naive_reading, naive_process_reading, naive_rounds_table, same_step_note, launches_claim,
    naive_closing, launch_fields,
    _process_gain, _against_process_reference, _rest,
)

# Section 9, two stages per worker: in chunks.py, re-exported for the notebook.
from utils.lessons.model_split.chunks import (baseline_gap, baseline_note, bubble_answer,  # noqa: E402, F401
                                             idle_shares, measured_text, p_at_this_m, plain_in_section5,
                                             with_plain)
from utils.lessons.model_split.best import best_tie, best_tie_short  # noqa: E402, F401 (section 5's best and its tie)
