"""Model complexity (lesson 01, section 4): time and memory of a training step as one size grows at a time.

The FLOP formula predicts the shape of each curve: linear in depth (each block adds the same work),
quadratic in width (a block's matmuls hold 12 width² weights), and in sequence length T linear per token for
the matmuls plus attention's T² term. Memory of a step is measured the same way on every device: the bytes of
the tensors autograd saves for the backward pass (``torch.autograd.graph.saved_tensors_hooks``), beside the
weights, their gradients and AdamW's two moments (4 x the weights' bytes).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from utils import bench
from utils.claims import within_noise
from utils.lessons.why_slow.flops import gpt_flops
from utils.lessons.why_slow.step import training_step

# The degree of the FLOP formula's polynomial in each size (depth 1, width 2, context 2): for the plot's curves.
DEGREE = {"depth": 1, "width": 2, "context": 2}


@dataclass(frozen=True)
class ScalePoint:
    axis: str
    value: int
    seconds: float  # fastest of the runs
    model_flops: float  # formula FLOPs of the training step
    saved_bytes: int  # activations autograd keeps for the backward (the weights it also keeps left out)
    state_bytes: int  # weights + gradients + AdamW moments: 4 x the weights' bytes


def saved_activation_bytes(model, x, y) -> int:
    """Bytes of the distinct tensors autograd saves during one forward (what a step holds at its peak), the
    model's own weights left out: a linear layer saves its weight for the backward, but that weight is in
    memory anyway and counted with the optimizer state, so counting it here would count it twice."""
    weights = {p.untyped_storage().data_ptr() for p in model.parameters()}
    seen: dict[int, int] = {}

    def pack(t):
        if t.untyped_storage().data_ptr() not in weights:
            seen[t.untyped_storage().data_ptr()] = t.untyped_storage().nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        loss = model.loss(x, y)
    del loss
    return sum(seen.values())


def measure_axis(base: dict, axis: str, values, batch: int, device: str = "cpu", repeats: int = 3
                 ) -> list[ScalePoint]:
    """One step's time and memory for each value of ``axis`` (width, depth or context), the rest at base."""
    points = []
    for value in values:
        sizes = dict(base, **{axis: value})
        if axis == "width":
            sizes["heads"] = max(1, value // 32)  # head size 32 throughout: width must divide into heads
        run = training_step(sizes, batch, device)
        m = bench.measure(run.step, warmup=1, repeats=repeats, device=device)
        weights = sum(p.numel() * p.element_size() for p in run.model.parameters())
        flops = gpt_flops(run.model.config.vocab_size, batch=batch, **sizes).train
        points.append(ScalePoint(axis, value, m.min, flops, saved_activation_bytes(run.model, run.x, run.y),
                                 4 * weights))
    return points


def fit(points: list[ScalePoint]) -> tuple[np.ndarray, float]:
    """Least squares of step time = c x (formula FLOPs) + d along one axis: one rate c (seconds per FLOP) and
    one fixed cost d (seconds) for the axis, the formula's FLOPs taken as they are. Returns (c, d) (as
    ``np.polyfit``) and the worst relative residual: small where the time follows the formula."""
    flops = np.array([p.model_flops for p in points], dtype=float)
    ys = np.array([p.seconds for p in points], dtype=float)
    coef = np.polyfit(flops, ys, 1)
    return coef, float(np.max(np.abs(np.polyval(coef, flops) - ys) / ys))


def fixed_cost_noise(points: list[ScalePoint]) -> float:
    """How far the fitted fixed cost d can sit from the truth (seconds): the fit's own worst miss at the smallest
    point, where d weighs most. A fit whose points miss by w cannot place d closer than about w x that step."""
    return fit(points)[1] * min(p.seconds for p in points)


def fixed_cost_is_negative(points: list[ScalePoint]) -> bool:
    """Whether the fit's fixed cost d is below zero beyond its noise (``fixed_cost_noise``), read as printed
    (ms, one decimal) by the course's one noise rule (``claims.within_noise``): no step has a negative fixed
    cost, so such a line describes the points without being rate x FLOPs plus a fixed cost (time per FLOP then
    rises with the size). A d whose ± covers zero is within noise: neither sign is shown."""
    d_ms, noise_ms = round(float(fit(points)[0][1]) * 1e3, 1), round(fixed_cost_noise(points) * 1e3, 1)
    return d_ms < 0 and not within_noise(d_ms, noise_ms, 0.0)


def plot_scaling(series: dict[str, list[ScalePoint]], label: str):
    """Per axis: measured step time (dots), its fit c x FLOPs + d, and the FLOP formula scaled to the largest
    point (dashed: c x FLOPs with no fixed cost; where time follows FLOPs the two agree); below, the memory of
    a step."""
    import matplotlib.pyplot as plt

    from utils import plots

    fig, axes = plt.subplots(2, 3, figsize=(11.0, 6.2))
    plt.close(fig)  # returned and shown once, as the cell's value (see utils.plots)
    grid = list(axes.flat)
    for col, (axis, pts) in enumerate(series.items()):
        xs = [p.value for p in pts]
        coef, worst = fit(pts)
        fine = np.linspace(min(xs), max(xs), 50)
        # the formula's FLOPs are a polynomial of the axis's degree in its size: through the points, exactly
        fine_flops = np.polyval(np.polyfit(xs, [p.model_flops for p in pts], DEGREE[axis]), fine)
        top, bottom = grid[col], grid[col + 3]
        top.plot(xs, [p.seconds * 1e3 for p in pts], "o", color=plots.device_color(0), label="measured")
        top.plot(fine, np.polyval(coef, fine_flops) * 1e3, "-", color=plots.device_color(0), lw=1,
                 label=f"c·FLOPs + d fit (worst {worst:.1%})")
        scale = pts[-1].seconds / pts[-1].model_flops
        top.plot(xs, [p.model_flops * scale * 1e3 for p in pts], "--", color="0.4",
                 label="FLOP formula alone (no fixed\ncost), through the largest point")
        top.set_title(f"step time vs {axis}", fontsize=9)
        top.set_ylabel("ms" if col == 0 else "")
        top.legend(fontsize=7)
        bottom.plot(xs, [p.saved_bytes / 2**20 for p in pts], "s-", color=plots.device_color(1), label="activations")
        bottom.plot(xs, [p.state_bytes / 2**20 for p in pts], "^-", color=plots.device_color(2),
                    label="weights+grads+AdamW")
        bottom.set_xlabel(axis)
        bottom.set_ylabel("MiB" if col == 0 else "")
        bottom.legend(fontsize=7)
    return plots.finish(fig, f"A training step as the model grows{label}")
