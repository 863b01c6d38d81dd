"""The data, the Linear-heavy model and the small training loop of lesson 04 (``notebooks/04_compression.ipynb``)
and its lab; the article's CNN is ``utils.models.ArticleCNN``.

    train_set, test_set = load_digits(5_000, 2_000)     # one line saying which data
    mlp = linear_heavy_mlp()                            # 784 -> 1024 x 3 -> 10: where int8 pays off on a CPU
    losses = train(mlp, train_set, epochs=6)            # Adam; autocast_dtype=torch.bfloat16 for bf16
"""

from __future__ import annotations

import contextlib
import io
from typing import Callable

import torch
import torch.nn.functional as F
from torch import nn

from utils import data, models

__all__ = ["load_digits", "linear_heavy_mlp", "train"]


def load_digits(train_limit: int | None = None, test_limit: int | None = None):
    """``(train_set, test_set)`` from ``data.mnist_or_digits``, cut to at most ``train_limit`` / ``test_limit``
    images, printing one line for both (which source, why, and the sizes) instead of one per split.

    Lesson 04 and its lab: real MNIST has 60,000 training images, a subset keeps them in seconds.
    """
    with contextlib.redirect_stdout(io.StringIO()):
        train_set = data.mnist_or_digits("train")
        test_set = data.mnist_or_digits("test")
    note = train_set.note.rpartition(", train:")[0] or train_set.note  # the source, without the split's size
    cut = []
    for dataset, limit in ((train_set, train_limit), (test_set, test_limit)):
        if limit is not None and len(dataset) > limit:
            dataset = torch.utils.data.TensorDataset(*(t[:limit] for t in dataset.tensors))
        cut.append(dataset)
    print(f"{note}: {len(cut[0]):,} training and {len(cut[1]):,} test images")
    return cut[0], cut[1]


def linear_heavy_mlp(width: int = 1024, hidden_layers: int = 3, seed: int | None = 0) -> models.MLP:
    """Flattened 28x28 digits through ``hidden_layers`` Linear+ReLU layers of ``width``, then 10 classes.

    Almost all of its time is in matrix multiplies (Linear layers), which is where int8 kernels pay off on a
    CPU. Defaults: 784 -> 1024 -> 1024 -> 1024 -> 10, 2,913,290 parameters (11.7 MB in fp32). Lesson 04.
    """
    with models.seeded(seed):
        return models.MLP([28 * 28] + [width] * hidden_layers + [10], flatten=True)


def cross_entropy(logits: torch.Tensor, labels: torch.Tensor, images: torch.Tensor) -> torch.Tensor:
    """``train``'s default loss; ``images`` is unused here (a distillation loss feeds them to the teacher)."""
    return F.cross_entropy(logits, labels)


def train(model: nn.Module, dataset, epochs: int, *, lr: float = 1e-3, batch_size: int = 64, seed: int = 0,
          loss_fn: Callable = cross_entropy, autocast_dtype: torch.dtype | None = None,
          device: str = "cpu") -> list[float]:
    """Adam on ``dataset`` (a TensorDataset of images, labels) for ``epochs``; the mean loss of each epoch.

    ``loss_fn(logits, labels, images)``: distillation passes its own. ``autocast_dtype`` (``torch.bfloat16``
    or ``torch.float16``) runs the forward pass under ``torch.autocast``. The batches are shuffled by their
    own generator seeded with ``seed``: the same call gives the same batches. Lesson 04 and its lab.
    """
    images, labels = dataset.tensors  # (N, 1, 28, 28) float32, (N,) int64
    order_generator = torch.Generator().manual_seed(seed)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    device_type = torch.device(device).type
    # fp16's narrow range turns small gradients into 0: scale the loss up, and the gradients back down before
    # the step. bf16 has fp32's range and needs none (the scaler is then switched off: it does nothing).
    scaler = torch.amp.GradScaler(device_type, enabled=autocast_dtype == torch.float16)
    model.train()
    history = []
    for _ in range(epochs):
        order = torch.randperm(len(labels), generator=order_generator)
        total = 0.0
        for start in range(0, len(labels), batch_size):
            idx = order[start:start + batch_size]
            x, y = images[idx].to(device), labels[idx].to(device)  # (B, 1, 28, 28), (B,)
            with torch.autocast(device_type, dtype=autocast_dtype or torch.bfloat16,
                                enabled=autocast_dtype is not None):
                loss = loss_fn(model(x), y, x)  # logits (B, 10)
            optimizer.zero_grad(set_to_none=True)
            scaler.scale(loss).backward()
            scaler.step(optimizer)  # unscales the gradients; skips the step if one overflowed to inf
            scaler.update()
            total += loss.item() * len(idx)
        history.append(total / len(labels))
    model.eval()
    return history


def resplit(train_set, test_set, test_share: float, seed: int = 0):
    """The two sets pooled and split again, ``test_share`` of every class in the test set (stratified, as
    ``utils.data`` splits the digits).

    Lesson 04's lab: an accuracy budget of a point or two needs more than the digits' 360 test images to be
    several standard errors wide; half of the 1,797 images tests it to about half a point (paired).
    """
    from sklearn.model_selection import train_test_split  # installed with the digits it splits

    images = torch.cat([train_set.tensors[0], test_set.tensors[0]])
    labels = torch.cat([train_set.tensors[1], test_set.tensors[1]])
    train_idx, test_idx = train_test_split(torch.arange(len(labels)).numpy(), test_size=test_share,
                                           stratify=labels.numpy(), random_state=seed)
    train_idx, test_idx = torch.from_numpy(train_idx), torch.from_numpy(test_idx)
    return (torch.utils.data.TensorDataset(images[train_idx], labels[train_idx]),
            torch.utils.data.TensorDataset(images[test_idx], labels[test_idx]))
