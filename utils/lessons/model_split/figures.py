"""Lesson 02's figures (``notebooks/02_model_split.ipynb``), drawn from a run's rows and spans; ``report``
re-exports them, so the notebook reads them as ``report.plot_speedups`` and so on.

    plot_speedups(run)        # measured speedup per m (min-max bars) beside 2m/(m+1), bubbles on top
    plot_schedule(spans)      # the measured Gantt chart, laid out tight
    plot_ideal(names, m)      # idealised charts of schedules, drawn from theory (section 9)
"""

from __future__ import annotations

from utils import plots, timeline
from utils.claims import printed_ratio
from utils.lessons.model_split.bounds import bubble_fraction, pipeline_bound
from utils.lessons.model_split.noise import round_text
from utils.lessons.model_split.runs import PipelineRun, median_round


def plot_speedups(run: PipelineRun, title: str = "Pipeline speedup over one device against 2m/(m+1)"):
    """Measured speedup per micro-batch count (median of paired rounds, bars min-max of every round), one
    line per batch size and schedule (GPipe solid, 1F1B as squares), beside the bound 2m/(m+1) and the 2x
    bound of two devices; each m's bubble is written on the top axis, clear of the bars."""
    fig, (ax,) = plots.new_figure(rows=1, width=8.0, row_height=3.8)
    rows = [r for r in run.rows if not r.naive and r.schedule in ("gpipe", "1f1b")]
    ms = sorted({r.m for r in rows})
    grid = [1 + k * (max(ms) - 1) / 100 for k in range(101)]
    ax.plot(grid, [pipeline_bound(m) for m in grid], color="0.3", lw=1.5, label="bound 2m/(m+1)")
    ax.axhline(2.0, color="0.3", lw=1.0, ls="--", label="bound of two devices, 2x")
    lines = sorted({(r.schedule, r.batch) for r in rows}, key=lambda sb: (sb[0] != "gpipe", sb[1]))
    for k, (schedule, batch) in enumerate(lines):
        mine = sorted((r for r in rows if (r.schedule, r.batch) == (schedule, batch)), key=lambda r: r.m)
        shift = 2 ** (0.04 * (k - (len(lines) - 1) / 2))  # side by side, so the bars do not hide each other
        ys = [r.speedup for r in mine]
        err = [[y - r.speedup_range[0] for y, r in zip(ys, mine)], [r.speedup_range[1] - y for y, r in zip(ys, mine)]]
        name = "GPipe" if schedule == "gpipe" else "1F1B"
        ax.errorbar([r.m * shift for r in mine], ys, yerr=err, fmt=("o-" if schedule == "gpipe" else "s--"),
                    color=plots.device_color(k), capsize=3, label=f"{name}, batch {batch} (bars: min-max over rounds)")
    ax.axhline(1.0, color="0.6", lw=0.8, ls=":")
    ax.set_xscale("log", base=2)
    ax.set_xlim(min(ms) / 1.4, max(ms) * 1.4)
    ax.set_xticks(ms, [str(m) for m in ms])
    ax.minorticks_off()
    ax.set_xlabel("micro-batches m (log scale)")
    ax.set_ylabel("speedup over one device")
    ax.set_ylim(0, max([2.0] + [r.speedup_range[1] for r in rows]) * 1.1)
    top = ax.secondary_xaxis("top")  # the bubble of each m, on its own axis: no label sits on a bar
    top.set_xticks(ms, [f"bubble {bubble_fraction(m):.0%}" for m in ms], fontsize=8, color="0.3")
    top.minorticks_off()
    top.tick_params(length=0)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), fontsize=8, ncol=2, frameon=False)  # off the bars
    plots.stamp_simulated(fig, run.simulated)
    return plots.finish(fig, title)


def plot_schedule(spans, title: str | None = None, simulated: bool | None = None, row=None, rounds=None):
    """``timeline.plot_gantt`` with its legend held a fixed distance under the axis and the figure cropped
    to it, so that no empty band separates the legend from the *simulated on CPU* stamp.

    ``row``: the table's row of the schedule drawn. The bars are one step, the median round's (``PipelineRun.spans``:
    the round whose paired speedup is the row's median); with a row, the busy share written beside each worker
    is the table's (median busy / median step, ``Row.busy``), so that the chart and the table print one figure,
    and the axis says which is which. ``rounds``: without a row (section 3's naive split, whose busy shares
    no table prints), the rounds the median round was picked from (their count, or every round's speedup,
    so that the axis names the round: ``drawn_round``): the bars and their busy labels are that one round's."""
    from matplotlib.transforms import ScaledTranslation

    fig = timeline.plot_gantt(spans, title=title, simulated=simulated)
    ax = fig.axes[0]
    if row is not None:  # one source: the right-hand labels, worker by worker (rows sorted: worker 0 on top)
        labels = [t for t in ax.texts if t.get_text().startswith(("busy ", "work "))]
        for text, busy in zip(sorted(labels, key=lambda t: t.get_position()[1]), row.busy):
            # from the two whole ms the table prints: the reader's own division
            text.set_text(f"busy {min(printed_ratio(busy, row.seconds, 0, 1e-3), 1.0):.0%}")
        # the bars are one round's step, which need not be the median step the table prints: say which, how
        # long it took, and whether that is the table's median step as printed
        drawn = drawn_round(row.speedups, _extent_ms(spans), row.seconds * 1e3)
        ax.set_xlabel(ax.get_xlabel() + f"; bars: {drawn};\nbusy: the table's, median of {len(row.speedups)} rounds")
    elif rounds:  # the busy labels are the drawn bars' own: say which round they are
        ax.set_xlabel(ax.get_xlabel() + "; bars and busy: " + drawn_round(rounds))
    legend = ax.get_legend()
    extra = 0.18 * ax.get_xlabel().count("\n")  # inches: a caption's second line pushes the legend down
    if legend is not None:  # 0.5 inch under the axis (plus the caption's extra lines), whatever the axis's height
        shift = ScaledTranslation(0, -0.5 - extra, fig.dpi_scale_trans)
        legend.set_bbox_to_anchor((0.5, 0.0), transform=ax.transAxes + shift)
    fig.set_size_inches(fig.get_size_inches()[0], 0.55 * len(ax.get_yticks()) + 1.7 + extra)
    fig.tight_layout()
    return fig


def drawn_round(rounds, step_ms: float | None = None, median_ms: float | None = None) -> str:
    """Which round a chart of ``PipelineRun.spans`` draws: with every round's speedup, the round of the median
    speedup by number ("round 4 of 5, the median speedup's (0.997x)"), whose step need not be the median step
    a table prints. ``step_ms``: the drawn bars' length, said beside it; with ``median_ms`` (the table's median
    step), the two compared as printed (whole ms): "…, 470 ms, not the median step (432 ms)" or "…, 319 ms,
    as long as the median step". Without it, "which need not be the median step". With a count alone, "the
    median round of 5"."""
    if isinstance(rounds, int):
        return f"the median round of {rounds}"
    i = median_round(rounds)
    said = f"round {i + 1} of {len(rounds)}, the median speedup's ({round_text(rounds[i])}x)"
    if step_ms is None or median_ms is None:  # nothing printed to compare: say only what may differ
        return said + (f", {step_ms:.0f} ms" if step_ms is not None else "") + ", which need not be the median step"
    if f"{step_ms:.0f}" == f"{median_ms:.0f}":  # as printed: a reader sees the same ms in the table
        return said + f", {step_ms:.0f} ms, as long as the median step"
    return said + f", {step_ms:.0f} ms, not the median step ({median_ms:.0f} ms)"


def _extent_ms(spans) -> float:
    """The drawn bars' length in ms: from the first span's start to the last span's end."""
    return (max(s.end for s in spans) - min(s.start for s in spans)) * 1e3


def plot_ideal(names, m: int, costs=None, title: str | None = None):
    """Idealised charts of the schedules ``names`` (``ideal.simulate``: each schedule's own order of passes,
    every pass its ``costs``, messages free), one pair of rows per schedule, on one time axis in units of
    a forward pass. Drawn from theory, not measured: what a measured chart of the same schedule is read
    against."""
    from utils.lessons.model_split import ideal

    spans, own = [], {}  # own: each row's busy share over its own schedule's length, not the shared axis
    for name in names:
        mine = ideal.simulate(ideal.order(name, m), costs or ideal.EQUAL, label=f"{name}: worker")
        length = max(s.end for s in mine) - min(s.start for s in mine)
        own.update({d: (f, length) for d, f in timeline.busy_fractions(mine).items()})
        spans += mine
    fig = plot_schedule(spans, title=title, simulated=False)
    ax = fig.axes[0]
    rows = [t.get_text() for t in ax.get_yticklabels()]
    for text in [t for t in ax.texts if t.get_text().startswith("busy ")]:  # the right-hand busy labels
        busy, length = own[rows[round(text.get_position()[1])]]
        text.set_text(f"busy {busy:.0%} of its {length:g} units")
    ax.set_xlabel("time in forward passes of one stage (idealised, not measured); grey = idle; "
                  "busy: of the schedule's own length")
    return fig
