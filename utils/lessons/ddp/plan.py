"""Lesson 03's hardware decisions, made in one place from the device plan (and checked on every fake machine
by ``tests/test_modes_ddp.py``): model and batch sizes, threads per worker, the scaling bound and the backend
of both scaling runs, the all-reduce sizes and bound, the hooks compared, and the label every figure carries.

    S = lesson_settings(devices.plan(2), devices.hardware())
    BASE = S.training(steps=30, warmup_steps=3)        # a recipe.Settings for this machine

The notebook, the ``ddp`` benchmark and the tests all ask this function; nothing here touches CUDA.
"""

from __future__ import annotations

from dataclasses import dataclass

from utils import devices, machine, precision
from utils.lessons.ddp.settings import Settings

CPU_MODEL = dict(context=64, width=128, depth=4, heads=4)  # ~0.83 M parameters: ~0.12 s a step on one core
GPU_MODEL = dict(context=256, width=512, depth=8, heads=8)  # ~25 M parameters: milliseconds a step on a GPU
CPU_BATCH, GPU_BATCH = 16, 32  # sequences per worker per micro-batch
CPU_ALLREDUCE_SIZES = tuple(2**12 * 4**k for k in range(7))  # 4 KiB ... 16 MiB
GPU_ALLREDUCE_SIZES = tuple(2**12 * 4**k for k in range(9))  # 4 KiB ... 256 MiB: past the link's plateau
# One bucket for all gradients: PowerSGD on gloo needs it (section 5); every hook compared gets the same.
CPU_BUCKET_MB, GPU_BUCKET_MB = 25, 256  # the CPU model's gradients are 3.3 MB, the GPU model's about 100 MB
# "none" first: DDP's built-in reduction is the reference every hook is compared with.
HOOKS = ("none", "allreduce", "fp16", "bf16", "powersgd")  # bf16 too on gloo: torch 2.13's gloo all-reduces bfloat16
NATIVE_BF16_CC = (8, 0)  # bf16 arithmetic in hardware from compute capability 8.0 (A100) on


@dataclass(frozen=True)
class LessonSettings:
    model: dict  # GPT sizes: context, width, depth, heads
    batch_per_worker: int
    threads_per_worker: int | None  # torch threads per worker; None: the launcher's choice (GPUs)
    backend: str  # of every 2-worker launch, and of the 1-worker scaling run too (same backend, same costs)
    scaling_bound: float  # best 2-worker / 1-worker samples/s this plan allows (or expects, see below)
    scaling_bound_why: str
    label: str  # appended to every figure: where the number was measured
    allreduce_sizes: tuple[int, ...]  # bytes, smallest first
    allreduce_bound: float | None  # bytes/s of the link between the ranks; None: no link, or measured here
    allreduce_bound_label: str
    measure_host_bound: bool  # cpu: the bound is this machine's host memcpy, measured in the notebook
    bucket_mb: int  # DDP bucket size of the hook comparison
    hooks: tuple[str, ...]  # communication hooks compared in section 5
    bf16_note: str  # why bf16 is not the 16-bit choice here ("" where it is)
    powersgd_trap: bool  # show PowerSGD with default buckets (a gloo race)
    deterministic: bool  # deterministic kernels for the restart comparison (GPUs)
    restart_tolerance: float  # largest weight gap after a restart that still counts as "the same weights"
    restart_tolerance_why: str
    # False where the two ranks share one device (a GPU, or one core): about 1x is then an expectation, not a
    # bound; a measured round above it is reported like any other, never discarded for passing it.
    scaling_is_bound: bool = True
    # What a healthy all-reduce's busbw reaches on this link, as shares of ``allreduce_bound`` (None: no link
    # between the ranks): from the peer access and the fabric the driver reports (``machine.all_reduce_expectation``)
    allreduce_expected: machine.BusExpectation | None = None
    # The arithmetic every run of the lesson trains in (utils.precision): fp32 on CPU workers; on GPUs what a
    # practitioner uses there (bf16 autocast from Ampere on, fp16 with a scaler on a T4). In fp32 without TF32
    # a GPU's step would be so slow that it hid any all-reduce, and bucket size and overlap would not show.
    precision: str = "fp32"
    loss_tolerance: float = 1e-3  # largest gap between DDP's losses and one process's that counts as the same
    loss_tolerance_why: str = "float32 sums: 1e-3"

    def training(self, **changes) -> Settings:
        """The recipe's ``Settings`` with this machine's model, batch, threads and precision (plus ``changes``)."""
        return Settings(batch_per_worker=self.batch_per_worker, threads=self.threads_per_worker,
                        precision=self.precision, **self.model).scaled(**changes)


def _gpu_names(hw: devices.Hardware, n: int) -> str:
    names = sorted({g.name for g in hw.gpus[:n]}) or ["GPU"]
    return " / ".join(names)


def _scaling_bound(plan: devices.Plan, hw: devices.Hardware) -> tuple[float, str]:
    """Two workers can at best do twice the work per second only on two devices of their own."""
    if plan.simulated:  # one thread per worker: each worker needs a core of its own
        cores = hw.cpu_cores
        if cores >= 2:
            return 2.0, ("one thread per worker on the machine's cores: one core for each, and the all-reduce's "
                         "copies and sums run on those same cores")
        return 1.0, "one core: the two workers take turns on it"
    if len(set(plan.devices)) < plan.world_size:
        return 1.0, "both ranks share one GPU and take turns on it (lesson 02's case)"
    return 2.0, "each rank has a GPU of its own"


def _allreduce_bound(plan: devices.Plan, hw: devices.Hardware) -> tuple[float | None, str]:
    if plan.simulated:
        return None, "host memcpy, measured (lesson 00)"
    if len(set(plan.devices)) < plan.world_size:
        return None, "both ranks share one GPU: no link between them"
    if hw.link and hw.link.bandwidth:
        return hw.link.bandwidth, f"link peak: {hw.link.describe()}"
    return None, "link bandwidth unknown"


def _restart(plan: devices.Plan, lr: float) -> tuple[bool, float, str]:
    if plan.simulated:
        return False, 0.0, "exact: the CPU kernels and gloo repeat every sum in the same order"
    # Deterministic kernels (torch.use_deterministic_algorithms, warn_only) make a GPU run repeatable; a
    # kernel with no deterministic version only warns. A thirtieth of one AdamW step (each step moves a
    # weight by up to about lr) still tells a faithful resume from one that lost or repeated a step.
    return True, lr / 30, (f"within lr/30 = {lr / 30:.0e}: deterministic kernels on the GPU; a resume that lost "
                           f"or repeated a step, or the optimizer's state, is off by about a whole step (~lr)")


def _precision(used: list, gpus: bool) -> tuple[str, float, str]:
    """The regime of the lesson's runs on the GPUs ``used`` (the oldest decides), and how far DDP's losses
    may then lie from one process's: 16-bit matmuls, summed in other orders by one and two workers."""
    if not gpus:
        return "fp32", 1e-3, "float32 sums: 1e-3"
    ccs = [tuple(g.compute_capability) for g in used if g.compute_capability]
    regime = precision.training_regime(min(ccs) if ccs else None)
    if regime == "fp32":
        return regime, 1e-3, "float32 sums: 1e-3"
    return regime, 2e-2, f"{regime} matmuls (8-11 bits), other orders: 2e-2"


def lesson_settings(plan: devices.Plan, hw: devices.Hardware) -> LessonSettings:
    """Every hardware-dependent choice of lesson 03 for the 2-worker ``plan`` on ``hw``."""
    gpus = not plan.simulated
    shared = gpus and len(set(plan.devices)) < plan.world_size
    if not gpus:
        label = " (simulated on CPU)"
    elif shared:
        label = f" (2 ranks sharing one {_gpu_names(hw, 1)})"
    else:
        label = f" (on {plan.world_size} x {_gpu_names(hw, plan.world_size)})"
    bound, why = _scaling_bound(plan, hw)
    ar_bound, ar_label = _allreduce_bound(plan, hw)
    used = hw.gpus[:1] if shared else hw.gpus[:plan.world_size]
    old = [g for g in used if g.compute_capability and tuple(g.compute_capability) < NATIVE_BF16_CC] if gpus else []
    bf16_note = (f"{old[0].name} (compute capability {'.'.join(map(str, old[0].compute_capability))}) has no bf16 "
                 f"arithmetic: torch emulates it, so fp16 is the 16-bit choice there" if old else "")
    deterministic, tolerance, tolerance_why = _restart(plan, Settings.lr)
    regime, loss_tolerance, loss_why = _precision(used, gpus)
    return LessonSettings(
        model=dict(GPU_MODEL if gpus else CPU_MODEL), batch_per_worker=GPU_BATCH if gpus else CPU_BATCH,
        threads_per_worker=None if gpus else 1, backend=plan.backend, scaling_bound=bound,
        scaling_bound_why=why, label=label,
        allreduce_sizes=GPU_ALLREDUCE_SIZES if gpus else CPU_ALLREDUCE_SIZES,
        allreduce_bound=ar_bound, allreduce_bound_label=ar_label, measure_host_bound=plan.simulated,
        bucket_mb=GPU_BUCKET_MB if gpus else CPU_BUCKET_MB, hooks=HOOKS, bf16_note=bf16_note,
        powersgd_trap=plan.backend == "gloo", deterministic=deterministic, restart_tolerance=tolerance,
        restart_tolerance_why=tolerance_why, scaling_is_bound=bound > 1.0,
        allreduce_expected=machine.all_reduce_expectation(hw.link, used, plan.world_size) if ar_bound else None,
        precision=regime, loss_tolerance=loss_tolerance, loss_tolerance_why=loss_why)
