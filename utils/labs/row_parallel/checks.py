"""Checks for ``labs/07_row_parallel.ipynb``: the learner's row-parallel linear layer (lesson 07).

The learner writes ``SumAcrossRanks`` (the ``g`` operator: all-reduce forward, identity backward) and
``RowParallelLinear(full, rank, world)``. The checks put it after the lab's column-parallel layer, in an MLP
``Linear(32, 128) -> GELU -> Linear(128, 32)`` split over two workers, and compare with one process:

- ``check_shards``: each rank holds only its shard of the weight (the columns matching its input slice), equal
  to that slice of the full weight, and the bias once;
- ``check_forward``: the output equals the full MLP's on both ranks (a missing sum, or a bias added on every
  rank, fails here);
- ``check_backward``: the input gradient and every shard's weight gradient equal the full MLP's (an all-reduce
  in the backward pass doubles them);
- ``check_communication``: exactly one all-reduce forward and one backward per step (the column layer's
  ``f`` makes the backward one), each of tokens x width values.

One launch serves every check (its result is kept per class object).
"""

from __future__ import annotations

import torch
import torch.distributed as dist
from torch import nn

from utils import checks, models
from utils.checks import expect, expect_close, run_check
from utils.launch import launch
from utils.lessons.tensor_parallel.layers import CopyToParallel, shard

SEED, WORLD = 0, 2
WIDTH, HIDDEN, BATCH, CONTEXT = 32, 128, 2, 8
LAUNCH_TIMEOUT_S = 120
ATOL = 1e-6  # float32 on the CPU: the split sums in another order, to about 1e-7
_LAUNCHES: dict[int, tuple] = {}  # id(row_cls) -> (row_cls, results or the exception)
hint = checks.hints_for("labs/row_parallel")


def full_mlp() -> nn.Sequential:
    """The lab's MLP on one device, the same weights in every process (seeded)."""
    with models.seeded(SEED):
        return nn.Sequential(nn.Linear(WIDTH, HIDDEN), nn.GELU(), nn.Linear(HIDDEN, WIDTH))


def inputs() -> tuple[torch.Tensor, torch.Tensor]:
    """The input and the gradient that flows back into the output (a mean loss over the tokens)."""
    g = torch.Generator().manual_seed(SEED + 1)
    x = torch.randn(BATCH, CONTEXT, WIDTH, generator=g)
    return x, torch.randn(BATCH, CONTEXT, WIDTH, generator=g) / (BATCH * CONTEXT)


class ColumnParallelLinear(nn.Module):
    """Given: rank r keeps rows r*H/n .. of the weight (its slice of the output features), behind ``f``."""

    def __init__(self, full: nn.Linear, rank: int, world: int):
        super().__init__()
        self.weight = nn.Parameter(shard(full.weight.data, 0, rank, world))
        self.bias = nn.Parameter(shard(full.bias.data, 0, rank, world))

    def forward(self, x):
        return nn.functional.linear(CopyToParallel.apply(x), self.weight, self.bias)  # (B, T, H / world)


def _worker(row_cls) -> dict:
    """On each rank: the split MLP with the learner's row layer, all-reduces counted forward and backward."""
    dist.init_process_group("gloo")
    try:
        rank, world = dist.get_rank(), dist.get_world_size()
        full = full_mlp()
        column, row = ColumnParallelLinear(full[0], rank, world), row_cls(full[2], rank, world)
        x, dy = inputs()
        x.requires_grad_(True)
        plain, calls = dist.all_reduce, []

        def counted(t, *args, **kwargs):
            calls.append(t.numel())
            return plain(t, *args, **kwargs)
        dist.all_reduce = counted
        try:
            y = row(nn.functional.gelu(column(x)))
            forward = list(calls)
            y.backward(dy)
        finally:
            dist.all_reduce = plain
        params = dict(row.named_parameters())
        return {"y": y.detach(), "dx": x.grad, "forward": forward, "backward": calls[len(forward):],
                "row": {k: (p.detach().clone(), None if p.grad is None else p.grad.clone())
                        for k, p in params.items()},
                "column_grad": column.weight.grad}
    finally:
        dist.destroy_process_group()


def reference() -> dict:
    """One process, the full MLP: output, input gradient, weight gradients."""
    full = full_mlp()
    x, dy = inputs()
    x.requires_grad_(True)
    y = full(x)
    y.backward(dy)
    return {"y": y.detach(), "dx": x.grad, "weight": full[2].weight.detach(), "bias": full[2].bias.detach(),
            "row_grad": full[2].weight.grad, "bias_grad": full[2].bias.grad,
            "column_grad": full[0].weight.grad}


def launched(row_cls) -> list[dict]:
    """The learner's layer in the split MLP on 2 workers, launched once per class object."""
    key = id(row_cls)
    if key not in _LAUNCHES or _LAUNCHES[key][0] is not row_cls:
        try:
            outcome = launch(_worker, row_cls, nprocs=WORLD, backend="gloo", timeout=LAUNCH_TIMEOUT_S)
        except Exception as exc:  # kept, so that each check reports it (e.g. "not done yet")
            outcome = exc
        _LAUNCHES[key] = (row_cls, outcome)
    outcome = _LAUNCHES[key][1]
    if isinstance(outcome, Exception):
        raise outcome
    return outcome


def _weights(r: dict) -> list[tuple[str, torch.Tensor, torch.Tensor | None]]:
    """The row layer's parameters, 2-D first: (name, value, gradient)."""
    return sorted(((k, v, g) for k, (v, g) in r["row"].items()), key=lambda item: -item[1].dim())


def check_shards(row_cls):
    """Skill: a row-parallel rank keeps only the weight columns of its input slice, and the bias once."""

    def body():
        ref = reference()
        for rank, r in enumerate(launched(row_cls)):
            mats = [(k, v) for k, v, _ in _weights(r) if v.dim() == 2]
            expect(len(mats) == 1, f"rank {rank}'s layer has {len(mats)} weight matrices; keep exactly one")
            name, w = mats[0]
            want = ref["weight"].chunk(WORLD, dim=1)[rank]
            expect(w.numel() < ref["weight"].numel(),
                   f"rank {rank} holds a weight of shape {tuple(w.shape)}: the whole layer's. A row-parallel "
                   f"rank keeps only the columns that meet its slice of the input: shape {tuple(want.shape)}")
            expect(tuple(w.shape) == tuple(want.shape),
                   f"rank {rank}'s weight has shape {tuple(w.shape)}, expected {tuple(want.shape)}: split "
                   f"the input features (the weight's second dimension), not the output features")
            expect_close(w, want, atol=0.0, what=f"rank {rank}'s weight ({name})")
        held = sum(v.numel() for _, v, _ in _weights(r))
        full = ref["weight"].numel() + ref["bias"].numel()
        return f"each rank holds its {tuple(want.shape)} shard: {held:,} of the layer's {full:,} parameters"

    return run_check("each rank holds its shard", body,
                     hint="which dimension of the weight meets the input features? look up "
                          "torch.Tensor.chunk")


def check_forward(row_cls):
    """Skill: the partial outputs are summed across ranks, and the bias is added once."""

    def body():
        ref = reference()
        for rank, r in enumerate(launched(row_cls)):
            expect(r["forward"], f"rank {rank} ran no all-reduce in the forward pass: its output is only its "
                                 "partial sum; the partial outputs of the ranks must be added up")
            gap = (r["y"] - ref["y"]).abs().max().item()
            twice_bias = (r["y"] - ref["y"] - ref["bias"]).abs().max().item()
            expect(not (gap > ATOL and twice_bias < 1e-5),
                   f"rank {rank}'s output is the full output plus one more bias: the bias was summed across "
                   "the ranks too; add it once, after the sum")
            expect_close(r["y"], ref["y"], atol=ATOL, what=f"rank {rank}'s output")
        return "both ranks' outputs equal the full MLP's to 1e-6"

    return run_check("forward equals one device", body,
                     hint="a row-parallel layer's output is a sum over ranks; look up "
                          "torch.distributed.all_reduce")


def check_backward(row_cls):
    """Skill: the sum's backward is the identity (no all-reduce), so every gradient equals one device's."""

    def body():
        ref = reference()
        for rank, r in enumerate(launched(row_cls)):
            weight = [(v, g) for _, v, g in _weights(r) if v.dim() == 2][0][1]
            bias = [g for _, v, g in _weights(r) if v.dim() == 1]
            expect(weight is not None,
                   f"rank {rank}'s weight got no gradient: is it a parameter, used in forward?")
            want = ref["row_grad"].chunk(WORLD, dim=1)[rank]
            ratio = (weight.norm() / want.norm()).item() if weight.shape == want.shape else float("nan")
            expect(abs(ratio - 2) > 0.01,
                   f"rank {rank}'s weight gradient is 2x one device's: the gradient was all-reduced on its "
                   "way back; the backward of a sum hands every rank the gradient unchanged")
            expect_close(weight, want, atol=ATOL, what=f"rank {rank}'s weight gradient")
            if bias:
                expect_close(bias[0], ref["bias_grad"], atol=ATOL, what=f"rank {rank}'s bias gradient")
            expect_close(r["dx"], ref["dx"], atol=ATOL, what=f"rank {rank}'s input gradient")
            expect_close(r["column_grad"], ref["column_grad"].chunk(WORLD, dim=0)[rank], atol=ATOL,
                         what=f"rank {rank}'s gradient of the column-parallel weight")
        return "input gradient and every shard's weight gradient equal the full MLP's to 1e-6"

    return run_check("backward equals one device", body,
                     hint="what is the gradient of a sum with respect to each of its terms?")


def check_communication(row_cls):
    """Skill: one all-reduce forward (the row layer's sum) and one backward (the column layer's ``f``)."""

    def body():
        values = BATCH * CONTEXT * WIDTH
        for rank, r in enumerate(launched(row_cls)):
            fwd, bwd = r["forward"], r["backward"]
            expect(len(fwd) == 1, f"rank {rank} ran {len(fwd)} all-reduce(s) in the forward pass, "
                                  "expected 1: the sum of the partial outputs")
            expect(len(bwd) == 1, f"rank {rank} ran {len(bwd)} all-reduce(s) in the backward pass, "
                                  "expected 1 (the column layer's f): the row-parallel sum needs none on "
                                  "the way back")
            expect(fwd == [values], f"rank {rank} all-reduced {fwd[0]:,} values, expected {values:,} "
                                    "(tokens x width: the layer's output)")
        return f"one all-reduce forward and one backward, each of {values:,} values (tokens x width)"

    return run_check("one all-reduce each way", body,
                     hint="count the collectives: which ones does a column-then-row block need, and where?")
