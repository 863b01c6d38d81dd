"""Sequence parallelism (lesson 07, section 6): the next step after tensor parallelism. In a tensor-parallel
block the LayerNorm (and dropout) run replicated on the full ``(B, T, C)`` activations on every rank;
sequence parallelism shards them along the sequence ``T`` instead, and replaces the all-reduce by an
all-gather before the column-parallel layer and a reduce-scatter after the row-parallel one (the same bytes:
an all-reduce *is* a reduce-scatter followed by an all-gather).

Measured here: the activation memory autograd saves for the backward pass, per rank (``saved_bytes``), with
torch's ``SequenceParallel`` against the plain tensor-parallel plan, and the outputs against one device.
"""

from __future__ import annotations

import torch
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Shard
from torch.distributed.tensor.parallel import (
    ColwiseParallel,
    RowwiseParallel,
    SequenceParallel,
    parallelize_module,
)

from utils.launch import process_group
from utils.lessons.tensor_parallel.equality import Check, full_block, inputs
from utils.lessons.tensor_parallel.torch_api import MLP_PLAN, local

# The norm works on this rank's part of the sequence; fc gathers the full sequence (all-gather) before its
# column-parallel matmul; proj's partial outputs are summed and scattered back along the sequence
# (reduce-scatter) instead of all-reduced.
SP_PLAN = {"norm": SequenceParallel(), "fc": ColwiseParallel(input_layouts=Shard(1)),
           "proj": RowwiseParallel(output_layouts=Shard(1))}


def _local(t: torch.Tensor) -> torch.Tensor:
    return t.to_local() if isinstance(t, DTensor) else t


def saved_bytes(module: torch.nn.Module, x: torch.Tensor) -> tuple[torch.Tensor, int]:
    """``module(x)``, and the bytes of the distinct activations autograd saved for the backward pass on this
    rank (the module's own weights, which it holds anyway, left out)."""
    weights = {_local(p).data_ptr() for p in module.parameters()}
    seen: dict[tuple, int] = {}

    def pack(t):
        t_local = _local(t)
        if t_local.data_ptr() not in weights:
            key = (t_local.data_ptr(), t_local.numel(), t_local.dtype)
            seen[key] = t_local.numel() * t_local.element_size()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = module(x)
    return out, sum(seen.values())


def sp_worker(s: Check) -> dict:
    """On each worker: the MLP block with the tensor-parallel plan (full input) and with the sequence-parallel
    plan (this rank's half of the sequence); outputs and saved-activation bytes of each."""
    with process_group("gloo"):
        rank, world = torch.distributed.get_rank(), torch.distributed.get_world_size()
        mesh = init_device_mesh("cpu", (world,))
        x, _ = inputs(s)
        got = {}
        for name, plan, x_in in (("tensor parallel", MLP_PLAN, x),
                                 ("sequence parallel", SP_PLAN, x.chunk(world, dim=1)[rank])):
            block = parallelize_module(full_block(s), mesh, plan)
            y, n_bytes = saved_bytes(block, x_in.clone().requires_grad_(True))
            got[name] = {"y": local(y).detach().clone(), "bytes": n_bytes, "input": tuple(x_in.shape)}
        return got
