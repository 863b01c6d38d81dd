"""Lesson 01's figures: the roofline with its measured points, and the datasheet table as a scatter."""

from __future__ import annotations

import numpy as np
from matplotlib.transforms import Bbox

from utils import claims, plots
from utils.lessons.why_slow.peak import Ceilings


# What the dots' colours say: which side of the ridge an op's intensity lies, the bound by the roofline's
# count; whether the op ran near that roof is a separate question (its share in the table)
ROOF_SIDES = {"memory": "left of the ridge (memory-bound by count)",
              "compute": "right of the ridge (compute-bound by count)"}


def plot_roofline(points, ceilings: Ceilings, label: str, simulated: bool, extra_roofs: dict | None = None):
    """Log-log: attainable FLOP/s against intensity (the roof), each measured op a dot at its achieved rate.

    ``extra_roofs``: {name: peak FLOP/s} drawn as further flat ceilings (other dtypes' peaks). The legend sits
    below the axes and every label is placed where it covers no other label, dot, line or the legend.
    ``simulated`` is accepted and not stamped: one process's timings are real timings of its device, even in
    cpu mode."""
    fig, (ax,) = plots.new_figure(1, width=9.0, row_height=5.0)
    xs = [p.op.intensity for p in points]
    lo, hi = min(xs + [ceilings.ridge]) / 4, max(xs + [ceilings.ridge]) * 12  # room for labels on the right
    grid = np.logspace(np.log10(lo), np.log10(hi), 400)
    peak = ceilings.peak_name or f"{ceilings.dtype} peak"
    bandwidth = ceilings.bandwidth_name or "memory bandwidth"
    ax.loglog(grid, [ceilings.attainable(i) for i in grid], color="k", lw=2,
              label=f"roof ({ceilings.source}): {peak}, {_rate(ceilings.flops, 'FLOP/s')};\n"
                    f"{bandwidth}, {_rate(ceilings.bandwidth, 'B/s')}")
    for k, (name, extra) in enumerate((extra_roofs or {}).items()):
        ax.axhline(extra, color=plots.device_color(k + 2), ls=":", lw=1.2, label=f"{name}, {_rate(extra, 'FLOP/s')}")
    ax.axvline(ceilings.ridge, color="0.6", ls="--", lw=1)
    for p in points:
        colour = plots.device_color(0 if p.bound == "memory" else 1)
        ax.plot(p.op.intensity, p.achieved, "o", color=colour, ms=7, mec="r" if p.above_roof else colour)
    ax.set_xlabel("arithmetic intensity (FLOPs per byte of memory traffic)")
    ax.set_ylabel("FLOP/s")
    # the colour is the side of the ridge, not the limit the op met (t29_0001: matmul 64³ coloured
    # "compute-bound" at 56% of that roof): the legend says so, in the tables' words
    ax.plot([], [], "o", color=plots.device_color(0), label=f"measured op, {ROOF_SIDES['memory']}")
    ax.plot([], [], "o", color=plots.device_color(1), label=f"measured op, {ROOF_SIDES['compute']}")
    ax.legend(fontsize=7.5, loc="upper center", bbox_to_anchor=(0.5, -0.13), frameon=False)
    top = max([ceilings.flops, *(extra_roofs or {}).values(), *(p.achieved for p in points)])
    bottom = min([ceilings.attainable(lo), *(p.achieved for p in points)])
    ax.set_ylim(bottom / 2, top * 4)  # room for the labels above the compute roof
    ax.set_xlim(lo, hi)
    ax.grid(True, which="major", alpha=0.3)
    # The ridge's label at the foot of its line, right of it: compute-bound ops (right of the ridge) sit high.
    said = claims.printed_ratio(ceilings.flops, ceilings.bandwidth, 1, 1e9)  # as the sentence below says it
    ax.text(ceilings.ridge * 1.08, 0.03, f"ridge {said:.1f} FLOPs/byte", color="0.35", fontsize=8,
            transform=ax.get_xaxis_transform())
    fig = plots.finish(fig, f"The roofline{label}")  # label: whose ceilings, on how many threads
    ys = np.logspace(np.log10(bottom / 2), np.log10(top * 4), 120)
    avoid = [(i, ceilings.attainable(i)) for i in grid] + [(ceilings.ridge, y) for y in ys]
    avoid += [(i, extra) for extra in (extra_roofs or {}).values() for i in grid]
    place_labels(ax, [(p.op.intensity, p.achieved, p.op.name + (" (above its roof)" if p.above_roof else ""))
                      for p in points], avoid=avoid)
    return fig


def _rate(value: float, unit: str) -> str:
    """99.7 GFLOP/s, 61.2 TFLOP/s, 29.7 GB/s, 4.8 TB/s."""
    return f"{value / 1e12:,.1f} T{unit}" if value >= 1e12 else f"{value / 1e9:,.1f} G{unit}"


# Where a label may go, in points from its dot: right, left, then further up and down, then further aside
# (the first free one wins; where none is free, the one that covers least).
OFFSETS = ([(dx, dy) for dy in (3, -11, 13, -21, 23, -31, 33, -41, 43, -51) for dx in (6, -6)]
           + [(dx, dy) for dy in (13, -21, 23, -31, 33, -41) for dx in (30, -30)])


def place_labels(ax, items: list[tuple[float, float, str]], fontsize: float = 7.5,
                 avoid: list[tuple[float, float]] = ()) -> None:
    """Lesson 01's figures: label each (x, y, text) beside its dot, at the first offset where it overlaps no
    other label, dot, text, the legend or a point of ``avoid`` (a line, sampled), stays inside the axes and is
    nearer its own dot than any other; where no offset is free, at the one that covers the fewest of them
    (the figure's layout must be final: call after ``finish``)."""
    renderer = plots.renderer_of(ax.figure)
    frame = ax.get_window_extent(renderer)
    taken = [plots.text_box(t, renderer) for t in ax.texts]
    if ax.get_legend():
        taken.append(ax.get_legend().get_window_extent(renderer))
    dots = [tuple(ax.transData.transform((x, y))) for x, y, _ in items]
    taken += [_dot_box(cx, cy) for cx, cy in dots]
    for x, y in avoid:
        cx, cy = ax.transData.transform((x, y))
        taken.append(Bbox.from_bounds(cx - 1, cy - 1, 2, 2))
    for x, y, text in sorted(items):
        own = tuple(ax.transData.transform((x, y)))
        best = None  # (cost, offset) of the least bad place so far
        for dx, dy in OFFSETS:
            note = _annotate(ax, text, x, y, dx, dy, fontsize)
            box = plots.text_box(note, renderer)
            note.remove()
            inside = frame.contains(box.x0, box.y0) and frame.contains(box.x1, box.y1)
            mine = _nearest(box, dots) == own  # nearer its own dot than any other: it reads as that dot's
            cost = (not inside, sum(box.overlaps(other) for other in taken), not mine)
            if best is None or cost < best[0]:
                best = (cost, (dx, dy), box)
            if cost == (False, 0, False):
                break
        _, (dx, dy), box = best
        _annotate(ax, text, x, y, dx, dy, fontsize)
        taken.append(box)


def _annotate(ax, text: str, x: float, y: float, dx: float, dy: float, fontsize: float):
    """A label ``(dx, dy)`` points from its dot; off its first place, with a thin leader line to the dot."""
    leader = None if (dx, dy) == OFFSETS[0] else dict(arrowstyle="-", color="0.55", lw=0.6, shrinkA=0, shrinkB=4)
    return ax.annotate(text, (x, y), textcoords="offset points", xytext=(dx, dy), fontsize=fontsize,
                       ha="left" if dx > 0 else "right", arrowprops=leader)


def _dot_box(cx: float, cy: float, half: float = 4.5) -> Bbox:
    """A dot's marker (ms 7, about 9 pixels at the notebook's 100 dpi) as a box in display coordinates."""
    return Bbox.from_bounds(cx - half, cy - half, 2 * half, 2 * half)


def labels_over_marks(fig) -> list[str]:
    """Texts of ``fig`` that cover a dot (a marker of a plotted point) or the legend: lesson 01's tests ask for
    none (``overlapping_labels`` checks texts against texts and legends)."""
    renderer = plots.renderer_of(fig)
    out = []
    for ax in fig.axes:
        marks = [_dot_box(*ax.transData.transform(xy)) for line in ax.get_lines()
                 if line.get_marker() not in (None, "None", "", " ") for xy in line.get_xydata()]
        if ax.get_legend():
            marks.append(ax.get_legend().get_window_extent(renderer))
        out += [t.get_text() for t in ax.texts if t.get_text()
                and any(plots.text_box(t, renderer).overlaps(m) for m in marks)]
    return out


def _nearest(box, dots: list[tuple[float, float]]) -> tuple[float, float]:
    """The dot nearest to the box's nearest edge (display coordinates)."""
    def gap(dot):
        dx = max(box.x0 - dot[0], 0, dot[0] - box.x1)
        dy = max(box.y0 - dot[1], 0, dot[1] - box.y1)
        return dx * dx + dy * dy

    return min(dots, key=gap)


overlapping_labels = plots.overlapping_labels  # lesson 01's tests ask it of the roofline: one home, utils.plots


def plot_hardware(rows, mine: tuple[str, float, float] | None, dtype: str = "bf16"):
    """Peak FLOP/s against memory bandwidth, one dot per datasheet GPU (GPUs with the same figures share one,
    named for both: ``same_point_once``), and this machine (measured) as a star.

    ``rows``: (name, peak FLOP/s, bandwidth B/s); lines of equal ridge point run diagonally."""
    fig, (ax,) = plots.new_figure(1, width=8.0, row_height=4.2)
    rows = same_point_once(rows)
    for name, peak, bw in rows:
        ax.loglog(bw, peak, "o", color=plots.device_color(0))
    if mine:
        ax.loglog(mine[2], mine[1], "*", ms=14, color=plots.device_color(3))
    bws = np.logspace(np.log10(5e9), np.log10(1e13), 10)
    for ridge in (10, 100, 1000):
        ax.loglog(bws, bws * ridge, color="0.8", lw=0.8, ls="--")
        ax.text(bws[0], bws[0] * ridge * 1.3, f"ridge {ridge} FLOPs/B", fontsize=7, color="0.5", va="bottom")
    ax.set_xlim(right=max(bw for _, _, bw in rows + ([mine] if mine else [])) * 8)  # room for a label on the right
    ax.set_xlabel("memory bandwidth (bytes/s)")
    ax.set_ylabel(f"dense peak FLOP/s ({dtype} where the GPU has it)")
    ax.grid(True, alpha=0.3)
    fig = plots.finish(fig, "Datasheet peaks of the course's GPUs, and this machine measured")
    place_labels(ax, [(bw, peak, name) for name, peak, bw in rows + ([mine] if mine else [])])
    return fig


def same_point_once(rows: list[tuple[str, float, float]]) -> list[tuple[str, float, float]]:
    """One (name, peak, bandwidth) per point: GPUs whose datasheets give the same peak and bandwidth (A100 PCIe
    and SXM 40GB) would draw one dot under two labels, so they share one dot whose label names both (reader
    t21_0001)."""
    names: dict[tuple[float, float], list[str]] = {}
    for name, peak, bw in rows:
        names.setdefault((peak, bw), []).append(name)
    return [(" and ".join(same) + (" (same figures)" if len(same) > 1 else ""), peak, bw)
            for (peak, bw), same in names.items()]
