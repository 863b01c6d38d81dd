"""What tensor parallelism costs (lesson 07, section 5): step times of one MLP block on one device and split
over two, the all-reduce measured over message sizes (alpha and beta fitted with ``utils.linkmodel``), and the
cost model

    t_tp(w) = t_1(w) / 2 + n_ar * (alpha + bytes(w) / beta)

with ``n_ar`` = 2 all-reduces per training step (``g`` forward, ``f`` backward) of ``tokens x width`` values.
Everything is measured in one launch: for each width, rounds of the full block on rank 0 alone (rank 1
waits in a barrier) alternate with rounds of the split block on both; then both time all-reduces.
"""

from __future__ import annotations

import dataclasses

import torch
import torch.distributed as dist

from utils import bench, models
from utils.launch import process_group
from utils.linkmodel import AlphaBeta, fit_alpha_beta
from utils.lessons.tensor_parallel.layers import TensorParallelMLP

ALLREDUCES_PER_STEP = 2  # g in the forward pass, f in the backward pass


@dataclasses.dataclass(frozen=True)
class Timing:
    """What the cost launch measures: MLP blocks of ``widths`` on ``tokens`` tokens, all-reduces of
    ``sizes``."""

    widths: tuple[int, ...]
    tokens: int
    sizes: tuple[int, ...]  # bytes of the all-reduces fitted for alpha and beta
    repeats: int = 10
    warmup: int = 2
    threads: int | None = None  # torch threads per worker (cpu: 1, so each worker has a core)
    seed: int = 0


def mlp(width: int, seed: int) -> torch.nn.Module:
    """The GPT's MLP block of ``width`` (hidden 4 x width), the same weights on every rank."""
    with models.seeded(seed):
        return models.FeedForward(models.GPTConfig(vocab_size=1, context=1, width=width, depth=1, heads=1))


def step_fn(block: torch.nn.Module, x: torch.Tensor, dy: torch.Tensor):
    """One training step's work on the block: forward, then backward into the input and every weight."""
    params = [x, *block.parameters()]

    def step():
        torch.autograd.grad(block(x), params, dy)
    return step


def _once(fn, device) -> float:
    return bench.measure(fn, warmup=0, repeats=1, device=device).min


def time_width(width: int, t: Timing, device, rank: int, world: int) -> dict:
    """Seconds of one step of the full block (rank 0 alone, rank 1 waiting) and of the split block (all
    ranks), in alternating rounds so that both meet the same machine; the fastest round of each counts."""
    full = mlp(width, t.seed).to(device)
    x = torch.randn(t.tokens, width, device=device, requires_grad=True)
    dy = torch.randn(t.tokens, width, device=device) / t.tokens
    split = TensorParallelMLP(full, rank, world).to(device)  # this rank's shard (a copy of it)
    with torch.no_grad():
        diff = (split(x) - full(x)).abs().max().item()  # the split's output against the full block's
    one_step, split_step = step_fn(full, x, dy), step_fn(split, x, dy)
    one, two = [], []
    for r in range(t.warmup + t.repeats):
        dist.barrier()
        if rank == 0:
            one.append(_once(one_step, device))
        dist.barrier()
        two.append(_once(split_step, device))
    return {"width": width, "one": min(one[t.warmup:]) if rank == 0 else None, "two": min(two[t.warmup:]),
            "bytes": t.tokens * width * x.element_size(),
            "flops": 48 * t.tokens * width**2,  # 2 matmuls of 2*N*w*4w FLOPs, x3 for the backward
            "max_abs_diff": diff}


def time_all_reduce(n_bytes: int, t: Timing, device) -> float:
    buf = torch.ones(n_bytes // 4, device=device)
    return bench.measure(lambda: dist.all_reduce(buf), warmup=t.warmup, repeats=t.repeats, device=device).min


def cost_worker(t: Timing) -> dict | None:
    """On each worker: every width, then the all-reduce sweep; rank 0 returns the times (seconds)."""
    if t.threads:
        torch.set_num_threads(t.threads)
    with process_group() as device:
        rank, world = dist.get_rank(), dist.get_world_size()
        rows = [time_width(w, t, device, rank, world) for w in t.widths]
        sweep = [time_all_reduce(n, t, device) for n in t.sizes]
        return {"rows": rows, "sizes": list(t.sizes), "seconds": sweep} if rank == 0 else None


@dataclasses.dataclass(frozen=True)
class Model:
    """The cost model of a tensor-parallel step, with alpha and beta from the run's own all-reduces."""

    link: AlphaBeta

    def predict(self, one: float, n_bytes: float) -> float:
        """Predicted seconds of the split step, from the measured one-device step."""
        return one / 2 + ALLREDUCES_PER_STEP * self.link.time(n_bytes)


def analyse(got: dict) -> dict:
    """Fit alpha-beta, predict every width, and find the crossovers (measured and predicted)."""
    model = Model(fit_alpha_beta(got["sizes"], got["seconds"]))
    rows = []
    for r in got["rows"]:
        predicted = model.predict(r["one"], r["bytes"])
        comm = ALLREDUCES_PER_STEP * model.link.time(r["bytes"])
        rows.append({**r, "predicted": predicted, "speedup": r["one"] / r["two"],
                     "predicted_speedup": r["one"] / predicted, "comm": comm})
    return {"model": model, "rows": rows, "measured_crossover": crossover(rows, "speedup"),
            "predicted_crossover": crossover(rows, "predicted_speedup")}


def crossover(rows: list[dict], key: str) -> int | None:
    """The smallest width from which on every larger one the speedup stays above 1 (None: never)."""
    for i, r in enumerate(rows):
        if all(q[key] > 1 for q in rows[i:]):
            return r["width"]
    return None


def crossover_width(flops: float, beta: float, alpha: float, tokens: int, bytes_per_value: int) -> float:
    """The width above which split compute saves more than the all-reduces cost, from the model:
    48 N w^2 / (2 F) = 2 (alpha + N w b / beta), solved for w (N tokens, b bytes per value, F FLOP/s)."""
    a, b, c = 24 * tokens / flops, -2 * tokens * bytes_per_value / beta, -2 * alpha
    return (-b + (b * b - 4 * a * c) ** 0.5) / (2 * a)
