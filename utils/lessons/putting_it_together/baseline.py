"""Lesson 08's baseline, whole: the training script a learner would have written before this course.

One process, fp32, the batches read in the training loop, AdamW, no compile. The lesson measures it as
``script.train`` with every step off (``Settings()``), which computes the same thing (``tests/test_putting_it_
together.py`` checks that the two give the same losses).
"""

from __future__ import annotations

import time

import torch

from utils import data, models


def plain_training(steps: int = 24, batch: int = 16, context: int = 64, width: int = 128, depth: int = 4,
                   heads: int = 4, lr: float = 3e-3, seed: int = 0, max_chars: int = 200_000) -> dict:
    """Train the small GPT on standard-library text; return each step's loss and the tokens per second."""
    dataset = data.char_dataset(context, "train", max_chars=max_chars)
    model = models.small_gpt(dataset.corpus.vocab_size, seed=seed, context=context, width=width, depth=depth,
                             heads=heads)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    shuffled = torch.utils.data.RandomSampler(dataset, generator=torch.Generator().manual_seed(seed))
    loader = torch.utils.data.DataLoader(dataset, batch_size=batch, sampler=shuffled, drop_last=True)
    losses, start = [], time.perf_counter()
    for _, (x, y) in zip(range(steps), loader):
        optimizer.zero_grad(set_to_none=True)
        loss = model(x, y)[1]
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return {"losses": losses, "tokens_per_s": steps * batch * context / (time.perf_counter() - start)}
