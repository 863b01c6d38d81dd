"""The size / latency / accuracy trade-off of lesson 04 (``notebooks/04_compression.ipynb``): which variants
no other one beats (the Pareto front), and the figure that shows it.

    pareto_front([(mb, ms, -acc), ...])     # [True, False, ...]: lower is better in every coordinate
    plot_front(variants, latency_batch=256, simulated=True)
"""

from __future__ import annotations

import matplotlib.pyplot as plt
from matplotlib import ticker

from utils import plots

__all__ = ["pareto_front", "plot_front"]


def pareto_front(points: list[tuple[float, ...]]) -> list[bool]:
    """Which points no other point beats: True where no point is at least as good in every coordinate and
    strictly better in one. Every coordinate is *lower is better* (pass ``-accuracy`` for accuracy). Lesson 04.

    ``pareto_front([(1, 5), (2, 3), (3, 4)])`` is ``[True, True, False]``: (2, 3) beats (3, 4) in both.
    """
    def beats(a, b):
        return all(x <= y for x, y in zip(a, b)) and any(x < y for x, y in zip(a, b))

    return [not any(beats(other, p) for other in points) for p in points]


FAMILY_STYLES = {"CNN": ("o", "tab:blue"), "MLP": ("s", "tab:orange")}  # marker and colour of each family


def plot_front(variants: list[dict], latency_batch: int, simulated: bool):
    """Size and latency (log scales) against accuracy, one point per variant, numbered as the lesson's table.

    ``variants``: dicts with ``family``, ``mb`` (size saved), ``ms`` (fastest latency), ``acc`` (a fraction)
    and ``front`` (on the Pareto front of its family: filled). Lesson 04, section 7. Returns the figure.
    """
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), sharey=True)
    plt.close(fig)  # returned: shown once, as the cell's value
    panels = [("mb", "size saved (MB, log scale)"),
              ("ms", f"latency per batch of {latency_batch} (ms, log scale)")]
    for ax, (key, xlabel) in zip(axes, panels):
        for family, (marker, colour) in FAMILY_STYLES.items():
            members = [v for v in variants if v["family"] == family]
            for v in members:  # filled: on the front in size, latency and accuracy together
                ax.scatter(v[key], v["acc"], marker=marker, s=60, color=colour if v["front"] else "white",
                           edgecolors=colour, zorder=4 if v["front"] else 3,
                           label=family if v is members[0] else None)
        ax.set(xscale="log", xlabel=xlabel)
        ax.xaxis.set_major_locator(ticker.LogLocator(subs=(1, 2, 5)))
        ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda value, _: f"{value:g}"))
        ax.xaxis.set_minor_formatter(ticker.NullFormatter())
        ax.yaxis.set_major_formatter(ticker.PercentFormatter(xmax=1, decimals=1))
        ax.grid(alpha=0.3)
        ax.figure.canvas.draw()  # fixes the axis limits, so that data positions convert to points
        _place_numbers(ax, [(k, v[key], v["acc"]) for k, v in enumerate(variants, 1)])
    axes[0].set_ylabel("test accuracy")
    legend = "filled: on the table's Pareto front\n(size, latency and accuracy)\nnumbers: the table's #"
    axes[0].legend(title=legend, loc="lower right")
    plots.stamp_simulated(fig, simulated)
    return plots.finish(fig, "Size and latency against accuracy, every variant")


def _place_numbers(ax, points: list[tuple[int, float, float]], gap: float = 12) -> None:
    """Number each point; move a number to another corner of its point when it would overlap one placed before."""
    placed = []
    for k, x, y in points:
        px, py = ax.transData.transform((x, y))
        for dx, dy in [(5, 3), (5, -12), (-13, 3), (-13, -12)]:
            if all(abs(px + dx - qx) > gap or abs(py + dy - qy) > gap for qx, qy in placed):
                break
        placed.append((px + dx, py + dy))
        ax.annotate(str(k), (x, y), textcoords="offset points", xytext=(dx, dy), fontsize=9)
