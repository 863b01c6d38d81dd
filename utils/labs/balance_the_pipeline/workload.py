"""What lab 02 (``labs/02_balance_the_pipeline.ipynb``) pipelines, and what it measures before any choice.

    LAB = lab_settings(devices.plan(2), devices.hardware())   # sizes, batch and label for this machine
    task = lab_task(LAB)                  # a widening MLP: many cheap narrow layers, then a few wide ones
    profile = measure_profile(LAB)        # every layer timed on one micro-batch of each candidate m,
    profile.layers[8][3]                  # ... layer 3's forward + backward on batch/8 rows, seconds
    profile.per_micro_batch               # ... and what a micro-batch costs a stage beyond its layers
    profile.saved_per_row(0, 10)          # ... and bytes a stage of layers 0..9 keeps per row for its backward
    cap = memory_cap(profile)             # what each stage may keep: a share of one worker's whole batch

The profile is what the learner decides from; the checks then time the decision for real. Where the workers
run, and so the model's size and the label, is lesson 02's decision (``plan.lesson_settings``).
"""

from __future__ import annotations

import functools
import statistics
import time
from dataclasses import dataclass, field

import torch
from torch import nn

from utils import bench, devices, launch, models, precision
from utils.claims import as_printed, half_up
from utils.lessons.model_split.balance import worker_threads
from utils.lessons.model_split.memory import SavedActivations
from utils.lessons.model_split.plan import lesson_settings
from utils.lessons.model_split.runs import Config, measure_pipeline, pin_cpu_worker
from utils.lessons.model_split.schedules import stage_devices
from utils.lessons.model_split.tasks import Task

LAB_IN, LAB_OUT = 64, 16  # features in and targets out per row, in every mode
NARROW_LAYERS, WIDE_LAYERS = 8, 4  # the model: 8 narrow layers (the first from LAB_IN), then 4 wide, then the head
CANDIDATE_M = (1, 2, 4, 8, 16, 32, 64)  # micro-batch counts the profile measures (each divides every batch)
OVERHEAD_M = (4, 16, 64)  # micro-batch counts of the nearly empty pipeline that prices a micro-batch
PROFILE_REPEATS = 5  # timed repeats per layer and micro-batch size (interleaved); medians kept
CAP_SHARE = 1 / 7  # each stage may keep this share of what one worker keeps for the whole batch (exercise B)
SAVED_ROWS = 64  # rows of the fresh input each stage range's saved bytes are measured on (they scale by row)


@dataclass(frozen=True)
class LabSettings:
    """Lab 02's hardware-dependent choices (build them with ``lab_settings``)."""

    narrow: int  # width of the cheap layers
    wide: int  # width of the expensive ones
    batch: int  # rows per training step
    workers: tuple[str, ...]  # where the two workers run their stages (lesson 02's decision)
    label: str  # where the timings were measured, appended to every speed-up


def lab_settings(plan: devices.Plan, hw: devices.Hardware) -> LabSettings:
    """CPU workers: 128- and 512-wide layers, 4096 rows a step (one worker's step about a quarter of a second
    on one core: lesson 02's pipelines showed their gain at such steps, and a micro-batch of 8 still holds
    hundreds of rows); GPUs: 4x wider and 8192 rows, so that a GPU's kernels, not their launches, take the
    time. Where the workers run and the label are lesson 02's (``plan.lesson_settings``)."""
    s = lesson_settings(plan, hw)
    narrow, wide, batch = (128, 512, 4096) if s.cpu_workers else (512, 2048, 8192)
    return LabSettings(narrow=narrow, wide=wide, batch=batch, workers=s.workers, label=s.label)


def current_settings() -> LabSettings:
    """``lab_settings`` for this machine (asks NVML; initialises no CUDA)."""
    return lab_settings(devices.plan(2), devices.hardware())


def widening_mlp(seed: int = 0, narrow: int = 128, wide: int = 512) -> nn.Sequential:
    """The lab's model, 13 layers of very different cost: ``NARROW_LAYERS`` narrow layers (the first from
    ``LAB_IN`` features), ``WIDE_LAYERS`` wide ones (the first widening), then a head to ``LAB_OUT`` targets.
    Each layer is Linear + ReLU (the head without ReLU), an ``nn.Sequential`` of its own."""
    sizes = [LAB_IN] + [narrow] * NARROW_LAYERS + [wide] * WIDE_LAYERS
    with models.seeded(seed):
        layers = [nn.Sequential(nn.Linear(a, b), nn.ReLU()) for a, b in zip(sizes[:-1], sizes[1:])]
        layers.append(nn.Sequential(nn.Linear(sizes[-1], LAB_OUT)))
    return nn.Sequential(*layers)


def lab_batch(batch: int, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Random regression inputs (batch, LAB_IN) and targets (batch, LAB_OUT)."""
    g = torch.Generator().manual_seed(seed)
    return torch.randn(batch, LAB_IN, generator=g), torch.randn(batch, LAB_OUT, generator=g)


def mse(out: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    return nn.functional.mse_loss(out, target)


def lab_task(settings: LabSettings | None = None) -> Task:
    """The lab's model at this machine's size, random regression batches and a mean-squared-error loss."""
    s = settings or current_settings()
    return Task(functools.partial(widening_mlp, 0, s.narrow, s.wide), lab_batch, mse,
                name=f"widening MLP, {s.narrow} then {s.wide} wide")


# --- the profile: what each layer costs on one micro-batch, and what a micro-batch costs beyond them ----------


@dataclass
class Profile:
    """What the learner decides from. ``layers[m][k]``: seconds of layer k's forward + backward on ONE
    micro-batch of ``batch // m`` rows (``layers[1]``: the whole batch at once, as one worker runs it);
    ``per_micro_batch``: seconds each micro-batch costs each stage beyond its layers (the messages, the
    schedule's own work), from a pipeline whose stages do almost nothing, as printed (0.01 ms)."""

    batch: int
    layers: dict[int, list[float]]
    per_micro_batch: float
    spread: dict[int, list[float]] = field(default_factory=dict)  # (max - min) / median per layer, per m
    empty_steps: dict[int, float] = field(default_factory=dict)  # m -> the nearly empty pipeline's step
    device: str = "cpu"
    threads: int = 1
    saved: dict[tuple[int, int], float] = field(default_factory=dict)  # (first, last) -> bytes per row

    @property
    def ms(self) -> list[int]:
        return sorted(self.layers)

    def saved_per_row(self, first: int, last: int) -> float:
        """Bytes per row that a stage holding layers ``first .. last - 1`` keeps for its backward pass while
        one micro-batch is in flight through it (its input and what its layers save; the last stage's loss
        included), measured by lesson 02's ``SavedActivations``."""
        return self.saved[first, last]


def _layer_step(layer: nn.Module, inp: torch.Tensor, loss_fn=None, target=None) -> None:
    """One forward and backward pass of ``layer`` on ``inp`` (the last layer's through the loss)."""
    out = layer(inp.detach().requires_grad_(True))
    if loss_fn is not None:
        loss_fn(out, target).backward()
    else:
        out.backward(torch.ones_like(out))


def profile_worker(task: Task, batch: int, ms, device: str, threads: int, repeats: int, seed: int) -> dict:
    """Worker (run by ``launch``): every layer timed on one micro-batch of ``batch // m`` rows for each m, on
    the stages' device with their threads, kept to one core as a pipeline worker is. The repeats are
    interleaved over every m and layer, so a busy moment of a shared machine hits them alike. On a CPU each
    pass is timed by this thread's CPU time, which other programs' load does not inflate (a GPU's by CUDA
    events, ``bench.measure``). Plain floats come back."""
    pin_cpu_worker()
    precision.fp32_matmuls(device)
    layers = list(task.build().to(device))
    x, y = (t.to(device) for t in task.make_batch(batch, seed))
    clock = time.thread_time if str(device).startswith("cpu") else time.perf_counter
    steps = {}
    with bench.threads(threads), torch.no_grad():
        for m in ms:  # every layer's input on a micro-batch of batch // m rows, computed once
            h = x[:batch // m]
            for k, layer in enumerate(layers):
                last = k == len(layers) - 1
                steps[m, k] = functools.partial(_layer_step, layer, h, task.loss_fn if last else None,
                                                y[:batch // m] if last else None)
                h = layer(h)
    samples = {key: [] for key in steps}
    with bench.threads(threads):
        for step in steps.values():
            step()  # warm-up
        for _ in range(repeats):
            for key, step in steps.items():
                samples[key] += bench.measure(step, warmup=0, repeats=1, device=device, clock=clock).samples
    med = {key: statistics.median(v) for key, v in samples.items()}
    return {"layers": {m: [med[m, k] for k in range(len(layers))] for m in ms},
            "saved": saved_bytes_per_row(layers, task, device),
            "spread": {m: [(max(samples[m, k]) - min(samples[m, k])) / med[m, k] if med[m, k] else 0.0
                           for k in range(len(layers))] for m in ms}}


def saved_bytes_per_row(layers: list[nn.Module], task: Task, device: str) -> dict[tuple[int, int], float]:
    """For every stage a split could make (layers ``first .. last - 1``): the bytes per row it keeps for its
    backward pass on one micro-batch (peak, ``SavedActivations``), on ``SAVED_ROWS`` fresh rows (a stage's
    input arrives as a tensor of its own; the last stage's target too)."""
    x, y = (t.to(device) for t in task.make_batch(SAVED_ROWS, 1))
    inputs = [x]
    with torch.no_grad():
        for layer in layers[:-1]:
            inputs.append(layer(inputs[-1]))
    out = {}
    for first in range(len(layers)):
        for last in range(first + 1, len(layers) + 1):
            stage = nn.Sequential(*layers[first:last])
            with SavedActivations(exclude=stage) as saved:
                h = stage(inputs[first].clone().requires_grad_(first > 0))
                (task.loss_fn(h, y.clone()) if last == len(layers) else h.sum()).backward()
            out[first, last] = saved.peak / SAVED_ROWS
    return out


def memory_cap(profile: Profile) -> float:
    """Exercise B's cap, in bytes: what each stage may keep for its backward passes at once, ``CAP_SHARE`` of
    what one worker keeps for the whole batch (all the layers, every row)."""
    return CAP_SHARE * profile.batch * profile.saved_per_row(0, len(profile.layers[1]))


WORK_COLUMNS = ["m", "rows per micro-batch", "one micro-batch, all layers ms", "m of them ms", "vs the whole batch"]


def layer_ms(profile: Profile, m: int, k: int) -> float:
    """Layer ``k``'s forward + backward on one micro-batch at ``m``, ms, as the per-layer table prints it (three
    decimals): the figure every sum of layers on the page is worked from."""
    return as_printed(profile.layers[m][k], 3, scale=1e-3)


def _one_micro_batch_ms(profile: Profile, m: int) -> float:
    """One micro-batch's forward + backward through every layer at ``m``, ms, as the table prints it: the
    per-layer figures as printed (``layer_ms``), added up and rounded half up, so that a reader who adds the
    per-layer table's column finds it (0.228 + ... + 0.323 = 10.455, printed 10.46)."""
    return half_up(sum(layer_ms(profile, m, k) for k in range(len(profile.layers[m]))), 2)


def _step_work_ms(profile: Profile, m: int) -> float:
    """The layers' work of a step cut into ``m`` micro-batches, ms: ``m`` times one micro-batch's figure as
    printed, so that a reader who multiplies the table's column finds the next one (64 x 7.88 is 504.3)."""
    return m * _one_micro_batch_ms(profile, m)


def _step_work_printed(profile: Profile, m: int) -> float:
    """A step's layer work at ``m`` as the table prints it, to 0.1 ms half up, as a reader rounds 1 x 195.25
    (195.3; ``:.1f`` and ``round`` give 195.2: t37_labs03 #1)."""
    return half_up(_step_work_ms(profile, m), 1)


def work_vs_whole(profile: Profile, m: int) -> float:
    """A step's layer work at ``m`` over the whole batch's (m=1), both as the table prints them (0.1 ms)."""
    return half_up(_step_work_printed(profile, m) / (_step_work_printed(profile, 1) or 0.1), 2)


def work_per_step_rows(profile: Profile) -> list[tuple]:
    """The notebook's table of layer work per step (``WORK_COLUMNS``), one row per m the profile measured:
    each figure worked from the one printed before it, as a reader redoes it."""
    return [(m, profile.batch // m, f"{_one_micro_batch_ms(profile, m):.2f}", f"{_step_work_printed(profile, m):.1f}",
             f"{work_vs_whole(profile, m):.2f}x") for m in profile.ms]


ABOUT_THE_SAME = 0.05  # the least difference in a step's work read as one, however steady the layers


def work_spread(profile: Profile) -> float:
    """The spread of a step's work at m=1, as a share: each layer's spread as the per-layer table prints it
    (whole percent) weighted by its work as printed, rounded half up to the percent the page prints. A step's
    work that differs from the whole batch's by less is noise (the table's caption); never under
    ``ABOUT_THE_SAME``."""
    work = [layer_ms(profile, 1, k) for k in range(len(profile.layers[1]))]
    spreads = [half_up(s * 100, 0) for s in profile.spread.get(1, [0.0] * len(work))]
    weighted = sum(s * w for s, w in zip(spreads, work)) / (sum(work) or 1.0)
    return max(half_up(weighted, 0) / 100, ABOUT_THE_SAME)


def _first_m_above(profile: Profile, noise: float) -> int | None:
    """The smallest m whose step work is more than ``noise`` above the whole batch's, as printed; None where
    no m is."""
    return next((m for m in profile.ms if work_vs_whole(profile, m) > 1 + noise), None)


def work_growth_line(profile: Profile) -> str:
    """What the table says of the smallest micro-batches, from its last row, judged by the step's spread
    (``work_spread``: a smaller difference is noise), every branch written: more than the spread above the
    whole batch's work (then from which m on, since the cost of a small micro-batch is measured, not assumed),
    more than the spread below it, or within it."""
    most, noise = max(profile.ms), work_spread(profile)
    growth, first = work_vs_whole(profile, most), _first_m_above(profile, noise)
    beyond = growth > 1 + noise or growth < 1 - noise
    judged = (f"At m={most} the layers' work is {growth:.2f}x the whole batch's, "
              f"{'beyond' if beyond else 'within'} their {noise:.0%} spread.\n")
    if not beyond:
        return judged + "On this machine small micro-batches cost about what their rows do."
    if growth < 1:
        return judged + "Small micro-batches cost less per row here."
    since = f", from m={first} on ({work_vs_whole(profile, first):.2f}x)" if first not in (None, most) else ""
    return judged + f"Small micro-batches cost more per row here{since}."


def _empty_task() -> Task:
    """Two tiny layers (8 features): a pipeline of them costs what its micro-batches cost, nearly nothing else."""
    def build(seed: int = 0):
        with models.seeded(seed):
            return nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 8))

    def batch(rows: int, seed: int):
        g = torch.Generator().manual_seed(seed)
        return torch.randn(rows, 8, generator=g), torch.randn(rows, 8, generator=g)

    return Task(build, batch, mse, name="nearly empty pipeline")


def empty_step_ms(seconds: float) -> float:
    """One step of the nearly empty pipeline, ms, as its table prints it (two decimals)."""
    return as_printed(seconds, 2, scale=1e-3)


def per_micro_batch_seconds(steps: dict[int, float]) -> float:
    """The slope of the nearly empty pipeline's step time over m (least squares): what one more micro-batch
    costs. In a two-stage pipeline each of the m + 1 slots pays it once, so it is what a micro-batch costs
    each stage beyond its layers. Worked from the steps as printed (``empty_step_ms``) and rounded half up to
    the 0.01 ms the notebook prints, so that the figure every prediction uses is the printed one, and a reader
    who fits the printed steps finds it (7.65, 15.78, 60.48 ms at m = 4, 16, 64: 0.895, printed 0.90).
    Never below zero."""
    ms, ts = list(steps), [empty_step_ms(t) for t in steps.values()]
    mean_m, mean_t = statistics.fmean(ms), statistics.fmean(ts)
    slope = sum((m - mean_m) * (t - mean_t) for m, t in zip(ms, ts)) / sum((m - mean_m) ** 2 for m in ms)
    return max(half_up(slope, 2), 0.0) / 1e3


def layers_as_printed(layers: dict[int, list[float]]) -> dict[int, list[float]]:
    """Every layer's seconds as the per-layer table prints them (0.001 ms, half up): the figures every
    prediction is worked from, so that a reader who plays the schedule on the printed table finds the printed
    speed-up (t38_labs03 #2: 0.76504 from the table, 0.76x from the unrounded seconds)."""
    return {m: [half_up(t * 1e3, 3) / 1e3 for t in ts] for m, ts in layers.items()}


def measure_profile(settings: LabSettings | None = None, repeats: int = PROFILE_REPEATS, ms=CANDIDATE_M,
                    rounds: int = 5) -> Profile:
    """The lab model's profile, measured now: every layer on one micro-batch of each m in ``ms`` (one
    launched worker), then GPipe of the nearly empty model with each m of ``OVERHEAD_M`` (two workers,
    rounds interleaved, lesson 02's ``measure_pipeline``) for ``per_micro_batch``."""
    s = settings or current_settings()
    device, threads = stage_devices()[0], worker_threads(2)
    got = launch.launch(profile_worker, lab_task(s), s.batch, list(ms), device, threads, repeats, 0,
                        nprocs=1, timeout=300)[0]
    empty = measure_pipeline(_empty_task(), [1], [Config(s.batch, m) for m in OVERHEAD_M], rounds=rounds,
                             record=False)
    steps = {r.m: r.seconds for r in empty.rows}
    return Profile(s.batch, layers_as_printed(got["layers"]), per_micro_batch_seconds(steps), got["spread"],
                   steps, device, threads, got["saved"])
