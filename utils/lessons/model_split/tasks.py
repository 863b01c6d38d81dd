"""What the pipelines of lesson 02 (``notebooks/02_model_split.ipynb``) train: a model, batches and a loss.

    task = gpt_task()                      # the small GPT as [embedding, block 0 .. block 3, head]
    model = task.build()                   # same seeded weights on every call, so every worker agrees
    x, y = task.make_batch(16, seed=1)     # token ids (16, 64) and next-token targets (16, 64)
    loss = task.loss_fn(model(x), y)

Every worker builds its own copy of the model from the task and makes the same batch from the same seed, so
only activations and gradients cross between workers. Lab 02 makes its own task the same way.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable

import torch
from torch import nn

from utils import models

SEQ_LEN = 64  # tokens per sequence of the lesson's GPT (its context)
VOCAB = 96  # printable ASCII plus newline and tab: what the character-level GPT reads


@dataclass
class Task:
    """What a pipeline trains: a model as an ``nn.Sequential``, a way to make a batch, and a loss.

    ``build()`` must give the same weights on every call (seeded), so that every worker holds the same model.
    """

    build: Callable[[], nn.Sequential]
    make_batch: Callable[[int, int], tuple[torch.Tensor, torch.Tensor]]  # (batch size, seed) -> (x, y)
    loss_fn: Callable[[torch.Tensor, torch.Tensor], torch.Tensor]
    name: str = "model"


def gpt_sequential(width: int, depth: int, heads: int, seed: int) -> nn.Sequential:
    """The small GPT of ``utils.models`` as [embedding, block 0 .. block depth-1, head]."""
    return models.small_gpt(VOCAB, seed=seed, context=SEQ_LEN, width=width, depth=depth, heads=heads).as_sequential()


def token_batch(batch: int, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Random token ids (B, T) and next-token targets (B, T): timing and gradients do not need real text."""
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(0, VOCAB, (batch, SEQ_LEN + 1), generator=g)
    return tokens[:, :-1].contiguous(), tokens[:, 1:].contiguous()


def gpt_task(width: int = 128, depth: int = 4, heads: int = 4, seed: int = 0) -> Task:
    """The lesson's small GPT as a sequence [embedding, block 0 .. block depth-1, head], next-token loss."""
    return Task(functools.partial(gpt_sequential, width, depth, heads, seed), token_batch,
                models.cross_entropy, name=f"GPT width {width}, depth {depth}")
