"""Copy bandwidth against the peak of the path it crosses: the first measurement of the course.

Introduced in lesson 00 (``notebooks/00_start_here.ipynb``); ``utils/benchmarks/copy.py`` is its benchmark.

Paths measured, by mode:
    cpu         host memcpy (RAM to RAM, inside one process); ``loopback.py`` measures the path two
                simulated "GPUs" really exchange tensors through (gloo over loopback TCP)
    1gpu, 2gpu  host-to-device from pageable memory, from pinned memory, device-to-device on GPU 0,
                and GPU 0 to GPU 1 when there are two

Bounds: on a GPU they are datasheet-style peaks computed from what NVML reports (PCIe generation x width,
NVLink version x links, memory clock x bus width). On a CPU no such figure is readable by software: each
copy is set beside the measured reference of the regime its bytes live in (``regimes.py``): that memory's
rate, read in the same run, halved, since a copy reads and writes every byte (a reference, which a copy may
pass). Beyond the caches that rate is read on a buffer no cache holds: at least twice the last cache and twice
the largest copy (``regimes.dram_read_size``; ``regimes.dram_read_rule`` says which set it).

GPU measurements run in a separate *spawned* process, so that the notebook process never initialises
CUDA (later lessons fork workers from it, and a forked child cannot use its parent's CUDA).
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace

import torch

from utils import bench, claims, devices
from utils.lessons.start_here.printed import (micros, printed_accuracy, printed_residual, reference_share,
                                              reference_text, shown_seconds)
from utils.lessons.start_here.regimes import measure_regimes, regime_of
from utils.lessons.start_here.summary import FIT_USABLE, below_next_level, fit_source, fit_usable
from utils.linkmodel import AlphaBeta, fit_alpha_beta
from utils.plots import size_label
from utils.tables import Table

KIB, MIB = 2**10, 2**20
DEFAULT_SIZES = [64 * KIB, 256 * KIB, 1 * MIB, 4 * MIB, 16 * MIB, 64 * MIB]


@dataclass(frozen=True)
class CopyPoint:
    """One measured copy: ``path`` moved ``size`` bytes in ``seconds`` (median); ``bound`` in bytes/s, the
    figure it is set beside: a law where ``is_bound``, a measured reference (a CPU cache) where not."""

    path: str
    size: int
    seconds: float
    bound: float | None
    regime: str = ""  # CPU copies: "L2", "L3" or "DRAM", where the copy's bytes live
    is_bound: bool = True
    fixed_seconds: float | None = None  # the call's own fixed cost (a 64-byte copy), where measured

    @property
    def rate(self) -> float:
        """Bytes per second worked from the time as printed (``printed.micros``): size over the printed µs gives
        the printed GB/s. A rounding of at most 0.5% (a time under 10 µs keeps two decimals)."""
        return self.size / shown_seconds(self.seconds)

    @property
    def fraction_of_bound(self) -> float | None:
        """The rate's share of its bound or reference, from the two GB/s as printed (two decimals)."""
        return reference_share(self.rate, self.bound, self.dram) if self.bound else None

    @property
    def dram(self) -> bool:
        """Whether its figure is DRAM's reference (a halved read rate, printed to its ``reference_digits``)."""
        return self.regime == "DRAM" and not self.is_bound


def time_copy(dst, src, device: str | None, repeats: int) -> float:
    """Median seconds of ``dst.copy_(src)``; ``bench.measure`` synchronises the device around each run."""
    m = bench.measure(lambda: dst.copy_(src, non_blocking=False), warmup=2, repeats=repeats, device=device)
    return m.median


def host_copies(sizes: list[int], repeats: int = 5, dram_rate: float | None = None) -> list[CopyPoint]:
    """Host memcpy (RAM to RAM) for each size on one thread, each set beside the reference of its regime
    (``regimes.py``: the cache its source and destination fit in, or DRAM, whose rate is read beyond the
    last cache; ``dram_rate``, where given, replaces that read).

    One thread: with two threads on two cores, a program that takes one core for a moment stalls every copy
    for a whole time slice (milliseconds); one thread is slowed only in proportion."""
    points = []
    with bench.threads(1):
        refs = measure_regimes(max(sizes), dram_rate=dram_rate)
        for size in sizes:
            src = torch.ones(size, dtype=torch.uint8)
            dst = torch.empty_like(src)
            r = regime_of(size, refs)
            points.append(CopyPoint("host memcpy", size, time_copy(dst, src, None, repeats), r.reference, r.name,
                                    r.is_bound))
    return points


def fixed_cost(size: int = 64, repeats: int = 50) -> float:
    """Median seconds of a ``size``-byte host copy on one thread: its bytes take next to no time, so what it
    measures is the call's own fixed cost (dispatch, checks), the alpha of a memcpy."""
    with bench.threads(1):
        src = torch.ones(size, dtype=torch.uint8)
        return time_copy(torch.empty_like(src), src, None, repeats)


def with_fixed_cost(points: list[CopyPoint], fixed_seconds: float | None) -> list[CopyPoint]:
    """The host copies, each told the call's own fixed cost (``fixed_cost``, timed on the same memcpy), so that
    every reading of a copy weighs how much of its time that fixed cost is (``cache_copies.fixed_share``)."""
    return [replace(p, fixed_seconds=fixed_seconds) if p.path == "host memcpy" else p for p in points]


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


def measure_copies(sizes: list[int] | None = None, repeats: int = 5, dram_rate: float | None = None
                   ) -> list[CopyPoint]:
    """Every copy path of the current mode. GPU work happens in a spawned process (see module doc).
    ``dram_rate``: on a CPU, a given rate for DRAM instead of the read beyond the last cache (``host_copies``)."""
    sizes = sizes or DEFAULT_SIZES
    if devices.mode() == "cpu":
        return host_copies(sizes, repeats, dram_rate)
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(gpu_copies, sizes, repeats).result()


def points_table(points: list[CopyPoint]):
    """Every measured copy: its time, its rate, what it is set beside (a bound, or a cache's reference), and
    the fraction of it reached; a copy above a *bound* is flagged."""
    rows = []
    for p in points:
        kind = (p.regime + " " if p.regime else "") + ("bound" if p.is_bound else "reference")
        frac = f"{p.fraction_of_bound:.0%}" if p.fraction_of_bound else "n/a"
        if p.is_bound and p.fraction_of_bound and p.fraction_of_bound > 1:
            frac += " ABOVE BOUND: flagged"
        rows.append((p.path, size_label(p.size), micros(p.seconds), f"{p.rate / 1e9:.2f}", kind,
                     reference_text(p.bound, p.dram) if p.bound else "unknown", frac))
    return Table(["path", "size", "median µs", "GB/s of n copied (moves 2n)", "set beside", "its GB/s", "of it"], rows)


def bytes_label(n: int) -> str:
    """``size_label`` that also names sizes under 1 KiB in bytes (a 4-byte message)."""
    return f"{n} B" if n < 1024 else size_label(n)


def fit_path(points: list[CopyPoint], path: str) -> AlphaBeta:
    """The α + n/β fit (``utils.linkmodel``, relative least squares) over every size measured on ``path``."""
    pts = sorted((p for p in points if p.path == path), key=lambda p: p.size)
    return fit_alpha_beta([p.size for p in pts], [p.seconds for p in pts])


def fit_paths(points: list[CopyPoint]) -> dict[str, AlphaBeta]:
    """``fit_path`` for every path measured; a path whose times do not grow with size (``fit_alpha_beta``
    refuses it: no single bandwidth describes it) is left out, and the reason printed."""
    fits = {}
    for path in dict.fromkeys(p.path for p in points):
        try:
            fits[path] = fit_path(points, path)
        except ValueError as err:
            print(f"{path}: no fit ({err})")
    return fits


def fit_table(fits: dict[str, AlphaBeta]):
    """The fit's residual at every size, one row per size and one column per path: (measured − fitted) /
    measured. A few per cent everywhere: one α and one β describe the path; tens of per cent: they do not.
    The fitted α and β of each path are the table's first two rows."""
    sizes = sorted({n for f in fits.values() for n in f.sizes})
    res = {path: {n: printed_residual(f, n, r) for n, r in zip(f.sizes, f.residuals)} for path, f in fits.items()}
    # α as the lesson prints times (two decimals under 10 µs): at one decimal, a 0.42 µs α printed "0.4 µs" moves
    # a small copy's redone residual by a few per cent (reader t5_0001: +7% printed, +8% redone from 0.4 µs)
    from utils.lessons.start_here.summary import FIT_USABLE  # here: summary imports this module

    # a path whose fit misses past the tolerance is not used: its α is no fixed cost of that path (reader
    # t23_0001 #8: memcpy's "0.40 µs" beside a 64-byte copy measured at 0.88 µs), so its α and β say so
    unused = {p: max(map(abs, res[p].values()), default=0) > FIT_USABLE for p in fits}
    mark = {p: " (not used: regimes change)" if unused[p] else "" for p in fits}
    rows = [("fitted α", *(f"{micros(f.alpha)} µs{mark[p]}" for p, f in fits.items())),
            ("fitted β", *(f"{f.beta / 1e9:.2f} GB/s{mark[p]}" for p, f in fits.items()))]
    rows += [(f"residual at {bytes_label(n)}", *(f"{claims.signed_percent(res[p][n])}" if n in res[p] else "" for p in fits))
             for n in sizes]
    return Table(["", *fits], rows, title="t(n) = α + n/β fitted over all sizes of each path")


def regimes_table(points: list[CopyPoint], left_out=()):
    """Section 2's answer, one row per regime: the copies it holds, the rate they are set beside (a bound or
    a reference) and the share of it the best and the worst of them reached. ``left_out``: copies counted in
    a cache that behaved as out of it (``summary.below_next_level``), each in its own row after the others."""
    rows = []
    apart = {id(p) for p in left_out}
    for path in dict.fromkeys(p.path for p in points):
        mine = [p for p in points if p.path == path and p.bound and id(p) not in apart]
        for kind in dict.fromkeys((p.regime or path, p.is_bound) for p in mine):
            pts = [p for p in mine if (p.regime or path, p.is_bound) == kind]
            shares = [p.fraction_of_bound for p in pts]
            sizes = size_label(pts[0].size) + ("" if len(pts) == 1 else f" - {size_label(pts[-1].size)}")
            rows.append((kind[0], sizes, f"{reference_text(pts[0].bound, pts[0].dram)} GB/s", "bound" if kind[1] else "reference",
                         f"{min(shares):.0%} - {max(shares):.0%}" if len(pts) > 1 else f"{shares[0]:.0%}"))
    for p in left_out:
        rows.append((f"{p.regime}, ran as out of it", size_label(p.size), f"{p.bound / 1e9:.2f} GB/s", "reference",
                     f"{p.fraction_of_bound:.0%}"))
    return Table(["bytes live in", "copies", "set beside", "which is a", "share reached"], rows)


def _regime_spans(pts: list[CopyPoint]) -> list[tuple[CopyPoint, float, float]]:
    """Per regime of ``pts`` (sorted by size): its first point and the x range (sizes) it covers, the
    edges half-way (geometrically) between neighbouring sizes of different regimes."""
    spans, start = [], 0
    for k in range(1, len(pts) + 1):
        if k == len(pts) or pts[k].regime != pts[start].regime:
            lo = pts[start].size / (pts[start].size / pts[start - 1].size) ** 0.5 if start else pts[0].size / 1.4
            hi = (pts[k - 1].size * (pts[k].size / pts[k - 1].size) ** 0.5 if k < len(pts) else pts[-1].size * 1.4)
            spans.append((pts[start], lo, hi))
            start = k
    return spans


# What each bound or reference is, for the plot's legend (CPU copies: by regime; GPU copies: by path).
BOUND_NOTES = {"L2": "L2 reference: read rate in L2 / 2", "L3": "L3 reference: read rate in L3 / 2",
               # its buffer's size is set by a rule the block above names (2 x the largest copy, or the cache)
               "DRAM": "beyond the caches: read rate of a large buffer / 2 (its size: the block above)",
               "host to GPU 0, pageable": "PCIe peak", "host to GPU 0, pinned": "PCIe peak",
               "GPU 0 to GPU 0": "memory bandwidth / 2", "GPU 0 to GPU 1": "link peak"}


# Line style of what a copy is set beside, by regime: three distinct styles, so L2 and L3 never look alike.
REGIME_STYLES = {"L2": ":", "L3": "-.", "DRAM": "--"}


def plot_copies(points: list[CopyPoint], simulated: bool):
    """Section 2's answer: copies inside one process, GB/s against size, each beside its bound or reference
    (a point above a bound ringed in red). One process, no worker: a real timing of this machine's device
    even in ``cpu`` mode, and the panel says so."""
    from utils import plots

    fig, (ax,) = plots.new_figure(1, width=8.0, row_height=3.9)
    _plot_copy_rates(ax, points)
    where = "a real CPU timing, one process" if simulated else "real timings, one process"
    return plots.finish(fig, f"Copy bandwidth, measured in this run ({where})")


def plot_messages(messages: list[CopyPoint], link_fit, simulated: bool):
    """Section 3's answer: messages between two processes, one-way time against size, with the fitted
    alpha + n/beta and alpha drawn as the floor where the fit is within its tolerance. ``link_fit``: a
    ``machine.LinkFit``: the machine profile's (measured once, perhaps in an earlier run; the legend says whose
    and when) or this run's. In ``cpu`` mode two CPU processes stand in for two GPUs: simulated."""
    from utils import plots

    fig, (ax,) = plots.new_figure(1, width=8.0, row_height=3.9)
    _plot_message_times(ax, messages, link_fit)
    plots.stamp_simulated(fig, simulated)
    return plots.finish(fig, "Message time between two processes: the points measured in this run")


def _mark_set_apart(ax, points: list[CopyPoint]) -> None:
    """A square around each copy counted in a cache that ran as out of it (``summary.below_next_level``): its
    cache's reference line passes over it, but the text sets it apart from that cache."""
    apart = [p for p, _, _ in below_next_level(points)]
    for p in apart:
        ax.plot(p.size, p.rate / 1e9, "s", ms=13, mfc="none", mec="0.35", mew=1.6)
    if apart:
        ax.plot([], [], "s", ms=9, mfc="none", mec="0.35", mew=1.6,
                label="ran as out of its cache: set apart (see the text)")


def _plot_copy_rates(ax, points: list[CopyPoint]) -> None:
    for k, path in enumerate(dict.fromkeys(p.path for p in points)):
        pts = sorted((p for p in points if p.path == path), key=lambda p: p.size)
        color = f"C{k}"
        ax.plot([p.size for p in pts], [p.rate / 1e9 for p in pts], "o-", color=color, label=f"{path}, measured")
        for first, lo, hi in _regime_spans(pts) if pts[0].bound else ():
            style = REGIME_STYLES.get(first.regime, "--" if first.is_bound else ":")
            ax.hlines(first.bound / 1e9, lo, hi, color="0.25" if first.is_bound else color, ls=style, lw=1.4,
                      label=BOUND_NOTES.get(first.regime or path, "peak"))
        above = [p for p in pts if p.is_bound and p.fraction_of_bound and p.fraction_of_bound > 1]
        for p in above:
            ax.plot(p.size, p.rate / 1e9, "o", ms=13, mfc="none", mec="red", mew=1.8)
        if above:
            ax.plot([], [], "o", ms=9, mfc="none", mec="red", mew=1.8, label="above its bound (see the text)")
    _mark_set_apart(ax, points)
    _size_axis(ax, sorted({p.size for p in points}))
    ax.set_yscale("log")  # the caches' rates sit several times above DRAM's: one decade or more
    _plain_ticks(ax)
    ax.set_xlabel("bytes copied (log scale)")
    ax.set_ylabel("GB/s of n copied (moves 2n; log scale)")
    ax.set_title("Copies inside one process", fontsize=10)
    ax.legend(fontsize=7.5, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=2, frameon=False)


def _plot_message_times(ax, messages: list[CopyPoint], link_fit) -> None:
    pts = sorted(messages, key=lambda p: p.size)
    ax.plot([p.size for p in pts], [p.seconds * 1e6 for p in pts], "o", color="C3",
            label="measured in this run (one way)")
    if link_fit is not None and fit_usable(link_fit):  # a fit is drawn only where it was accepted, as printed
        f = link_fit.fit
        grid = [pts[0].size * (pts[-1].size / pts[0].size) ** (j / 60) for j in range(61)]
        ax.plot(grid, [f.time(n) * 1e6 for n in grid], color="C3", lw=1, alpha=0.7,
                # alpha and beta to the digits the tables print (t29_0001: "76 µs", "3.5 GB/s" beside 75.8, 3.48)
                label=f"{fit_source(link_fit)}: alpha {micros(f.alpha)} µs + n / ({f.beta / 1e9:.2f} GB/s), "
                      f"±{printed_accuracy(link_fit):.0%}")
        ax.axhline(f.alpha * 1e6, color="0.4", ls=":", lw=1,
                   label="alpha: the fit's fixed cost of a message (an average over the sizes)")
    elif link_fit is not None:  # rejected by its own verdict: no line, and the legend says why
        ax.plot([], [], " ", label=f"no fit drawn: {fit_source(link_fit)} misses a size by "
                                   f"±{printed_accuracy(link_fit):.0%}, beyond the ±{FIT_USABLE:.0%} tolerance")
    ax.set_yscale("log")
    _plain_ticks(ax)
    _size_axis(ax, [p.size for p in pts])
    ax.set_xlabel("bytes sent (log scale)")
    ax.set_ylabel("µs per message (log scale)")
    ax.set_title(f"Messages between two processes ({pts[0].path})", fontsize=10)
    ax.legend(fontsize=7.5, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=1, frameon=False)


def below_alpha_sentence(messages: list[CopyPoint], link_fit) -> str:
    """Which messages ran below the plot's dotted alpha line (judged on the figures as printed), and why one
    may: alpha is the fit's average fixed cost, and the fixed cost itself varies. "" where no line is drawn."""
    if link_fit is None or not fit_usable(link_fit):
        return ""
    alpha = round(link_fit.fit.alpha * 1e6, 1)  # µs
    below = [p for p in sorted(messages, key=lambda p: p.size) if round(p.seconds * 1e6, 1) < alpha]
    if not below:
        return f"No message ran below the dotted alpha line ({alpha:,.1f} µs): each paid at least the fixed cost."
    listed = ", ".join(f"{bytes_label(p.size)} in {p.seconds * 1e6:,.1f} µs" for p in below)
    return (f"Below the dotted alpha line ({alpha:,.1f} µs): {listed}. The fixed cost itself varies from message "
            "to message; alpha is the fit's average over every size, so a message may run under it.")


def _plain_ticks(ax) -> None:
    """A log y axis labelled 1, 2, 5, 10, 20, ...: plain numbers a reader reads at a glance, not powers of ten."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    low, high = ax.get_ylim()
    # within about one decade 1, 2, 5 leaves a single label (10, 20 on a 9-45 GB/s axis): label 3 and 4 too
    subs = (1.0, 2.0, 5.0) if high / low > 12 else (1.0, 2.0, 3.0, 4.0, 5.0, 7.0)
    ax.yaxis.set_major_locator(LogLocator(base=10, subs=subs))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_formatter(NullFormatter())


def _size_axis(ax, sizes: list[int]) -> None:
    ax.set_xscale("log", base=2)
    ax.set_xticks(sizes)
    ax.set_xticklabels([bytes_label(n) for n in sizes], rotation=35, ha="right", fontsize=8)
    ax.minorticks_off()
    ax.grid(alpha=0.3)
