"""Lab 05's measurements of the learner's set-up: what crosses to the device (bytes, dtype, pinned or not) and
how many reads of the data set run at once (the lab's budget of two loaders).

    with Crossings("cuda:0") as crossed:           # every copy to the device made inside, recorded
        images, labels = to_device(batch, "cuda:0")
    crossed.images()                               # [Crossing(shape=(16, 1, 28, 28), dtype=torch.uint8, ...)]

    data = CountedDigits(512, 0.003)               # lesson 05's SlowDigits, counting its reads in flight
    ...; data.peak_reads()                         # the most reads that ran at the same time, in any process

Both measure; neither looks at the learner's code: a ``DataLoader``, a ``Prefetcher``, a generator or a
thread pool are all seen the same way.
"""

from __future__ import annotations

import multiprocessing
import os
import time
import weakref
from dataclasses import dataclass

import torch
from torch.overrides import TorchFunctionMode

from utils import claims
from utils.lessons.data_prefetch.dataset import SlowDigits
from utils.lessons.data_prefetch.epoch import bound
from utils.lessons.data_prefetch.prefetcher import tensors_in

IMAGE_SIDE = 28  # an image is (..., 28, 28): how a crossing of images is told from one of labels


@dataclass(frozen=True)
class Crossing:
    """One copy of a tensor to the device, as it crossed: the bytes are the copy's, in the dtype it had."""

    shape: tuple[int, ...]
    dtype: torch.dtype
    nbytes: int
    pinned: bool  # the source was in page-locked host memory (only asked where the device is a GPU)
    non_blocking: bool  # the copy was asked to be asynchronous

    @property
    def is_images(self) -> bool:
        return len(self.shape) >= 2 and tuple(self.shape[-2:]) == (IMAGE_SIDE, IMAGE_SIDE)


def _on(device: torch.device, target: torch.device) -> bool:
    return device.type == target.type and (target.index is None or device.index in (None, target.index))


def _names_a_device(args: tuple, kwargs: dict) -> bool:
    """Whether a ``Tensor.to`` call names a device (``.to("cpu")``, ``.to(device=...)``, ``.to(other)``)
    rather than only a dtype: in cpu mode the device is the host, and only the call says a copy was meant."""
    if kwargs.get("device") is not None:
        return True
    return any(isinstance(a, (torch.device, str, torch.Tensor)) or (isinstance(a, int) and not isinstance(a, bool))
               for a in args)


def _asks_async(args: tuple, kwargs: dict) -> bool:
    """``non_blocking=True``, by keyword or position (``.to(device, dtype, True)``)."""
    return bool(kwargs.get("non_blocking", False)) or any(a is True for a in args)


class Crossings(TorchFunctionMode):
    """Records every copy to ``device`` made while it is active (a torch function mode: it sees each
    ``Tensor.to``, ``Tensor.cuda`` and ``Tensor.copy_`` call of this thread, whoever makes it).

    A copy counts once: what has arrived (and whatever is computed from it) is on the device, so moving it
    "again" crosses nothing. In cpu mode the device is the host: a ``.to(device)`` call is the crossing, a
    ``.float()`` is not. The bytes are those of the copy's result: ``x.to(device, torch.float32)`` from uint8
    converts before the copy (on the host) and sends four bytes a pixel, and so does ``decode(x).to(device)``.
    """

    def __init__(self, device):
        super().__init__()
        self.target = torch.device(device)
        self.crossed: list[Crossing] = []
        self._arrived: dict[int, weakref.ref] = {}  # id -> the tensor (weakly): what is on the device

    def has_arrived(self, tensor: torch.Tensor) -> bool:
        ref = self._arrived.get(id(tensor))
        return ref is not None and ref() is tensor  # the id of a freed tensor can be reused

    def arrive(self, *tensors: torch.Tensor) -> None:
        for t in tensors:
            self._arrived[id(t)] = weakref.ref(t)

    def images(self) -> list[Crossing]:
        return [c for c in self.crossed if c.is_images]

    def others(self) -> list[Crossing]:
        return [c for c in self.crossed if not c.is_images]

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        if func in (torch.Tensor.to, torch.Tensor.cuda) and isinstance(out, torch.Tensor):
            self._moved(args[0], out, func is torch.Tensor.cuda or _names_a_device(args[1:], kwargs),
                        _asks_async(args[1:], kwargs))
        elif func is torch.Tensor.copy_ and (self.has_arrived(args[0]) or args[0].device != args[1].device):
            self._moved(args[1], args[0], True, _asks_async(args[2:], kwargs))
        elif any(self.has_arrived(t) for t in tensors_in((args, kwargs))):
            self.arrive(*tensors_in(out))  # computed from what arrived: on the device too
        return out

    def _moved(self, src: torch.Tensor, out: torch.Tensor, names_device: bool, non_blocking: bool) -> None:
        """``out`` is ``src`` sent somewhere: a crossing if it lands on the device and was not there yet."""
        if not _on(out.device, self.target) or self.has_arrived(src):
            if self.has_arrived(src):
                self.arrive(out)
            return
        # Moved from elsewhere, or (the device being the host) a .to(device) on a tensor not yet sent.
        if src.device != out.device or (self.target.type == "cpu" and names_device):
            pinned = self.target.type == "cuda" and src.device.type == "cpu" and src.is_pinned()
            self.crossed.append(Crossing(tuple(out.shape), out.dtype, out.numel() * out.element_size(),
                                         pinned, non_blocking))
            self.arrive(out)


class CountedDigits(SlowDigits):
    """Lesson 05's ``SlowDigits``, counting across processes (shared counters that DataLoader workers inherit)
    how many reads run at once (``peak_reads()``: how many loaders read, however they were made), how many
    batches have been started (``started()``: the check compares it with the batches trained, for how far
    ahead the loading runs) and how many were read by the process that made it (``own_reads()``: the
    training process, which the lab's rule forbids to read)."""

    def __init__(self, n_items: int, item_seconds: float, open_seconds: float = 0.0,
                 read_weights: torch.Tensor | None = None):
        super().__init__(n_items, item_seconds, open_seconds=open_seconds, read_weights=read_weights)
        # The draw's per-item costs are private, as on real storage: a learner finds them by timing reads
        # (lab 05's exercise B); only the checks read ``_read_costs``.
        self._read_costs = self.read_weights
        if read_weights is not None:
            del self.read_weights  # not None, which would read as "every read the same"
        self.owner = os.getpid()  # the training process: the one that builds the data set
        # [reads in flight now, the most at once so far, batches started, batches read by the owner]
        self.reads = multiprocessing.Array("i", 4)

    def __getitems__(self, indices: list[int]) -> list:
        with self.reads.get_lock():
            self.reads[0] += 1
            self.reads[1] = max(self.reads[1], self.reads[0])
            self.reads[2] += 1
            self.reads[3] += os.getpid() == self.owner
        try:
            return self._read(indices)
        finally:
            with self.reads.get_lock():
                self.reads[0] -= 1

    def _read(self, indices: list[int]) -> list:
        """Lesson 05's read (``SlowDigits``), its wait weighted by the private per-item costs when drawn."""
        if self._read_costs is None:
            return super().__getitems__(indices)
        self.open()
        time.sleep(self.item_seconds * float(self._read_costs[indices].sum()))  # the simulated read
        images = self.images[indices]  # (B, 1, 28, 28) uint8, as stored
        return list(zip(images.unbind(0), self.labels[indices].tolist()))

    def peak_reads(self) -> int:
        return self.reads[1]

    def started(self) -> int:
        return self.reads[2]

    def own_reads(self) -> int:
        return self.reads[3]

    def reset_count(self) -> None:
        with self.reads.get_lock():
            self.reads[1] = self.reads[0]


def epoch_lines(load: float, compute: float, loaders: int) -> tuple[str, str]:
    """Cell 7's two lines from the measured L and C: one process doing both (L + C, the device waiting L of
    it) and the bound with ``loaders`` loaders. Worked from L and C as printed (2 decimals), so that a reader
    who adds "L = 1.06 s" and "C = 1.29 s" finds the 2.35 s printed, not 2.34 s from the unrounded seconds."""
    l, c = claims.as_printed(load, 2), claims.as_printed(compute, 2)
    serial = bound(l, c, 0)   # no loader: the device waits for every read
    return (f"one process doing both: about {serial:.2f} s, the device waiting {l / serial:.0%} of it;",
            f"the bound with {loaders} loaders: {bound(l, c, loaders):.2f} s")
