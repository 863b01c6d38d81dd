"""Lesson 05's hardware decisions, made in one place from the device plan: the sizes, where the step runs, which
cells apply and what every figure's label says. The notebook, lab 05 and the ``prefetch`` benchmark all read
them, and ``tests/test_modes_data_prefetch.py`` checks them on every fake machine.

    S = lesson_settings(devices.plan(2), devices.hardware())
    S.items, S.batch, S.label        # 512, 16, " (simulated on CPU)" in cpu mode

In ``cpu`` mode the "device" is the training process: its step is held to ``step_ms`` (a GPU's fixed speed,
simulated), and the sizes fit a 2-core laptop. On a GPU the step is the real CNN step on the first GPU, with
batches 32x larger: at 16 images a step is a few kernel launches, and the loader's per-batch costs (a hand-over
between processes, a pinned copy) would swamp both terms. Larger batches still, and the loader's per-image CPU
work (slicing, collating, the shared-memory hand-over of the workers) starts to compete with the reads on a
host with few cores (Colab's two): 512 keeps the reads the larger part.
"""

from __future__ import annotations

from dataclasses import dataclass

from utils import devices

BATCHES_PER_EPOCH = 32  # in every mode: the timelines, the first-batch start-up and the warm-up read the same


@dataclass(frozen=True)
class Settings:
    device: str  # where the training step runs: the first device of the plan ("cpu" stands in for a GPU)
    simulated: bool  # cpu mode: the device is the training process, its step paced to ``step_ms``
    batch: int  # images per batch
    items: int  # images per epoch: BATCHES_PER_EPOCH batches
    read_ms_per_item: float  # simulated storage time per image read: a wait, in every mode
    open_ms: float  # simulated one-off set-up per reading process (opening the file): each worker pays it
    step_ms: float  # a training step takes at least this long; > 0 only where the device is simulated
    torch_threads: int | None  # cpu mode: 1 (one core trains, the other is left to the loader); None: torch's
    worker_counts: tuple[int, ...]  # DataLoader workers to compare
    prefetch_factors: tuple[int, ...]  # batches each worker loads ahead
    uneven_every: int  # for prefetch_factor: every uneven_every-th batch reads uneven_factor times slower ...
    uneven_factor: float  # ... and the others faster: the same L, uneven reads (dataset.uneven_weights)
    ranks: int  # DDP ranks of section 6, each with its own loader (the plan's world size)
    rank_worker_counts: tuple[int, ...]  # workers per rank there: 0, the cores divided between ranks, more
    pin_memory: bool  # page-locked batches: only where a GPU copies them (without one torch warns)
    transfer_images: int  # images of 3 x transfer_side x transfer_side for the transfer measurements
    transfer_side: int
    pcie_bandwidth: float | None  # bytes/s host to the GPU, one direction: the pinned copy's bound; None: none
    label: str  # appended to every time measured with the device's step: where it was measured
    load_label: str  # appended to the load term L: the reads are simulated storage, on the host CPU
    transfer_label: str  # appended to the transfer timings: what the copy crossed

    @property
    def read_seconds(self) -> float:
        return self.read_ms_per_item / 1e3

    @property
    def step_seconds(self) -> float:
        return self.step_ms / 1e3

    def describe(self) -> str:
        """The settings in one line, for the notebook's set-up cell."""
        step = (f"each step held to at least {self.step_ms:.0f} ms (a GPU's speed, simulated)" if self.step_ms
                else "the real step, as fast as the GPU runs it")
        return (f"the step runs on {self.device}: {step}; {self.items:,} images in batches of {self.batch:,} "
                f"({self.items // self.batch} batches an epoch), a read {self.read_ms_per_item:g} ms an image, "
                f"{self.open_ms:.0f} ms to open per reading process")


def rank_workers(plan: devices.Plan, hw: devices.Hardware | None) -> tuple[int, ...]:
    """Loader workers per DDP rank that section 6 compares: none, the host's cores divided between the ranks,
    and every core for each rank (oversubscribed), never more than a rank's batches."""
    cores = hw.cpu_cores if hw is not None else devices.cpu_cores()
    per_rank_batches = BATCHES_PER_EPOCH // plan.world_size
    divided = max(1, cores // plan.world_size)
    return tuple(dict.fromkeys(min(w, per_rank_batches) for w in (0, divided, max(cores, 2 * divided))))


def lesson_settings(plan: devices.Plan, hw: devices.Hardware | None) -> Settings:
    """Lesson 05's settings for this plan: CPU sizes and a paced step in cpu mode, GPU sizes on a GPU.

    A batch's read costs about the same wall time in every mode (48 ms on CPU, 41 ms on a GPU: faster storage
    for a faster device), so loading stays a term worth hiding; what the step costs is measured in the run.
    On a GPU the read (80 us an image) stays well above the CPU work a loader does per image (a few us), so
    two loaders can halve the load term even on a host with few cores.
    """
    device = plan.devices[0]
    if plan.simulated:
        return Settings(device=device, simulated=True, batch=16, items=16 * BATCHES_PER_EPOCH,
                        read_ms_per_item=3.0, open_ms=200.0, step_ms=40.0, torch_threads=1,
                        worker_counts=(1, 2, 4), prefetch_factors=(1, 2, 4), uneven_every=8,
                        uneven_factor=4.0, ranks=plan.world_size,
                        rank_worker_counts=rank_workers(plan, hw), pin_memory=False,
                        transfer_images=32, transfer_side=224, pcie_bandwidth=None,
                        label=" (simulated on CPU)", load_label=" (simulated storage, read on the CPU)",
                        transfer_label=" (simulated on CPU: host memory stands in for the link)")
    gpu = hw.gpus[0] if hw is not None and hw.gpus else None
    name = f"{device}, {gpu.name}" if gpu else device
    return Settings(device=device, simulated=False, batch=512, items=512 * BATCHES_PER_EPOCH,
                    read_ms_per_item=0.08, open_ms=200.0, step_ms=0.0, torch_threads=None,
                    worker_counts=(1, 2, 4), prefetch_factors=(1, 2, 4), uneven_every=8, uneven_factor=4.0,
                    ranks=plan.world_size, rank_worker_counts=rank_workers(plan, hw), pin_memory=True,
                    transfer_images=128, transfer_side=224, pcie_bandwidth=gpu.pcie_bandwidth if gpu else None,
                    label=f" (step on {name})", load_label=" (simulated storage, read on the CPU)",
                    transfer_label=f" (host to {device} over PCIe)")


def current_settings() -> Settings:
    """The settings for the machine this runs on (the lab's checks and the benchmark use it)."""
    return lesson_settings(devices.plan(2), devices.hardware())
