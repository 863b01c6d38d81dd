"""Lesson 01's figures: the roofline with its measured points, and the datasheet table as a scatter."""

from __future__ import annotations

import numpy as np
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from utils import plots
from utils.lessons.why_slow.peak import Ceilings


def plot_roofline(points, ceilings: Ceilings, label: str, simulated: bool, extra_roofs: dict | None = None):
    """Log-log: attainable FLOP/s against intensity (the roof), each measured op a dot at its achieved rate.

    ``extra_roofs``: {name: peak FLOP/s} drawn as further flat ceilings (other dtypes' peaks)."""
    fig, (ax,) = plots.new_figure(1, width=9.0, row_height=4.6)
    xs = [p.op.intensity for p in points]
    lo, hi = min(xs + [ceilings.ridge]) / 4, max(xs + [ceilings.ridge]) * 4
    grid = np.logspace(np.log10(lo), np.log10(hi), 200)
    ax.loglog(grid, [ceilings.attainable(i) for i in grid], color="k", lw=2,
              label=f"roof: {ceilings.dtype} peak {ceilings.flops / 1e9:.0f} GFLOP/s, "
                    f"bandwidth {ceilings.bandwidth / 1e9:.1f} GB/s ({ceilings.source})")
    for k, (name, peak) in enumerate((extra_roofs or {}).items()):
        ax.axhline(peak, color=plots.device_color(k + 2), ls=":", lw=1.2, label=f"{name} peak {peak / 1e9:.0f} GFLOP/s")
    ax.axvline(ceilings.ridge, color="0.6", ls="--", lw=1)
    ax.text(ceilings.ridge, ceilings.flops * 0.55, f" ridge {ceilings.ridge:.1f} FLOPs/byte", color="0.35", fontsize=8)
    for p in points:
        colour = plots.device_color(0 if p.bound == "memory" else 1)
        ax.plot(p.op.intensity, p.achieved, "o", color=colour, ms=7, mec="r" if p.above_roof else colour)
    ax.set_xlabel("arithmetic intensity (FLOPs per byte of memory traffic)")
    ax.set_ylabel("FLOP/s")
    ax.plot([], [], "o", color=plots.device_color(0), label="memory-bound op (measured)")
    ax.plot([], [], "o", color=plots.device_color(1), label="compute-bound op (measured)")
    ax.legend(fontsize=7.5, loc="lower right")
    top = max([ceilings.flops, *(extra_roofs or {}).values(), *(p.achieved for p in points)])
    ax.set_ylim(top=top * 3)  # room for the labels above the compute roof
    ax.grid(True, which="major", alpha=0.3)
    plots.stamp_simulated(fig, False)
    fig = plots.finish(fig, f"The roofline, ceilings and points measured in this run{label}")
    place_labels(ax, [(p.op.intensity, p.achieved, p.op.name + (" (above: caches)" if p.above_roof else ""))
                      for p in points], avoid=[(i, ceilings.attainable(i)) for i in grid])
    return fig


# Where a label may go, in points from its dot: right, left, then further up and down (first free one wins).
OFFSETS = [(6, 3), (6, -11), (-6, 3), (-6, -11), (6, 13), (6, -21), (-6, 13), (-6, -21), (6, 23), (6, -31),
           (-6, 23), (-6, -31)]


def place_labels(ax, items: list[tuple[float, float, str]], fontsize: float = 7.5,
                 avoid: list[tuple[float, float]] = ()) -> None:
    """Lesson 01's figures: label each (x, y, text) beside its dot, at the first offset where it overlaps no other label, dot, text,
    the legend or a point of ``avoid`` (a line, sampled), and stays inside the axes (the figure's layout must be
    final: call after ``finish``)."""
    renderer = _renderer(ax.figure)
    frame = ax.get_window_extent(renderer)
    taken = [_text_box(t, renderer) for t in ax.texts]
    if ax.get_legend():
        taken.append(ax.get_legend().get_window_extent(renderer))
    dots = [tuple(ax.transData.transform((x, y))) for x, y, _ in items]
    taken += [Bbox.from_bounds(cx - 4, cy - 4, 8, 8) for cx, cy in dots]  # each dot, as a small box
    for x, y in avoid:
        cx, cy = ax.transData.transform((x, y))
        taken.append(Bbox.from_bounds(cx - 1, cy - 1, 2, 2))
    for x, y, text in sorted(items):
        own = tuple(ax.transData.transform((x, y)))
        for dx, dy in OFFSETS:
            leader = None if (dx, dy) == OFFSETS[0] else dict(arrowstyle="-", color="0.55", lw=0.6,
                                                                             shrinkA=0, shrinkB=4)
            note = ax.annotate(text, (x, y), textcoords="offset points", xytext=(dx, dy), fontsize=fontsize,
                               ha="left" if dx > 0 else "right", arrowprops=leader)
            box = _text_box(note, renderer)
            inside = frame.contains(box.x0, box.y0) and frame.contains(box.x1, box.y1)
            mine = _nearest(box, dots) == own  # nearer its own dot than any other: it reads as that dot's
            if inside and mine and not any(box.overlaps(other) for other in taken):
                taken.append(box)
                break
            note.remove()
        else:  # nowhere free: keep the first place (a test looks for overlaps in the lesson's figure)
            ax.annotate(text, (x, y), textcoords="offset points", xytext=OFFSETS[0], fontsize=fontsize)


def _nearest(box, dots: list[tuple[float, float]]) -> tuple[float, float]:
    """The dot nearest to the box's nearest edge (display coordinates)."""
    def gap(dot):
        dx = max(box.x0 - dot[0], 0, dot[0] - box.x1)
        dy = max(box.y0 - dot[1], 0, dot[1] - box.y1)
        return dx * dx + dy * dy

    return min(dots, key=gap)


def _text_box(text, renderer):
    """The box of a text or an annotation's text, without its leader line (placed where it is drawn)."""
    if hasattr(text, "update_positions"):
        text.update_positions(renderer)
    return Text.get_window_extent(text, renderer)


def _renderer(fig):
    """The renderer that lays ``fig`` out (a figure released by pyplot has a bare canvas: matplotlib makes one,
    as ``tight_layout`` does)."""
    get = getattr(fig.canvas, "get_renderer", None)
    return get() if get else fig._get_renderer()


def overlapping_labels(fig) -> list[tuple[str, str]]:
    """Pairs of texts of ``fig``'s axes whose boxes overlap (lesson 01's figures must have none; its tests ask)."""
    renderer = _renderer(fig)
    texts = [t for ax in fig.axes for t in ax.texts if t.get_text()]
    boxes = [_text_box(t, renderer) for t in texts]
    return [(texts[i].get_text(), texts[j].get_text()) for i in range(len(texts)) for j in range(i + 1, len(texts))
            if boxes[i].overlaps(boxes[j])]


def plot_hardware(rows, mine: tuple[str, float, float] | None, dtype: str = "bf16"):
    """Peak FLOP/s against memory bandwidth, one dot per datasheet GPU, and this machine (measured) as a star.

    ``rows``: (name, peak FLOP/s, bandwidth B/s); lines of equal ridge point run diagonally."""
    fig, (ax,) = plots.new_figure(1, width=8.0, row_height=4.2)
    for name, peak, bw in rows:
        ax.loglog(bw, peak, "o", color=plots.device_color(0))
    if mine:
        ax.loglog(mine[2], mine[1], "*", ms=14, color=plots.device_color(3))
    bws = np.logspace(np.log10(5e9), np.log10(1e13), 10)
    for ridge in (10, 100, 1000):
        ax.loglog(bws, bws * ridge, color="0.8", lw=0.8, ls="--")
        ax.text(bws[0], bws[0] * ridge * 1.3, f"ridge {ridge} FLOPs/B", fontsize=7, color="0.5", va="bottom")
    ax.set_xlabel("memory bandwidth (bytes/s)")
    ax.set_ylabel(f"dense peak FLOP/s ({dtype} where the GPU has it)")
    ax.grid(True, alpha=0.3)
    fig = plots.finish(fig, "Datasheet peaks of the course's GPUs, and this machine measured")
    place_labels(ax, [(bw, peak, name) for name, peak, bw in rows + ([mine] if mine else [])])
    return fig
