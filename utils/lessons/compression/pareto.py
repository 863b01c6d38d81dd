"""The size / latency / accuracy trade-off of lesson 04 (``notebooks/04_compression.ipynb``): which variants
no other one beats (the Pareto front), and the figure that shows it.

    pareto_front([(mb, ms, -acc), ...])     # [True, False, ...]: lower is better in every coordinate
    plot_front(variants, latency_batch=256, label=" (on the CPU)")
"""

from __future__ import annotations

from collections.abc import Callable

import matplotlib.pyplot as plt
from matplotlib import ticker
from matplotlib.transforms import Bbox

from utils import plots

__all__ = ["pareto_front", "lower_beyond", "front_answer", "plot_front", "spot_label"]


def lower_beyond(x: float, y: float, tolerance: float) -> bool:
    """True where ``x`` is lower than ``y`` by more than ``tolerance``, a share of the larger of the two: the
    front's rule for one coordinate (a measured latency within its noise is a tie). Lesson 04."""
    return x < y and y - x > tolerance * max(abs(x), abs(y))


def pareto_front(points: list[tuple[float, ...]], tolerance: tuple[float, ...] | None = None,
                 tied: dict[int, Callable[[int, int], bool]] | None = None) -> list[bool]:
    """Which points no other point beats: True where no point is at least as good in every coordinate and
    strictly better in one. Every coordinate is *lower is better* (pass ``-accuracy`` for accuracy).
    Lesson 04.

    ``tolerance``: per coordinate, a relative difference that is not a difference (a measured latency's
    noise): values within it are ties, so noise between two models of identical shapes decides nothing.
    ``tied``: per coordinate, a test of two points' indices that replaces the tolerance there (accuracies of
    two models on the same test images: tied when their paired difference is within two standard errors).
    ``pareto_front([(1, 5), (2, 3), (3, 4)])`` is ``[True, True, False]``: (2, 3) beats (3, 4) in both.
    """
    tolerance = tolerance or (0.0,) * len(points[0]) if points else ()
    tied = tied or {}

    def better(i, j, k):  # point i lower than point j in coordinate k, by more than a tie
        x, y = points[i][k], points[j][k]
        if k in tied:
            return x < y and not tied[k](i, j)
        return lower_beyond(x, y, tolerance[k])

    def beats(i, j):
        coordinates = range(len(points[i]))
        return not any(better(j, i, k) for k in coordinates) and any(better(i, j, k) for k in coordinates)

    return [not any(beats(i, j) for i in range(len(points)) if i != j) for j in range(len(points))]


FAMILY_STYLES = {"CNN": ("o", "tab:blue"), "MLP": ("s", "tab:orange")}  # marker and colour of each family


def front_answer(variants: list[dict]) -> str:
    """Section 7's answer in one sentence: the variants worth choosing (on the front), by family, numbered as
    the table numbers them (from 1), and how many others a variant of their family beats. ``variants``: dicts
    with ``family``, ``name`` and ``front``, in the table's order. Lesson 04, section 7."""
    families = dict.fromkeys(v["family"] for v in variants)
    named = []
    for family in families:
        front = [f"#{k} ({v['name']})" for k, v in enumerate(variants, 1)
                 if v["family"] == family and v["front"]]
        named.append(f"{family}: {', '.join(front)}")  # every family keeps at least one: none beats them all
    beaten = sum(not v["front"] for v in variants)
    return (f"Answer: worth choosing, on the Pareto front: {'; '.join(named)}. "
            + (f"The other {beaten} are each beaten by a variant of their family (no larger, no slower, no "
               "less accurate, and better in one)." if beaten else "None is beaten: every variant is on the front."))


def plot_front(variants: list[dict], latency_batch: int, label: str = ""):
    """Size and latency (log scales) against accuracy, one point per variant, numbered as the lesson's table.

    ``variants``: dicts with ``family``, ``mb`` (stored size, state dict, MB), ``ms`` (median latency), ``acc``
    (a fraction) and ``front`` (on the Pareto front of its family: filled). ``label`` says where the latencies
    were measured (``" (on the CPU)"``). Every marker sits at its measured values, half transparent so that
    markers on one spot both show; markers on one spot share one label (``spot_label``), placed apart from
    the others. Lesson 04, section 7.
    Returns the figure.
    """
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), sharey=True)
    plt.close(fig)  # returned: shown once, as the cell's value
    panels = [("mb", "stored size (state dict, MB, log scale)"),
              ("ms", f"median latency per batch of {latency_batch} (ms, log scale)")]
    for ax, (key, xlabel) in zip(axes, panels):
        for side in (-1, 1):  # sets the data limits only: every error bar inside the axes, both ends
            ax.scatter([v[key] for v in variants], [v["acc"] + side * v.get("se", 0.0) for v in variants], s=0)
        ax.set(xscale="log", xlabel=xlabel)
        ax.margins(0.08)
        ax.xaxis.set_major_locator(ticker.LogLocator(subs=(1, 2, 3, 5)))  # a labelled tick every step
        ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda value, _: f"{value:g}"))
        ax.xaxis.set_minor_formatter(ticker.NullFormatter())
        ax.yaxis.set_major_formatter(ticker.PercentFormatter(xmax=1, decimals=1))
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("test accuracy")
    # the table's variants, not all the lesson timed (section 7 names those left out and why); layout first
    plots.finish(fig, f"Size and latency against accuracy, the trade-off table's variants{label}")
    fig.canvas.draw()  # fixes the axis limits, so that data positions convert to display points
    placed = []
    for ax, (key, _) in zip(axes, panels):
        ax.set(xlim=ax.get_xlim(), ylim=ax.get_ylim())
        shown = [(v[key], v["acc"]) for v in variants]  # measured values: never moved along an axis
        for family, (marker, colour) in FAMILY_STYLES.items():
            members = [(v, xy) for v, xy in zip(variants, shown) if v["family"] == family]
            for v, (x, y) in members:  # filled: on the front in size, latency and accuracy together
                if v.get("se"):  # the accuracy's standard error on the test set: what one or two images are worth
                    ax.errorbar(x, y, yerr=v["se"], color=colour, alpha=0.35, linewidth=1, zorder=2)
                ax.scatter(x, y, marker=marker, s=MARKER_SIZE, facecolors=colour if v["front"] else "none",
                           edgecolors=colour, zorder=4 if v["front"] else 3, alpha=0.7,  # one behind shows
                           label=family if v is members[0][0] else None)
        placed.append((ax, shown))
    legend = ("filled: on the table's Pareto front\n(size, latency and accuracy)\nnumbers: the table's #\n"
              "bars: ± one standard error\nmarkers at their measured values;\nmarkers on one spot: one label,\n"
              "the filled one named first")
    # beside the right panel, outside both: a legend inside would cover markers or their error bars
    axes[1].legend(*axes[0].get_legend_handles_labels(), title=legend, loc="upper left",
                   bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)
    for ax, shown in placed:  # numbered last, so that they keep off the legend too
        numbered = [(k, x, y, v["front"]) for k, ((x, y), v) in enumerate(zip(shown, variants), 1)]
        _place_numbers(ax, _spots(ax, numbered))
    return fig


MARKER_SIZE = 60  # points squared: a marker about 8 points wide


# Where a number may go, in points from its marker's centre (to the right the text starts there, to the left
# it ends there).
NUMBER_OFFSETS = [(5, 3), (5, -12), (-5, 3), (-5, -12), (5, 12), (5, -21), (-5, 12), (-5, -21), (9, -4),
                  (-9, -4)]


def spot_label(numbers: list[int], filled: list[bool]) -> str:
    """One label for markers drawn on one spot: ``"11 (filled), 10, 12"``. Numbers crowded round one spot
    hid which of them is on the front (lesson 04's three MLP int8 variants at 2.9 MB); one label names the
    filled ones first, and says "filled" only where the spot mixes filled and open markers. Lesson 04."""
    front = [str(k) for k, f in sorted(zip(numbers, filled)) if f]
    others = [str(k) for k, f in sorted(zip(numbers, filled)) if not f]
    if front and others:
        return f"{', '.join(front)} (filled), {', '.join(others)}"
    return ", ".join(front or others)


def _half_marker(ax) -> float:
    """Half a marker's width, in display pixels."""
    return MARKER_SIZE**0.5 * ax.figure.dpi / 72 / 2


def _spots(ax, points: list[tuple[int, float, float, bool]]) -> list[tuple[str, float, float]]:
    """The labels to place: one per spot, where a spot is the markers whose centres lie within a marker's
    width of the first one's (they overlap), at that first marker. ``points``: (number, x, y, filled)."""
    spots = []  # [(centre in display pixels, x, y, [numbers], [filled])]
    for k, x, y, filled in points:
        centre = ax.transData.transform((x, y))
        near = next((s for s in spots if abs(s[0] - centre).max() < 2 * _half_marker(ax)), None)
        if near:
            near[3].append(k)
            near[4].append(filled)
        else:
            spots.append((centre, x, y, [k], [filled]))
    return [(spot_label(numbers, filled), x, y) for _, x, y, numbers, filled in spots]


def _place_numbers(ax, points: list[tuple[str, float, float]]) -> None:
    """Label each spot beside its marker: at the first offset where the label, measured as it is drawn,
    covers no label placed before, no marker and not the legend, and stays inside the axes (the first
    offset where none is free). Lesson 04's two MLP variants of 2.93 and 2.94 MB once printed "12" on "10"."""
    renderer = plots.renderer_of(ax.figure)
    frame = ax.get_window_extent(renderer)
    half = _half_marker(ax)
    centres = [ax.transData.transform((x, y)) for _, x, y in points]
    taken = [Bbox.from_bounds(cx - half, cy - half, 2 * half, 2 * half) for cx, cy in centres]
    if ax.get_legend():
        taken.append(ax.get_legend().get_window_extent(renderer))
    for k, x, y in points:
        for dx, dy in NUMBER_OFFSETS:
            note = _number(ax, k, x, y, dx, dy)
            box = plots.text_box(note, renderer)
            inside = frame.contains(box.x0, box.y0) and frame.contains(box.x1, box.y1)
            if inside and not any(box.overlaps(other) for other in taken):
                break
            note.remove()
        else:  # nowhere free: the first place (the tests look for overlaps)
            box = plots.text_box(_number(ax, k, x, y, *NUMBER_OFFSETS[0]), renderer)
        taken.append(box)


def _number(ax, k: str, x: float, y: float, dx: float, dy: float):
    """The label ``k`` at (dx, dy) points from (x, y): starting there (dx > 0) or ending there (dx < 0)."""
    return ax.annotate(k, (x, y), textcoords="offset points", xytext=(dx, dy), fontsize=9,
                       ha="left" if dx > 0 else "right")
