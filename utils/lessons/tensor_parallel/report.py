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
             f"{r['comm'] * 1e3:.2f}", f"{r['speedup']:.2f}x", f"{r['predicted_speedup']:.2f}x",
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
