"""Lab 08's printed sentences from the run: forward and backward's rate by the learner's reading of the profile
(``compute_sentence``) and the take-aways, once every check passed (``take_aways``). Split from ``checks``,
which re-exports both for the notebook."""

from __future__ import annotations

import os
import statistics
import textwrap

from utils import checks, claims
from utils.details import how_measured
from utils.labs.make_it_fast import script
from utils.labs.make_it_fast.checks import (ALL_REDUCES, SPEEDS, Diagnosis, launched, share_text,
                                            tokens_per_s, tokens_per_step)
from utils.labs.make_it_fast.prediction import prediction_miss, prediction_sentence, prediction_short
from utils.labs.make_it_fast.threads_cost import threads_sentence
from utils.labs.make_it_fast.threads_short import threads_verdict


def compute_sentence(diagnosis: Diagnosis, flops: float, peak) -> str:
    """Forward and backward's FLOP/s by the learner's reading, against the machine profile's peak (``peak``: a
    ``machine`` ceiling); a reading that is not done, not a number or not positive says so instead."""
    status, reading = diagnosis.yours
    value = reading.get("forward and backward") if status == "ok" and isinstance(reading, dict) else None
    if not isinstance(value, float):
        return "forward and backward against it: once exercise A is done"
    if not value > 0:
        return (f"forward and backward against it: your reading gives it {value:g} ms a step, and the region "
                "computes every step: exercise A's check says what is wrong")
    return textwrap.fill(f"forward and backward (its all-reduces included): {flops / 1e9:.2f} GFLOP in "
                         f"{value:.0f} ms a step = {rate_text(flops, value, peak)} of that peak", 110)


def printed_rate(flops: float, ms: float) -> float:
    """GFLOP/s worked from the FLOPs and the step as the take-aways print them (GFLOP to two decimals, ms to
    none: 10.70 GFLOP in 215 ms is 49.77 GFLOP/s), so that a reader who divides them finds the figure."""
    return claims.as_printed(flops, 2, 1e9) / (claims.as_printed(ms, 0) / 1e3)


def shown_rate(flops: float, ms: float) -> float:
    """The GFLOP/s the page prints: ``printed_rate`` to three significant figures, half up (6.56, 24.9, 125),
    so that the share of peak worked from it is the share a reader works from the GFLOP and the ms: 10.70
    GFLOP in 1632 ms is 6.56 GFLOP/s, 6.6% of a 99.1 peak, not 6.6 GFLOP/s and 6.7%."""
    return claims.as_printed_sig(printed_rate(flops, ms), 3)


def share_of_peak(flops: float, ms: float, peak) -> float:
    """The share of ``peak`` (a ``machine`` ceiling) that ``flops`` in ``ms`` reached, worked from the rate as
    printed (``shown_rate``) and the peak as printed (GFLOP/s to one decimal): 24.9 / 99.1 is 25.1%,
    wherever the page prints it, and not the 25.2% that the unrounded 24.94 gives. Cell 13 and the take-aways
    use it."""
    return shown_rate(flops, ms) / claims.as_printed(peak.best, 1, 1e9)


def rate_text(flops: float, ms: float, peak) -> str:
    """"24.9 GFLOP/s, 24.9 / 99.1 = 25.1%": the rate of ``flops`` in ``ms`` (three significant figures) and
    its share of ``peak``, with the route the share is worked by (``shown_rate``, ``share_of_peak``, half
    up). The route is printed because a rate rounded to three figures can give a share 0.1 point away from the
    one a reader works from the GFLOP and the ms (10.70 / 0.558 / 99.1 = 19.3%, 19.2 / 99.1 = 19.4%)."""
    rate = claims.sig_text(printed_rate(flops, ms), 3)
    best = claims.as_printed(peak.best, 1, 1e9)
    return f"{rate} GFLOP/s, {rate} / {best:.1f} = {share_text(share_of_peak(flops, ms, peak))}"


def measured_step(train_fn, runs: list[dict], steps: int = script.STEPS) -> tuple[float, str]:
    """Your script's step in ms and where it comes from: the speed check's median tokens/s when the speed check
    has run on ``train_fn`` (the figure it printed), else the first launch (``runs``), said as such, so that
    the take-aways never quote a second "measured" step beside the speed check's."""
    kept = SPEEDS.get((id(train_fn), steps))
    if kept is not None and kept[0] is train_fn:
        return 1e3 * tokens_per_step() / kept[1], "the speed check's median"
    return 1e3 * tokens_per_step() / tokens_per_s(runs), "its first run, not the speed check's median: no speed check has run"


def rates_sentence(flops: float, peak, slow_ms: float, fast_ms: float, source: str = "") -> str:
    """Both scripts' compute rate against the same ``peak`` (a ``machine`` ceiling): the slow script's
    forward and backward region (``slow_ms`` a step, under the profiler), and your script's whole step
    (``fast_ms``, no region timed alone: its rate is a floor on its forward and backward's; ``source``: where
    that step time comes from, in words). ``flops``: one worker's a step."""
    name = getattr(peak, "name", "peak")
    gflop = f"{flops / 1e9:.2f} GFLOP"
    return (f", forward and backward (its all-reduces included) ran {gflop} in {slow_ms:.0f} ms a step = "
            f"{rate_text(flops, slow_ms, peak)} of the machine profile's {name}; yours ran the same {gflop} a "
            f"worker in a whole step of {fast_ms:.0f} ms{f' ({source})' if source else ''} = "
            f"{rate_text(flops, fast_ms, peak)} of that peak (the whole step timed, so its compute ran at least "
            "that fast)")


def printed_share(reading: dict, *regions: str) -> float:
    """The share of the slow step that ``regions`` took together, worked as cell 11's table prints them (each
    region's ms to one decimal, the step to whole ms), so that a reader who divides the table's figures finds
    the take-away's."""
    step = claims.as_printed(reading["step"], 0) or 1.0
    return sum(claims.as_printed(reading[region], 1) for region in regions) / step


def rows_text(reading: dict, *regions: str) -> str:
    """Where a take-away's share comes from, in the table's printed ms: "637.2 + 5.6 = 642.8 ms of 1003", so
    that a reader redoes it from the ms. The rows' shares, each rounded in the table, may add up to 0.1 point
    more or less than the share of the summed ms: where they do, it says so, with their sum."""
    ms = [claims.as_printed(reading[region], 1) for region in regions]
    worked = " + ".join(f"{x:.1f}" for x in ms) + (f" = {sum(ms):.1f}" if len(ms) > 1 else "")
    text = f"{worked} ms of {claims.as_printed(reading['step'], 0):.0f}, the table's rows"
    rows = sum(claims.half_up(100 * printed_share(reading, region), 1) for region in regions)
    if f"{rows:.1f}%" != share_text(printed_share(reading, *regions)):
        text += f"; their shares in the table, each rounded apart, add to {rows:.1f}%"
    return text


def _bullets(diagnosis: Diagnosis, train_fn, flops: float | None, peak, predict) -> list[tuple[str, str]] | str:
    """The take-aways as (the working, the one sentence a learner keeps) pairs, in the page's order (what each
    cost the slow script, largest first; the prediction first, as it was made first); a message instead where a
    check of exercise B has not passed."""
    names = [v for k, v in checks.HISTORY.items() if k != "your reading of the profile"]
    if not names or not all(v.passed for v in names):
        return "Take-aways appear once every check passes (each states what this run measured)."
    ref, runs = diagnosis.reference, launched(train_fn)
    waits = {region: printed_share(ref, region) for region in ("evaluate", "checkpoint")}
    largest = max(waits, key=waits.get)
    threads = max(max(run["threads"] or [0]) for run in runs)
    calls = ref[ALL_REDUCES]
    compute = printed_share(ref, "forward and backward", "optimizer")  # each share from cell 11's printed ms
    load = printed_share(ref, "load")
    fast_ms, source = measured_step(train_fn, runs)  # one step time for every bullet: the speed check's median
    slow_ms = ref["forward and backward"]
    rate = rates_sentence(flops, peak, slow_ms, fast_ms, source) if flops and peak else ""
    rates = (f"; forward and backward ran at {share_text(share_of_peak(flops, slow_ms, peak))} of the "
             f"{getattr(peak, 'name', 'peak')}, yours at {share_text(share_of_peak(flops, fast_ms, peak))} or more "
             "(its whole step timed)" if flops and peak else "")
    miss = prediction_miss(predict, diagnosis, fast_ms) if predict is not None else None  # ms, as printed
    timed = threads_sentence(diagnosis.threads, slow_ms, miss, ref)  # alone, after it
    verdict = threads_verdict(diagnosis.threads, slow_ms, miss, ref)
    asked = (f"The slow script's workers asked for {os.cpu_count()} threads each (os.cpu_count() on this "
             f"machine), yours computed with {threads} each, on {runs[0]['cores']} cores.")
    # Each bullet states what this run measured, not why it cost what it did: the quiz asks the why.
    gradients = statistics.median(run["watch"]["allreduce_bytes"] / max(run["watch"]["optimizer_steps"], 1)
                                  / run["watch"]["gradient_bytes"] for run in runs)
    # twenty-seventh reading: the optimizer has no all-reduce, so the rows are named as the table names them
    took = f"Forward and backward (its all-reduces included) and the optimizer took {share_text(compute)}"
    costed = [  # (the slow script's share of a step it cost, the take-away, its one sentence)
        # the thread counts asked for are said once, in the short list above the working (thirty-fourth
        # reading: the same sentence twice); the working keeps the timing
        (compute, f"{took} of the slow script's step ({rows_text(ref, 'forward and backward', 'optimizer')}){rate}.\n"
                  + short_sentences(f"{timed[:1].upper()}{timed[1:]}."),
         f"{took} of the slow script's step{rates}.\n{asked} {verdict}."),
        (sum(waits.values()), f"Evaluating and saving took {share_text(sum(waits.values()))} of the slow "
                              f"script's step ({rows_text(ref, 'evaluate', 'checkpoint')}; the largest, "
                              f"{largest!r}, {share_text(waits[largest])}), a region's time including "
                              "everything it calls.",
         f"Evaluating and saving took {share_text(sum(waits.values()))} of the slow script's step "
         f"({largest!r} {share_text(waits[largest])})."),
        (load, f"Loading took {share_text(load)} of the slow step ({rows_text(ref, 'load')}). "
               f"{_synced_text(calls, gradients)}",
         f"Loading took {share_text(load)} of the slow step. {_synced_short(gradients)}"),
        (0.0, "The slow script reads the loss with .item() every micro-batch: on a CPU that waits for nothing; on "
              "a GPU (not measured in this run) each call copies the value to the host and so waits for the "
              "device's queue to drain (torch's documentation on synchronizing operations), so read it once a "
              "step there.",
         "On a GPU, read the loss once a step: each .item() waits for the device's queue to drain (not measured "
         "in this run; on a CPU it waits for nothing)."),
    ]
    bullets = [(full, short) for _, full, short in sorted(costed, key=lambda c: -c[0])]
    if predict is not None:  # the prediction first: it was made before the measurement
        bullets.insert(0, (prediction_sentence(predict, diagnosis, fast_ms, source),
                           prediction_short(predict, diagnosis, fast_ms)))
    return bullets


def _synced_text(calls: float, gradients: float) -> str:
    """Both scripts' all-reduces in one unit, one gradient's bytes a step (twenty-eighth reading: "7.67 times a
    step, yours 1x one gradient's bytes" set calls beside bytes, and read as a 7.67x cut): the slow script's by
    its code (no no_sync: every micro-batch's backward all-reduces the whole gradient, ``script.ACCUMULATE``
    a step), with its profile's count of calls, DDP's buckets, named as calls; yours as the check counted it."""
    return (f"The slow script all-reduced {script.ACCUMULATE}x one gradient's bytes a step (each of its "
            f"{script.ACCUMULATE} micro-batches' backward, no no_sync; its profile counted {calls:.3g} all-reduce "
            f"calls a step, the gradient's buckets, inside forward and backward); yours all-reduced "
            f"{gradients:.2g}x one gradient's bytes a step, as the check counted them.")


def _synced_short(gradients: float) -> str:
    """``_synced_text`` in one sentence: both in one gradient's bytes a step."""
    return (f"The slow script all-reduced {script.ACCUMULATE}x one gradient's bytes a step (every micro-batch), "
            f"yours {gradients:.2g}x.")


def _text(bullets: list[str]) -> str:
    return "\n".join(_wrapped(line) for b in bullets for line in b.split("\n"))


def take_aways(diagnosis: Diagnosis, train_fn, flops: float | None = None, peak=None, predict=None) -> str:
    """The lab's take-aways with their working, from this run, ordered by what each cost the slow script (its
    share of a profiled step, the check's reading): the slow script's profile and what the checks measured of
    ``train_fn``; ``flops`` and ``peak`` (a ``machine`` ceiling): forward and backward's FLOP/s against one
    core's peak; ``predict``: the learner's ``predicted_step_ms``, set first beside the step their script
    measured. Shown once every check of exercise B passed; ``show_take_aways`` shows them collapsed."""
    bullets = _bullets(diagnosis, train_fn, flops, peak, predict)
    return bullets if isinstance(bullets, str) else _text([full for full, _ in bullets])


def key_take_aways(diagnosis: Diagnosis, train_fn, flops: float | None = None, peak=None, predict=None) -> str:
    """``take_aways``' bullets, one sentence or two each: what a learner keeps (twenty-seventh reading: about
    thirty lines, the threads' point twice)."""
    bullets = _bullets(diagnosis, train_fn, flops, peak, predict)
    return bullets if isinstance(bullets, str) else _text([short for _, short in bullets])


def show_take_aways(diagnosis: Diagnosis, train_fn, flops: float | None = None, peak=None, predict=None) -> None:
    """Cell 33: the take-aways a learner keeps, then their working (``take_aways``) in a collapsed block."""
    print(key_take_aways(diagnosis, train_fn, flops, peak, predict))
    worked = take_aways(diagnosis, train_fn, flops, peak, predict)
    if worked.startswith("- "):  # every check passed: there is working to show
        how_measured("the take-aways, worked from this run's figures", worked)


def short_sentences(text: str) -> str:
    """A long take-away cut at its sentences: the first a bullet, each other a sub-bullet under it (marked
    with a leading space), so that no bullet runs to thirty lines (twentieth reading)."""
    first, *rest = text.split(". ")
    return "\n".join([first + ("." if rest else "")]
                     + [f" {s}{'' if s.endswith('.') else '.'}" for s in rest])


def _wrapped(line: str) -> str:
    """One bullet wrapped to 110 characters: "- " for a bullet, "  - " for a sub-bullet (a leading space)."""
    # never at a hyphen: "all-\nreduce" or "micro-\nbatch" reads as two words
    if line.startswith(" "):
        return textwrap.fill(line[1:], 110, initial_indent="  - ", subsequent_indent="    ", break_on_hyphens=False)
    return textwrap.fill(line, 110, initial_indent="- ", subsequent_indent="  ", break_on_hyphens=False)
