"""The timing runs of lesson 02 (``notebooks/02_model_split.ipynb``): pipelines against one device, measured.

    S = plan.lesson_settings(devices.plan(2), devices.hardware())   # sizes, split and bounds for this machine
    run = measure_pipeline(plan.task_for(S.sizes), S.split, [Config(64, 4), Config(64, 4, "1f1b")])
    run.row(64, 4).speedup, run.row(64, 4).bound       # measured, and 2m/(m+1)
    report.plot_schedule(run.spans(Config(64, 4)))     # both workers' spans of the median round

One launch times every configuration and the one-device baseline, interleaved round by round, so they share
the machine's state; each speedup is the median of EVERY round's paired ratio, with the range over all rounds: a round
above the number of devices is reported as a finding (``Row.above_devices``) and set beside the bound scaled
by the work the stages measured (``Row.work_bound``), never left out. A naive split's stages are also timed alone,
each in its own process (``alone_runners``): its per-process reference. ``link_model`` gives the α and β
of the link the stages send through (``Link``), to set each step's bytes beside. Each worker also reads its CPU time: where the workers are CPU processes it tells extra
work from waiting for a core (``report.explain_row``); on GPUs the stages' device time (CUDA events) plays
that part. ``time_in_process_gpipe`` times the one-process GPU pipeline.
"""

from __future__ import annotations

import math
import os
import statistics
import time
from dataclasses import dataclass, field
from typing import Callable, NamedTuple, Sequence

import torch
import torch.distributed as dist

from utils import bench, launch, precision, timeline
from utils.claims import as_printed, half_up, printed_ratio
from utils.lessons.model_split.fit_accuracy import accuracy_text
from utils.lessons.model_split.bounds import (bubble_fraction, paired_digits, pipeline_bound, round_above,
                                              round_as_printed)
from utils.lessons.model_split.instrument import RecordedStage, span_timer, sync_barrier
from utils.lessons.model_split.schedules import build_schedule, gpipe_in_process, naive_step, stage_device, train_step
from utils.lessons.model_split.split import output_shape, split_sequential
from utils.lessons.model_split.tasks import Task

@dataclass
class Config:
    """One pipeline configuration to time: batch size, micro-batches, schedule, split points."""

    batch: int
    m: int
    schedule: str = "gpipe"
    split_points: tuple[int, ...] | None = None  # None: the run's default split
    naive: bool = False  # the hand-written naive split (m must be 1)

    @property
    def key(self) -> str:
        kind = "naive" if self.naive else f"{self.schedule} m={self.m}"
        split = f" split {list(self.split_points)}" if self.split_points else ""
        return f"batch {self.batch} {kind}{split}"


def lesson_configs(batches, micro_batches, schedule: str = "gpipe") -> list[Config]:
    """The lesson's sweep: every batch size with every micro-batch count (``plan.Settings`` gives both)."""
    return [Config(b, m, schedule) for b in batches for m in micro_batches]


# --- the timing worker: one runner per configuration, timed round by round ----------------------------------


def baseline_runner(task: Task, model, rank: int, x, y, losses: dict | None = None,
                    key: str = "one device") -> Callable:
    """One device: the whole model's step on rank 0 alone, as a runner for ``time_rounds``. ``losses``: where
    it keeps its step's loss, as ``losses[key]`` (``loss_values`` reads it after the rounds)."""
    def run(recorder):  # the whole model on rank 0 alone; rank 1 waits in the barrier
        if rank == 0:
            model.zero_grad(set_to_none=True)
            with span_timer(recorder)("compute"):
                loss = task.loss_fn(model(x), y)
                loss.backward()
            if losses is not None:
                losses[key] = [loss.detach()]  # kept, not read: no wait inside the timed step
    return run


def loss_values(losses: dict) -> dict[str, float]:
    """The losses a worker's runners kept (a list of tensors each: one per micro-batch), each the mean over its
    micro-batches, equal in size: the whole batch's loss, as one device computes it. Read after the rounds."""
    return {k: float(torch.stack([t.detach().float().reshape(()) for t in v]).mean()) for k, v in losses.items()
            if v}


def _config_runner(task: Task, model, rank: int, device, c: Config, split_points, x, y, sent: dict,
                   losses: dict | None = None) -> Callable:
    """A runner of one step of ``c``; it leaves (bytes, messages) this worker sent in ``sent[c.key]`` and, on
    the last stage's worker, the step's losses in ``losses[c.key]`` (kept, read after the rounds: ``outputs.rows_losses``)."""
    stages = split_sequential(model, c.split_points or split_points)
    if len(stages) != dist.get_world_size():
        raise ValueError(f"{len(stages)} stages need {len(stages)} workers")
    module = stages[rank]
    keeps = losses is not None and rank == len(stages) - 1

    def kept() -> list | None:  # a fresh list each round on the last stage's worker
        if keeps:
            losses[c.key] = []
            return losses[c.key]
        return None
    if c.naive:
        shape = output_shape(stages[0], x)

        def run(recorder):
            module.zero_grad(set_to_none=True)
            naive_step(module, rank, device, x, y, task.loss_fn, shape, timed=span_timer(recorder, 0),
                       losses=kept())
            sent[c.key] = (4 * math.prod(shape), 1)  # one float32 (B, T, C) each way: activation, its gradient
        return run
    stage, sched = build_schedule(module, rank, len(stages), device, c.schedule, c.m, task.loss_fn,
                                  stage_type=RecordedStage)

    def run(recorder):
        module.zero_grad(set_to_none=True)
        stage.recorder, stage.bytes_sent, stage.messages = recorder, 0, 0
        train_step(stage, sched, x, y, losses=kept(), return_outputs=False)
        sent[c.key] = (stage.bytes_sent, stage.messages)
    return run


def alone_runners(task: Task, model, rank: int, device, c: Config, split_points, x, y) -> dict[str, Callable]:
    """The naive split's stages each timed ALONE in its own process, one after the other, no message: rank k
    runs stage k's forward and backward while the other waits. Their sum is what the naive split's work costs
    in two processes; one device over that sum is its per-process reference (``Row.process_bound``)."""
    stages = split_sequential(model, c.split_points or split_points)
    shape = output_shape(stages[0], x)
    h = torch.randn(shape, device=device)  # stands for stage 0's activation; its values do not change the time
    out = {}
    for k in range(len(stages)):
        def run(recorder, k=k):
            if rank != k:
                return
            stages[k].zero_grad(set_to_none=True)
            with span_timer(recorder, 0)("compute"):
                if k == 0:
                    a = stages[0](x)
                    a.backward(torch.ones_like(a))
                else:
                    task.loss_fn(stages[k](h.requires_grad_(True)), y).backward()
        out[f"{c.key} stage {k} alone"] = run
    return out


def time_rounds(runners: dict[str, Callable], rounds: int, record: bool, device, label: str) -> dict:
    """Every runner once per round, each between two barriers: wall time, CPU time, busy time, and every
    round's spans (``out["spans"][key][i]``: round i's, in the order of the times), so that the parent, which
    pairs the rounds, picks which one to draw (``PipelineRun.spans``)."""
    out = {"times": {k: [] for k in runners}, "busy": {k: [] for k in runners},
           "cpu": {k: [] for k in runners}, "spans": {}}  # cpu: seconds of this worker's main thread
    for r in range(rounds + 1):  # round 0 warms up (and lets the pipeline stages learn their shapes)
        for key, run in runners.items():
            recorder = timeline.SpanRecorder(label, device=str(device)) if record or r else None
            sync_barrier(device)
            start, start_cpu = time.perf_counter(), time.thread_time()
            run(recorder)
            sync_barrier(device)
            if r:
                out["times"][key].append(time.perf_counter() - start)
                out["cpu"][key].append(time.thread_time() - start_cpu)
                got = recorder.spans()
                out["busy"][key].append(sum(s.duration for s in got))
                out["spans"].setdefault(key, []).append([s.to_dict() for s in got])
    return out


def pin_cpu_worker() -> bool:
    """A CPU worker stays on its own core(s), with the gloo threads it starts (``launch.pin_to_cores``). Why:
    measured on 2 cores, unpinned, each worker's communication threads ran on the other worker's core and
    took turns with its compute; pinned, GPipe, 1F1B and the interleaved schedules ran 5-13 % faster (lesson
    02, ``python -m utils.tools.robustness``). A worker whose stage runs on the CPU is pinned (``cpu`` mode,
    and ``1gpu`` mode, where gloo keeps the stages on the CPU: ``schedules.stage_device``); a GPU worker
    (NCCL) is left as it is. Returns whether it pinned."""
    if launch.current_backend() == "nccl":
        return False
    launch.pin_to_cores(int(os.environ.get("RANK", 0)), torch.get_num_threads())
    return True


def timing_worker(task: Task, split_points: Sequence[int], configs: Sequence[Config], rounds: int,
                  record: bool, seed: int) -> dict:
    """Worker (run by ``launch``): times one device (rank 0 alone, full model) and every config, interleaved.

    Every measurement starts and ends at a barrier, so it is the wall time of the whole step on both
    workers. Returns per config the step times of every round, this rank's busy time (sum of its spans) and
    its main thread's CPU time per round (the work done, which other programs on a shared machine do not
    inflate; waiting costs none), and every round's spans.
    """
    pin_cpu_worker()  # before the process group: gloo's threads inherit the core
    with launch.process_group():
        device, rank = stage_device(), dist.get_rank()
        regime = precision.fp32_matmuls(device)  # TF32 on Ampere+ GPUs, as in practice (checks stay IEEE fp32)
        model = task.build().to(device)
        batches = {b: tuple(t.to(device) for t in task.make_batch(b, seed)) for b in {c.batch for c in configs}}
        losses: dict = {}  # every step's loss, kept to check it is one device's (``outputs.rows_losses``), read after the rounds
        runners = {f"batch {b} one device": baseline_runner(task, model, rank, *batches[b], losses,
                                                             f"batch {b} one device") for b in sorted(batches)}
        sent: dict = {}
        for c in configs:
            runners[c.key] = _config_runner(task, model, rank, device, c, split_points, *batches[c.batch], sent,
                                            losses)
            if c.naive:
                runners.update(alone_runners(task, model, rank, device, c, split_points, *batches[c.batch]))
        out = time_rounds(runners, rounds, record, device, f"stage {rank}")
        return {**out, "rank": rank, "threads": torch.get_num_threads(), "device": str(device), "sent": sent,
                "precision": regime, "regime": regime, "losses": loss_values(losses)}


def tenth_ms(seconds: float) -> float:
    """A time in ms as section 3's rounds table prints it, to 0.1 ms: the figures its ratios are worked from."""
    return as_printed(seconds, 1, 1e-3)


def process_reference(one: float, alone: Sequence[float], split: float | None = None) -> float:
    """One round's per-process reference as section 3's rounds table prints it: one device's step (s) over the
    sum of the stages each timed ``alone`` (s), both worked from their ms as printed and rounded half up as
    every round is printed (``bounds.round_as_printed``): two decimals, as a reader rounds by hand (159.1 /
    148.0 = 1.075 prints 1.08x), or more where two would put it on 1x though it lies on one side (110.0 / 110.5
    = 0.9955 prints 0.995x, not 1.00x). The stages' ms are printed to 0.1 (``tenth_ms``); one device's ms with
    the digits the table prints it with beside that round's ``split`` step (``bounds.paired_digits``: 111.99,
    not 112.0, where the round's speedup needs them), so 111.99 / 113.7 prints 0.98x (t33_02 #1). Computed
    once, here: the table prints these and ``Row.process_bound`` is their median, so the text's figure is the
    median of the printed column."""
    total = as_printed(sum(tenth_ms(a) for a in alone), 1) or 0.1  # a sum printed as 0.0 ms: its step
    digits = paired_digits(one, split) if split else 1
    return round_as_printed(as_printed(one, digits, 1e-3) / total)


# --- what a run measured ----------------------------------------------------------------------------------


@dataclass
class Row:
    """One measured configuration against its bound."""

    batch: int
    m: int
    schedule: str
    seconds: float  # median step time, both workers
    baseline: float  # median step time of one worker on the whole batch
    busy: list[float]  # median busy seconds per stage (sum of its spans: wall time)
    naive: bool = False
    split_points: tuple[int, ...] | None = None
    spread: float = 0.0  # (max - min) / median of the step times
    cpu: list[float] = field(default_factory=list)  # median CPU seconds per stage's main thread per step
    baseline_cpu: float = 0.0  # median CPU seconds of the one-device step (rank 0's main thread)
    speedups: list[float] = field(default_factory=list)  # per round: one-device time / step time, paired
    cpu_workers: bool = True  # the stages ran in CPU processes (False: on GPUs, timed with CUDA events)
    baseline_busy: float = 0.0  # median busy seconds of the one-device step (its span)
    bound_override: float | None = None  # a schedule with its own bubble formula (``multi.schedule_bound``)
    bytes_sent: int = 0  # activations and gradients both workers sent per step (``RecordedStage``)
    messages: int = 0  # sends per step, both workers
    alone: list[float] = field(default_factory=list)  # naive split: median seconds of each stage alone
    process_bounds: list[float] = field(default_factory=list)  # per round: one device / sum of stages alone
    idle_rounds: list[list[float]] = field(default_factory=list)  # per stage, per round: 1 - busy / step

    @property
    def process_bound(self) -> float | None:
        """The naive split's per-process reference: one device over the stages' summed time, each
        timed alone in its own process (median of the rounds). 1x if a stage cost the same in its own
        process as inside the whole model; above 1x when the split itself makes the work cheaper."""
        # an even count's median halves two printed figures: rounded as a reader rounds it (1.075 -> 1.08)
        return half_up(statistics.median(self.process_bounds), 2) if self.process_bounds else None

    @property
    def key(self) -> str:
        """The key of the ``Config`` this row measured."""
        return Config(self.batch, self.m, self.schedule, self.split_points, self.naive).key

    @property
    def devices(self) -> int:
        """How many devices worked: the ceiling no speedup over one of them can pass."""
        return max(len(self.busy), 1)

    @property
    def above_devices(self) -> list[float]:
        """Rounds whose paired speedup is above the number of devices, which overlapping equal work cannot
        give. Reported with the others, never left out: such a round is a finding. Either the split made
        the work itself cheaper (each process's caches hold less; ``work_inflation`` below 1, and the
        ``work_ceiling`` above the number of devices), or that round's one-device step was disturbed."""
        return [s for s in self.speedups if round_above(s, self.devices)]  # as printed: 2.002 is above 2x

    @property
    def speedup(self) -> float:
        """Median over EVERY round of the paired speedup (each round's one device / the same round's step);
        without paired rounds, median one device / median step. It is not the ratio of the two median step
        times: a round's step is set beside the one-device step timed next to it, not beside another round's."""
        return statistics.median(self.speedups) if self.speedups else self.baseline / self.seconds

    @property
    def speedup_range(self) -> tuple[float, float]:
        """Lowest and highest paired speedup over every round."""
        return (min(self.speedups), max(self.speedups)) if self.speedups else (self.speedup, self.speedup)

    @property
    def work_bound(self) -> float | None:
        """The bound scaled by the work the stages measured: ``bound / work_inflation``. The bound assumes
        the split does exactly one device's work; where the stages together did 0.87x of it, the same
        schedule could reach bound / 0.87. None where the work was not measured. Worked from the bound and
        the work as printed (2 decimals): a reader who divides 1.78 by 0.91 finds the 1.96x printed beside them."""
        w = self.work_inflation
        return printed_ratio(self.bound, w) if w else None

    @property
    def work_ceiling(self) -> float | None:
        """The number of devices scaled the same way: what perfect overlap of the measured work gives."""
        w = self.work_inflation
        return printed_ratio(self.devices, w) if w else None

    @property
    def work(self) -> list[float]:
        """Per stage, the time it spent working: its thread's CPU time in CPU processes (which waiting for
        a core or a message does not inflate), its device time (CUDA events) on a GPU."""
        return self.cpu if self.cpu_workers else self.busy

    @property
    def baseline_work(self) -> float:
        """The one-device step's work time, measured the same way as ``work``."""
        return self.baseline_cpu if self.cpu_workers else self.baseline_busy

    @property
    def work_inflation(self) -> float | None:
        """Both stages' work over the one-device step's: above 1, the split does extra work. Worked from the
        figures as the tables print them (whole ms, ``work_ms``): stages 77 / 80 beside one device's 150 give
        (77 + 80) / 150 = 1.05x, the reader's own division, rounded half up as the reader rounds it: (37 + 98) /
        120 = 1.125 reads 1.13x (``:.2f`` gave 1.12: t34_02 #3), and every figure worked from it uses 1.13."""
        if not (self.work and self.baseline_work):
            return None
        stages, one = self.work_ms  # a one-device work printed as 0 ms counts as its rounding step
        return half_up(sum(stages) / (one or 1.0), 2)

    @property
    def work_ms(self) -> tuple[list[float], float]:
        """Each stage's work and the one-device step's, in ms as the tables print them (whole ms)."""
        return [as_printed(w, 0, 1e-3) for w in self.work], as_printed(self.baseline_work, 0, 1e-3)

    @property
    def cpu_share(self) -> list[float]:
        """Per stage, CPU time / busy wall time, for CPU workers only (empty on GPUs, where a host thread's
        time says nothing about the device's): near 1 the thread ran whenever it worked; well below 1 it
        was waiting for a core (held by its own gloo threads or by other programs), which wall time counts and
        CPU time does not. Worked from the two times as the tables print them (whole ms), so that 83 / 81 reads
        102%, the reader's division."""
        if not self.cpu_workers:
            return []
        return [printed_ratio(c, b, 0, 1e-3) if b else float("nan") for c, b in zip(self.cpu, self.busy)]

    @property
    def prediction_is_reference(self) -> bool:
        """With one micro-batch (or the naive split) and the 1x bound, what the work predicts, one device's work
        over the stages' summed work, is the work-scaled reference itself (1x / work): one figure, read once."""
        return self.bound_override is None and (self.naive or self.m == 1)

    @property
    def predicted(self) -> float | None:
        """The speedup the stages' measured work predicts with each on its own device: one device's work
        over the schedule's (sum + (m − 1)·max of the stages' per-micro-batch work). It includes extra
        work and imbalance; the gap between it and the measured speedup is waiting (for a core, messages)."""
        if not self.work or not self.baseline_work:
            return None
        work, one = self.work_ms  # as the tables print them, as ``work_inflation``
        if not (one and all(work)):  # a work printed as 0 ms: too short to predict from
            return None
        if self.prediction_is_reference:  # one device's work over the stages' summed: the same figure, one rounding
            return self.work_bound
        if self.bound_override is not None:  # its own bubble formula: the busiest device at that efficiency
            return one / (max(work) * self.devices / self.bound_override)
        per = [w / self.m for w in work]
        return one / (sum(per) + (self.m - 1) * max(per))

    @property
    def bound(self) -> float:
        if self.bound_override is not None:
            return self.bound_override
        return 1.0 if self.naive else pipeline_bound(self.m, len(self.busy))

    @property
    def ratio(self) -> float:
        return self.speedup / self.bound

    @property
    def bubble(self) -> float:
        if self.bound_override is not None:
            return 1 - self.bound_override / self.devices
        return bubble_fraction(self.m, len(self.busy))


def median_round(speedups: Sequence[float]) -> int:
    """The index of the round whose paired speedup is the median (of an even count, the lower middle one:
    a round that was measured, never an average of two)."""
    order = sorted(range(len(speedups)), key=lambda i: speedups[i])
    return order[(len(order) - 1) // 2]


@dataclass
class PipelineRun:
    """Everything one ``measure_pipeline`` call measured: rows, the raw times and the timelines."""

    rows: list[Row]
    raw: list[dict]
    split_points: tuple[int, ...]
    threads: int
    simulated: bool
    baseline_busy: dict[int, float] = field(default_factory=dict)
    plain: Row | None = None  # plain 1F1B timed in the same rounds (``multi.measure_multi``), kept out of rows

    def row(self, batch: int, m: int, schedule: str = "gpipe", naive: bool = False, split_points=None) -> Row:
        for r in self.rows:
            if (r.batch, r.m, r.schedule, r.naive) == (batch, m, schedule, naive) and \
                    (split_points is None or tuple(r.split_points or self.split_points) == tuple(split_points)):
                return r
        raise KeyError(f"no row for batch {batch}, m={m}, {schedule}, naive={naive}")

    def spans(self, config: Config | str) -> list[timeline.Span]:
        """Both workers' spans of ``config`` in its median round (``median_round``: the round whose paired
        speedup is the row's median), for ``timeline.plot_gantt``: the step a chart draws is one the table's
        median speaks for, not whichever round came last (a slow last round would rank the schedules against
        the table). ``config``: a ``Config``, its key, or a schedule's name (section 9's rows)."""
        key = config if isinstance(config, str) else config.key
        row = next(r for r in self.rows if key in (r.key, r.schedule))
        i = median_round(row.speedups)  # the same round on both workers: the parent pairs the rounds
        return timeline.flatten([worker["spans"][key][i] for worker in self.raw if key in worker["spans"]])

    def best(self) -> Row:
        """The fastest pipelined configuration (m >= 2: with one micro-batch nothing overlaps)."""
        return max(self._pipelined(), key=lambda r: r.speedup)

    def _pipelined(self) -> list[Row]:
        """The rows that overlap work: not the naive split, and m >= 2 (with one micro-batch nothing overlaps)."""
        return [r for r in self.rows if not r.naive and r.m >= 2]


def idle_by_round(raw: list[dict], key: str, steps: Sequence[float]) -> list[list[float]]:
    """Per worker, each round's idle share of that round's step, 1 - busy / step (``steps``: rank 0's step
    times of ``key``, round by round), so that the idle shares read from the medians carry their rounds' spread
    (``chunks.idle_spread``)."""
    return [[1 - b / s for b, s in zip(w["busy"][key], steps)] for w in raw]


def measure_pipeline(task: Task, split_points: Sequence[int], configs: Sequence[Config], rounds: int = 5,
                     record: bool = True, seed: int = 0, timeout: float = 600) -> PipelineRun:
    """Time ``configs`` on two workers and one device, interleaved round by round, in one launch.

    One launch, so every configuration and the one-device baseline share the machine's state; each
    worker has the threads the launcher gives it (cores / 2), and so has the baseline, which runs on rank
    0 while rank 1 waits. Speedups are medians over ``rounds``.
    """
    raw = launch.launch(timing_worker, task, list(split_points), list(configs), rounds, record, seed,
                        nprocs=2, timeout=timeout)
    med = statistics.median
    on_cpu = raw[0]["device"].startswith("cpu")  # where the workers ran (1gpu mode: gloo workers on the CPU)
    baseline_busy = {b: med(raw[0]["busy"][f"batch {b} one device"]) for b in {c.batch for c in configs}}
    rows = []
    for c in configs:
        t = raw[0]["times"][c.key]
        one = raw[0]["times"][f"batch {c.batch} one device"]
        sent = [w.get("sent", {}).get(c.key, (0, 0)) for w in raw]
        alone = [raw[0]["times"][f"{c.key} stage {k} alone"] for k in range(len(raw)) if c.naive]
        rows.append(Row(c.batch, c.m, c.schedule, med(t), med(one),
                        [med(w["busy"][c.key]) for w in raw], c.naive, c.split_points,
                        (max(t) - min(t)) / med(t), [med(w["cpu"][c.key]) for w in raw],
                        med(raw[0]["cpu"][f"batch {c.batch} one device"]), [a / b for a, b in zip(one, t)],
                        on_cpu, baseline_busy[c.batch], bytes_sent=sum(b for b, _ in sent),
                        messages=sum(n for _, n in sent),
                        alone=[med(a) for a in alone],
                        process_bounds=[process_reference(o, parts, s) for o, s, *parts in zip(one, t, *alone)]
                        if alone else [], idle_rounds=idle_by_round(raw, c.key, t)))
    # "simulated on CPU" follows where the workers ran, not the mode
    return PipelineRun(rows, raw, tuple(split_points), raw[0]["threads"], on_cpu, baseline_busy)


# --- one process on GPUs ------------------------------------------------------------------------------------


def time_in_process_gpipe(task: Task, devs: Sequence[str], batch: int, ms: Sequence[int], rounds: int,
                          split_points: Sequence[int], seed: int = 0) -> dict:
    """GPU modes only (run it in a launched worker): one device alone, then ``gpipe_in_process`` on the stage
    devices with each m, timed with CUDA events. Returns ``{m: (median, low, high speedup)}``; plain floats,
    so nothing CUDA reaches the notebook. ``split_points``: ``plan.Settings.in_process_split``. fp32 matmuls
    run on TF32 tensor cores from Ampere on (``utils.precision.fp32_matmuls``), as a practitioner's do."""
    precision.fp32_matmuls(devs[0])
    model = task.build()
    x, y = task.make_batch(batch, seed)
    one = model.to(devs[0])
    xs, ys = x.to(devs[0]), y.to(devs[0])
    base = bench.measure(lambda: task.loss_fn(one(xs), ys).backward(), device=devs[0], repeats=rounds)
    stages = [s.to(d) for s, d in zip(split_sequential(model, split_points), devs)]
    # The pipeline's inputs go where they are used, ONCE, before timing, as the one-device step's did: a
    # host-to-device copy inside the timed step (from pageable memory, where non_blocking still waits)
    # would be timed for the pipeline and not for the baseline.
    xp, yp = x.to(devs[0]), y.to(devs[-1])
    out = {}
    for m in ms:
        def step(m=m):
            gpipe_in_process(stages, devs, xp, yp, m, task.loss_fn)
            torch.cuda.synchronize(devs[1])  # the events time devs[0]: wait for the last stage's device too
        t = bench.measure(step, device=devs[0], repeats=rounds)
        out[m] = (base.median / t.median, base.min / t.max, base.max / t.min)
    return out


# --- the link between the workers ---------------------------------------------------------------------------


class Link(NamedTuple):
    """A link's model, t(n) = α + n/β: ``alpha`` (s per message), ``beta`` (bytes/s), ``where`` (what it is, in
    words), ``accuracy``: the worst |residual| of its fit over the sizes it timed (a share; None for a
    datasheet peak, which is a bound, not a fit), and ``pinned``: measured between workers pinned to their
    own cores, as this lesson's timing workers are (``pin_cpu_worker``)."""

    alpha: float
    beta: float
    where: str
    accuracy: float | None = None
    pinned: bool = False

    def time(self, n_bytes: float) -> float:
        """Seconds the model gives one message of ``n_bytes``."""
        return self.alpha + n_bytes / self.beta


def recorded_link(mode: str | None = None) -> Link | None:
    """Lesson 00's fit of the link from this mode's ledger (``utils.ledger``), or None where lesson 00 has not
    recorded one: the machine profile's link, measured between two workers the operating system placed."""
    from utils import ledger

    alpha, beta = ledger.figure("link_alpha", mode), ledger.figure("link_beta", mode)
    if not (alpha and beta):
        return None
    what = alpha.get("what") or "lesson 00's link"
    worst = ledger.figure("link_fit_worst_residual", mode)  # the fit's own accuracy travels with it
    accuracy = worst["value"] if worst and worst.get("value") is not None else 0.0
    if accuracy:
        what += f", within {accuracy_text(accuracy)} at every size lesson 00 timed"
    return Link(alpha["value"], beta["value"], what, accuracy)


def link_worker(sizes: list[int], pinned: bool, repeats: int = 15) -> tuple[list[float], bool]:
    """Worker (run by ``launch`` on two processes): lesson 00's ping-pong (``machine.ping_pong_worker``: the
    median one-way seconds per size), each worker pinned to its own core first where ``pinned`` (as this
    lesson's timing workers are: ``pin_cpu_worker``), else placed by the operating system (as lesson 00's).
    Returns the times and whether it pinned."""
    from utils import machine

    done = pin_cpu_worker() if pinned else False  # before the process group: gloo's threads inherit the core
    return machine.ping_pong_worker(list(sizes), repeats), done


def fit_growing(sizes: list[int], seconds: list[float]):
    """Lesson 00's fit (``utils.linkmodel.fit_alpha_beta``) over the sizes, dropping the smallest one at a time
    where the times do not grow with size (gloo's small messages can take longer than 1 MiB ones on a shared
    machine: no line fits them). Returns the fit and the sizes it kept; raises, with what to do, where even
    the two largest sizes do not grow."""
    from utils.linkmodel import fit_alpha_beta

    for start in range(len(sizes) - 1):
        try:
            return fit_alpha_beta(sizes[start:], seconds[start:]), sizes[start:]
        except ValueError:
            continue
    raise ValueError(f"the link's times do not grow with size even between {sizes[-2]:,} and {sizes[-1]:,} bytes "
                     f"({seconds[-2] * 1e3:.2f} and {seconds[-1] * 1e3:.2f} ms): the machine was too busy to "
                     "time it; close other programs and run the cell again")


def _measure_and_fit(sizes: list[int], pinned: bool, tries: int = 3):
    """Time the link on two launched workers and fit it (``fit_growing``); a busy moment that leaves no fit
    is timed again, up to ``tries`` times, before the error reaches the learner."""
    for attempt in range(tries):
        seconds, done = launch.launch(link_worker, sizes, pinned, nprocs=2, backend="gloo", timeout=120)[0]
        try:
            return (*fit_growing(sizes, seconds), done)
        except ValueError:
            if attempt == tries - 1:
                raise


def link_model(cpu_workers: bool, hw, sizes=(4, 2**14, 2**17, 2**20, 2**22), pinned: bool = True) -> Link:
    """The link the two workers' stages send through. CPU workers: gloo over loopback, measured now on two
    launched workers and fitted over ``sizes`` (lesson 00's α + n/β, ``utils.linkmodel``), the workers pinned
    as the pipeline's are (``pinned=False``: placed by the operating system, lesson 00's layout); GPU workers:
    the link's datasheet peak (``hw.link``, else PCIe) with no fixed cost, a bound."""
    if cpu_workers:
        fit, kept, done = _measure_and_fit(list(sizes), pinned)
        layout = ("each worker pinned to its own core with its gloo threads, as the pipeline's workers" if done else
                  "the workers placed by the operating system, as lesson 00's")
        dropped = "" if len(kept) == len(sizes) else (
            f" from {kept[0]:,} bytes up (smaller messages ran slower than larger ones here, as lesson 00's "
            "small messages can on a shared machine: no single line fits them)")
        return Link(fit.alpha, fit.beta, f"gloo loopback fitted now, {layout}: α {fit.alpha * 1e6:.1f} µs, "
                    f"β {fit.beta / 1e9:.2f} GB/s, within {accuracy_text(fit.worst_residual)} at every size{dropped}",
                    fit.worst_residual, done)
    peak = (hw.link.bandwidth if hw.link and hw.link.bandwidth else hw.gpus[0].pcie_bandwidth) or float("inf")
    return Link(0.0, peak, f"link peak {peak / 1e9:.0f} GB/s, datasheet")
