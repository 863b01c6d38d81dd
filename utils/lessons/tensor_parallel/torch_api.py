"""The same split with torch's API (lesson 07, section 3): ``parallelize_module`` with ``ColwiseParallel``
and ``RowwiseParallel`` on a ``DeviceMesh``; the weights become ``DTensor``s sharded over the mesh, and
torch inserts the all-reduces that ``layers.py`` writes by hand.

    mesh = init_device_mesh("cpu", (2,))                    # "cuda" on GPUs
    parallelize_module(block, mesh, MLP_PLAN)               # block: utils.models.FeedForward
"""

from __future__ import annotations

import torch
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor
from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module

from utils import models
from utils.launch import process_group
from utils.lessons.tensor_parallel.equality import Check, full_block, run

# fc is split by its output features (columns of x @ W^T), proj by its input features (rows); proj's
# output is a partial sum that RowwiseParallel all-reduces, like g.
MLP_PLAN = {"fc": ColwiseParallel(), "proj": RowwiseParallel()}


def gpt_plan(depth: int) -> dict:
    """The plan for every FeedForward of a GPT of ``depth`` blocks (attention stays replicated here)."""
    return {f"blocks.{i}.ffn.{name}": style() for i in range(depth)
            for name, style in (("fc", ColwiseParallel), ("proj", RowwiseParallel))}


def local(t: torch.Tensor) -> torch.Tensor:
    """This rank's plain tensor: a DTensor's local shard, or the tensor itself (waited for if async)."""
    if isinstance(t, DTensor):
        t = t.to_local()
    return t.wait() if hasattr(t, "wait") else t


def api_mlp_worker(s: Check) -> dict:
    """The check's MLP block through ``parallelize_module``; results in ``equality.compare``'s form."""
    with process_group("gloo"):
        mesh = init_device_mesh("cpu", (torch.distributed.get_world_size(),))
        block = parallelize_module(full_block(s), mesh, MLP_PLAN)
        r = run(block, s)
        r["y"] = local(r["y"])
        r["grads"] = {("proj_bias" if k == "proj.bias" else k): local(g) for k, g in r["grads"].items()}
        r["shapes"] = {k: tuple(local(p).shape) for k, p in block.named_parameters()}
        r["types"] = sorted({type(p).__name__ for p in block.parameters()})
        return r


def gpt_logits(vocab: int, depth: int, seed: int, tokens: torch.Tensor, parallel: bool) -> torch.Tensor:
    """The small GPT's logits for ``tokens``; with ``parallel``, every FeedForward split over the group."""
    gpt = models.small_gpt(vocab, seed=seed, depth=depth)
    if parallel:
        mesh = init_device_mesh("cpu", (torch.distributed.get_world_size(),))
        parallelize_module(gpt, mesh, gpt_plan(depth))
    with torch.no_grad():
        return local(gpt(tokens)).detach().clone()


def api_gpt_worker(vocab: int, depth: int, seed: int, tokens: torch.Tensor) -> torch.Tensor:
    """On each worker: the small GPT with tensor-parallel FeedForwards; returns its logits."""
    with process_group("gloo"):
        return gpt_logits(vocab, depth, seed, tokens, parallel=True)
