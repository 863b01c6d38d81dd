"""Lesson 01's subject: one training step of the course's small GPT (``utils.models.small_gpt``) on one device.

    run = training_step(S.model, S.batch, device="cpu", dtype="fp32")
    run.step()                      # forward, backward, AdamW update
    run.model, run.x, run.y         # the model and one batch (B, T) of token ids from the stdlib text
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Callable

import torch

from utils import data, models

DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16, "int8": torch.int8}
VOCAB_CHARS = 200_000  # the same corpus as lessons 02-03: its vocabulary sizes the GPT's last matmul


@dataclass
class TrainingStep:
    model: models.GPT
    x: torch.Tensor  # (B, T) token ids
    y: torch.Tensor  # (B, T) the next token of each
    step: Callable[[], None]
    device: str
    dtype: str

    @property
    def tokens(self) -> int:
        return self.x.numel()


def autocast(device: str, dtype: str):
    """Mixed precision on a GPU (matmuls in ``dtype``, weights in fp32); plain fp32 needs no context."""
    if dtype == "fp32":
        return contextlib.nullcontext()
    return torch.autocast(device_type=torch.device(device).type, dtype=DTYPES[dtype])


def batch_of_text(batch: int, context: int, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor, int]:
    """``batch`` random windows of the stdlib text: x, y of shape (B, T), and the vocabulary size."""
    ds = data.char_dataset(block_size=context, max_chars=VOCAB_CHARS)
    g = torch.Generator().manual_seed(seed)
    picks = torch.randint(len(ds), (batch,), generator=g).tolist()
    x, y = zip(*(ds[i] for i in picks))
    return torch.stack(x), torch.stack(y), ds.corpus.vocab_size


def training_step(model_sizes: dict, batch: int, device: str = "cpu", dtype: str = "fp32",
                  seed: int = 0) -> TrainingStep:
    """A ready-to-run training step: the GPT of ``model_sizes`` (context, width, depth, heads), one batch of
    ``batch`` sequences, AdamW; ``step()`` does forward, backward and the update in ``dtype``."""
    x, y, vocab = batch_of_text(batch, model_sizes["context"], seed)
    model = models.small_gpt(vocab, seed=seed, **model_sizes).to(device)
    x, y = x.to(device), y.to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

    def step() -> None:
        opt.zero_grad(set_to_none=True)
        with autocast(device, dtype):
            loss = model.loss(x, y)
        loss.backward()
        opt.step()

    return TrainingStep(model, x, y, step, device, dtype)
