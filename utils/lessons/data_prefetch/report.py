"""Lesson 05's summary: every configuration's measured epoch next to its bound, as a table and a chart.

``results`` maps a configuration's name to ``(epoch seconds, bound seconds, loaders)``, as the notebook
keeps them while it measures.
"""

from __future__ import annotations

from utils import plots
from utils.lessons.data_prefetch.epoch import bound_formula
from utils.tables import Table


def epochs_table(results: dict[str, tuple[float, float, int]], title: str) -> Table:
    """One row per configuration: the bound's formula, the epoch, the bound and bound / epoch (lesson 05)."""
    rows = [(name, bound_formula(loaders), f"{seconds:.2f}", f"{limit:.2f}", f"{limit / seconds:.0%}")
            for name, (seconds, limit, loaders) in results.items()]
    columns = ["configuration", "bound formula", "epoch (s)", "bound (s)", "bound / epoch"]
    return Table(columns, rows, title=title)


def plot_epochs(results: dict[str, tuple[float, float, int]], simulated: bool):
    """A bar per configuration's measured epoch, a black tick at its bound (lesson 05)."""
    names = list(results)
    fig, (ax,) = plots.new_figure(rows=1, row_height=0.45 * len(names) + 0.6)
    ax.barh(names, [results[n][0] for n in names], color=plots.device_color(0), label="measured epoch")
    ax.scatter([results[n][1] for n in names], names, color="black", marker="|", s=400, zorder=3,
               label="bound")
    ax.invert_yaxis()  # the first configuration measured on top
    ax.set_xlabel("seconds per epoch")
    ax.legend(loc="lower right", fontsize=8)
    plots.stamp_simulated(fig, simulated)
    title = "Each configuration's epoch and its bound" + (" (simulated on CPU)" if simulated else "")
    return plots.finish(fig, title)
