"""Lab 03's reference for exercise B: one process replaying the int8 hook's arithmetic, rank by rank, what the
check compares a learner's weights with. (Reading it before you solve the lab spoils exercise B; the lab does
not import it.)"""

from __future__ import annotations

import functools

import torch

from utils.labs.ddp_from_scratch.checks import MICRO_BATCH, LR, _batch, build_model, text
from utils.labs.ddp_from_scratch import compress  # the grid: quantize, dequantize, GRID


@functools.lru_cache(maxsize=16)
def replay(parts: tuple[tuple[int, ...], ...], micro_batch: int = MICRO_BATCH, lr: float = LR,
           carry: bool = True, divide: int | None = None, rounded: bool = True, in_int8: bool = False) -> dict:
    """One process replaying the hook's arithmetic: each rank's gradient, plus what rounding left on that rank
    (``carry``), rounded to the grid; the counts summed, then divided by ``divide`` (None: the number of
    ranks, ``len(parts)``); SGD. ``carry=False`` and another ``divide`` name mistakes; ``rounded=False`` is
    DDP's float32 average; ``in_int8=True`` sums the counts in int8, which wraps around past 127 (a mistake to
    name: more than two ranks' counts of up to 63 overflow it). Weights, the share of values sent as 0 at the
    first step, ``lost``: the relative error norm of the summed gradients, ||applied - computed|| /
    ||computed|| (the steps' applied gradients summed, against the ranks' averaged gradients summed), and ``kept_steps``: the largest remainder still
    kept at the end, in grid steps, and ``kept_share``: what the ranks still keep at the end (averaged over the
    ranks) against the same norm. Cached."""
    divide = len(parts) if divide is None else divide
    dataset = text()
    model = build_model(dataset.corpus.vocab_size)
    params = list(model.parameters())
    residual = [[torch.zeros_like(p) for p in params] for _ in parts]
    optimizer = torch.optim.SGD(params, lr=lr)
    zero_share = None
    given = [torch.zeros_like(p) for p in params]  # the ranks' averaged gradients, summed over the steps
    applied = [torch.zeros_like(p) for p in params]  # what the steps applied, summed
    for k in range(len(parts[0]) // micro_batch):
        total = [torch.zeros_like(p) for p in params]
        counted = [torch.zeros_like(p, dtype=torch.int8 if in_int8 else torch.int32) for p in params]
        zeros = values = 0
        for rank, part in enumerate(parts):
            x, y = _batch(dataset, list(part[k * micro_batch:(k + 1) * micro_batch]))
            for i, g in enumerate(torch.autograd.grad(model(x, y)[1], params)):
                given[i] += g / len(parts)
                if not rounded:
                    total[i] += g
                    continue
                corrected = g + residual[rank][i] if carry else g
                counts = compress.quantize(corrected)
                residual[rank][i] = corrected - compress.dequantize(counts)
                counted[i] += counts  # exact in int32; in int8 a sum past 127 wraps around
                zeros, values = zeros + int((counts == 0).sum()), values + counts.numel()
        zero_share = zeros / values if zero_share is None and values else zero_share
        if rounded:
            total = [compress.dequantize(c) for c in counted]
        for i, (p, t) in enumerate(zip(params, total)):
            p.grad = t / divide
            applied[i] += p.grad
        optimizer.step()
    norm = sum((a ** 2).sum() for a in given).sqrt()
    lost = sum(((a - b) ** 2).sum() for a, b in zip(given, applied)).sqrt() / norm
    # what the ranks still keep at the end, averaged over the ranks as the steps' gradients are, against the same
    # norm: the part of the computed gradients not applied yet
    kept = [sum(rank[i] for rank in residual) / len(parts) for i in range(len(params))]
    kept_share = sum((k ** 2).sum() for k in kept).sqrt() / norm
    kept_steps = max(r.abs().max().item() for rank in residual for r in rank) / compress.GRID
    return {"state": {k: t.detach().clone() for k, t in model.state_dict().items()}, "zero_share": zero_share,
            "lost": lost.item(), "kept_share": kept_share.item(), "kept_steps": kept_steps}
