"""Lesson 05's data: digit images stored as uint8, each read costing simulated storage time.

    data = SlowDigits(n_items=512, item_seconds=0.003)   # (uint8 image, label) pairs; each read costs 3 ms
    uneven = SlowDigits(512, 0.003, read_weights=uneven_weights(512, block=16, every=8, factor=4.0))
    images = decode_images(images.to(device))            # uint8 crosses the link, float32 is made there
"""

from __future__ import annotations

import os
import time

import torch
from torch.utils.data import Dataset

from utils.claims import half_up
from utils.data import MNIST_MEAN, MNIST_STD, digits_28


def digits_uint8(n_items: int, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    """``n_items`` digit images as stored on disk, uint8 0..255 (N, 1, 28, 28), and int64 labels (N,).

    Made from ``data.digits_28`` (1,437 training images), repeated when more are asked for (lesson 05).
    """
    images, labels = digits_28("train", seed=seed).tensors  # (1437, 1, 28, 28) float32, normalised
    raw = (images * MNIST_STD + MNIST_MEAN).clamp(0, 1)  # back to 0..1
    index = torch.arange(n_items) % len(labels)
    return (raw[index] * 255).round().to(torch.uint8), labels[index]


def uneven_weights(n_items: int, block: int, every: int, factor: float) -> torch.Tensor:
    """Per-item read-time multipliers (n_items,) whose mean is 1: every ``every``-th block of ``block`` items
    (a batch, read in order) costs ``factor`` times the mean, the others less, so that the epoch's total read
    time L stays the same. A slow file among fast ones: what a deeper prefetch queue can absorb (lesson 05).
    """
    if not (every >= 2 and 1 <= factor <= every):
        raise ValueError(f"need every >= 2 and 1 <= factor <= every (the others' share stays >= 0), got "
                         f"every={every}, factor={factor}")
    slow = (torch.arange(n_items) // block) % every == every - 1  # the last block of each group of ``every``
    fast = (every - factor) / (every - 1)  # (every - 1) fast blocks and one slow one average to 1
    weights = torch.where(slow, torch.tensor(factor), torch.tensor(fast))
    return weights / weights.mean()  # exactly 1 on average, also when n_items is not a whole number of groups


def uneven_reads_line(weights: torch.Tensor, every: int, read_ms: float) -> str:
    """``uneven_weights`` in words, as multiples of the mean read, with the mean worked from the two printed
    multiples, so that a reader's (slow + 7 x fast) / 8 comes out as printed: "uneven reads: 1 batch in 8 takes
    4.00x the mean read, the others 0.57x: (4.00 + 7 x 0.57) / 8 = 1.00x, so a batch still reads 48 ms on
    average, as above (L unchanged)". Not the ms of each: those, rounded, work out to another mean (194 and 28
    ms give 48.75, t35_0506 #3). Where the printed multiples miss 1.00x, the rounding is named. ``read_ms``:
    the mean read in ms as printed above. Lesson 05."""
    slow, fast = (half_up(w, 2) for w in (weights.max().item(), weights.min().item()))
    mean = half_up((slow + (every - 1) * fast) / every, 2)
    # the multiples are rounded to 2 decimals; the weights themselves average exactly 1 (``uneven_weights``)
    rounding = "" if f"{mean:.2f}" == "1.00" else " as printed (exactly 1x before rounding)"
    return (f"uneven reads: 1 batch in {every} takes {slow:.2f}x the mean read, the others {fast:.2f}x: "
            f"({slow:.2f} + {every - 1} x {fast:.2f}) / {every} = {mean:.2f}x{rounding}, so a batch still reads "
            f"{read_ms:.0f} ms on average, as above (L unchanged)")


def burn_cpu(seconds: float) -> None:
    """Keep this thread's core busy for ``seconds`` of its own CPU time (``time.thread_time``): work such as
    decoding, which takes longer in wall time when more processes than cores want to run (lesson 05)."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def decode_images(images: torch.Tensor) -> torch.Tensor:
    """uint8 images (..., 28, 28) to normalised float32, on whatever device they are: 1 byte in, 4 out."""
    return (images.float() / 255 - MNIST_MEAN) / MNIST_STD


def decode_into(images: torch.Tensor, out: torch.Tensor) -> torch.Tensor:
    """``decode_images``' arithmetic, in the same order, written into ``out`` (float32, allocated once)."""
    return out.copy_(images).div_(255).sub_(MNIST_MEAN).div_(MNIST_STD)


def decode_pair(batch):
    """``(uint8 images, labels)`` -> ``(float32 images, labels)``: a ``Prefetcher`` transform (lesson 05)."""
    images, labels = batch
    return decode_images(images), labels


class SlowDigits(Dataset):
    """Digit images whose every read costs ``item_seconds`` of simulated storage time (lesson 05).

    Item i is ``(image, label)``: image (1, 28, 28) uint8 as stored, or float32 normalised when
    ``decode_on_host=True`` (4x the bytes to move). The cost is a sleep: like waiting for a disk or the
    network, it keeps no core busy, so it is the same on a busy laptop as on an idle server.

    ``open_seconds`` is a set-up cost each *process* pays once, on its first read (opening the file,
    connecting to the store): a DataLoader worker started afresh every epoch pays it every epoch, a
    persistent one once. ``read_weights`` (n_items,): each item's read time as a multiple of ``item_seconds``
    (``uneven_weights``); None: every read the same. ``cpu_seconds``: CPU work per item on top of the wait
    (decoding, augmenting: ``burn_cpu``), which processes on too few cores must take turns at.
    """

    def __init__(self, n_items: int = 512, item_seconds: float = 0.003, decode_on_host: bool = False,
                 seed: int = 0, open_seconds: float = 0.0, read_weights: torch.Tensor | None = None,
                 cpu_seconds: float = 0.0):
        self.images, self.labels = digits_uint8(n_items, seed)
        if read_weights is not None and read_weights.shape != (n_items,):
            raise ValueError(f"read_weights must hold one weight per item, shape ({n_items},), "
                             f"not {tuple(read_weights.shape)}")
        self.read_weights = read_weights
        self.cpu_seconds = cpu_seconds
        self.item_seconds = item_seconds
        self.decode_on_host = decode_on_host
        self.open_seconds = open_seconds
        self.opened_in: int | None = None  # the process id that has paid ``open_seconds``

    def open(self) -> None:
        """Pay the set-up cost, once per process (a worker's copy of the data set starts unopened)."""
        if self.opened_in != os.getpid():
            time.sleep(self.open_seconds)
            self.opened_in = os.getpid()

    def __len__(self) -> int:
        return len(self.labels)

    def __getitem__(self, i: int):
        return self.__getitems__([i])[0]

    def __getitems__(self, indices: list[int]) -> list:
        """A batch of items in one read (the DataLoader asks for a batch at once when this exists)."""
        self.open()
        weight = len(indices) if self.read_weights is None else float(self.read_weights[indices].sum())
        time.sleep(self.item_seconds * weight)  # the simulated read: no CPU used, just waiting
        burn_cpu(self.cpu_seconds * len(indices))  # the simulated decoding: CPU time, shared with the others
        images = self.images[indices]  # (B, 1, 28, 28) uint8, as stored
        if self.decode_on_host:
            images = decode_images(images)  # (B, 1, 28, 28) float32: 4x the bytes to move
        # One view per image and plain int labels: the least Python work per item for the collate to stack
        # (at a GPU's 512 images a batch, per-item work is CPU time the loader's workers compete for).
        return list(zip(images.unbind(0), self.labels[indices].tolist()))
