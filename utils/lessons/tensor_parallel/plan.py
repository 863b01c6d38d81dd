"""Lesson 07's hardware decisions, made in one place from the device plan (and checked on every fake machine
by ``tests/test_modes_tensor_parallel.py``): sizes of the timelines and of the cost sweep, threads per
worker, the speedup bound, the label every figure carries, and the links of the crossover table.

    S = lesson_settings(devices.plan(2), devices.hardware())

Nothing here touches CUDA.
"""

from __future__ import annotations

from dataclasses import dataclass

from utils import devices, gpu_specs
from utils.claims import as_printed
from utils.lessons.tensor_parallel.cost import Timing
from utils.lessons.tensor_parallel.inference import Generation
from utils.lessons.tensor_parallel.timelines import Blocks

CPU_WIDTHS = (32, 64, 128, 256, 512)  # the largest: ~40 ms a step on one core
GPU_WIDTHS = (256, 512, 1024, 2048, 4096)  # 4096: a 2 x 4096 x 16384 MLP, ~0.2 s a step on a T4
CPU_TOKENS, GPU_TOKENS = 256, 2048
CPU_SIZES = tuple(2**k for k in range(12, 23, 2))  # all-reduces of 4 KiB .. 4 MiB (messages: 32 KiB .. 1 MiB)
GPU_SIZES = tuple(2**k for k in range(16, 27, 2))  # 64 KiB .. 64 MiB (messages: 2 MiB .. 32 MiB)
CPU_BLOCKS = Blocks(width=512, heads=8, depth=2, batch=4, context=64, rounds=2, threads=1)
GPU_BLOCKS = Blocks(width=2048, heads=16, depth=2, batch=8, context=512, rounds=2)
CPU_GENERATION = Generation(width=256, depth=4, heads=4, prompt=24, new_tokens=8, batches=(1, 4, 16),
                            threads=1)
GPU_GENERATION = Generation(width=1024, depth=8, heads=16, prompt=128, new_tokens=16, batches=(1, 8, 32))
# The crossover table: datasheet peaks (bf16, dense) and links, 2 bytes a value; alpha left out.
# Each pair as it is sold: A100 PCIe cards over PCIe 4.0, A100 SXM cards over NVLink (gpu_specs).
DATASHEET_PAIRS = (("T4", "PCIe 3.0 x16", "fp16"), ("A100 PCIe 80GB", "PCIe 4.0 x16", "bf16"),
                   ("A100 SXM 80GB", "NVLink 3 (A100, 12 links)", "bf16"),
                   ("H100 SXM 80GB", "NVLink 4 (H100/H200, 18 links)", "bf16"))


@dataclass(frozen=True)
class LessonSettings:
    timing: Timing  # the cost sweep (section 5) and the benchmark
    blocks: Blocks  # the timelines (section 1)
    generation: Generation  # inference on two devices (section 5)
    threads_per_worker: int | None
    backend: str
    bound: float  # best split-step speedup over one device this plan allows
    bound_why: str
    label: str  # appended to every figure: where it was measured
    link: str  # the link between the two ranks, in words

    def datasheet_rows(self) -> list[tuple[str, str, str, float, float]]:
        """(GPU, link, dtype, peak FLOP/s, link bytes/s) of the crossover table, datasheet figures as the
        table prints them (whole TFLOP/s, GB/s to 2 decimals): the widths and ratios worked from them are then
        the reader's own (31.504 GB/s would print as 31.50 and divide as 31.504)."""
        rows = []
        for gpu, link, dtype in DATASHEET_PAIRS:
            peak = as_printed(gpu_specs.KNOWN_GPUS[gpu].peak_flops[dtype], 0, 1e12) * 1e12
            rows.append((gpu, link, dtype, peak, as_printed(gpu_specs.LINKS[link], 2, 1e9) * 1e9))
        return rows


def _bound(plan: devices.Plan, hw: devices.Hardware) -> tuple[float, str]:
    if plan.simulated:
        if hw.cpu_cores >= 2:
            return 2.0, "each worker has a core of its own, with one thread per worker"
        return 1.0, "one core: the two workers take turns on it"
    if len(set(plan.devices)) < plan.world_size:
        return 1.0, "both ranks share one GPU and take turns on it: about 1x at best"
    return 2.0, "each rank has a GPU of its own and does half of every matmul"


def _names(hw: devices.Hardware, n: int) -> str:
    return " / ".join(sorted({g.name for g in hw.gpus[:n]})) or "GPU"


def lesson_settings(plan: devices.Plan, hw: devices.Hardware) -> LessonSettings:
    """Every hardware-dependent choice of lesson 07 for the 2-worker ``plan`` on ``hw``."""
    gpus = not plan.simulated
    shared = gpus and len(set(plan.devices)) < plan.world_size
    if not gpus:
        label, link = " (simulated on CPU)", "loopback TCP between two processes (gloo)"
    elif shared:
        label, link = f" (2 ranks sharing one {_names(hw, 1)})", "none: both ranks on one GPU (gloo)"
    else:
        label = f" (on {plan.world_size} x {_names(hw, plan.world_size)})"
        link = hw.link.describe() if hw.link else "unknown link"
    threads = None if gpus else 1
    timing = Timing(widths=GPU_WIDTHS if gpus else CPU_WIDTHS, tokens=GPU_TOKENS if gpus else CPU_TOKENS,
                    sizes=GPU_SIZES if gpus else CPU_SIZES, threads=threads)
    bound, why = _bound(plan, hw)
    return LessonSettings(timing=timing, blocks=GPU_BLOCKS if gpus else CPU_BLOCKS,
                          generation=GPU_GENERATION if gpus else CPU_GENERATION, threads_per_worker=threads,
                          backend=plan.backend, bound=bound, bound_why=why, label=label, link=link)
