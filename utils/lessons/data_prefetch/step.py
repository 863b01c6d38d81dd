"""Lesson 05's training step: the article's CNN trained on one batch, uint8 images decoded on the device.

    step = train_step(models.ArticleCNN(seed=0), "cuda:0")
    step = paced(step, min_seconds=0.04)        # cpu mode only: a GPU's fixed speed, simulated
    loss = step((images, labels))
"""

from __future__ import annotations

import time
from collections.abc import Callable

import torch
import torch.nn.functional as F

from utils import bench
from utils.lessons.data_prefetch.dataset import decode_images


def train_step(model: torch.nn.Module, device, lr: float = 0.05) -> Callable:
    """``step((images, labels)) -> loss``: one training step of ``model`` on ``device`` (lesson 05)."""
    model = model.to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)

    def step(batch) -> torch.Tensor:
        images, labels = batch  # images (B, 1, 28, 28) uint8 as stored (or float32), labels (B,) int64
        images, labels = images.to(device), labels.to(device)  # a no-op when a prefetcher already moved them
        if images.dtype == torch.uint8:
            images = decode_images(images)  # float32 (B, 1, 28, 28) made on the device: 1 byte crossed, not 4
        optimizer.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(images), labels)  # logits (B, 10)
        loss.backward()
        optimizer.step()
        bench.synchronize(device)  # on a GPU the work above was only queued: the step ends when it is done
        return loss.detach()

    return step


def paced(step: Callable, min_seconds: float) -> Callable:
    """``step``, made to take at least ``min_seconds`` a call: in cpu mode, a GPU's fixed speed (lesson 05).

    The host sleeps out the rest, as it waits while a GPU works: no core is kept busy, so the lesson's figures
    do not swing with how busy a shared CPU is. ``min_seconds <= 0`` gives ``step`` back unchanged.
    """
    if min_seconds <= 0:
        return step

    def paced_step(batch):
        start = time.perf_counter()
        loss = step(batch)
        time.sleep(max(0.0, min_seconds - (time.perf_counter() - start)))
        return loss

    return paced_step
