"""Lesson 06's hardware decisions, made in one place from the device plan: the model's shape, the batch, where
the single-device measurements run, where the two sharding workers run, and what every figure's label says.
The notebook, lab 06 and the ``memory_estimate`` and ``fsdp`` benchmarks read them, and
``tests/test_modes_memory.py`` checks them on every fake machine.

    S = lesson_settings(devices.plan(2), devices.hardware())
    S.shape, S.batch, S.label          # the small GPT's shape, 16 sequences, " (simulated on CPU)" in cpu mode

In ``cpu`` mode the "device" is the CPU: memory is host memory, measured by a tracker that sees every tensor
(``measure.py``). On a GPU the same code runs on the first GPU and ``torch.cuda.max_memory_allocated`` measures.
The sharding section needs a collective that gathers and scatters device tensors between the two ranks: with
two GPUs that is NCCL; on one GPU the ranks would share it over gloo, which cannot all-gather CUDA tensors, so
there the two sharding workers run on the CPU (and say so).
"""

from __future__ import annotations

from dataclasses import dataclass

from utils import devices
from utils.lessons.memory.calculator import Shape

CPU_SHAPE = Shape(vocab=96, context=64, width=128, depth=4, heads=4)   # ~0.8 M parameters: a CPU step ~0.1 s
GPU_SHAPE = Shape(vocab=96, context=256, width=512, depth=8, heads=8)  # ~25 M parameters: milliseconds a step


@dataclass(frozen=True)
class Settings:
    device: str  # where the single-device measurements run: the plan's first device ("cpu" in cpu mode)
    simulated: bool  # cpu mode: the "device" is the CPU and its memory is host memory
    shape: Shape  # the small GPT of every measurement
    batch: int  # sequences per optimizer step on one device
    micro_batches: int  # gradient accumulation's micro-batches per step (section 3): batch / micro_batches each
    steps: int  # optimizer steps each sharding worker runs (section 6)
    lr: float
    torch_threads: int | None  # cpu mode: 1 (steady timings on a shared 2-core machine); None: torch's choice
    shard_devices: tuple[str, ...]  # where the two sharding workers run
    shard_on_cpu: bool  # True where the plan has GPUs but the sharding workers run on the CPU (1gpu)
    shard_shape: Shape  # the model the sharding workers train (CPU sizes when they run on the CPU)
    shard_batch: int  # sequences per rank per step there
    label: str  # appended to every single-device figure: where it was measured
    shard_label: str  # appended to every sharding figure
    shard_note: str  # one line: where the sharding workers run, and why
    autocast: str = "bf16"  # section 4's torch.autocast dtype: fp16 on a GPU without bf16 (before Ampere)

    @property
    def accumulation_batch(self) -> int:
        return self.batch // self.micro_batches

    def describe(self) -> str:
        """The settings in one line, for lesson 06's set-up cell."""
        return (f"a GPT of {self.shape.describe()}, {self.batch} sequences a step, on {self.device}; "
                f"sharding: {self.shard_note}")


def lesson_settings(plan: devices.Plan, hw: devices.Hardware | None) -> Settings:
    """Lesson 06's settings for this plan: CPU sizes in cpu mode, GPU sizes on a GPU; sharding on the plan's
    devices with two GPUs, on two CPU workers otherwise."""
    device = plan.devices[0]
    if plan.simulated:
        return Settings(device="cpu", simulated=True, shape=CPU_SHAPE, batch=16, micro_batches=4, steps=6,
                        lr=1e-3, torch_threads=1, shard_devices=("cpu", "cpu"), shard_on_cpu=False,
                        shard_shape=CPU_SHAPE, shard_batch=8, label=" (simulated on CPU)",
                        shard_label=" (simulated on CPU: 2 CPU workers on gloo)",
                        shard_note="2 CPU workers on gloo standing in for 2 GPUs")
    gpu = hw.gpus[0] if hw is not None and hw.gpus else None
    name = f"{device}, {gpu.name}" if gpu else device
    low = "bf16" if gpu is None or (gpu.compute_capability or (0, 0)) >= (8, 0) else "fp16"
    distinct = len(set(plan.devices)) == plan.world_size
    if distinct:  # a GPU per rank: NCCL gathers and scatters device tensors
        shards = plan.devices
        return Settings(device=device, simulated=False, shape=GPU_SHAPE, batch=32, micro_batches=4, steps=4,
                        lr=1e-3, torch_threads=None, shard_devices=shards, shard_on_cpu=False,
                        shard_shape=GPU_SHAPE, shard_batch=16, label=f" (on {name})",
                        shard_label=f" (on {', '.join(shards)}, {plan.backend})",
                        shard_note=f"{', '.join(shards)} on {plan.backend}", autocast=low)
    return Settings(device=device, simulated=False, shape=GPU_SHAPE, batch=32, micro_batches=4, steps=4,
                    lr=1e-3, torch_threads=None, shard_devices=("cpu", "cpu"), shard_on_cpu=True,
                    shard_shape=CPU_SHAPE, shard_batch=8, label=f" (on {name})",
                    shard_label=" (on 2 CPU workers: gloo cannot all-gather CUDA tensors on a shared GPU)",
                    shard_note="2 CPU workers on gloo: with one GPU the ranks would share it, and gloo cannot "
                               "all-gather CUDA tensors", autocast=low)


def current_settings() -> Settings:
    """Lesson 06's settings for the machine this runs on (lab 06 and the benchmarks use it)."""
    return lesson_settings(devices.plan(2), devices.hardware())
