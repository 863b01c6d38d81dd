"""One picture of what DistributedDataParallel does in a training step, before lesson 03 repairs anything.

Lesson 03 (``notebooks/03_ddp.ipynb``) shows it first: two replicas of the model, one per rank; the broadcast
of rank 0's weights when ``DDP(model)`` is built; each rank's forward and backward pass on its own batch; the
gradients averaged over the ranks in buckets, each bucket's all-reduce started during the backward pass as
soon as its gradients are ready; the same optimizer step on every rank. Drawn, not measured: section 2
measures the same step on a timeline. The colours are the course's (``utils.palette``).

    fig = plot_ddp_step()
"""

from __future__ import annotations

from matplotlib.patches import FancyArrowPatch, Rectangle

from utils import palette, plots
from utils.claims import as_printed

# (label, kind, start, end) per rank, in arbitrary time units; buckets overlap the backward pass
_WORK = [("forward, own batch", palette.FORWARD, 1.6, 3.4), ("backward, last layer first", palette.BACKWARD, 3.4, 7.6),
         ("optimizer step", palette.STEP, 8.4, 9.8)]
# all-reduce: average. DDP numbers its buckets in reverse parameter order: bucket 0 holds the last layers'
# gradients, ready first in the backward (which runs from the output back), so it is all-reduced first
_BUCKETS = [("bucket 0", 4.6, 5.7), ("bucket 1", 6.0, 7.1), ("bucket 2", 7.5, 8.3)]


def plot_ddp_step(title: str = "What DDP does in one training step (a drawing, not a measurement)"):
    """Two ranks, each with a replica: the broadcast at construction, forward and backward on each rank's
    own batch, gradient buckets all-reduced (averaged) while the backward pass goes on, the same step."""
    fig, (ax,) = plots.new_figure(rows=1, width=9.5, row_height=3.0)
    lanes = {0: 2.0, 1: 0.0}  # y of each rank's work row; its all-reduce row sits just under it
    for rank, y in lanes.items():
        ax.text(-0.1, y + 0.35, f"rank {rank}\nreplica {rank}", ha="right", va="center", fontsize=9)
        _box(ax, 0.0, 1.4, y, palette.KIND_COLORS[palette.COMMUNICATION],
             "weights from\nrank 0" if rank else "DDP(model):\nbroadcast")
        for label, kind, a, b in _WORK:
            _box(ax, a, b, y, palette.KIND_COLORS[kind], label)
        for label, a, b in _BUCKETS:
            _box(ax, a, b, y - 0.75, palette.KIND_COLORS[palette.COMMUNICATION], label, height=0.55)
    ax.add_patch(FancyArrowPatch((0.7, 1.95), (0.7, 0.75), arrowstyle="-|>", mutation_scale=12, color="0.2"))
    for _, a, b in _BUCKETS:  # each bucket's all-reduce: both ranks end with the average
        ax.add_patch(FancyArrowPatch(((a + b) / 2, 1.2), ((a + b) / 2, 0.75), arrowstyle="<|-|>",
                                     mutation_scale=9, color="0.35"))
    ax.text(9.9, 1.0, "all-reduce:\ngradients\naveraged,\nthe same\non both", ha="left", va="center", fontsize=8)
    ax.set_xlim(-1.6, 11.0)
    ax.set_ylim(-1.0, 2.9)
    ax.axis("off")
    return plots.finish(fig, title)


def _box(ax, a: float, b: float, y: float, color: str, label: str, height: float = 0.7) -> None:
    ax.add_patch(Rectangle((a, y), b - a, height, facecolor=color, edgecolor="white"))
    ax.text((a + b) / 2, y + height / 2, label, ha="center", va="center", fontsize=7.5,
            color=palette.text_color(color), linespacing=1.0)


def drawn_title(way: str, ranks: list[dict], step: int, label: str = "") -> str:
    """The title of a measured timeline of section 2 (``overlap.timeline``'s results, one per rank): which
    step it draws (the median lag between the ranks, not the median time) and how long that step took on the
    rank the table shows, beside the table's median step: a drawn step can be the slowest of the run."""
    shown = max(ranks, key=lambda r: r["step"])  # the table's rank: its median step took longest
    n = len(shown["steps"])
    took, median = shown["steps"][step]["step"] * 1e3, shown["step"] * 1e3
    return (f"{way}: step {step + 1} of {n}, the median lag between the ranks{label}\n"  # two lines: it fits
            f"this step took {took:.1f} ms on rank {shown['rank']}, against the table's median step of {median:.1f} ms")


def drawn_line(way: str, ranks: list[dict], step: int, label: str = "") -> str:
    """The one line under a measured timeline of section 2: who waited at the end of the drawn ``step``, from
    the lag between the ranks' last gradients (as printed, 0.1 ms), or that they were level. How the step was
    chosen and what it took are in the chart's title (``drawn_title``); why the later rank was late goes in the
    collapsed block (``overlap.drawn_text``), which reads the same step's times: the visible output answers one
    question (the twenty-sixth reading)."""
    from utils.lessons.ddp.overlap import who_waited  # overlap imports torch: only when a line is printed

    w = who_waited(ranks, step)
    head = f"{way[:1].upper() + way[1:]}, step {step + 1}"
    if as_printed(w["lag"], 1, 1e-3) == 0:
        return (f"{head}: the ranks' last gradients were ready level (0.0 ms apart as printed): neither waited "
                f"for the other's backward to end{label}.")
    return (f"{head}: rank {w['late']}'s last gradient was ready {w['lag'] * 1e3:.1f} ms after rank "
            f"{w['waited']}'s, so rank {w['waited']} waited at the last all-reduce{label}.")
