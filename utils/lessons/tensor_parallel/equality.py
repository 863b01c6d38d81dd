"""Tensor parallel equals one device (lesson 07, sections 2 and 4): the same inputs through the full block in
one process and through its shards on two workers; outputs, input gradients and every shard's weight
gradient are compared.

    s = Check(width=64)
    ranks = launch(scratch_worker, s, nprocs=2, backend="gloo")    # from-scratch layers (layers.py)
    errors = compare(ranks, reference(s))                         # largest |difference| per quantity
"""

from __future__ import annotations

import dataclasses

import torch
from torch import nn

from utils import models
from utils.launch import process_group
from utils.lessons.tensor_parallel.attention_reference import TensorParallelBlock
from utils.lessons.tensor_parallel.layers import TensorParallelMLP


@dataclasses.dataclass(frozen=True)
class Check:
    """Sizes of the equality check: a GPT block of ``width`` channels, ``batch`` x ``context`` tokens."""

    width: int = 64
    heads: int = 4
    batch: int = 4
    context: int = 16
    seed: int = 0
    kind: str = "mlp"  # "mlp": the FeedForward block; "block": attention and FeedForward

    def config(self) -> models.GPTConfig:
        return models.GPTConfig(vocab_size=1, context=self.context, width=self.width, depth=1,
                                heads=self.heads)


def full_block(s: Check) -> nn.Module:
    """The single-device block, the same weights in every process (``seed``)."""
    with models.seeded(s.seed):
        block = models.Block(s.config())
    return block.ffn if s.kind == "mlp" else block


def inputs(s: Check) -> tuple[torch.Tensor, torch.Tensor]:
    """The input ``x`` and the gradient ``dy`` that flows back into the block's output (that of a loss that is
    a mean over the tokens, as a language model's is: 1/tokens per token)."""
    g = torch.Generator().manual_seed(s.seed + 1)
    x = torch.randn(s.batch, s.context, s.width, generator=g)
    return x, torch.randn(s.batch, s.context, s.width, generator=g) / (s.batch * s.context)


def run(block: nn.Module, s: Check) -> dict:
    """Forward and backward of ``block`` on the check's inputs: output, input gradient, weight gradients."""
    x, dy = inputs(s)
    x.requires_grad_(True)
    y = block(x)
    y.backward(dy)
    grads = {name: p.grad.detach().clone() for name, p in block.named_parameters()}
    return {"y": y.detach(), "dx": x.grad.detach(), "grads": grads,
            "shapes": {name: tuple(p.shape) for name, p in block.named_parameters()}}


def scratch_worker(s: Check) -> dict:
    """On each worker: shard the full block (``layers.py``) and run it; returns this rank's results."""
    with process_group("gloo"):
        rank, world = torch.distributed.get_rank(), torch.distributed.get_world_size()
        build = TensorParallelMLP if s.kind == "mlp" else TensorParallelBlock
        return run(build(full_block(s), rank, world), s)


def reference(s: Check) -> dict:
    """The full block in this process: what every rank's result must equal."""
    return run(full_block(s), s)


# Which slice of the full block's gradient each shard's gradient is: (name in the shard, name in the full
# block, dimension it was split along or None for replicated). Attention's qkv is split per q, k and v.
MLP_SHARDS = [("norm.weight", "norm.weight", None), ("norm.bias", "norm.bias", None),
              ("fc.weight", "fc.weight", 0), ("fc.bias", "fc.bias", 0), ("proj.weight", "proj.weight", 1),
              ("proj_bias", "proj.bias", None)]


def expected_shard(full_grads: dict, full_name: str, dim: int | None, rank: int, world: int, qkv: bool):
    """The slice of the full gradient that rank ``rank``'s shard must hold."""
    g = full_grads[full_name]
    if dim is None:
        return g
    if qkv:  # q, k and v are sharded separately, then stacked
        return torch.cat([part.chunk(world, dim)[rank] for part in g.chunk(3, dim=0)])
    return g.chunk(world, dim)[rank]


def shard_map(kind: str) -> list[tuple[str, str, int | None, bool]]:
    """Every shard parameter of ``kind`` ("mlp" or "block") with its full name, split dimension, qkv flag."""
    if kind == "mlp":
        return [(a, b, d, False) for a, b, d in MLP_SHARDS]
    out = [(f"ffn.{a}", f"ffn.{b}", d, False) for a, b, d in MLP_SHARDS]
    out += [("attn.norm.weight", "attn.norm.weight", None, False),
            ("attn.norm.bias", "attn.norm.bias", None, False),
            ("attn.qkv.weight", "attn.qkv.weight", 0, True), ("attn.qkv.bias", "attn.qkv.bias", 0, True),
            ("attn.proj.weight", "attn.proj.weight", 1, False),
            ("attn.proj_bias", "attn.proj.bias", None, False)]
    return out


def compare(ranks: list[dict], ref: dict, kind: str = "mlp") -> dict:
    """Largest absolute difference from the single-device block: output, input gradient, weight gradients
    (each rank's shard against its slice of the full gradient)."""
    world = len(ranks)
    errors = {"output": max((r["y"] - ref["y"]).abs().max().item() for r in ranks),
              "input gradient": max((r["dx"] - ref["dx"]).abs().max().item() for r in ranks)}
    weight = 0.0
    for rank, r in enumerate(ranks):
        for mine, full, dim, qkv in shard_map(kind):
            want = expected_shard(ref["grads"], full, dim, rank, world, qkv)
            weight = max(weight, (r["grads"][mine] - want).abs().max().item())
    errors["weight gradients"] = weight
    return errors


def held_fraction(rank_result: dict, ref: dict) -> float:
    """The share of the full block's parameters that one rank holds (replicated norms and biases included)."""
    mine = sum(torch.Size(s).numel() for s in rank_result["shapes"].values())
    return mine / sum(torch.Size(s).numel() for s in ref["shapes"].values())
