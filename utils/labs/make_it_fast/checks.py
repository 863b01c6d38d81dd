"""Checks for ``labs/08_make_it_fast.ipynb``: the learner reads a profile of the slow script, then makes the
script fast without changing what it computes.

    DIAGNOSIS = profile_slow(where_time_goes)       # rank 0 profiles the slow script; your reading of it
    check_diagnosis(DIAGNOSIS)                       # your reading equals the check's, on the same profile
    check_same_training(fast_train)                  # the losses of the reference plan, the held-out losses
    check_prediction(predicted_step_ms, DIAGNOSIS)   # the step a script needs, by the profile (prediction.py)
    check_fixes(fast_train)                          # the four below, in one call (the notebook's cell)
      check_communication(fast_train)                # one gradient all-reduced per optimizer step
      check_feeding(fast_train)                      # no window read by the training process itself
      check_threads(fast_train)                      # threads per worker x workers <= cores
      check_asked_for(fast_train)                    # evaluations and checkpoints as often as asked, no more
    check_speed(fast_train)                          # tokens/s >= SPEED_SHARE of the reference plan's, here
    check_clean_up(fast_train)                       # group destroyed, no process left

Every check measures what the learner's script did (counted in the worker processes), not its text. One
launch of ``fast_train`` serves every check but the speed check, which adds rounds against the reference.
"""

from __future__ import annotations

import gc
import math
import os
import statistics
import time
import traceback
from dataclasses import dataclass

import psutil
import torch
import torch.distributed as dist

from utils import checks, claims, devices
from utils.bench import alternate
from utils.checks import expect, run_check
from utils.labs.make_it_fast import script
from utils.labs.make_it_fast.own_work import is_the_reference  # noqa: F401 (the tests call it here)
from utils.labs.make_it_fast.threads_agree import profiler_words
from utils.labs.make_it_fast.threads_cost import profiled_then_timed
from utils.launch import launch
from utils.lessons.why_slow.profile import without_profiler_notices
from utils.tables import Table

BANK = "labs/make_it_fast"  # hints: utils/labs/make_it_fast/hints.toml
WORLD = 2
REGIONS = ("step", "load", "forward and backward", "optimizer", "evaluate", "checkpoint")
ALL_REDUCES = "all-reduces"  # all-reduce calls per step, the last entry of a reading of the profile
PROFILE_STEPS = 3
SPEED_SHARE = 0.8  # the learner's tokens/s must reach 80 % of the reference plan's, measured in the same run
EXTRA_ROUNDS = 2  # more paired rounds before a speed check that falls short gives its verdict
LAUNCH_TIMEOUT_S = 180
_LAUNCHES: dict[tuple, tuple] = {}  # (id(train_fn), steps) -> (train_fn, outcome)
_REFERENCE: dict[int, list] = {}  # steps -> the reference plan's watched runs, in order
SPEEDS: dict[tuple, tuple] = {}  # (id(train_fn), steps) -> (train_fn, the speed check's median tokens/s)


def _reference_plan():
    """The reference plan's training function, imported where a check launches it: this module (the lab's
    ``lab``) does not hold it, so that nothing the lab imports leads a learner to the answer."""
    from utils.labs.make_it_fast.reference import reference_train

    return reference_train


def tokens_per_step() -> int:
    """Tokens one optimizer step trains on, over both workers."""
    return WORLD * script.ACCUMULATE * script.MICRO_BATCH * script.CONTEXT


# --- Exercise A: the profile and its reading -----------------------------------------------------------


def _reading_of(prof, steps: int) -> dict[str, float]:
    """The check's own reading of a profile: each region's total time a step in ms (what it calls included),
    and the all-reduce calls a step (gloo's or NCCL's)."""
    reading = {region: 0.0 for region in REGIONS}
    calls = 0
    for event in prof.key_averages():
        if event.key in reading:
            reading[event.key] = event.cpu_time_total / 1e3 / steps  # µs in all steps -> ms a step
        elif event.key.endswith("all_reduce"):
            calls += event.count
    reading[ALL_REDUCES] = calls / steps
    return reading


def _as_plain(reading) -> dict:
    """The learner's reading as plain floats (it may hold tensors or numpy numbers), to cross processes."""
    if not isinstance(reading, dict):
        return {"__type__": type(reading).__name__}
    return {str(k): float(v) if isinstance(v, (int, float)) or hasattr(v, "__float__") else repr(v)
            for k, v in reading.items()}


def _profiled_slow(steps: int, readers: tuple) -> dict:
    """A worker: the slow script, profiled on rank 0, and each reader's reading of that one profile."""
    if os.environ.get("RANK") != "0":
        script.slow_train(steps)
        return {}
    activities = [torch.profiler.ProfilerActivity.CPU]
    if torch.cuda.is_available() and os.environ.get("TWOGPU_DEVICE", "").startswith("cuda"):
        activities.append(torch.profiler.ProfilerActivity.CUDA)
    with without_profiler_notices(), torch.profiler.profile(activities=activities) as prof:
        script.slow_train(steps)  # kineto's start and stop notices are left out of the cell's output
    readings = []
    for read in readers:
        try:
            readings.append(("ok", _as_plain(read(prof, steps))))
        except NotImplementedError as exc:
            readings.append(("not done", str(exc)))
        except Exception as exc:  # noqa: BLE001 - the learner's error becomes the check's feedback
            readings.append(("error", f"{type(exc).__name__}: {exc} ({traceback.format_exc(limit=-1).strip()})"))
    return {"reference": _reading_of(prof, steps), "readings": readings}


@dataclass
class Diagnosis:
    """The slow script's profile read twice on rank 0: by the check (``reference``) and by the learner."""

    steps: int
    reference: dict[str, float]
    readings: list[tuple[str, object]]  # one (status, reading or message) per reader
    threads: dict | None = None  # the slow script's forward and backward at two thread counts (threads_cost)

    @property
    def yours(self) -> tuple[str, object]:
        return self.readings[0]

    @property
    def slow_tokens_per_s(self) -> float:
        """The slow script's speed under the profiler (slightly slower than without it), worked from its step
        as the page prints it (whole ms), so that a reader who divides the tokens by that step finds it."""
        return tokens_per_step() / (claims.as_printed(self.reference["step"], 0) / 1e3)

    @property
    def profiler_words(self) -> str:
        """", which slowed it here" after "under the profiler" where this run saw it (``threads_agree``)."""
        return _profiler_words(self)


def profile_slow(*readers, steps: int = PROFILE_STEPS) -> Diagnosis:
    """Launch the slow script on two workers for ``steps`` steps, rank 0 under ``torch.profiler``; each
    ``reader(prof, steps)`` reads that profile there (the learner's ``where_time_goes``)."""
    worker = (profiled_then_timed, _profiled_slow)  # the profile, then its threads timed on the same workers
    outcome = launch(*worker, steps, readers, nprocs=WORLD, timeout=LAUNCH_TIMEOUT_S)[0]
    return Diagnosis(steps, outcome["reference"], outcome["readings"], outcome.get("threads"))


def _close(value: float, target: float, rel: float = 0.02, abs_tol: float = 0.05) -> bool:
    return abs(value - target) <= rel * abs(target) + abs_tol


def _why_different(region: str, value: float, target: float, steps: int) -> str:
    """What a reading that differs from the check's most likely did, from the size of the difference."""
    said = f"your {region!r} ({value:.4g}) differs from the check's reading of the same profile"  # no target
    if _close(value, target * steps):
        return f"{said}: that is the total over the {steps} profiled steps; the table asks for one step's share"
    if _close(value, target / 1e3, abs_tol=1e-4):
        return (f"{said}: that looks like seconds (the table asks for milliseconds), or like the region's self "
                "time: a region's time includes everything it calls (the profiler's total time, not its self time)")
    if _close(value, target * 1e3, abs_tol=1.0):
        return f"{said}: that looks like microseconds (the profiler's unit); the table asks for milliseconds"
    if value < target:
        return (f"{said}: it is less than the region's time. A region's time includes everything it calls "
                "(the profiler's total time, not its self time)")
    return (f"{said}: it is more than the region's time. Read the region's own row (its name as the script "
            "records it), the total time over the profiled steps, divided by the steps")


def check_diagnosis(diagnosis: Diagnosis, show: bool = True) -> checks.Verdict:
    """Exercise A: the learner's reading of the slow script's profile equals the check's, region by region."""

    def body():
        status, reading = diagnosis.yours
        if status == "not done":
            raise NotImplementedError(reading)
        expect(status == "ok", f"where_time_goes raised {reading}")
        expect("__type__" not in reading, f"where_time_goes returned {reading.get('__type__')}; return a dict "
                                          "{region: ms a step, ..., 'all-reduces': calls a step}")
        missing = [k for k in (*REGIONS, ALL_REDUCES) if k not in reading]
        expect(not missing, f"your reading lacks {missing}; it needs every region of the script and "
                            f"{ALL_REDUCES!r}")
        for region in REGIONS:
            value, target = reading[region], diagnosis.reference[region]
            expect(isinstance(value, float), f"your {region!r} is {value}, not a number")
            expect(_close(value, target), _why_different(region, value, target, diagnosis.steps))
        calls, target = reading[ALL_REDUCES], diagnosis.reference[ALL_REDUCES]
        if calls == target * diagnosis.steps and target:
            expect(False, f"your {ALL_REDUCES!r} is {calls:g}: all the profiled steps' calls; the table asks "
                          "for calls a step")
        if calls == 2 * target and target:
            expect(False, f"your {ALL_REDUCES!r} ({calls:.3g}) counts each call twice: each call appears "
                          "twice in a profile, once as torch's dispatcher op (c10d::allreduce_) and once as the "
                          "communication library's (gloo:all_reduce or nccl:all_reduce): one call, two events. "
                          "What does the table ask you to count?")
        expect(abs(calls - target) < 1e-6, f"your {ALL_REDUCES!r} ({calls:g} a step) is not what the profile "
                                           "recorded: count every all-reduce call the profile recorded (the "
                                           "communication library names them), divided by the steps")
        return (f"your reading equals the check's on the same profile ({diagnosis.steps} steps): a step "
                f"{diagnosis.reference['step']:.0f} ms, {calls:.3g} all-reduce calls a step")

    return run_check("your reading of the profile", body, show=show, hint=checks.stub_message(BANK, "A"))


def diagnosis_table(diagnosis: Diagnosis) -> Table | str:
    """The learner's reading as a narrow table: region, ms a step, share of the step."""
    status, reading = diagnosis.yours
    if status != "ok" or not all(isinstance(reading.get(k), float) for k in (*REGIONS, ALL_REDUCES)):
        return "⏳ your reading (exercise A) is not done yet: the table appears once it is"
    step = reading["step"] or float("nan")
    shown_step = claims.as_printed(step, 0) or 1.0   # the step as the title prints it (whole ms)
    rows = [(region, f"{reading[region]:.1f}", share_text(claims.as_printed(reading[region], 1) / shown_step))
            for region in REGIONS[1:]]   # each share from the two figures as printed
    return Table(["region (rank 0)", "ms a step", "share of the step"], rows,
                 title=f"The slow script on rank 0 (your reading of its profile): {step:.0f} ms a step, "
                       f"{reading[ALL_REDUCES]:.3g} all-reduce calls a step")


def _profiler_words(diagnosis) -> str:
    """", which slowed it here" where this run timed the slow script alone faster than under the profiler
    (``threads_agree``), else "": a diagnosis without those figures says nothing."""
    reference = getattr(diagnosis, "reference", None) or {}
    return profiler_words(getattr(diagnosis, "threads", None), reference.get("forward and backward", 0.0))


def share_text(share: float) -> str:
    """A share to one decimal, rounded half up (63.45% -> "63.5%"): whole percents of rows do not add up."""
    return f"{claims.half_up(100 * share, 1):.1f}%"


def show_target(diagnosis: Diagnosis, steps: int = script.STEPS) -> None:
    """Before exercise B: the slow script's speed, the reference plan's (the speed check's round 1), 80 % of it."""
    reference = tokens_per_s(reference_runs(steps)[0])
    slow = diagnosis.slow_tokens_per_s
    times = claims.printed_ratio(reference, slow, 0)  # from the two tokens/s as printed (whole tokens)
    target = claims.half_up(SPEED_SHARE * round(reference), 0)  # 80 % of the figure as printed, half up
    # "less against ..." only where this run saw the profiler slow it (thirty-sixth reading: it timed it faster)
    less = " (less against the slow script run\nwithout the profiler)" if _profiler_words(diagnosis) else ""
    print(f"the slow script: {slow:,.0f} tokens/s (timed under the profiler{_profiler_words(diagnosis)});\n"
          f"the reference plan, run now: {reference:,.0f} tokens/s, {times:.1f}x that{less};\n"
          f"your target: at least {SPEED_SHARE:.0%} of the reference plan's, "
          f"about {target:,.0f} tokens/s\n(the speed check counts this run as its first round and times more; it "
          "judges the median\nof the paired rounds' ratios, so its reference figure moves with them);\n"
          f"measured on {devices.plan(WORLD).label}")


# --- Exercise B: the learner's fast script, launched and watched -------------------------------------------


def _watched(train_fn, steps: int) -> dict:
    """A worker: ``train_fn(steps)`` watched. What it all-reduced and stepped (``DistributedWatch``), how often
    it called the lab's pieces in this process, the time and thread count at each optimizer step, what it left
    initialised or running when it returned."""
    from torch.optim.optimizer import register_optimizer_step_post_hook, register_optimizer_step_pre_hook

    script.reset_counts()
    stamps, threads, gradients, weights = [], [], [], []

    def before_step(optimizer, *_):  # the gradient the step applies: its norm, measured on the model
        gradients.append(_norm(p.grad for g in optimizer.param_groups for p in g["params"] if p.grad is not None))

    def on_step(optimizer, *_):
        stamps.append(time.perf_counter())
        threads.append(torch.get_num_threads())
        script.note_optimizer_step()  # so that an evaluation or a save knows which step it follows
        weights.append(_norm(p for g in optimizer.param_groups for p in g["params"]))

    handles = [register_optimizer_step_pre_hook(before_step), register_optimizer_step_post_hook(on_step)]
    try:
        with checks.DistributedWatch() as watch:
            result = train_fn(steps)
    finally:
        for handle in handles:
            handle.remove()
    gc.collect()  # what the function no longer references is freed now (a loader's workers are joined)
    left = [p.pid for p in psutil.Process().children(recursive=True) if p.is_running()
            and p.status() != psutil.STATUS_ZOMBIE]
    return {"result": result, "watch": watch.report(), "counts": script.counts(), "stamps": stamps,
            "threads": threads, "group_left_open": dist.is_initialized(), "children_left": left,
            "cores": devices.cpu_cores(), "gradient_norms": gradients, "weight_norms": weights,
            "after_steps": script.calls_after_steps()}


@torch.no_grad()
def _norm(tensors) -> float:
    """The 2-norm of several tensors taken as one vector (a gradient's or the weights' size), in float64."""
    return math.sqrt(sum(t.detach().double().pow(2).sum().item() for t in tensors))


def _launch_watched(train_fn, steps: int) -> list[dict]:
    return launch(_watched, train_fn, steps, nprocs=WORLD, timeout=LAUNCH_TIMEOUT_S)


def launched(train_fn, steps: int = script.STEPS) -> list[dict]:
    """The learner's function on two workers, launched once per function object (the checks share it)."""
    expect(not is_the_reference(train_fn), "your fast_train is, or calls, the checks' reference plan: the lab "
                                           "asks for your own script, the slow script made fast")
    key = (id(train_fn), steps)
    if key not in _LAUNCHES or _LAUNCHES[key][0] is not train_fn:
        try:
            outcome = _launch_watched(train_fn, steps)
        except Exception as exc:  # noqa: BLE001 - kept, so that each check reports it ("not done yet")
            outcome = exc
        _LAUNCHES[key] = (train_fn, outcome)
    outcome = _LAUNCHES[key][1]
    if isinstance(outcome, Exception):
        raise outcome
    for rank, run in enumerate(outcome):
        r = run["result"]
        expect(isinstance(r, dict) and {"losses", "held_out"} <= set(r),
               f"rank {rank} returned {type(r).__name__}; return {{'losses': [...], 'held_out': {{step: loss}}}} "
               "as the slow script does")
        expect(hasattr(r["losses"], "__len__") and isinstance(r["held_out"], dict),
               f"rank {rank} returned losses as {type(r['losses']).__name__} and held_out as "
               f"{type(r['held_out']).__name__}: a list of numbers and a dict {{step: loss}}, as the slow script")
        expect(len(r["losses"]) == steps, f"rank {rank} reported {len(r['losses'])} losses for {steps} steps")
    return outcome


def reference_runs(steps: int = script.STEPS, count: int = 1) -> list[dict]:
    """The reference plan's watched runs (at least ``count``), launched as they are first needed."""
    runs = _REFERENCE.setdefault(steps, [])
    while len(runs) < count:
        runs.append(_launch_watched(_reference_plan(), steps))
    return runs


def tokens_per_s(runs: list[dict]) -> float:
    """Rank 0's tokens/s over both workers, from the optimizer steps' times: from the end of the first step
    to the end of the last (the first pays for starting: the loader's processes, DDP's buckets)."""
    stamps = runs[0]["stamps"]
    times = f"{len(stamps)} time{'s' if len(stamps) != 1 else ''}"
    expect(len(stamps) >= 2, f"the optimizer stepped {times} on rank 0; the speed needs 2 or more")
    return (len(stamps) - 1) * tokens_per_step() / (stamps[-1] - stamps[0])


def _mean_losses(runs: list[dict]) -> torch.Tensor:
    return torch.tensor([sum(step) / len(runs) for step in zip(*(r["result"]["losses"] for r in runs))])


def tolerance() -> float:
    """Losses agree to 1e-4 on CPU workers (the same arithmetic, other thread counts); 1e-3 on GPUs."""
    return 1e-4 if devices.plan(WORLD).simulated else 1e-3


def _due(every: int, steps: int) -> list[int]:
    return [s for s in range(1, steps + 1) if s % every == 0]


def check_same_training(train_fn, steps: int = script.STEPS, show: bool = True) -> checks.Verdict:
    """The fast script computes what the slow one does: the reference plan's loss at every step (the mean over
    the ranks), and the held-out losses the specification asks for, at the steps it names."""

    def body():
        runs, ref = launched(train_fn, steps), reference_runs(steps)[0]
        mine, theirs = _mean_losses(runs), _mean_losses(ref)
        gap = checks.expect_close(mine, theirs, atol=tolerance(),
                                  what="the mean of the ranks' losses at each step, against the reference plan's")
        due = _due(script.EVAL_EVERY, steps)
        held_out = {int(k): float(v) for k, v in runs[0]["result"]["held_out"].items()}
        expect(sorted(held_out) == due, f"rank 0 reported held-out losses after steps {sorted(held_out)}; the "
                                        f"specification asks for steps {due}")
        ref_held = ref[0]["result"]["held_out"]
        checks.expect_close(torch.tensor([held_out[s] for s in due]), torch.tensor([ref_held[s] for s in due]),
                            atol=tolerance(), what="the held-out losses")
        _expect_same_steps(runs, ref)
        return (f"the loss at step {steps} is {mine[-1]:.4f}, the reference plan's {theirs[-1]:.4f} "
                f"({'equal at every step' if gap == 0 else f'every step within {gap:.1g}'}); held-out losses after "
                f"steps {due}")

    return run_check("the same training", body, show=show, hint=checks.stub_message(BANK, "B"))


def _expect_same_steps(runs: list[dict], ref: list[dict]) -> None:
    """Measured on the model, not taken from what the script returns: the gradient each optimizer step applies
    and the weights after it, against the reference plan's. AdamW divides a gradient by its own size, so a loss
    cannot tell a gradient scaled by a constant from the right one; its norm can."""
    rel = 10 * tolerance()
    for rank, (run, theirs) in enumerate(zip(runs, ref)):
        mine, want = run["gradient_norms"], theirs["gradient_norms"]
        expect(len(mine) == len(want), f"rank {rank}'s optimizer stepped {len(mine)} times in {len(want)} steps")
        for step, (g, w) in enumerate(zip(mine, want), start=1):
            if abs(g - w) <= rel * w:
                continue
            factor, why = g / w, ""
            if abs(factor - script.ACCUMULATE) < 0.05 * script.ACCUMULATE:
                why = (f": about {script.ACCUMULATE}x, the number of micro-batches a step. The gradient of a step is "
                       "the gradient of the mean loss over its micro-batches")
            elif abs(factor - WORLD) < 0.05 * WORLD:
                why = f": about {WORLD}x, the number of ranks. DDP already averages the ranks' gradients"
            expect(False, f"rank {rank}'s step {step} applied a gradient {factor:.3g}x the reference plan's{why}. "
                          "The losses can look right anyway: AdamW divides a gradient by its own size")
        for step, (p, w) in enumerate(zip(run["weight_norms"], theirs["weight_norms"]), start=1):
            expect(abs(p - w) <= rel * w, f"rank {rank}'s weights after step {step} differ from the reference "
                                          "plan's (measured on the model): the training itself differs")


def check_communication(train_fn, steps: int = script.STEPS, show: bool = True) -> checks.Verdict:
    """One gradient all-reduced per optimizer step, on every rank (counted by a hook on the DDP model)."""

    def body():
        reports = [run["watch"] for run in launched(train_fn, steps)]
        checks.expect_wrapped_in_ddp(reports)
        for rank, report in enumerate(reports):
            per_step = report["allreduce_bytes"] / max(report["optimizer_steps"], 1)
            times = per_step / report["gradient_bytes"]
            expect(times <= 1.0, f"rank {rank} all-reduced {times:.3g}x one gradient a step "
                                 f"({per_step / 1e6:.2f} MB): the {script.ACCUMULATE} micro-batches of a step "
                                 "each synchronised; only the last one needs to")
            expect(times >= 1.0, f"rank {rank} all-reduced {times:.3g}x one gradient a step: some steps applied "
                                 "gradients that were never averaged across the ranks")
        gradient = reports[0]["gradient_bytes"]
        return (f"one gradient ({gradient / 1e6:.2f} MB) a step on each rank, {script.ACCUMULATE}x less than "
                "synchronising every micro-batch")

    return run_check("communication", body, show=show, hint=checks.stub_message(BANK, "B"))


def check_feeding(train_fn, steps: int = script.STEPS, show: bool = True) -> checks.Verdict:
    """The training processes never wait for storage: every window is read by a loader process, never by the
    training process, in its loop or in a thread of it (the rule of lab 05's epoch check too: a thread shares
    the training process's interpreter and cores, and its reads count in that process)."""

    def body():
        runs = launched(train_fn, steps)
        needed = steps * script.ACCUMULATE * script.MICRO_BATCH
        for rank, run in enumerate(runs):
            here = run["counts"].get("read", 0)
            expect(here == 0, f"rank {rank}'s training process read {here} of its {needed} windows itself (in "
                              f"its loop or in a thread of it), waiting {here * script.READ_SECONDS:.2f} s for "
                              "storage: every window must come from a loader process, ahead of the step that "
                              "needs it, so that the training process never waits for storage (lab 05's rule "
                              "too)")
        return f"no window read by a training process: the {needed} windows a rank needs came from readers ahead"

    return run_check("feeding the training loop", body, show=show,
                     hint=checks.stub_message(BANK, "B"))


def check_threads(train_fn, steps: int = script.STEPS, show: bool = True) -> checks.Verdict:
    """Threads per worker x workers at most the machine's cores, while the workers train."""

    def body():
        runs = launched(train_fn, steps)
        threads, cores = max(max(run["threads"] or [0]) for run in runs), runs[0]["cores"]
        expect(threads * WORLD <= cores,
               f"each worker computed with {threads} threads: {WORLD} workers x {threads} = "
               f"{WORLD * threads} threads on {cores} cores, so they take turns on the cores: more threads "
               "compute than the machine has cores to run them")
        return f"{threads} thread{'s' if threads != 1 else ''} per worker x {WORLD} workers on {cores} cores"

    return run_check("threads", body, show=show, hint=checks.stub_message(BANK, "B"))


def check_asked_for(train_fn, steps: int = script.STEPS, show: bool = True) -> checks.Verdict:
    """The work that is not training, as often as the specification asks and no more: the held-out loss every
    ``EVAL_EVERY`` steps, a checkpoint every ``CHECKPOINT_EVERY`` steps by rank 0 only."""

    def body():
        runs = launched(train_fn, steps)
        evals, saves = _due(script.EVAL_EVERY, steps), _due(script.CHECKPOINT_EVERY, steps)
        for rank, run in enumerate(runs):
            n = run["counts"].get("evaluate", 0)
            expect(n <= len(evals), f"rank {rank} evaluated the held-out loss {n} times in {steps} steps; the "
                                    f"specification asks for {len(evals)} (after steps {evals})")
            after = run["after_steps"].get("evaluate", [])
            expect(set(after) <= set(evals), f"rank {rank} evaluated after optimizer step(s) {after}: the "
                                             f"specification names steps {evals}; count the steps from 1")
        n = runs[0]["counts"].get("save_checkpoint", 0)
        expect(n == len(saves), f"rank 0 saved {n} checkpoints in {steps} steps; the specification asks for "
                                f"{len(saves)} (after steps {saves})")
        after = runs[0]["after_steps"].get("save_checkpoint", [])
        expect(after == saves, f"rank 0 saved its checkpoints after optimizer step(s) {after}: the specification "
                               f"names steps {saves}, each saved after its own optimizer step (count them from 1)")
        extra = sum(run["counts"].get("save_checkpoint", 0) for run in runs[1:])
        expect(extra == 0, f"rank 1 saved {extra} checkpoints too: every rank holds the same weights, and each "
                           "save writes the same file again")
        return f"{len(evals)} evaluations and {len(saves)} checkpoints (rank 0) in {steps} steps, after the steps asked"

    return run_check("the work the specification asks for", body, show=show, hint=checks.stub_message(BANK, "B"))


def what_is_left(runs: list[dict], steps: int) -> list[str]:
    """What a run measured beyond what training needs, in words (for a failing speed check): not the fix."""
    left = []
    threads = max(max(run["threads"] or [0]) for run in runs)
    if threads * WORLD > runs[0]["cores"]:
        left.append(f"{threads * WORLD} compute threads on {runs[0]['cores']} cores")
    reads = sum(run["counts"].get("read", 0) for run in runs)
    if reads:
        left.append(f"{reads} storage reads inside the training loop")
    watch = runs[0]["watch"]
    if watch["allreduce_bytes"] > watch["gradient_bytes"] * max(watch["optimizer_steps"], 1):
        per_step = watch["allreduce_bytes"] / (watch["gradient_bytes"] * max(watch["optimizer_steps"], 1))
        left.append(f"{per_step:.0f}x the gradients' bytes all-reduced per optimizer step")
    evaluations = runs[0]["counts"].get("evaluate", 0)
    if evaluations > len(_due(script.EVAL_EVERY, steps)):
        left.append(f"{evaluations} held-out evaluations in {steps} steps")
    saves = sum(run["counts"].get("save_checkpoint", 0) for run in runs)
    if saves > len(_due(script.CHECKPOINT_EVERY, steps)):
        left.append(f"{saves} checkpoints written in {steps} steps")
    return left


def both_medians(mine: float, theirs: float, rounds: int) -> str:
    """Your tokens/s beside the reference plan's, each the median over the speed check's rounds, and where they
    come from (twenty-seventh reading: "in the same rounds" did not say which): every round runs both, and
    round 1 reuses the reference run cell 15 printed, so that its figure reads as one of the rounds."""
    return (f"{mine:,.0f} tokens/s against the reference plan's {theirs:,.0f} (each the median of the {rounds} "
            f"rounds that ran both, round 1's reference the run printed above; their ratio "
            f"{claims.printed_ratio(mine, theirs, 0):.0%})")


def check_speed(train_fn, steps: int = script.STEPS, diagnosis: Diagnosis | None = None, rounds: int = 3,
                show: bool = True) -> checks.Verdict:
    """Tokens/s at least ``SPEED_SHARE`` of the reference plan's, both measured here in alternating rounds
    (yours, reference; reference, yours ...), each run timed from its first optimizer step to its last. The
    verdict is the median of the paired ratios, of ``rounds`` (at least 3: one busy round cannot sink it), and of
    ``EXTRA_ROUNDS`` more when it falls short (a busy machine only slows a run; the median of more rounds is
    what a slow script cannot pass)."""

    def body():
        # Round 1: the launch the other checks watched, then the reference plan's; later rounds alternate
        # which of the two goes first.
        yours, references = [launched(train_fn, steps)], [reference_runs(steps)[0]]

        def more(n):
            more_references, more_yours = alternate(lambda: _launch_watched(_reference_plan(), steps),
                                                    lambda: _launch_watched(train_fn, steps), n)
            yours.extend(more_yours)
            references.extend(more_references)
            return [tokens_per_s(y) / tokens_per_s(r) for y, r in zip(yours, references)]

        ratios = more(max(rounds, 3) - 1)
        if statistics.median(ratios) < SPEED_SHARE:
            ratios = more(EXTRA_ROUNDS)
        share, mine = statistics.median(ratios), statistics.median(tokens_per_s(y) for y in yours)
        theirs = statistics.median(tokens_per_s(r) for r in references)
        SPEEDS[(id(train_fn), steps)] = (train_fn, mine)  # the take-aways quote this step time, not round 1's
        where = f"; measured on {devices.plan(WORLD).label}"
        slow = (f"; {claims.printed_ratio(mine, diagnosis.slow_tokens_per_s, 0):.1f}x the slow script's "
                f"(timed under the profiler{_profiler_words(diagnosis)})" if diagnosis else "")
        left = what_is_left(yours[0], steps)
        expect(share >= SPEED_SHARE,
               f"{both_medians(mine, theirs, len(ratios))}; median of the paired "
               f"rounds' ratios {share:.0%} (what the check reads: each round's two runs met the same machine), the target "
               f"{SPEED_SHARE:.0%} (rounds {', '.join(f'{r:.0%}' for r in ratios)}{where}). "
               + (f"Measured in your run, beyond what training needs: {'; '.join(left)}." if left else
                  "The other checks see none of the slow script's habits: profile your own fast_train's steps "
                  "(torch.profiler around its loop, as exercise A read the slow one) and look for what waits: "
                  "a loader that does not read far enough ahead, a wait for the device every micro-batch."))
        return (f"{both_medians(mine, theirs, len(ratios))}: median of the paired "
                f"rounds' ratios {share:.0%} (target {SPEED_SHARE:.0%}; "
                f"rounds {', '.join(f'{r:.0%}' for r in ratios)}){slow}{where}")

    return run_check(f"tokens/s at least {SPEED_SHARE:.0%} of the reference plan's", body, show=show,
                     hint=checks.stub_message(BANK, "B"))


def check_clean_up(train_fn, steps: int = script.STEPS, show: bool = True) -> checks.Verdict:
    """Nothing left: each rank destroyed its group, its loaders ended with the function, no worker runs on."""
    from utils.labs.ddp_from_scratch.checks import kernel_children

    def body():
        runs = launched(train_fn, steps)
        still_open = [rank for rank, run in enumerate(runs) if run["group_left_open"]]
        expect(not still_open, f"rank(s) {still_open} returned with the process group still initialised")
        left = {rank: run["children_left"] for rank, run in enumerate(runs) if run["children_left"]}
        expect(not left, "processes were still running when your function returned: "
                         + "; ".join(f"rank {r}: pid {', '.join(map(str, p))}" for r, p in left.items())
                         + " (a loader's processes live as long as something refers to its iterator: the "
                           "micro-batch generator does, and with persistent workers so does the DataLoader)")
        kernel_left = kernel_children()
        expect(not kernel_left, f"{len(kernel_left)} process(es) of the launch still running: "
                                + ", ".join(f"pid {p.pid}" for p in kernel_left))
        return "process group destroyed on every rank; no loader or worker process left running"

    return run_check("nothing left running", body, show=show, hint=checks.stub_message(BANK, "B"))


# --- What the lab's own cells print from the learner's answers: never raising on a wrong one ------------------


# The lab's cells call these through this module; they live in their own modules, which import this one, so
# they are looked up on first use (PEP 562) and any of these modules can be imported first.
_ELSEWHERE = {"compute_sentence": "takeaways", "take_aways": "takeaways", "show_take_aways": "takeaways",
              "check_prediction": "prediction", "show_prediction": "prediction",
              "check_fixes": "fixes", "fixes_verdict": "fixes"}


def __getattr__(name: str):
    if name not in _ELSEWHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"utils.labs.make_it_fast.{_ELSEWHERE[name]}"), name)
