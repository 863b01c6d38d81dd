"""Profile every layer, then split where the slowest stage is fastest: balancing, lesson 02.

Lesson 02 (``notebooks/02_model_split.ipynb``, section 7; lab 02 uses ``stage_costs``):

    costs = profile_layers(seq, x, loss_fn, y)        # seconds per layer, forward + backward
    points = balanced_split(costs, n_stages=2)        # split points that minimise the slowest stage
    stage_costs(costs, points), imbalance(costs, points)
    gpt_layer_costs(width=768, depth=8, heads=12)     # the cost model, before anything is measured

``profile_on_stage_device`` runs ``profile_layers`` in one launched worker, on the device and with the threads
the pipeline workers use, so that the notebook never initialises CUDA.
"""

from __future__ import annotations

import statistics
from typing import Callable, Sequence

import torch
from torch import nn

from utils import bench, devices, launch, precision
from utils.claims import as_printed, within_noise
from utils.lessons.model_split.schedules import stage_devices
from utils.lessons.model_split.split import stage_ranges
from utils.lessons.model_split.tasks import SEQ_LEN, VOCAB, Task


def stage_costs(costs: Sequence[float], split_points: Sequence[int]) -> list[float]:
    """Sum of the layer costs in each stage."""
    return [sum(costs[a:b]) for a, b in stage_ranges(len(costs), split_points)]


def printed_stage_costs(costs: Sequence[float], split_points: Sequence[int]) -> list[float]:
    """Each stage's cost in ms as the lesson prints it: the sum of its layers' costs (``costs`` in seconds) as the
    profile table prints them, two decimals (0.33 + 9.62 = 9.95, not 9.9 from the unrounded sum), the figures a
    reader works the imbalance and the predicted speedup from. Printed with two decimals too."""
    layers = [as_printed(c, 2, 1e-3) for c in costs]
    return [as_printed(sum(layers[a:b]), 2) for a, b in stage_ranges(len(costs), split_points)]


def imbalance(costs: Sequence[float], split_points: Sequence[int]) -> float:
    """Slowest stage / average stage: 1.0 is perfectly balanced; a pipeline loses this factor. Worked from
    the stage costs as printed (``printed_stage_costs``), so that 29.27 / ((9.95 + 29.27) / 2) reads 1.49."""
    per_stage = printed_stage_costs(costs, split_points)
    mean = sum(per_stage) / len(per_stage)
    return max(per_stage) / mean if mean else 1.0


def balanced_split(costs: Sequence[float], n_stages: int = 2) -> list[int]:
    """Split points that make the slowest stage as fast as possible (a pipeline runs at its pace).

    Exact, by dynamic programming over the layer prefix: ``best[s][i]`` is the smallest possible slowest
    stage when the first i layers form s stages. Ties go to the earliest split point.
    """
    n = len(costs)
    if not 1 <= n_stages <= n:
        raise ValueError(f"cannot make {n_stages} non-empty stages from {n} layers")
    prefix = [0.0]  # prefix[i]: cost of layers 0 .. i-1
    for c in costs:
        prefix.append(prefix[-1] + c)
    best = [[float("inf")] * (n + 1) for _ in range(n_stages + 1)]
    cut = [[0] * (n + 1) for _ in range(n_stages + 1)]  # cut[s][i]: where the last of those s stages starts
    best[0][0] = 0.0
    for s in range(1, n_stages + 1):
        for i in range(s, n + 1):
            for j in range(s - 1, i):  # the last stage is layers j .. i-1
                slowest = max(best[s - 1][j], prefix[i] - prefix[j])
                if slowest < best[s][i] - 1e-15:
                    best[s][i], cut[s][i] = slowest, j
    points, i = [], n
    for s in range(n_stages, 1, -1):  # walk the cuts back from the last stage
        i = cut[s][i]
        points.append(i)
    return points[::-1]


def gpt_layer_costs(width: int, depth: int, heads: int, seq_len: int = SEQ_LEN, vocab: int = VOCAB,
                    mlp_ratio: int = 4) -> list[float]:
    """The lesson's cost model of the GPT's layers [embedding, block 0 .. block depth-1, head]: forward
    floating-point operations per token (the backward costs about twice as much for every layer alike).

    A block: its matrix products, 2·(3C² + C² + 2·r·C²) = 24·C² for the usual r = 4 (queries, keys and
    values, the attention's output projection, the feed-forward network), plus attention over the sequence,
    2·2·T·C (scores and the weighted sum; ``heads`` splits C without changing the count). The head: 2·C·V.
    The embedding is a look-up and an add, C. What it leaves out (norms, activations) is small beside the
    products at these widths; ``profile_layers`` measures what it leaves out.
    """
    del heads  # the attention's cost does not depend on how C is cut into heads
    block = 2 * (4 + 2 * mlp_ratio) * width**2 + 4 * seq_len * width
    return [float(width)] + [float(block)] * depth + [2.0 * width * vocab]


# --- profiling -----------------------------------------------------------------------------------------


def _layer_inputs(layers: Sequence[nn.Module], x: torch.Tensor) -> list[torch.Tensor]:
    with torch.no_grad():
        inputs = [x]
        for layer in layers[:-1]:
            inputs.append(layer(inputs[-1]))  # the input of every layer, computed once
    return inputs


def profile_samples(model: nn.Sequential, x: torch.Tensor, loss_fn: Callable | None = None,
                    target: torch.Tensor | None = None, repeats: int = 5, threads: int | None = None,
                    device=None) -> list[list[float]]:
    """Every timed sample (seconds) of every layer's forward + backward: ``profile_layers`` without the median.

    ``device`` (default: where ``x`` is) is what ``bench.measure`` synchronises, so GPU timings are complete.
    """
    device = torch.device(device) if device is not None else x.device
    layers = list(model)
    with bench.threads(threads):
        inputs = _layer_inputs(layers, x)

        def forward_backward(k: int) -> None:
            inp = inputs[k].detach()
            if inp.is_floating_point():
                inp.requires_grad_(True)  # the backward computes the input's gradient too, as in a pipeline
            out = layers[k](inp)
            if k == len(layers) - 1 and loss_fn is not None:
                loss_fn(out, target).backward()
            else:
                out.backward(torch.ones_like(out))

        costs: list[list[float]] = [[] for _ in layers]
        for k in range(len(layers)):
            forward_backward(k)  # warm-up
        for _ in range(repeats):  # interleaved: a burst of load on a shared machine hits every layer alike
            for k in range(len(layers)):
                costs[k] += bench.measure(lambda k=k: forward_backward(k), warmup=0, repeats=1, device=device).samples
    model.zero_grad(set_to_none=True)
    return costs


def profile_layers(model: nn.Sequential, x: torch.Tensor, loss_fn: Callable | None = None,
                   target: torch.Tensor | None = None, repeats: int = 5, threads: int | None = None,
                   device=None) -> list[float]:
    """Seconds per layer of ``model`` for one forward and one backward pass on ``x`` (median of repeats).

    Each layer is timed on its own, on the activation the layers before it produce. The last layer's cost
    includes ``loss_fn(output, target)`` when given (the loss runs on the last stage). ``threads`` sets
    torch's threads while profiling: use the pipeline workers' count, so that costs compare with theirs.
    Runs where ``model`` and ``x`` are; to profile on the pipeline workers' device without touching CUDA
    in the notebook, use ``profile_on_stage_device``.
    """
    return [statistics.median(c) for c in profile_samples(model, x, loss_fn, target, repeats, threads, device)]


def worker_threads(nprocs: int = 2) -> int:
    """Torch threads each of ``nprocs`` launched workers gets (``utils.launch``: the cores shared out)."""
    return max(1, devices.cpu_cores() // nprocs)


def profile_worker(task: Task, batch: int, device: str, threads: int, repeats: int, seed: int) -> dict:
    """Worker (run by ``launch``): ``profile_samples`` of ``task``'s model, with medians and spreads (fp32
    matmuls as the timed pipelines run them: TF32 on Ampere+ GPUs)."""
    precision.fp32_matmuls(device)
    model = task.build().to(device)
    x, y = (t.to(device) for t in task.make_batch(batch, seed))
    samples = profile_samples(model, x, task.loss_fn, y, repeats, threads, device)
    med = [statistics.median(c) for c in samples]
    return {"costs": med, "spread": [(max(c) - min(c)) / m if m else 0.0 for c, m in zip(samples, med)],
            "samples": samples, "device": str(device), "threads": threads}


def profile_on_stage_device(task: Task, batch: int, repeats: int = 5, threads: int | None = None,
                            device: str | None = None, seed: int = 0, timeout: float = 300) -> dict:
    """``profile_layers`` of ``task``'s model in ONE launched worker, on the device the pipeline stages use.

    ``device`` defaults to ``stage_devices()[0]`` (a GPU with NCCL workers, else the CPU) and ``threads``
    to the two pipeline workers' count, so the costs compare with what the workers measure; the notebook
    never initialises CUDA. Returns ``{"costs": median seconds per layer, "spread": (max - min) / median
    per layer, "samples", "device", "threads"}``.
    """
    device = device or stage_devices()[0]
    threads = threads or worker_threads(2)
    return launch.launch(profile_worker, task, batch, device, threads, repeats, seed, nprocs=1, timeout=timeout)[0]


def profile_against_work(split: Sequence[int], profile: float, work: float | None, value: float,
                         spread: float) -> str:
    """Section 7's rule, applied where a learner sees it: a split's prediction from the profile (isolated layer
    timings) beside the one from the work its stages measured in the pipeline (``Row.predicted``), both as
    printed. Apart by more than the row's paired ``spread`` (as printed), the profile missed work (or timed work
    the stages did not do). Within it, these rounds do not tell the two apart, and the measured ``value`` (the
    row's median) is read against both by claims' one noise rule (``_measured_against_both``)."""
    p = as_printed(profile, 2)
    said = f"split {list(split)}: the profile predicts {p:.2f}x"
    if work is None:
        return said + "; the stages' work was not measured, so the two predictions are not compared"
    w, d = as_printed(work, 2), as_printed(spread, 2)
    gap = as_printed(abs(p - w), 2)
    # named as the block's line names it ("CPU times predict"), with what sets it apart from the work-scaled
    # reference printed beside it: a reader must not take the two work figures for one
    said += (f", the stages' CPU times predict {w:.2f}x (imbalance included, unlike the work-scaled reference; "
             f"|{p:.2f} - {w:.2f}| = {gap:.2f}")
    if within_noise(p, d, w):  # claims' one noise rule: the profile's p ± the rounds' d covers the work's w
        return (said + f", within the rounds' spread, ± {d:.2f}): these rounds do not tell them apart; "
                + _measured_against_both(as_printed(value, 2), d, p, w))
    missed = ("the profile missed work the stages did (messages, work per micro-batch)" if w < p else
              "the stages did less work than the profile timed")
    return said + f", more than the rounds' spread, ± {d:.2f}): {missed}"


def _measured_against_both(v: float, d: float, profile: float, work: float) -> str:
    """The measured median ``v`` ± ``d`` against the two predictions (all as printed), by claims' one noise rule.
    Waiting is read against the work's prediction (it adds what the profile leaves out): within noise of it, no
    waiting is shown; within noise of the profile's only, under the work's, waiting or an off prediction (these
    rounds do not tell which); under both by more than the spread, the gap is waiting; above, a finding."""
    measured = f"the measured {v:.2f}x ± {d:.2f}"
    if within_noise(v, d, work):
        both = f"the profile's {profile:.2f}x and " if within_noise(v, d, profile) else ""
        return f"{measured} is within noise of {both}the work's {work:.2f}x: no waiting shown"
    if within_noise(v, d, profile):  # the profile's only: the work's prediction lies outside the spread
        if v < work:
            return (f"{measured} is within noise of the profile's {profile:.2f}x, under the work's {work:.2f}x by "
                    "more than its spread: waiting, or the work's prediction is off; these rounds do not tell which")
        return (f"{measured} is within noise of the profile's {profile:.2f}x, above the work's {work:.2f}x by more "
                "than its spread: a finding to explain")
    if v < min(profile, work):
        return f"{measured} is under both by more than its spread: the gap is waiting (time outside the work both count)"
    return f"{measured} is above both by more than its spread: a finding to explain"


def takeaway(gain: float, spread: float, predicted: float) -> str:
    """The summary's take-away on balancing, from section 7's run: the balanced split's paired gain over the
    unbalanced one (``report.split_gain``: median ``gain`` ± ``spread``) beside the profile's ``predicted`` ratio,
    read as section 7's line reads it (``report.balance_reading``: claims' noise rule on the printed figures).
    Three outcomes: it paid (profile, then balance), no gain shown (the theory stands; this run did not show it
    pay, so measure), or it lost (measure a split before keeping it)."""
    g, d, p = as_printed(gain, 2), as_printed(spread, 2), as_printed(predicted, 2)
    ran = f"the balanced split ran {g:.2f}x ± {d:.2f} as fast as the unbalanced one, the profile predicted {p:.2f}x"
    if within_noise(g, d, 1.0):
        return (f"Balancing, on this run (section 7): {ran}; within noise of 1x, so no gain shown. A pipeline runs "
                "at its slowest stage's pace in theory, but here something else set the pace as much: profile, "
                "balance, and measure whether the balanced split pays.")
    if g > 1:
        return f"Balancing, on this run (section 7): {ran}; it paid: profile, then balance the split."
    return (f"Balancing, on this run (section 7): {ran}; it was slower, beyond noise: measure a split before "
            "keeping it, whatever the profile predicts.")
