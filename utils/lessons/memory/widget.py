"""Lesson 06's memory calculator as a widget, and the stacked bar it draws (also used for measured budgets).

    calculator_widget()                       # in JupyterLab: inputs, a stacked bar, "fits a T4 15.8 GB: yes"
    plot_budgets({"fp32": b1, "bf16": b2}, measured={"fp32": 46.5e6}, simulated=True)
"""

from __future__ import annotations

from utils import claims, plots
from utils.lessons.memory.calculator import (DEVICE_MEMORY, OPTIMIZER_STATES, PRECISIONS, STRATEGIES, Budget,
                                             Shape, estimate)

# GPT-2 small: 124 M parameters, its head tied to the token embedding
GPT2_SMALL = Shape(vocab=50257, context=1024, width=768, depth=12, heads=12, tied_head=True)
LINE_COLORS = {"parameters": "#1f77b4", "master weights": "#aec7e8", "gradients": "#ff7f0e",
               "optimizer": "#2ca02c", "activations": "#d62728", "temporary": "#9467bd",
               "communication": "#8c564b", "weight copies": "#e377c2"}


def plot_budgets(budgets: dict[str, Budget], measured: dict[str, float] | None = None,
                 capacity: float | None = None, simulated: bool = False, title: str = "Memory per device"):
    """One stacked bar per budget (the lines live at its peak), a black tick at each measured peak, and a
    dashed line at the device's capacity. Lesson 06."""
    names = list(budgets)
    fig, (ax,) = plots.new_figure(rows=1, row_height=0.5 * len(names) + 0.8)
    scale, unit = (1e9, "GB") if max(b.peak for b in budgets.values()) > 5e9 else (1e6, "MB")
    left = [0.0] * len(names)
    for line, color in LINE_COLORS.items():
        widths = [budgets[n].at_peak.get(line, 0.0) / scale for n in names]
        if any(widths):
            ax.barh(names, widths, left=left, color=color, label=line)
            left = [a + b for a, b in zip(left, widths)]
    if measured:
        shown = [n for n in names if n in measured]
        ax.scatter([measured[n] / scale for n in shown], shown, color="black", marker="|", s=500, zorder=3,
                   label="measured peak")
    if capacity:
        ax.axvline(capacity / scale, color="0.3", linestyle="--", label=f"capacity {capacity / scale:.1f} {unit}")
    ax.invert_yaxis()
    ax.set_xlabel(f"{unit} per device at the step's peak")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False,
              title="bars: the calculator's lines", title_fontsize=8)
    plots.stamp_simulated(fig, simulated)
    return plots.finish(fig, title + (" (simulated on CPU)" if simulated else ""))


def verdict(budget: Budget, capacity: float, device: str) -> str:
    """One line: fits or not, with the headroom. Lesson 06."""
    fits, _ = budget.fits(capacity)
    # the headroom from the two figures as printed, both to 0.01 GB: 15.84 - 21.15 reads "short by 5.31 GB"
    peak_gb, capacity_gb = claims.as_printed(budget.peak, 2, 1e9), claims.as_printed(capacity, 2, 1e9)
    headroom = capacity_gb - peak_gb
    if f"{capacity_gb:g} GB" not in device:   # "a T4 15.8 GB" rounds its 15.84 GB: the exact figure beside it
        device += f" ({capacity_gb:.2f} GB)"
    peak = f"peak {peak_gb:.2f} GB (at the {budget.peak_moment})"
    if fits:
        return f"{peak}: fits {device}, {headroom:.2f} GB ({headroom / capacity_gb:.0%}) to spare"
    return f"{peak}: does NOT fit {device}, short by {-headroom:.2f} GB"


def calculator_widget(shape: Shape | None = None, batch: int = 16):
    """The calculator in JupyterLab: model shape, batch, precision, optimizer, checkpointing, strategy over N
    devices, a device (or a size typed in GB); a stacked bar and the verdict update as you change them. Lesson 06."""
    import ipywidgets as w
    from IPython.display import display

    shape = shape or GPT2_SMALL
    box = w.Layout(width="220px")
    ints = {name: w.BoundedIntText(value=getattr(shape, name), min=1, max=10**7, description=name, layout=box)
            for name in ("depth", "width", "heads", "vocab", "context")}
    ints["batch"] = w.BoundedIntText(value=batch, min=1, max=10**5, description="batch", layout=box)
    precision = w.Dropdown(options=list(PRECISIONS), value="fp32", description="precision")
    optimizer = w.Dropdown(options=list(OPTIMIZER_STATES), value="adamw", description="optimizer")
    ckpt = w.Checkbox(value=False, description="activation checkpointing")
    tied = w.Checkbox(value=shape.tied_head, description="head tied to the embedding")
    strategy = w.Dropdown(options=list(STRATEGIES), value="one device", description="strategy")
    n = w.BoundedIntText(value=2, min=1, max=1024, description="N devices", layout=box)
    device = w.Dropdown(options=list(DEVICE_MEMORY) + ["custom"], value="T4 15.8 GB", description="device")
    custom = w.BoundedFloatText(value=16.0, min=0.1, max=10**4, description="custom GB", layout=box)
    out = w.Output()

    def update(*_):
        out.clear_output(wait=True)
        with out:
            try:
                s = Shape(**{k: ints[k].value for k in ("vocab", "context", "width", "depth", "heads")},
                          tied_head=tied.value)
                b = estimate(s, ints["batch"].value, precision.value, optimizer.value, ckpt.value, strategy.value,
                             n.value)
            except ValueError as exc:
                print(f"not a valid model: {exc}")
                return
            capacity = custom.value * 1e9 if device.value == "custom" else DEVICE_MEMORY[device.value]
            print(f"{s.parameters() / 1e6:,.1f} M parameters; " + verdict(b, capacity, device.value))
            display(plot_budgets({strategy.value: b}, capacity=capacity, title="Estimated memory per device"))

    controls = list(ints.values()) + [precision, optimizer, ckpt, tied, strategy, n, device, custom]
    for c in controls:
        c.observe(update, names="value")
    update()
    return w.VBox([w.HBox([w.VBox(list(ints.values())), w.VBox([precision, optimizer, ckpt, tied, strategy]),
                           w.VBox([n, device, custom])]), out])


# section 9's last rows: GPT-2 small with every saving but the 16-bit one (the calculator, 16 x 1,024 tokens)
STRIPPED = dict(checkpointing=True, loss_chunks=8, micro_batches=4)
PER_WEIGHT = ("parameters", "gradients", "optimizer")   # the lines that grow with the weights, not the batch


def autocast_on_stripped(shape: Shape = GPT2_SMALL, batch: int = 16) -> str:
    """What bf16 autocast does to a peak left mostly per-weight memory (section 9's GPT-2 small with
    checkpointing, a chunked loss and 4 micro-batches), from the calculator, in GB as printed (2 decimals), so
    that the change is the reader's own subtraction: "with checkpointing, a chunked loss and 4 micro-batches,
    its peak is 70% weights, gradients and AdamW state, and rises by 0.15 GB under autocast (2.84 -> 2.99 GB,
    the calculator)". Every outcome reads: rises, falls, or stays as printed. Lesson 06, section 4."""
    before = estimate(shape, batch, **STRIPPED)
    after = estimate(shape, batch, **STRIPPED, precision="bf16 autocast")
    old, new = (claims.as_printed(b.peak, 2, 1e9) for b in (before, after))
    share = sum(before.at_peak.get(k, 0.0) for k in PER_WEIGHT) / before.peak
    change = claims.half_up(new - old, 2)
    moved = ("stays as printed" if change == 0 else
             f"{'rises' if change > 0 else 'falls'} by {abs(change):.2f} GB")
    return (f"with checkpointing, a chunked loss and 4 micro-batches, its peak is {claims.percent(share)} weights, "
            f"gradients and AdamW state, and {moved} under autocast ({old:.2f} -> {new:.2f} GB, the calculator)")
