"""Scaling, measured: samples/s of the recipe with 1 and 2 workers against the bound (lesson 03, section 3).

Weak scaling: the same batch per worker, the same threads per worker (``Settings.threads``), so that one
worker alone does not get the cores two workers would share, and the same backend for both runs (the
2-worker plan's: gloo where two ranks share a GPU), so that the ratio compares workers, not backends. The
bound comes from ``plan.lesson_settings``: 2x with a device per worker; where two ranks share one GPU (or
one core) about 1x is an *expectation*, not a bound, and nothing is judged against it as if it were.

One timed window says little on a shared machine: a round times 1 and 2 workers back to back (the order
alternating from round to round), the speedup is each round's own ratio, and the lesson and the ``ddp``
benchmark both report the median ratio over ``ROUNDS`` rounds with the range over EVERY round: a round above
the bound is reported and counted like the others, a finding to explain, never left out (lesson 02 follows
the same rule). Beside the bound stands the work-scaled reference, the bound over the work measured per
sample (measured, so a reference, not a bound): where the workers are CPU processes, their CPU seconds per
sample with two workers against one's (``work_ratio``); two workers that spend 1.1x one worker's CPU per
sample (the all-reduce is CPU work too) have bound / 1.1 as their reference: what the bound allows once that
work is paid. Being measured, it is no ceiling: a round may pass it, and the verdict names every round that
does. Work at or below one worker's (0.99x) takes nothing from the bound, and adds no device to it either:
the reference is then the bound itself, never above it. The reference is worked from w as printed (two
decimals), so that the sum on the page checks.
"""

from __future__ import annotations

import json
import os
import statistics

from utils.claims import as_printed, half_up, printed_ratio
from utils.launch import launch
from utils.lessons.ddp.recipe import train
from utils.lessons.ddp.settings import Settings

WARMUP_STEPS, TIMED_STEPS, ROUNDS = 3, 12, 3  # the lesson's and the benchmark's: the same method, same figure


def measure(s: Settings, nprocs: int, backend: str | None = None, timeout: float = 300) -> dict:
    """One launch of ``train``: all workers' samples/s (one timed window after ``warmup_steps``) and their
    CPU seconds per sample over that window (summed over the workers; what the window cost in work)."""
    results = launch(train, s, nprocs=nprocs, backend=backend, timeout=timeout)
    samples = results[0]["samples_per_s"] * results[0].get("timed_s", 0.0)
    cpu = sum(r.get("cpu_s", 0.0) for r in results)
    return {"samples_per_s": results[0]["samples_per_s"], "cpu_per_sample": cpu / samples if samples else None}


def scaling(s: Settings, backend: str, bound: float, rounds: int = ROUNDS, timeout: float = 300,
            is_bound: bool = True) -> dict:
    """Samples/s with 1 and 2 workers on ``backend`` in ``rounds`` paired rounds, against ``bound``.

    Returns ``one``, ``two`` (median samples/s), ``ones``, ``twos`` (each round's), ``ratios`` (each round's
    2-worker over 1-worker), ``ratio`` (their median, every round counted), ``low``/``high`` (the range of
    every round), ``above`` (the rounds above the bound, as printed: reported, kept), ``work_ratio`` (CPU per sample
    with 2 workers over 1, median over rounds; None where not measured), ``work_bound`` (bound / work_ratio as
    printed, the bound itself where that is <= 1: the work-scaled reference, a measured figure, not a bound),
    ``bound``, ``is_bound`` (False: an expectation, where ranks share a device) and ``backend``.
    """
    one, two, work = [], [], []
    for k in range(rounds):
        order = (1, 2) if k % 2 == 0 else (2, 1)  # neither always runs first
        measured = {n: measure(s, n, backend, timeout) for n in order}
        one.append(measured[1]["samples_per_s"])
        two.append(measured[2]["samples_per_s"])
        if measured[1]["cpu_per_sample"] and measured[2]["cpu_per_sample"]:
            work.append(measured[2]["cpu_per_sample"] / measured[1]["cpu_per_sample"])
    # from the rates as the table prints them, rounded half up as a reader rounds (273 / 200 = 1.365 -> 1.37x;
    # ``:.2f`` alone prints the binary 1.36499... as 1.36x)
    ratios = [half_up(printed_ratio(b, a, 1), 2) for a, b in zip(one, two)]
    work_ratio = statistics.median(work) if work else None
    return {"one": statistics.median(one), "two": statistics.median(two), "ones": one, "twos": two,
            "ratios": ratios, "ratio": half_up(statistics.median(ratios), 2), "low": min(ratios), "high": max(ratios),
            "above": [r for r in ratios if as_printed(r, 2) > bound],  # as printed: a 2.00x round is not above 2x
            "work_ratios": work, "work_ratio": work_ratio, "work_bound": work_reference(bound, work_ratio),
            "bound": bound, "is_bound": is_bound, "backend": backend}


def work_reference(bound: float, work_ratio: float | None) -> float | None:
    """The work-scaled reference: ``bound`` over the work per sample ``work_ratio`` as printed (two decimals,
    so that "2x / 1.02 = 1.96x" checks on the page), never above the bound (less work adds no device).
    None where the work was not measured. A measured figure: a reference, which a round may pass."""
    return bound / max(as_printed(work_ratio, 2), 1.0) if work_ratio else None


def above_reference(r: dict) -> list[float]:
    """The rounds above the work-scaled reference, both as printed (two decimals): a reference is no ceiling,
    so a round may pass it; each such round is named, like a round above the bound. Empty where the reference
    is the bound itself (``above`` names those rounds) or was not measured."""
    ref = r.get("work_bound")
    if not ref or ref >= r["bound"]:
        return []
    return [x for x in r["ratios"] if as_printed(x, 2) > as_printed(ref, 2)]


def verdict(r: dict) -> str:
    """One line: the median speedup with the range of every round, against the bound (or the expectation)
    and the work-scaled reference (the bound over the work per sample, measured here), and the rounds above
    the bound, kept and named."""
    kind = "bound" if r.get("is_bound", True) else "expectation (ranks share a device: not a bound)"
    line = (f"median {r['ratio']:.2f}x over {len(r['ratios'])} paired rounds (every round {r['low']:.2f}-"
            f"{r['high']:.2f}x) against the {r['bound']:.2f}x {kind}")
    shown = as_printed(r["ratio"], 2)
    if r["bound"] > 1 and 1 < shown <= r["bound"]:  # the share of the gain, as the closing table says it
        line += f": {(shown - 1) / (r['bound'] - 1):.0%} of the gain it allows"
    if r.get("work_bound"):  # w: CPU seconds per sample, 2 workers over 1 (compute, copies and sums alike)
        w = as_printed(r["work_ratio"], 2)  # the reference is worked from this figure
        line += (f"; two workers spent {w:.2f}x one worker's CPU time per sample, so the work-scaled reference "
                 f"is {r['bound']:.2f}x / {w:.2f} = {r['work_bound']:.2f}x: what the bound allows once that extra "
                 "work is paid (measured, so a reference, not a ceiling: a round may pass it)" if w > 1 else
                 f"; two workers spent {w:.2f}x one worker's CPU time per sample: no more work than one worker's, "
                 "so the work takes nothing from the bound, and less work adds no device to it: the work-scaled "
                 f"reference is the bound itself, {r['work_bound']:.2f}x")
    line += _less_work_rounds(r)
    passed = above_reference(r)
    if passed:  # named like the rounds above the bound, in a reference's words
        line += (f"; above the {r['work_bound']:.2f}x reference: {_rounds_named(r['ratios'], passed)} (the "
                 "reference divides by the rounds' median work ratio, not by each round's own)")
    if r["above"]:
        line += f"; above the {r['bound']:.2f}x, kept in the median: {_rounds_named(r['ratios'], r['above'])}"
    return line


def _less_work_rounds(r: dict) -> str:
    """A clause for the rounds whose work per sample, 2 vs 1, prints under 1x: two workers spent less CPU per
    sample than one, which the all-reduce (work added, never removed) cannot explain, so that round's CPU
    time was disturbed (other load, a clock change). Against its own work ratio the reference is the bound
    itself; the clause says where that round lies against it, as printed. "" where no round is under 1x."""
    works = r.get("work_ratios") or []
    under = [k for k, w in enumerate(works) if as_printed(w, 2) < 1]
    if not under:
        return ""
    bound, kind = r["bound"], "bound" if r.get("is_bound", True) else "expectation"
    named = ", ".join(f"round {k + 1}: {works[k]:.2f}x work, {r['ratios'][k]:.2f}x speedup, "
                      + ("under" if as_printed(r["ratios"][k], 2) < bound else
                         "at" if as_printed(r["ratios"][k], 2) == bound else "above")
                      + f" the {bound:.2f}x {kind}" for k in under)
    return ("; a work ratio under 1x means two workers spent less CPU per sample than one, which the "
            "all-reduce's added work cannot explain: that round's CPU time was disturbed, and against its own "
            f"work ratio its reference is the {bound:.2f}x {kind} itself ({named})")


def _rounds_named(ratios: list[float], chosen: list[float]) -> str:
    """``2.00x (round 1), 1.98x (round 3)``: the chosen ratios with the round each came from."""
    return ", ".join(f"{x:.2f}x (round {ratios.index(x) + 1})" for x in chosen)


LOAD_LINE = 0.20  # the same two-worker setting, two runs of one notebook: further apart, the load changed
DIFFER_LINE = 0.10  # the same two runs: further apart, they differ (the load or not); lesson 03's text names both


def load_average() -> float | None:
    """The machine's load average over the last minute (runnable processes, ``os.getloadavg``), or None where
    the OS keeps none (Windows). Read after each of the two runs that lesson 03 sets side by side."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


def load_changed(two_workers: float, r: dict, setting_differs: str = "") -> bool:
    """True where section 2's two-worker run (``two_workers`` samples/s) and this section's rounds, the same
    setting (two workers, the same batch and threads each), ran more than ``LOAD_LINE`` apart (their median, as
    printed: whole samples/s) and section 2's rate lies outside every round's: on one machine, in one notebook,
    the machine's load changed between the two runs, and the rounds' ratio is not DDP's alone.
    ``setting_differs``: how section 2's run differed (deterministic kernels on a GPU): then never True."""
    if setting_differs:
        return False
    shown = as_printed(two_workers, 0)
    rounds = [as_printed(x, 1) for x in r.get("twos") or [r["two"]]]
    apart = off_one(against_table(two_workers, r["two"])) > LOAD_LINE
    return apart and not min(rounds) <= shown <= max(rounds)


def against_table(whole: float, tabled: float) -> float:
    """A section-2 figure, printed whole (253 samples/s), over this section's, printed as its table prints
    them (one decimal: 267.5): the ratio a reader works from the two figures the page shows, rounded half up
    to the two decimals it prints, as that reader rounds (the lines compare the figure printed)."""
    return half_up(as_printed(whole, 0) / (as_printed(tabled, 1) or 0.1), 2)


def off_one(ratio: float) -> float:
    """How far a printed ratio lies from 1x, as a reader subtracts it (0.95 -> 0.05, never the float's
    0.050000000000000044, which a 5% line would count as beyond)."""
    return half_up(abs(ratio - 1), 2)


def load_words(loads: tuple[float | None, float | None] | None, cores: int | None) -> str:
    """" (load average over the last minute: 1.2 after section 2's run, 5.3 after this section's rounds, on 2
    cores)"; "" where the OS keeps no load average. ``loads``: (after section 2, after section 3)."""
    if not loads or None in loads:
        return ""
    on = f", on {cores} cores" if cores else ""
    return (f" (load average over the last minute: {loads[0]:.1f} after section 2's run, {loads[1]:.1f} after "
            f"this section's rounds{on})")


def disturbed_note(two_workers: float, r: dict) -> str:
    """What the ledger and the closing table say where ``load_changed``: why the headline is not comparable."""
    return (f"not comparable: the same two-worker setting ran {two_workers:.0f} samples/s in section 2 and "
            f"{r['two']:.1f} in section 3, beyond the {LOAD_LINE:.0%} line: the machine's load changed; rerun")


def against_one_process(r: dict, two_workers: float, one_process: float, process_threads: str,
                        loads: tuple[float | None, float | None] | None = None, cores: int | None = None,
                        setting_differs: str = "") -> str:
    """Why section 2's ratio and this one differ, from the figures: section 2 divides its two-worker run
    (``two_workers`` samples/s) by ONE PROCESS given the whole global batch and ``process_threads``
    (``one_process`` samples/s); ``scaling`` divides by one worker with the same batch and threads as each of
    two. The line names which figures differ: the references (beyond 5%), the two-worker figures (beyond
    10%), both or neither; where the two-worker figures, one setting, differ beyond ``LOAD_LINE`` it says the
    machine's load changed (``loads``: the load average after each run) and the headline is not comparable,
    unless ``setting_differs`` names how section 2's run was another setting (then it says that instead).
    Lesson 03."""
    # from the samples/s the line prints (section 2's whole, this section's medians to one decimal, as its
    # table prints them), so that each ratio checks against its two figures
    earlier = half_up(printed_ratio(two_workers, one_process, 0), 2)  # 273 / 200 = 1.365: 1.37x, half up
    reference, runs = against_table(one_process, r["one"]), against_table(two_workers, r["two"])
    refs_differ, twos_differ = off_one(reference) > 0.05, off_one(runs) > DIFFER_LINE
    refs = (f"the references differ ({one_process:.0f} against {r['one']:.1f} samples/s: section 2's process ran "
            f"{reference:.2f}x one worker's rate)" if refs_differ else
            f"the references agree within 5% ({one_process:.0f} and {r['one']:.1f} samples/s: section 2's process "
            "ran at one worker's rate)")
    # between the two lines the pair differs (beyond ``DIFFER_LINE``), and only the cause (the load or not) is left open
    between = twos_differ and off_one(runs) <= LOAD_LINE
    twos = (f"the two-worker figures differ ({two_workers:.0f} against {r['two']:.1f} samples/s, {runs:.2f}x"
            + (f": beyond the {DIFFER_LINE:.0%} line for a difference, within the {LOAD_LINE:.0%} line for a change of load)"
               if between else ")")
            if twos_differ else
            f"the two-worker figures agree within {DIFFER_LINE:.0%} ({two_workers:.0f} and {r['two']:.1f} samples/s)")
    gap = ("both differ" if refs_differ and twos_differ else "the gap is the references'" if refs_differ else
           "the gap is the two-worker figures'" if twos_differ else "neither differs beyond those lines")
    line = (f"Section 2 measured {earlier:.2f}x, this section {r['ratio']:.2f}x. Section 2's reference was one "
            f"process with the whole global batch and {process_threads}: {one_process:.0f} samples/s; this "
            f"section's is one worker with one worker's batch and threads, as each of the two has: "
            f"{r['one']:.1f} samples/s (median). {refs[0].upper() + refs[1:]}, and {twos}: {gap}")
    if setting_differs and off_one(runs) > LOAD_LINE:  # not one setting: the load is not what it shows
        return line + (f" (the two-worker figures are {runs:.2f}x apart, but {setting_differs}: not one setting, "
                       "so not read as a change of the machine's load)")
    if load_changed(two_workers, r):  # one setting, one machine: only the load can move it that far
        return (line + f". The same two-worker setting ran {runs:.2f}x apart in two runs of this notebook, beyond "
                f"the {LOAD_LINE:.0%} line and outside every round's rate: the machine's load changed between "
                f"the runs{load_words(loads, cores)}, so this section's headline is not comparable (not DDP's "
                "cost alone): rerun on a quiet machine")
    if off_one(runs) > LOAD_LINE:  # that far apart, but the rounds themselves spread as far
        low, high = (min(r["twos"]), max(r["twos"])) if r.get("twos") else (r["two"], r["two"])
        return line + (f" (the two-worker figures are {runs:.2f}x apart, beyond the {LOAD_LINE:.0%} line, but "
                       f"section 2's lies inside the rounds' own range, {low:.1f}-{high:.1f} samples/s: the "
                       "rounds spread that far themselves)")
    if between and setting_differs:  # another setting: its rate says nothing of the load
        return line + f". Not one setting ({setting_differs}), so the difference is not read as the load's"
    if between:  # they differ; whether the load moved them is what one run cannot tell
        return line + (". Whether the machine's load moved section 2's figure is not told apart here: one run "
                       "of its own length against paired rounds")
    return line


def record_headline(r: dict, disturbed: str = "") -> None:
    """Lesson 03's headline, ``ddp_speedup``, to the ledger (lesson 09 and README read it). Where the machine's
    load changed between sections (``disturbed_note``), the record says so twice: in ``what`` (which a reader
    of the record sees) and in a field ``disturbed`` (the note; absent on an undisturbed run, since a re-run
    replaces the record), so that lesson 09 can tell the figure is not comparable. ``ledger.record`` takes
    no such field, so it is added to the record it wrote, written back whole as ``ledger.record`` does."""
    from utils import ledger

    what = "2 workers against 1, median of paired rounds" + (f"; {disturbed}" if disturbed else "")
    # the paired rounds' ratios go with it: lesson 09 gives data parallel the spread this lesson printed
    # and its work-scaled reference (the bound over the work each worker measured): lesson 09 reads make
    # bench's run against it by the share of it each reached
    ledger.record("ddp_speedup", r["ratio"], "x", bound=r["bound"], lesson="03", what=what,
                  rounds=r.get("ratios") or None, reference=r.get("work_bound"))
    if not disturbed:
        return
    file = ledger.path()
    kept = json.loads(file.read_text())
    kept["figures"]["ddp_speedup"]["disturbed"] = disturbed
    tmp = file.with_suffix(".tmp")
    tmp.write_text(json.dumps(kept, indent=1) + "\n")
    tmp.replace(file)  # atomic, as ledger.record writes: a reader never sees half a file
