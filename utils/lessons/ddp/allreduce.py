"""The interconnect: all-reduce time and bandwidth over message sizes, as nccl-tests reports them (lesson 03).

algbw = bytes / time is the rate the application sees; busbw = algbw x 2(n-1)/n is comparable with the
link's own bandwidth, because a ring all-reduce moves 2(n-1)/n of the message over each link.
"""

from __future__ import annotations

import statistics
import time

import torch
import torch.distributed as dist

from utils import plots
from utils.bench import synchronize
from utils.launch import launch, process_group

WARMUP = 2  # untimed all-reduces per size: the first ones set up buffers and connections


def busbw_factor(world: int) -> float:
    """nccl-tests' bus-bandwidth factor for all-reduce: a ring moves 2(n-1)/n of the message per rank."""
    return 2 * (world - 1) / world


def all_reduce_times(sizes: list[int], repeats: int = 5) -> list[tuple[int, float]]:
    """On each rank: ``(size, median seconds)`` of an all-reduce of ``size`` bytes (fp32), for each size."""
    with process_group() as device:
        times = []
        for size in sizes:
            t = torch.ones(size // 4, dtype=torch.float32, device=device)
            samples = []
            for i in range(WARMUP + repeats):
                dist.barrier()  # start together: otherwise one rank's wait for the other is timed
                start = time.perf_counter()
                dist.all_reduce(t)
                synchronize(device)
                if i >= WARMUP:
                    samples.append(time.perf_counter() - start)
            times.append((size, statistics.median(samples)))
        return times


def all_reduce_benchmark(sizes: list[int], repeats: int = 5, nprocs: int = 2, timeout: float = 120) -> list[dict]:
    """One row per size: ``bytes``, ``seconds`` (the slowest rank's), ``algbw`` and ``busbw`` in bytes/s."""
    per_rank = launch(all_reduce_times, sizes, repeats, nprocs=nprocs, timeout=timeout)
    rows = []
    for k, size in enumerate(sizes):
        seconds = max(r[k][1] for r in per_rank)  # the collective ends when the slowest rank is done
        algbw = size / seconds
        rows.append({"bytes": size, "seconds": seconds, "algbw": algbw, "busbw": algbw * busbw_factor(nprocs)})
    return rows


def plot_all_reduce(rows: list[dict], bound: float | None, bound_label: str, label: str, world: int = 2):
    """algbw and busbw (GB/s, log scale) against message size, with the bound dashed; ``label`` says where the
    numbers were measured (" (simulated on CPU)" stamps the figure too).

    A log scale, because small messages reach a thousandth of the bound: on a linear axis they would sit
    flat on zero. With two ranks busbw = algbw (the factor 2(n-1)/n is 1), so the two curves coincide: busbw
    is drawn dashed with hollow markers over algbw, and the figure says so.
    """
    fig, (ax,) = plots.new_figure(rows=1, width=9.0, row_height=3.6)
    sizes = [r["bytes"] for r in rows]
    ax.plot(sizes, [r["algbw"] / 1e9 for r in rows], "o-", color=plots.device_color(0), ms=7,
            label="algbw = bytes / time")
    ax.plot(sizes, [r["busbw"] / 1e9 for r in rows], "s--", color=plots.device_color(1), mfc="none", ms=9,
            label="busbw = algbw x 2(n-1)/n")
    if bound:
        ax.axhline(bound / 1e9, color="0.3", ls=":", lw=1.5, label=bound_label)
    if busbw_factor(world) == 1.0:
        ax.text(0.98, 0.04, f"n = {world}: 2(n-1)/n = 1, so busbw = algbw (the curves coincide)",
                transform=ax.transAxes, fontsize=8, ha="right", va="bottom", color="0.3")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(sizes)
    ax.set_xticklabels([plots.size_label(n) for n in sizes], fontsize=8)
    ax.set_xlabel("all-reduce message size")
    ax.set_ylabel("GB/s (log scale)")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)  # outside the axes
    simulated = "simulated on CPU" in label
    plots.stamp_simulated(fig, simulated)
    return plots.finish(fig, "All-reduce bandwidth over message size" + label)
