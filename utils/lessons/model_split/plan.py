"""Lesson 02's hardware decisions, made in one place from the device plan (and checked on every fake machine by
``tests/test_modes_model_split.py``): which GPT and batches each pipeline runs, where its stages run, where
to split, the bound every speedup is set beside, the label that says where a number was measured, and
whether the CPU-time analysis applies.

    S = lesson_settings(devices.plan(2), devices.hardware())   # the notebook, the benchmarks and lab 02
    task_for(S.sizes), S.split, S.bounds, S.label

Two pipelines, two sets of decisions:
* the **two-worker pipelines** (sections 3 and 5-9): one process per stage. With a GPU per worker (NCCL) the
  stages run on the GPUs; otherwise (``cpu`` mode, and ``1gpu`` mode, where gloo's send/recv move host memory
  only) two CPU processes stand in for the two GPUs: *simulated on CPU*. Either way two devices work, so
  the bound is 2m/(m+1);
* the **one-process GPU pipeline** (section 4a), wherever there is a GPU: on two GPUs its bound is
  2m/(m+1); where both stages share one GPU (``1gpu``) it is 1x, since one device does all the work.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from utils import devices, precision
from utils.lessons.model_split.balance import balanced_split, gpt_layer_costs
from utils.lessons.model_split.bounds import pipeline_bound
from utils.lessons.model_split.schedules import stage_devices_for
from utils.lessons.model_split.tasks import Task, gpt_task


@dataclass(frozen=True)
class Sizes:
    """A GPT's size and the batch sizes (sequences per step) its pipelines are timed with."""

    width: int
    depth: int
    heads: int
    batches: tuple[int, ...]


# About 0.8 M parameters: a step of about a sixth of a second at batch 32 on one CPU core. Two batches, far
# apart: at 32 rows each of m=8 micro-batches holds 4 sequences and its fixed costs (a message, a schedule
# step, small kernels) show; at 128 they are amortised (the pipeline benchmark, 2 cores: 0.82-0.84 of 2m/(m+1)
# at batch 64, 0.87-0.95 at 128).
CPU_SIZES = Sizes(width=128, depth=4, heads=4, batches=(32, 128))
# About 57 M parameters: steps long enough on a GPU that kernels, not their launches, take the time. Batches of
# at most 256: in 1gpu mode the one-process pipeline holds both stages on one GPU (a T4 has 16 GB); larger
# batches have not been tried on a GPU.
GPU_SIZES = Sizes(width=768, depth=8, heads=12, batches=(128, 256))
MICRO_BATCHES = (1, 2, 4, 8)
SIMULATED = " (simulated on CPU)"


@dataclass(frozen=True)
class Settings:
    """Every hardware-dependent choice of lesson 02 (plain values; build it with ``lesson_settings``)."""

    mode: str
    # --- the two-worker pipelines
    workers: tuple[str, ...]  # the device each of the two worker processes runs its stage on
    cpu_workers: bool  # the workers are CPU processes standing in for GPUs (cpu and 1gpu modes)
    sizes: Sizes  # their GPT and batch sizes: CPU_SIZES on CPU workers, GPU_SIZES on GPUs
    layer_costs: tuple[float, ...]  # the cost model (balance.gpt_layer_costs) of that GPT, per layer
    split: tuple[int, ...]  # split points balanced by that cost model (balance.balanced_split)
    micro_batches: tuple[int, ...]  # m values of the speedup sweep
    bounds: tuple[float, ...]  # GPipe's bound for each m: 2m/(m+1) (two devices work, whatever they are)
    label: str  # appended to every two-worker number and figure: where it was measured
    where: str  # one sentence: what the workers are, and why
    transport: str  # how the two workers' activations and gradients travel
    cpu_time_analysis: bool  # CPU/busy, work vs one device, contention: only where workers are CPU processes
    # --- the one-process GPU pipeline (section 4a); None where there is no GPU
    in_process: tuple[str, ...] | None  # its two stages' devices (the same GPU twice in 1gpu mode)
    in_process_sizes: Sizes | None
    in_process_split: tuple[int, ...] | None  # balanced by the cost model for in_process_sizes
    in_process_bounds: tuple[float, ...] | None  # per m: 2m/(m+1) on two GPUs, 1x on one shared GPU
    in_process_label: str  # where its numbers were measured
    # How the timed GPU workers run fp32 matmuls (utils.precision.fp32_regime): on TF32 tensor cores from Ampere
    # on, as a practitioner's fp32 does (IEEE fp32 would make compute hide every message); "fp32" on CPU
    # workers. The checks that compare gradients with the CPU's keep IEEE fp32 everywhere.
    precision: str = "fp32"  # the two-worker pipelines
    in_process_precision: str | None = None  # the one-process GPU pipeline (None: no GPU)

    @property
    def simulated(self) -> bool:
        """True when the two-worker figures come from CPU processes standing in for GPUs."""
        return self.cpu_workers


def balanced_for(sizes: Sizes, n_stages: int = 2) -> tuple[int, ...]:
    """The split points that balance ``sizes``' GPT by the lesson's cost model."""
    return tuple(balanced_split(gpt_layer_costs(sizes.width, sizes.depth, sizes.heads), n_stages))


def task_for(sizes: Sizes, seed: int = 0) -> Task:
    """The lesson's GPT at ``sizes`` as a pipeline ``Task`` (same seeded weights in every worker)."""
    return gpt_task(sizes.width, sizes.depth, sizes.heads, seed=seed)


def _transport(plan: devices.Plan, hw: devices.Hardware, cpu_workers: bool) -> str:
    if cpu_workers:
        return "gloo over loopback TCP between two processes on this machine"
    link = hw.link
    if link is None:
        return f"NCCL between {' and '.join(plan.devices)}"
    staged = " without peer access (NCCL stages them through host memory)" if link.peer_access is False else ""
    return f"NCCL over {link.describe()}{staged}"


def _where(plan: devices.Plan, cpu_workers: bool) -> str:
    if not cpu_workers:
        return f"each worker process runs its stage on its own GPU ({', '.join(plan.devices)}, NCCL)"
    if plan.mode == "cpu":
        return "two CPU processes stand in for the two GPUs, as there is no GPU here"  # LABEL follows in brackets
    return ("two CPU processes stand in for the two GPUs: this machine gives the two workers one GPU to "
            "share, over gloo, whose send and receive move host memory only")


def lesson_settings(plan: devices.Plan, hw: devices.Hardware, cpu: Sizes = CPU_SIZES, gpu: Sizes = GPU_SIZES,
                    micro_batches: Sequence[int] = MICRO_BATCHES) -> Settings:
    """Lesson 02's settings for the two-worker ``plan`` (``devices.plan(2)``) on hardware ``hw``.

    Sizes grow where the stages run on GPUs; split points are always the cost model's balanced ones for
    the GPT that runs; bounds are what the devices allow (one shared GPU: 1x); labels name where each
    number is measured.
    """
    workers = stage_devices_for(plan)
    cpu_workers = workers[0] == "cpu"
    sizes = cpu if cpu_workers else gpu
    ms = tuple(micro_batches)
    has_gpu = plan.devices[0] != "cpu"
    shared = has_gpu and len(set(plan.devices)) == 1  # 1gpu mode: both stages on one GPU
    if cpu_workers:
        label = SIMULATED
    else:
        label = f" (on {' and '.join(workers)})"
    if not has_gpu:
        in_label = ""
    elif shared:
        in_label = f" (one process, both stages on {plan.devices[0]}: one device)"
    else:
        in_label = f" (one process, stages on {' and '.join(plan.devices)})"
    return Settings(
        mode=plan.mode, workers=workers, cpu_workers=cpu_workers, sizes=sizes,
        layer_costs=tuple(gpt_layer_costs(sizes.width, sizes.depth, sizes.heads)), split=balanced_for(sizes),
        micro_batches=ms, bounds=tuple(pipeline_bound(m) for m in ms), label=label,
        where=_where(plan, cpu_workers), transport=_transport(plan, hw, cpu_workers),
        cpu_time_analysis=cpu_workers,
        in_process=tuple(plan.devices) if has_gpu else None, in_process_sizes=gpu if has_gpu else None,
        in_process_split=balanced_for(gpu) if has_gpu else None,
        in_process_bounds=(tuple(1.0 if shared else pipeline_bound(m) for m in ms) if has_gpu else None),
        in_process_label=in_label,
        precision="fp32" if cpu_workers else precision.fp32_regime(_capability(hw, workers)),
        in_process_precision=precision.fp32_regime(_capability(hw, plan.devices)) if has_gpu else None)


def _capability(hw: devices.Hardware, devs) -> tuple[int, int] | None:
    """The lowest compute capability among the GPUs ``devs`` names ("cuda:0", ...): the slowest decides."""
    ccs = [hw.gpus[int(d.split(":")[1])].compute_capability for d in devs
           if d.startswith("cuda:") and int(d.split(":")[1]) < len(hw.gpus)]
    ccs = [tuple(c) for c in ccs if c]
    return min(ccs) if ccs else None
