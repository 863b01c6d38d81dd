"""Lesson 07's tables and figures of the cost sweep (section 4): measured and predicted step times and
speedups over widths, and the crossover table from datasheet figures."""

from __future__ import annotations

import matplotlib.pyplot as plt
from matplotlib.ticker import FuncFormatter

from utils import plots
from utils.lessons.tensor_parallel.cost import crossover_width
from utils.tables import Table


def cost_table(analysis: dict, bound: float, label: str) -> Table:
    """Per width: one device, split (measured, predicted), the all-reduce share, speedups, the bound."""
    rows = [(r["width"], f"{r['one'] * 1e3:.2f}", f"{r['two'] * 1e3:.2f}", f"{r['predicted'] * 1e3:.2f}",
             f"{r['comm'] * 1e3:.2f}", f"{r['speedup']:.2f}x ± {r['spread']:.2f}",
             f"{r['predicted_speedup']:.2f}x",
             f"{bound:g}x")
            for r in analysis["rows"]]
    return Table(["width", "1 device ms", "split ms", "model ms", "of which all-reduce ms", "speedup",
                  "model speedup", "bound"], rows,
                 title="One MLP block, forward + backward, one device against two" + label)


def plot_cost(analysis: dict, bound: float, label: str, simulated: bool):
    """Step times (log-log) and speedups over width, measured beside the model; the bound dashed."""
    rows = analysis["rows"]
    w = [r["width"] for r in rows]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.6))
    plt.close(fig)  # returned: shown once, as the cell's value
    ax1.loglog(w, [r["one"] * 1e3 for r in rows], "o-", label="1 device, measured")
    ax1.loglog(w, [r["two"] * 1e3 for r in rows], "s-", label="2 devices, measured")
    ax1.loglog(w, [r["predicted"] * 1e3 for r in rows], "s--", mfc="none", label="2 devices, model")
    ax1.set_xlabel("width (hidden = 4 x width)")
    ax1.set_ylabel("ms per step")
    ax1.legend(fontsize=8)
    ax2.semilogx(w, [r["speedup"] for r in rows], "o-", label="measured")
    ax2.semilogx(w, [r["predicted_speedup"] for r in rows], "o--", mfc="none", label="model")
    ax2.axhline(bound, color="grey", ls=":", label=f"bound {bound:g}x")
    ax2.axhline(1, color="black", lw=0.6)
    ax2.set_xlabel("width")
    ax2.set_ylabel("speedup over 1 device")
    ax2.legend(fontsize=8)
    for ax in (ax1, ax2):
        ax.set_xticks(w, [str(v) for v in w])
        ax.xaxis.set_minor_locator(plt.NullLocator())
        ax.grid(alpha=0.3, which="both")
    plots.stamp_simulated(fig, simulated)
    return plots.finish(fig, "Tensor-parallel MLP block: measured against the cost model" + label)


def crossover_table(here: tuple[float, float, float, int], datasheet_rows, tokens: int) -> Table:
    """Where splitting starts to pay: this machine (measured F, alpha, beta) and datasheet GPU pairs."""
    flops, alpha, beta, value_bytes = here
    rows = [("this machine (measured)", f"{beta / 1e9:.2f}", f"{flops / 1e12:.3f} (fp32)",
             f"{alpha * 1e6:.0f}",
             f"{crossover_width(flops, beta, alpha, tokens, value_bytes):,.0f}")]
    for gpu, link, dtype, peak, link_bw in datasheet_rows:
        rows.append((f"2 x {gpu}, {link} (datasheet)", f"{link_bw / 1e9:.0f}", f"{peak / 1e12:.0f} ({dtype})",
                     "left out", f"{crossover_width(peak, link_bw, 0.0, tokens, 2):,.0f}"))
    return Table(["pair", "link GB/s", "TFLOP/s", "alpha us", "crossover width"], rows,
                 title=f"Smallest width where a split MLP step beats one device, {tokens} tokens")


METHODS = ("one device", "tensor parallel", "pipeline")


def inference_table(got: dict, micro_batches: int, label: str) -> Table:
    """Per batch size: tokens/s of each method and its speedup over one device; latency per token."""
    n, rows = got["new_tokens"], []
    for r in got["rows"]:
        cells = [r["batch"]]
        for m in METHODS:
            speed = r["batch"] * n / r[m]
            cells.append(f"{speed:,.0f}" + ("" if m == METHODS[0] else f" ({r[METHODS[0]] / r[m]:.2f}x)"))
        cells += [f"{r[m] / n * 1e3:.1f}" for m in METHODS]
        cells.append("yes" if r["same_tokens"] else "NO")
        rows.append(tuple(cells))
    return Table(["batch", "1 device tok/s", "tensor parallel tok/s", f"pipeline (m<={micro_batches}) tok/s",
                  "1 device ms/token", "TP ms/token", "pipeline ms/token", "same tokens"], rows,
                 title=f"Greedy generation, {n} new tokens per sequence" + label)


def plot_inference(got: dict, label: str, simulated: bool):
    """Tokens per second against batch size, one line per method (log-log)."""
    n, rows = got["new_tokens"], got["rows"]
    fig, ax = plt.subplots(figsize=(6.5, 3.4))
    plt.close(fig)
    batches = [r["batch"] for r in rows]
    for m, marker in zip(METHODS, "os^"):
        ax.loglog(batches, [r["batch"] * n / r[m] for r in rows], marker + "-", label=m)
    ax.set_xticks(batches, [str(b) for b in batches])
    ax.xaxis.set_minor_locator(plt.NullLocator())
    ax.set_xlabel("batch (sequences generated together)")
    ax.set_ylabel("tokens per second")
    plain = FuncFormatter(lambda v, _: f"{v:,.0f}")
    ax.yaxis.set_major_formatter(plain)
    ax.yaxis.set_minor_formatter(plain)
    ax.tick_params(axis="y", which="minor", labelsize=7)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    plots.stamp_simulated(fig, simulated)
    return plots.finish(fig, "Generation throughput" + label)




def miss_table(m: dict, label: str) -> Table:
    """The largest width's split step, term by term: the model's figure beside each rank's measured one
    (``cost.miss``), and the CPU time its threads got. Lesson 07."""
    def ms(v):
        return "-" if v is None else f"{v * 1e3:.2f}"

    ranks = m["ranks"] + [None] * (2 - len(m["ranks"]))

    def per_rank(key):
        return [ms(r[key]) if r is not None else "-" for r in ranks]

    rows = [("compute, outside the all-reduces", f"{ms(m['model_compute'])} (t1/2)", *per_rank("compute")),
            ("inside the 2 all-reduces", f"{ms(m['model_comm'])} (alpha-beta)", *per_rank("allreduce")),
            ("the split step", ms(m["model_step"]), *per_rank("step")),
            ("CPU time of the step's thread", "= compute (a core held)", *per_rank("thread_cpu")),
            ("CPU time of the worker's other threads", "", *per_rank("other_threads_cpu"))]
    return Table([f"width {m['width']}, ms", "model", "rank 0", "rank 1"], rows,
                 title="Where the split step's time went, fastest round" + label)


def miss_story(m: dict, label: str) -> list[str]:
    """The cost model's miss at the largest width, said from the measurement (``cost.miss``): which term
    missed, what the CPU figures and the co-running halves show about why, and what would show the model's
    speed-up. Lesson 07."""
    ranks = m["ranks"]
    if not ranks or ranks[0]["allreduce"] is None:
        return ["On GPUs NCCL returns from an all-reduce once it is queued, so its host time is not its "
                "time: this split of the step into its terms runs on gloo only (on GPUs the profiler's NCCL "
                f"kernel time is the measure){label}."]
    slow = max(ranks, key=lambda r: r["step"])
    compute_x, comm_x = slow["compute"] / m["model_compute"], slow["allreduce"] / m["model_comm"]
    extra_compute, extra_comm = slow["compute"] - m["model_compute"], slow["allreduce"] - m["model_comm"]
    where = "in the compute" if extra_compute >= extra_comm else "in the all-reduces"
    out = [f"On the slower rank the split step took {slow['step'] * 1e3:.1f} ms against the model's "
           f"{m['model_step'] * 1e3:.1f}: its compute {compute_x:.2f}x the model's t1/2, its all-reduces "
           f"{comm_x:.1f}x alpha + n/beta; " + (
               f"most of the miss is {where}{label}." if slow["step"] > m["model_step"] else
               f"no slower than the model: the one-device step t1 it is built from ({m['one'] * 1e3:.1f} ms) "
               f"met a busier moment than the split rounds{label}.")]
    others = (f"other programs used {m['others']:.2f} of a core and the hypervisor took {m['steal']:.2f} "
              "(steal)")
    if slow["thread_cpu"] >= 0.95 * slow["compute"]:
        out.append(f"The step's thread held its core through the compute ({slow['thread_cpu'] * 1e3:.1f} ms "
                   f"of CPU for {slow['compute'] * 1e3:.1f} ms of compute on the slower rank); over these "
                   f"rounds {others}.")
    else:
        out.append(f"The slower rank's thread ran only {slow['thread_cpu'] / slow['compute']:.0%} of its "
                   f"compute time: over these rounds {others}, taking turns with the two workers.")
    if m["corun"] and m["corun"]["alone"]:
        alone, together = m["corun"]["alone"], m["corun"]["together"]
        half_x, corun_x = alone / m["model_compute"], together / alone
        held = m["corun"].get("together_core", 1.0)
        if corun_x <= 1.05:
            why = "computing at the same moment cost nothing measurable"
        elif held < 0.95:
            why = (f"with both computing, a rank's thread ran only {held:.0%} of the time: the two ranks and "
                   f"the other programs shared the cores")
        else:
            why = ("each rank's thread held its core, so computing at the same moment costs what the two "
                   "cores share (memory bandwidth, last-level cache, the clock)")
        out.append(f"Measured apart, a rank's shard of work without its all-reduces took "
                   f"{alone * 1e3:.1f} ms with the other rank idle ({half_x:.2f}x the model's t1/2) and "
                   f"{together * 1e3:.1f} ms with both computing at once ({corun_x:.2f}x): {why}"
                   + ("; and half a block takes more than half a block's time here." if half_x > 1.05
                      else "."))
    if comm_x > 1.5:
        out.append("Inside an all-reduce a rank also waits for the other to arrive: the slower rank's "
                   "compute sets when the sum can start, so a compute miss shows in the all-reduces too.")
    if m["waiting_core"] is not None:
        out.append(f"The one-device reference was fair: rank 1, waiting in a barrier while rank 0 ran alone, "
                   f"used {m['waiting_core']:.0%} of a core.")
    out.append("What would show the model's speed-up: ranks that each have their compute to themselves, "
               "memory included, on a machine with nothing else running: two GPUs, or cores that do not "
               "share a memory bus, with the link's alpha small against the step.")
    return out
