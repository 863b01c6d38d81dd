"""Lesson 05's prefetcher: while the device computes on batch k, batch k+1 is already on its way.

Three pieces:

1. a **producer thread** reads batches from any iterable (a ``DataLoader``, a generator) and puts them in
2. a **queue** of at most ``depth`` batches, from which the training loop takes them in order. A thread is
   enough to hide a read that *waits* (a disk, a network share): waiting releases Python's global lock.
3. On a GPU the thread pins each batch, and the loop copies the next one on a **side CUDA stream** while the
   current one computes on the default stream: ``wait_stream`` and ``record_stream`` make that correct.

    for images, labels in Prefetcher(loader, device="cuda:0"):   # one pass per ``for``: one per epoch
        step((images, labels))

It never leaves its thread behind: the thread ends when the data runs out, on ``close()``, when the loop is
left with ``break`` and when reading raises (the error is raised again in the loop). Timing its reads is kept
apart from it: wrap the iterable in ``epoch.RecordLoads``. Importing this module starts nothing.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import weakref
from collections.abc import Callable, Iterable

import torch

END = object()  # the producer's last item when the data ran out


class Failed:
    """The producer's last item when reading raised: the error, to raise again in the training loop."""

    def __init__(self, error: BaseException):
        self.error = error


def map_tensors(fn: Callable, batch):
    """``batch`` (a tensor, or a tuple, list or dict of them) with ``fn`` applied to each tensor."""
    if isinstance(batch, torch.Tensor):
        return fn(batch)
    if isinstance(batch, (list, tuple)):
        return type(batch)(map_tensors(fn, b) for b in batch)
    if isinstance(batch, dict):
        return {k: map_tensors(fn, v) for k, v in batch.items()}
    return batch


def tensors_in(batch) -> list[torch.Tensor]:
    """Every tensor of ``batch``, in order."""
    found: list[torch.Tensor] = []
    map_tensors(found.append, batch)
    return found


def pin(batch):
    """``batch`` in page-locked memory, so that its copy to the GPU can be asynchronous."""
    return map_tensors(lambda t: t if t.is_pinned() else t.pin_memory(), batch)


# ------------------------------------------------------------------------------------ the producer thread


def put(out: queue.Queue, item, stop: threading.Event) -> bool:
    """Queue ``item``, waiting while the queue is full; False when the training loop has stopped the pass."""
    while not stop.is_set():
        try:
            out.put(item, timeout=0.05)  # wake now and then to look at ``stop``
            return True
        except queue.Full:
            pass
    return False


def produce(batches: Iterable, out: queue.Queue, stop: threading.Event, prepare: Callable) -> None:
    """Producer thread: read each batch, prepare it, queue it; then END (or Failed(error) if a read fails).

    It holds no reference to the pass it serves, so that dropping the pass (a ``break``) can stop it. A
    ``DataLoader``'s iterator ends here, in this thread, and shuts the loader's workers down.
    """
    try:
        for batch in batches:  # the read: the slow part, done while the device computes
            if not put(out, prepare(batch), stop):
                return  # the training loop left: read no more
        put(out, END, stop)
    except BaseException as error:  # whatever it is, the training loop raises it again
        put(out, Failed(error), stop)


# ------------------------------------------------------------------------------ the training loop's side


class PrefetchPass:
    """One pass of a ``Prefetcher``: its producer thread, its queue and, on a GPU, its side stream."""

    def __init__(self, batches: Iterable, device: torch.device, depth: int, transform: Callable | None):
        self.device, self.transform = device, transform
        self.on_gpu = device.type == "cuda"
        self.queue: queue.Queue = queue.Queue(maxsize=depth)  # at most ``depth`` batches wait, ready
        self.stop = threading.Event()
        self.copy_stream = torch.cuda.Stream(device) if self.on_gpu else None  # the side stream for copies
        self.ahead = None  # GPU: batch k+1, its copy already queued on the side stream
        prepare = pin if self.on_gpu else (transform or (lambda batch: batch))  # CPU: the thread converts
        self.thread = threading.Thread(target=produce, args=(batches, self.queue, self.stop, prepare),
                                       name="twogpu-prefetch", daemon=True)
        self.thread.start()

    def __iter__(self) -> PrefetchPass:
        return self

    def __next__(self):
        if self.stop.is_set():
            raise StopIteration  # closed, or already ran out
        item = self.ahead if self.ahead is not None else self.receive()  # batch k, from the thread
        self.ahead = None
        if item is END or isinstance(item, Failed):
            self.close()
            if item is END:
                raise StopIteration
            raise item.error  # reading failed in the thread: the loop sees the error
        if self.on_gpu:
            current = torch.cuda.current_stream(self.device)
            current.wait_stream(self.copy_stream)  # the compute must not read the batch before its copy ends
            for tensor in tensors_in(item):
                tensor.record_stream(current)  # made on the side stream, read on ``current``: keep its memory
                # until ``current`` is done with it, not only until the side stream moves on
            # Start copying batch k+1 now, so that it crosses while batch k computes, if the thread has it
            # ready: batch k is never held back waiting for the next read (else k+1 is copied next call).
            self.ahead = self.receive(wait=False)
        return item

    def receive(self, wait: bool = True):
        """The next item from the thread (None if ``wait`` is False and none is ready yet); on a GPU a batch's
        copy to the device starts on the side stream."""
        try:
            item = self.queue.get(block=wait)  # waits here when no batch is ready: the device idles
        except queue.Empty:
            return None
        if not self.on_gpu or item is END or isinstance(item, Failed):
            return item
        with torch.cuda.stream(self.copy_stream):
            batch = map_tensors(lambda t: t.to(self.device, non_blocking=True), item)  # pinned: asynchronous
            return self.transform(batch) if self.transform else batch  # e.g. uint8 -> float32, on the device

    def close(self, timeout: float = 5.0) -> None:
        """Stop the thread and wait for it (it finishes the read it is in, then ends)."""
        self.stop.set()
        self.ahead = None
        with contextlib.suppress(queue.Empty):
            while True:
                self.queue.get_nowait()  # make room: a thread waiting to put sees ``stop`` and ends
        if self.thread is not threading.current_thread():
            self.thread.join(timeout)

    def __del__(self):  # a ``break`` drops the pass: its thread must not outlive it
        with contextlib.suppress(Exception):
            self.close()


class Prefetcher:
    """Wraps any iterable of batches: while the device computes on batch k, batch k+1 is already coming.

    Lesson 05. A thread reads up to ``depth`` batches ahead. ``transform`` (e.g. ``dataset.decode_pair``)
    runs in the thread on CPU, and on the device after the copy on a GPU. Each ``for`` starts a fresh pass
    (a ``PrefetchPass``) and stops the one before:

        with Prefetcher(loader, device=dev, transform=decode_pair) as batches:
            for images, labels in batches:
                step((images, labels))
    """

    def __init__(self, batches: Iterable, device="cpu", depth: int = 2, transform: Callable | None = None):
        if depth < 1:
            raise ValueError(f"depth must be at least 1, got {depth}")
        self.batches, self.device = batches, torch.device(device)
        self.depth, self.transform = depth, transform
        self.running = None  # a weak reference to the pass: the ``for`` loop owns it, so a ``break`` frees it

    def __iter__(self) -> PrefetchPass:
        self.close()  # one pass at a time
        current = PrefetchPass(self.batches, self.device, self.depth, self.transform)
        self.running = weakref.ref(current)
        return current

    def __len__(self) -> int:
        return len(self.batches)

    def close(self) -> None:
        """Stop the running pass, if there is one (its thread, and over a DataLoader its workers' epoch)."""
        current = self.running() if self.running is not None else None
        if current is not None:
            current.close()

    def __enter__(self) -> Prefetcher:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
