"""Tensor parallelism from scratch (lesson 07, section 2): Megatron-LM's column- and row-parallel layers.

An MLP block ``proj(act(fc(norm(x))))`` is split across the ranks of the default process group:

* ``fc`` (width -> hidden) by **columns** of its output: rank r holds rows ``r*h/n .. (r+1)*h/n`` of
  ``fc.weight`` (and of its bias) and computes its slice of the hidden features, from the full input;
* the activation works element by element, so each rank applies it to its own slice;
* ``proj`` (hidden -> width) by **rows** of its input: rank r holds the matching columns of ``proj.weight``
  and computes a *partial* output from its slice; the partial outputs add up to the full one.

Two operators glue the pieces (the names are the Megatron-LM paper's):

* ``f`` before the column-parallel layer: identity forward, all-reduce backward (each rank's input gradient
  is only its slice's contribution);
* ``g`` after the row-parallel layer: all-reduce forward (sum the partial outputs), identity backward.

So a block costs one all-reduce forward and one backward, of ``tokens x width`` values each.

Attention split by heads the same way is lab 07's exercise; its reference (``TensorParallelAttention`` and the
whole block, ``TensorParallelBlock``) lives apart, in ``attention_reference.py`` beside this file (reading it
before you solve the lab spoils it).
"""

from __future__ import annotations

import time

import torch
import torch.distributed as dist
from torch import nn


class CopyToParallel(torch.autograd.Function):
    """``f``: forward the input unchanged to every rank's shard; backward, sum the ranks' input gradients."""

    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)  # every shard saw the whole input: its gradient is the sum over the shards
        return grad


class ReduceFromParallel(torch.autograd.Function):
    """``g``: sum the ranks' partial outputs; backward, every rank's partial output got the same gradient."""

    @staticmethod
    def forward(ctx, partial):
        total = partial.clone()
        all_reduce(total)  # dist.all_reduce: the full output = the sum of the row-parallel partial outputs
        return total

    @staticmethod
    def backward(ctx, grad):
        return grad


class AllReduceClock:
    """Seconds this rank spends inside each forward all-reduce (``all_reduce`` below), kept only while
    ``calls`` is a list: lesson 07's decode sets it for its timed tokens (``decode.timing_all_reduces``).
    ``None`` otherwise: no clock is read."""

    calls: list[float] | None = None


def all_reduce(t: torch.Tensor) -> None:
    """``dist.all_reduce(t)``, the sum over the ranks in place; while ``AllReduceClock.calls`` is a list, the
    seconds this rank spent inside the call (its wait for the other rank included) are appended to it."""
    calls = AllReduceClock.calls
    if calls is None:  # not recording: the bare call
        dist.all_reduce(t)
        return
    if t.is_cuda:  # the work queued before the call is not the call's: let it finish first
        torch.cuda.synchronize(t.device)
    start = time.perf_counter()
    dist.all_reduce(t)
    if t.is_cuda:  # NCCL returns once the sum is queued: wait until it has run
        torch.cuda.synchronize(t.device)
    calls.append(time.perf_counter() - start)


def shard(t: torch.Tensor, dim: int, rank: int, world: int) -> torch.Tensor:
    """Rank ``rank``'s contiguous 1/``world`` slice of ``t`` along ``dim``, as a copy of its own."""
    return t.chunk(world, dim=dim)[rank].clone()


class TensorParallelMLP(nn.Module):
    """The MLP block of ``utils.models.FeedForward``, column- then row-parallel over the process group.

    Built from a full block (the same weights on every rank, from the same seed); each rank keeps only its
    shard of ``fc`` and ``proj``, so it holds 1/world of the block's large weights. LayerNorm is small and
    replicated; ``proj``'s bias is added once, after the sum.
    """

    def __init__(self, full: nn.Module, rank: int, world: int):
        super().__init__()
        self.norm = full.norm  # replicated
        self.fc = nn.Linear(full.fc.in_features, full.fc.out_features // world)
        self.fc.weight = nn.Parameter(shard(full.fc.weight.data, 0, rank, world))  # rows: output features
        self.fc.bias = nn.Parameter(shard(full.fc.bias.data, 0, rank, world))
        self.act = full.act
        self.proj = nn.Linear(full.proj.in_features // world, full.proj.out_features, bias=False)
        self.proj.weight = nn.Parameter(shard(full.proj.weight.data, 1, rank, world))  # input columns
        self.proj_bias = nn.Parameter(full.proj.bias.data.clone())  # added once, after the all-reduce

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = CopyToParallel.apply(self.norm(x))  # f: (B, T, C) on every rank
        h = self.act(self.fc(h))  # (B, T, hidden / world): this rank's slice of the hidden features
        return ReduceFromParallel.apply(self.proj(h)) + self.proj_bias  # g: sum of partial (B, T, C)
