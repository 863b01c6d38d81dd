"""Copy bandwidth against the peak of the path it crosses: the first measurement of the course.

Introduced in lesson 00 (``notebooks/00_start_here.ipynb``); ``utils/benchmarks/copy.py`` is its benchmark.

Paths measured, by mode:
    cpu         host memcpy (RAM to RAM: what two simulated "GPUs" use to swap tensors)
    1gpu, 2gpu  host-to-device from pageable memory, from pinned memory, device-to-device on GPU 0,
                and GPU 0 to GPU 1 when there are two

Bounds: on a GPU they are datasheet-style peaks computed from what NVML reports (PCIe generation x width,
NVLink version x links, memory clock x bus width). On a CPU no such figure is readable by software, so
the bound is the machine's own measured read-stream rate, halved because a copy reads and writes every
byte: a reference to compare against, and the lesson says so.

GPU measurements run in a separate *spawned* process, so that the notebook process never initialises
CUDA (later lessons fork workers from it, and a forked child cannot use its parent's CUDA).
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import matplotlib.pyplot as plt
import torch

from utils import bench, devices
from utils.plots import size_label
from utils.tables import Table

KIB, MIB = 2**10, 2**20
DEFAULT_SIZES = [64 * KIB, 256 * KIB, 1 * MIB, 4 * MIB, 16 * MIB, 64 * MIB]


@dataclass(frozen=True)
class CopyPoint:
    """One measured copy: ``path`` moved ``size`` bytes in ``seconds`` (median); ``bound`` in bytes/s."""

    path: str
    size: int
    seconds: float
    bound: float | None

    @property
    def rate(self) -> float:
        return self.size / self.seconds

    @property
    def fraction_of_bound(self) -> float | None:
        return self.rate / self.bound if self.bound else None


def read_stream_rate(size: int = 64 * MIB, repeats: int = 5) -> float:
    """Bytes per second this machine reads when streaming through ``size`` bytes (a float32 sum)."""
    x = torch.ones(size // 4, dtype=torch.float32)
    m = bench.measure(lambda: x.sum(), warmup=1, repeats=repeats)
    return size / m.min  # the fastest run is the closest to what the memory system can do


def time_copy(dst, src, device: str | None, repeats: int) -> float:
    """Median seconds of ``dst.copy_(src)``; ``bench.measure`` synchronises the device around each run."""
    m = bench.measure(lambda: dst.copy_(src, non_blocking=False), warmup=2, repeats=repeats, device=device)
    return m.median


def host_copies(sizes: list[int], repeats: int = 5) -> list[CopyPoint]:
    """Host memcpy (RAM to RAM) for each size, against half the measured read-stream rate."""
    # The reference is measured before and after the copies and the faster kept: another program taking a
    # core for a moment (a busy laptop, a shared server) must not lower it below what the memory can do.
    before = read_stream_rate(max(sizes), repeats=9)
    times = []
    for size in sizes:
        src = torch.ones(size, dtype=torch.uint8)
        dst = torch.empty_like(src)
        times.append(time_copy(dst, src, None, repeats))
    bound = max(before, read_stream_rate(max(sizes), repeats=9)) / 2
    return [CopyPoint("host memcpy", size, seconds, bound) for size, seconds in zip(sizes, times)]


def copy_paths(hw: devices.Hardware, mode: str) -> list[tuple[str, str, bool, str, float | None]]:
    """The GPU copy paths of a machine: (name, source device, pinned?, destination device, bound in B/s)."""
    g0 = hw.gpus[0]
    paths = [("host to GPU 0, pageable", "cpu", False, "cuda:0", g0.pcie_bandwidth),
             ("host to GPU 0, pinned", "cpu", True, "cuda:0", g0.pcie_bandwidth),
             # A copy inside one GPU reads and writes every byte: at most half the memory bandwidth.
             ("GPU 0 to GPU 0", "cuda:0", False, "cuda:0", g0.memory_bandwidth and g0.memory_bandwidth / 2)]
    if len(hw.gpus) >= 2 and mode != "1gpu":
        paths.append(("GPU 0 to GPU 1", "cuda:0", False, "cuda:1", hw.link.bandwidth if hw.link else None))
    return paths


def gpu_copies(sizes: list[int], repeats: int = 5) -> list[CopyPoint]:
    """Every path of ``copy_paths`` at every size (run in a child process: see the module doc)."""
    points = []
    for name, src_dev, pinned, dst_dev, bound in copy_paths(devices.hardware(), devices.mode()):
        for size in sizes:
            src = torch.ones(size, dtype=torch.uint8, device=src_dev)
            if pinned:
                src = src.pin_memory()
            dst = torch.empty(size, dtype=torch.uint8, device=dst_dev)
            points.append(CopyPoint(name, size, time_copy(dst, src, dst_dev, repeats), bound))
    return points


def measure_copies(sizes: list[int] | None = None, repeats: int = 5) -> list[CopyPoint]:
    """Every copy path of the current mode. GPU work happens in a spawned process (see module doc)."""
    sizes = sizes or DEFAULT_SIZES
    if devices.mode() == "cpu":
        return host_copies(sizes, repeats)
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(gpu_copies, sizes, repeats).result()


def points_table(points: list[CopyPoint]):
    """Every measured copy: its time, its rate, its bound, and the fraction of the bound reached."""
    rows = [(p.path, size_label(p.size), f"{p.seconds * 1e6:,.1f}", f"{p.rate / 1e9:.2f}",
             f"{p.bound / 1e9:.2f}" if p.bound else "unknown",
             f"{p.fraction_of_bound:.0%}" if p.fraction_of_bound else "n/a") for p in points]
    return Table(["path", "size", "median µs", "measured GB/s", "bound GB/s", "of bound"], rows)


def plot_copies(points: list[CopyPoint], simulated: bool, ax=None):
    """Measured GB/s against copy size (log scale), one line per path, its bound dashed in the same colour."""
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4.6), layout="constrained")
    for k, path in enumerate(dict.fromkeys(p.path for p in points)):
        pts = [p for p in points if p.path == path]
        color = f"C{k}"
        ax.plot([p.size for p in pts], [p.rate / 1e9 for p in pts], "o-", color=color, label=f"{path} (measured)")
        if pts[0].bound:
            ax.axhline(pts[0].bound / 1e9, color=color, ls="--", lw=1, label=f"{path} bound ({BOUND_NOTES.get(path, 'peak')})")
    ax.set_xscale("log", base=2)
    ax.set_xticks([p.size for p in points if p.path == points[0].path])
    ax.set_xticklabels([size_label(p.size) for p in points if p.path == points[0].path])
    ax.set_xlabel("bytes copied")
    ax.set_ylabel("GB/s")
    ax.set_ylim(bottom=0)
    title = "Copy bandwidth against its bound"
    ax.set_title(title + (" (simulated on CPU)" if simulated else ""))
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=2, frameon=False)
    ax.grid(alpha=0.3)
    return ax


# What each path's bound is, for the plot's legend.
BOUND_NOTES = {"host memcpy": "DRAM reference: measured read rate / 2",
               "host to GPU 0, pageable": "PCIe peak", "host to GPU 0, pinned": "PCIe peak",
               "GPU 0 to GPU 0": "memory bandwidth / 2", "GPU 0 to GPU 1": "link peak"}
