"""Tables, plots and plain-words readings of lesson 02's measurements (``notebooks/02_model_split.ipynb``).

    show(rows_table(run))     # step time, speedup against its bound, busy and CPU time per stage
    explain_row(row)          # one line: how close to the bound, and what the CPU times say about the gap
    plot_speedups(run)        # measured speedup per m (min-max bars) beside 2m/(m+1)
"""

from __future__ import annotations

from utils import plots
from utils.lessons.model_split.bounds import bubble_fraction, pipeline_bound
from utils.lessons.model_split.runs import PipelineRun, Row
from utils.tables import Table

CONTENDED = 0.8  # a stage whose CPU time is below this share of its busy wall time waited for a core


def rows_table(run: PipelineRun, title: str | None = None) -> Table:
    """The measured rows as a table: step time, speedup (range over rounds) against its bound, and where
    the time went: each stage's busy wall time beside its CPU time.

    *busy ms* is the wall time inside a stage's forward and backward spans; *CPU ms* is its main thread's
    CPU time per step (waiting costs none, and neither do other programs' turns on the cores). *CPU/busy*
    near 100 % means the stage ran whenever it worked; far below, it waited for a core (contention).
    *work vs 1 dev* is both stages' CPU time over the one-device step's: above 1, the split adds work.
    """
    rows = []
    for r in run.rows:
        kind = "naive split" if r.naive else r.schedule
        lo, hi = r.speedup_range
        work = r.work_inflation
        rows.append((r.batch, kind, r.m, f"{r.seconds * 1e3:.0f}", f"{r.baseline * 1e3:.0f}",
                     f"{r.speedup:.2f}x ({lo:.2f}-{hi:.2f})", f"{r.bound:.2f}x", f"{r.ratio:.0%}",
                     " / ".join(f"{b * 1e3:.0f}" for b in r.busy),
                     " / ".join(f"{c * 1e3:.0f}" for c in r.cpu),
                     " / ".join(f"{f:.0%}" for f in r.cpu_share),
                     f"{work:.2f}x" if work else ""))
    return Table(["batch", "schedule", "m", "step ms", "one device ms", "speedup (min-max)", "bound", "of bound",
                  "busy ms per stage", "CPU ms per stage", "CPU/busy", "work vs 1 dev"], rows, title=title)


def _gaps(r: Row) -> list[str]:
    """What the CPU times say opened the gap between this row's speedup and its bound."""
    gaps = []
    if r.work_inflation is not None and r.work_inflation > 1.1:
        gaps.append("extra work")
    if r.cpu_predicted is not None and r.cpu_predicted < 0.9 * r.bound and not gaps:
        gaps.append("imbalance or per-micro-batch overhead")
    if r.cpu_share and min(r.cpu_share) < CONTENDED:
        gaps.append("waiting for a core (contention)")
    if r.cpu_predicted is not None and r.speedup < 0.9 * r.cpu_predicted and not any("contention" in g for g in gaps):
        gaps.append("waiting outside the stages' work (messages, synchronisation)")
    return gaps


def explain_row(r: Row) -> str:
    """One line, from this row's numbers only: measured speedup, its range, the bound, and what the CPU
    times say about the gap (extra work, imbalance, or waiting for a core)."""
    lo, hi = r.speedup_range
    parts = [f"{r.speedup:.2f}x (rounds {lo:.2f}-{hi:.2f}) of a {r.bound:.2f}x bound ({r.ratio:.0%})"]
    if r.work_inflation is not None:
        parts.append(f"CPU work {r.work_inflation:.2f}x one device's")
    if r.cpu_predicted is not None:
        parts.append(f"CPU times predict {r.cpu_predicted:.2f}x")
    parts.append("CPU/busy " + " / ".join(f"{f:.0%}" for f in r.cpu_share))
    if lo <= r.bound <= hi and r.speedup >= 0.95 * r.bound:
        verdict = "at the bound within the spread"
    elif r.speedup > r.bound:
        verdict = "above the bound by less than the spread: noise"
    else:
        gaps = _gaps(r)
        verdict = "gap: " + (", ".join(gaps) if gaps else "within what these numbers resolve")
    return "; ".join(parts) + f" -> {verdict}"


def verdict(r: Row) -> str:
    """The last part of ``explain_row``: at the bound, noise, or what opened the gap."""
    return explain_row(r).split(" -> ")[-1]


def plot_speedups(run: PipelineRun, title: str = "Pipeline speedup over one device against 2m/(m+1)"):
    """Measured speedup per micro-batch count (median, bars min-max over rounds), one line per batch size,
    beside the bound and the bubble."""
    fig, (ax,) = plots.new_figure(rows=1, width=8.0, row_height=3.6)
    rows = [r for r in run.rows if not r.naive and r.schedule == "gpipe"]
    ms = sorted({r.m for r in rows})
    grid = [1 + k * (max(ms) - 1) / 100 for k in range(101)]
    ax.plot(grid, [pipeline_bound(m) for m in grid], color="0.3", lw=1.5, label="bound 2m/(m+1)")
    batches = sorted({r.batch for r in rows})
    for k, batch in enumerate(batches):
        mine = sorted((r for r in rows if r.batch == batch), key=lambda r: r.m)
        shift = 2 ** (0.04 * (k - (len(batches) - 1) / 2))  # side by side, so the bars do not hide each other
        xs = [r.m * shift for r in mine]
        ys = [r.speedup for r in mine]
        err = [[y - r.speedup_range[0] for y, r in zip(ys, mine)], [r.speedup_range[1] - y for y, r in zip(ys, mine)]]
        ax.errorbar(xs, ys, yerr=err, fmt="o-", color=plots.device_color(k), capsize=3,
                    label=f"measured, batch {batch} (bars: min-max over rounds)")
    ax.axhline(1.0, color="0.6", lw=0.8, ls=":")
    ax.set_xscale("log", base=2)
    ax.set_xlim(min(ms) / 1.4, max(ms) * 1.4)  # room for the outer labels
    ax.set_xticks(ms, [str(m) for m in ms])
    ax.set_xlabel("micro-batches m (log scale)")
    ax.set_ylabel("speedup over one device")
    ax.set_ylim(0, max([2.0] + [r.speedup_range[1] for r in rows]) * 1.08)
    for m in ms:
        ax.annotate(f"bubble {bubble_fraction(m):.0%}", (m, pipeline_bound(m)), textcoords="offset points",
                    xytext=(0, 6), ha="right" if m == max(ms) else "center", fontsize=8, color="0.3")
    ax.legend(loc="lower right", fontsize=8)
    plots.stamp_simulated(fig, run.simulated)
    return plots.finish(fig, title)
