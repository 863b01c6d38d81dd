"""Lab 06's loss for any plan (``labs/06_fit_the_budget.ipynb``): lesson 06's checkpointing and chunked
cross-entropy in one loss, on targets that may end in padding. The lab gives it; exercise B chooses which
blocks it checkpoints, exercise C steps with it.

    loss = plan_loss(model, x, y, checkpointing="selective", loss_chunks=4)
    loss = plan_loss(model, x, y, checkpointing=(0, 1), loss_chunks=4)   # blocks 0 and 1 only
"""

from __future__ import annotations

from functools import partial

import torch
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint, create_selective_checkpoint_contexts

from utils import models
from utils.lessons.memory.tricks import keep_matmuls

PAD = -100  # a target that does not count: torch's cross_entropy leaves it out (its ignore_index)


def plan_loss(model: models.GPT, x: torch.Tensor, y: torch.Tensor, checkpointing=False,
              loss_chunks: int = 1) -> torch.Tensor:
    """The GPT's mean next-token loss over the targets that count (``PAD`` targets do not), its value and
    gradients those of the plain loss. ``checkpointing``: False (none), ``"selective"`` (lesson 06's policy:
    each block keeps its matmuls' outputs), True (every block keeps its input only), or the indices of the
    blocks to checkpoint (those keep their input only; the others keep everything). ``loss_chunks`` > 1:
    the logits made one slice of the sequence at a time, never whole (lesson 06's chunked cross-entropy).
    Lab 06."""
    h = model.embed(x)  # (B, T, C)
    for index, block in enumerate(model.blocks):
        h = _run_block(block, h, _how(checkpointing, index))
    if loss_chunks == 1:
        return models.cross_entropy(model.head(h), y)
    h = model.head.norm(h)
    pieces = zip(h.chunk(loss_chunks, dim=1), y.chunk(loss_chunks, dim=1))  # slices of the sequence
    weight = model.head.out.weight
    total = sum(checkpoint(slice_loss, hs, weight, ys, use_reentrant=False) for hs, ys in pieces)
    return total / (y != PAD).sum()  # a sum over the slices, divided once: the mean over counted tokens


def slice_loss(h: torch.Tensor, weight: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """One slice's summed cross-entropy (``PAD`` targets add nothing); checkpointed by ``plan_loss``, so its
    (B, T/chunks, V) logits are made again in backward. Lab 06."""
    return F.cross_entropy(F.linear(h, weight).flatten(0, 1), y.flatten(), reduction="sum")


def _how(checkpointing, index: int):
    """How block ``index`` runs: False, "selective" or True (checkpointed, keeping its input only)."""
    if checkpointing is True or checkpointing is False or checkpointing == "selective":
        return checkpointing
    return index in checkpointing  # a collection of block indices


def _run_block(block: torch.nn.Module, h: torch.Tensor, how) -> torch.Tensor:
    if how is True:  # keeps the block's input only; backward runs the block again
        return checkpoint(block, h, use_reentrant=False)
    if how == "selective":  # keeps the matmuls' and attention's outputs too
        keep_some = partial(create_selective_checkpoint_contexts, keep_matmuls)
        return checkpoint(block, h, use_reentrant=False, context_fn=keep_some)
    return block(h)
