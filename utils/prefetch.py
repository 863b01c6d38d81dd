"""Feeding the device: a slow data set, epoch timing against max(load, compute), and a prefetcher.

Lesson 05, data prefetch (``notebooks/05_data_prefetch.ipynb``) and its lab (``labs/05_feed_the_gpu.ipynb``).
A device that waits for data is wasted. Loading and computing can overlap, so an epoch can take as little as
the larger of the two, never less:

    bound = load + compute                      one process does both, one after the other
    bound = max(load / loaders, compute)        ``loaders`` workers load while the device computes

    data = SlowDigits(n_items=512, item_seconds=0.003)   # uint8 digit images; each read costs 3 ms
    step = train_step(models.ArticleCNN(seed=0), "cpu", min_seconds=0.04)
    run_epoch(DataLoader(data, batch_size=16, num_workers=2), step)      # EpochResult: seconds, waits
    for batch in Prefetcher(loader, device="cuda:0", transform=decode_images):   # next batch moves ahead
        step(batch)

``Prefetcher`` loads the next batches on a background thread (and on a GPU copies them on a side CUDA
stream) while the current one computes; it never leaves its thread behind. The benchmark ``prefetch`` is
registered with ``utils.bench``; the lab's checks are at the end. Importing this module starts nothing.
"""

from __future__ import annotations

import contextlib
import math
import os
import queue
import re
import threading
import statistics
import time
import warnings
import weakref
from dataclasses import dataclass, field
from typing import Callable, Iterable

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

from utils import bench, checks, timeline
from utils.data import MNIST_MEAN, MNIST_STD, digits_28

# --------------------------------------------------------------------------------------- the slow data set


def digits_uint8(n_items: int, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    """``n_items`` digit images as stored on disk, uint8 0..255 (N, 1, 28, 28), and int64 labels (N,).

    Made from ``data.digits_28`` (1,437 training images), repeated when more are asked for.
    """
    images, labels = digits_28("train", seed=seed).tensors  # (1437, 1, 28, 28) float32, normalised
    raw = (images * MNIST_STD + MNIST_MEAN).clamp(0, 1)  # back to 0..1
    index = torch.arange(n_items) % len(labels)
    return (raw[index] * 255).round().to(torch.uint8), labels[index]


def decode_images(images: torch.Tensor) -> torch.Tensor:
    """uint8 images (..., 28, 28) to normalised float32, on whatever device they are: 1 byte in, 4 out."""
    return (images.float() / 255 - MNIST_MEAN) / MNIST_STD


class SlowDigits(Dataset):
    """Digit images whose every read costs ``item_seconds`` of simulated storage time (lesson 05).

    Item i is ``(image, label)``: image (1, 28, 28) uint8 as stored, or float32 normalised when
    ``decode_on_host=True`` (4x the bytes to move). The cost is a sleep: like waiting for a disk or the
    network, it keeps no core busy, so it is the same on a busy laptop as on an idle server.

    ``open_seconds`` is a set-up cost each *process* pays once, on its first read (opening the file,
    connecting to the store): a DataLoader worker started afresh every epoch pays it every epoch, a
    persistent one once.
    """

    def __init__(self, n_items: int = 512, item_seconds: float = 0.003, decode_on_host: bool = False,
                 seed: int = 0, open_seconds: float = 0.0):
        self.images, self.labels = digits_uint8(n_items, seed)
        self.item_seconds = item_seconds
        self.decode_on_host = decode_on_host
        self.open_seconds = open_seconds
        self._opened_in: int | None = None  # the process id that has paid ``open_seconds``

    def open(self) -> None:
        """Pay the set-up cost, once per process (a worker's copy of the data set starts unopened)."""
        if self._opened_in != os.getpid():
            time.sleep(self.open_seconds)
            self._opened_in = os.getpid()

    def __len__(self) -> int:
        return len(self.labels)

    def __getitem__(self, i: int):
        return self.__getitems__([i])[0]

    def __getitems__(self, indices: list[int]) -> list:
        """A batch of items in one read (the DataLoader asks for a batch at once when this exists)."""
        self.open()
        time.sleep(self.item_seconds * len(indices))  # the simulated read: no CPU used, just waiting
        images = self.images[indices]  # (B, 1, 28, 28) uint8
        if self.decode_on_host:
            images = decode_images(images)  # (B, 1, 28, 28) float32: 4x the bytes
        return list(zip(images, self.labels[indices]))


# ----------------------------------------------------------------------------------- the device's work


def to_device(batch, device, non_blocking: bool = False):
    """Tensors of ``batch`` (a tensor, tuple, list or dict of them) moved to ``device``."""
    if isinstance(batch, torch.Tensor):
        return batch.to(device, non_blocking=non_blocking)
    if isinstance(batch, (list, tuple)):
        return type(batch)(to_device(b, device, non_blocking) for b in batch)
    if isinstance(batch, dict):
        return {k: to_device(v, device, non_blocking) for k, v in batch.items()}
    return batch


def _tensors(batch) -> list[torch.Tensor]:
    if isinstance(batch, torch.Tensor):
        return [batch]
    if isinstance(batch, (list, tuple)):
        return [t for b in batch for t in _tensors(b)]
    if isinstance(batch, dict):
        return [t for b in batch.values() for t in _tensors(b)]
    return []


def train_step(model: torch.nn.Module, device, lr: float = 0.05, min_seconds: float = 0.0,
               decode: bool = True) -> Callable:
    """A function ``step((images, labels)) -> loss`` that trains ``model`` on one batch (lesson 05).

    Moves the batch to ``device`` (a no-op when the prefetcher already did), decodes uint8 images there,
    runs forward, backward and an SGD step, and waits for a GPU to finish. ``min_seconds`` makes a step take
    at least that long: in cpu mode it stands in for a GPU's fixed speed (the host waits while the device
    works), so that the lesson's numbers do not swing with how busy the shared CPU is.
    """
    model = model.to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)

    def step(batch) -> torch.Tensor:
        start = time.perf_counter()
        images, labels = to_device(batch, device)
        if decode and images.dtype == torch.uint8:
            images = decode_images(images)  # (B, 1, 28, 28) float32, converted on the device
        optimizer.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(images), labels)
        loss.backward()
        optimizer.step()
        bench.synchronize(device)  # on a GPU the step above was only queued
        rest = min_seconds - (time.perf_counter() - start)
        if rest > 0:
            time.sleep(rest)
        return loss.detach()

    step.device = str(device)
    return step


# -------------------------------------------------------------------------------------------- epochs


@dataclass
class EpochResult:
    """One measured epoch: wall seconds, batches, seconds spent waiting for data, and its spans."""

    seconds: float
    batches: int
    wait_seconds: float
    spans: list = field(default_factory=list, repr=False)

    @property
    def busy(self) -> float:
        """Fraction of the epoch the device computed (1.0: it never waited for data)."""
        return 1 - self.wait_seconds / self.seconds if self.seconds else 0.0


def run_epoch(batches: Iterable, step: Callable, wait_name: str = "wait", row: str = "training process",
              meter: "BusyMeter | None" = None) -> EpochResult:
    """One pass over ``batches``, calling ``step`` on each; times the waits for data and the compute.

    The spans go on one timeline row: ``wait_name`` while ``next()`` blocks (use "load" when the loading
    happens right here, with no workers), "compute" while the step runs.
    """
    recorder = timeline.SpanRecorder(row)
    clock = recorder.clock
    waited, k, end = 0.0, 0, object()
    start = clock()
    iterator = iter(batches)
    try:
        while True:
            t0 = clock()
            with recorder.span(wait_name, k):
                batch = next(iterator, end)
            waited += clock() - t0
            if batch is end:
                break
            with recorder.span("compute", k), (meter.busy() if meter else contextlib.nullcontext()):
                step(batch)
            k += 1
    finally:
        close = getattr(iterator, "close", None)
        if close is not None and iterator is not batches:
            close()  # a Prefetcher's pass: stop its thread now, even when the step raised
    seconds = clock() - start
    spans = [s for s in recorder.spans() if not (s.name == wait_name and s.index == k)]  # the final empty wait
    return EpochResult(seconds, k, waited, spans)


def epoch_spans(result: EpochResult, loads: list | None = None, batches: int = 8) -> list:
    """The first ``batches`` batches of an epoch as two timeline rows: the device's compute and the loading.

    Without ``loads`` the loading is the epoch's own "load" waits (no workers: the training process reads);
    with them (a Prefetcher's ``spans()``) it is the thread's reads. Waits are left out: they are idle time.
    """
    from dataclasses import replace

    first = [s for s in result.spans + list(loads or []) if s.index is not None and s.index < batches]
    compute = [replace(s, device="device (computes)") for s in first if s.name == "compute"]
    if loads is None:
        reads = [replace(s, device="loading (training process)") for s in first if s.name == "load"]
    else:
        reads = [s for s in first if s.device != result.spans[0].device]
    return compute + reads


def bound(load_seconds: float, compute_seconds: float, loaders: int) -> float:
    """The shortest possible epoch: load + compute with no loader, max(load/loaders, compute) with some."""
    if loaders <= 0:
        return load_seconds + compute_seconds
    return max(load_seconds / loaders, compute_seconds)


def bound_formula(loaders: int) -> str:
    """The formula ``bound`` uses for ``loaders``: "L + C", "max(L, C)", "max(L/2, C)"."""
    if loaders <= 0:
        return "L + C"
    return "max(L, C)" if loaders == 1 else f"max(L/{loaders}, C)"


def measure_load(dataset: Dataset, batch_size: int) -> float:
    """Seconds to read one epoch of ``dataset`` in this process, with no compute (the load term).

    A data set's one-off set-up (``SlowDigits.open``) is paid before the clock starts: it is not a read.
    """
    if hasattr(dataset, "open"):
        dataset.open()
    start = time.perf_counter()
    for _ in DataLoader(dataset, batch_size=batch_size):
        pass
    return time.perf_counter() - start


def measure_compute(step: Callable, batches: list) -> float:
    """Seconds of compute for ``batches`` already in memory (the compute term); one warm-up step first.

    The median step time x the number of steps: every step does the same work, so one step slowed by
    another process taking the core (a busy classroom server) does not inflate the bound.
    """
    step(batches[0])
    seconds = []
    for batch in batches:
        start = time.perf_counter()
        step(batch)
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds) * len(batches)


def median_epoch(batches: Iterable, step: Callable, epochs: int = 3, warm_up: int = 1
                 ) -> tuple[EpochResult, list[float]]:
    """The median of ``epochs`` passes after ``warm_up`` unmeasured ones, and every measured pass's seconds.

    One pass is too noisy to compare settings on a shared machine: compare medians, and read differences
    smaller than the spread (max - min of the seconds) as noise.
    """
    with loader_notes(show=False):
        for _ in range(warm_up):
            run_epoch(batches, step)
        results = sorted((run_epoch(batches, step) for _ in range(epochs)), key=lambda r: r.seconds)
    return results[len(results) // 2], [r.seconds for r in results]


def bottleneck(load_seconds: float, compute_seconds: float, loaders: int) -> str:
    """Which stage bounds the epoch, in words a learner can act on."""
    per_loader = load_seconds / max(loaders, 1)
    if loaders <= 0:
        return "no overlap: the device waits for every batch (load + compute)"
    if per_loader > compute_seconds:
        return (f"loading ({per_loader:.2f} s with {loaders} loader(s)) is the bottleneck: more loaders, "
                f"or cheaper reads")
    return f"compute ({compute_seconds:.2f} s) is the bottleneck: the loading is hidden behind it"


# ------------------------------------------------------------------------- the device, seen by the monitor


class BusyMeter:
    """Which share of time the (simulated) device spends computing: like a GPU's utilisation (lesson 05).

    ``with meter.busy(): step(batch)`` marks busy time; ``fraction(t0, t1)`` reads it for a window.
    """

    def __init__(self):
        self._intervals: list[tuple[float, float]] = []
        self._lock = threading.Lock()
        self._started: float | None = None

    @contextlib.contextmanager
    def busy(self):
        self._started = time.perf_counter()
        try:
            yield
        finally:
            with self._lock:
                self._intervals.append((self._started, time.perf_counter()))
            self._started = None

    def fraction(self, t0: float, t1: float) -> float:
        if t1 <= t0:
            return 0.0
        with self._lock:
            intervals = list(self._intervals)
        if self._started is not None:
            intervals.append((self._started, t1))  # a step still running counts up to now
        covered = sum(max(0.0, min(b, t1) - max(a, t0)) for a, b in intervals)
        return min(1.0, covered / (t1 - t0))


class DeviceSampler:
    """A ``monitor.record`` sampler: the real one, plus in cpu mode a row for the simulated device.

    The DataLoader's worker processes appear as "loader worker k" instead of their process ids.
    """

    def __init__(self, meter: BusyMeter, base=None):
        from utils import monitor

        self.meter = meter
        self.base = base if base is not None else monitor.default_sampler(throughput=False)
        self.no_gpu_reason = getattr(self.base, "no_gpu_reason", None)
        self._last = time.perf_counter()
        self._names: dict[int, str] = {}

    def sample(self) -> dict:
        sample = self.base.sample()
        now = time.perf_counter()
        workers = []
        for w in sample.get("workers", []):
            name = self._names.setdefault(w["pid"], f"loader worker {len(self._names) + 1}")
            workers.append(dict(w, label=name if w["label"].startswith("pid ") else w["label"]))
        if not sample.get("gpus"):  # cpu mode: the device is this process's training step
            workers.append({"pid": 0, "label": "device (simulated)", "rss": float("nan"),
                            "cpu": 100 * self.meter.fraction(self._last, now)})
        self._last = now
        return dict(sample, workers=workers)


def device_busy(recording) -> tuple[str, list[float], list[float]]:
    """From a ``monitor.record`` recording: the device's row name, times (s) and busy % (lesson 05).

    In cpu mode the device is the ``DeviceSampler``'s "device (simulated)" row; on a GPU, the first GPU. The
    host CPU and loader worker rows are left out: they are not the device.
    """
    series = recording.series()
    name = "device (simulated)" if recording.simulated else next(iter(series), None)
    if name not in series:
        return name or "device", [], []
    return name, list(series[name]["t"]), list(series[name]["busy"])


def plot_device_busy(recordings: dict, title: str = "Device busy % while training"):
    """One line per recording (name -> ``monitor.record`` recording): only the device's busy %, 0-100."""
    from utils import plots

    fig, (ax,) = plots.new_figure(rows=1, row_height=2.6)
    simulated = False
    for i, (label, recording) in enumerate(recordings.items()):
        _, times, busy = device_busy(recording)
        simulated = simulated or recording.simulated
        mean = statistics.fmean([b for b in busy if not math.isnan(b)]) if busy else math.nan
        ax.plot(times, busy, color=plots.device_color(i), label=f"{label} (mean {mean:.0f}%)")
    ax.set_ylabel("device busy %")
    ax.set_ylim(0, 105)
    ax.set_xlabel("time (s)")
    ax.legend(loc="lower right", fontsize=8)
    plots.stamp_simulated(fig, simulated)
    return plots.finish(fig, title + (" (simulated on CPU)" if simulated else ""))


# ---------------------------------------------------------------------------------------- loader notes

# DataLoader warnings this lesson expects, each turned into one line that says why (lesson 05).
LOADER_NOTES = [
    (re.compile(r"will create (\d+) worker processes.*suggested max number of worker.*is (\d+)", re.S),
     lambda m: f"note: {m.group(1)} loader workers on {m.group(2)} CPU cores; torch warns because CPU-bound "
               f"workers past the core count only take turns (here a read is a wait, but each worker's "
               f"start-up and every hand-over still take CPU time)."),
    (re.compile(r"'pin_memory' argument is set as true but no accelerator is found"),
     lambda m: "note: pin_memory does nothing without a GPU (torch warns): page-locked memory only speeds "
               "up copies to a GPU."),
]


@contextlib.contextmanager
def loader_notes(show: bool = True):
    """Catch the DataLoader's expected warnings and print each as one explained line; others pass through.

    Yields the list of notes (each printed once when the block ends, if ``show``).
    """
    notes: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield notes
    for w in caught:
        for pattern, explain in LOADER_NOTES:
            match = pattern.search(str(w.message))
            if match:
                if explain(match) not in notes:
                    notes.append(explain(match))
                break
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    if show:
        for note in notes:
            print(note)


# -------------------------------------------------------------------------------------------- Prefetcher

_END = object()


class _Failed:
    def __init__(self, error: BaseException):
        self.error = error


def _produce(iterable, out: queue.Queue, stop: threading.Event, spans: list, prepare) -> None:
    """The background thread: read batches, prepare them (pin, or convert on CPU), queue them in order.

    It holds no reference to the Prefetcher, so that dropping the Prefetcher can stop it.
    """
    def put(item) -> bool:
        while not stop.is_set():
            try:
                out.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    try:
        iterator = iter(iterable)
        k = 0
        while not stop.is_set():
            start = time.perf_counter()
            batch = next(iterator, _END)
            if batch is _END:
                break
            batch = prepare(batch)
            spans.append(timeline.Span("prefetch thread", "load", k, start, time.perf_counter()))
            if not put(batch):
                break
            k += 1
        iterator = None  # a DataLoader iterator shuts its workers down here, in this thread
    except BaseException as error:  # noqa: BLE001 - re-raised in the consumer
        put(_Failed(error))
        return
    put(_END)


class PrefetchPass:
    """One pass of a ``Prefetcher``: an iterator with its own background thread (lesson 05).

    Stops its thread when the data runs out, on ``close()``, when it is garbage-collected (a ``break`` out of
    a ``for`` loop drops it) and when the producer raises (the error is re-raised here).
    """

    def __init__(self, iterable, device: str, depth: int, transform, spans: list, non_blocking: bool):
        self.device = str(device)
        self.on_gpu = self.device.startswith("cuda")
        self.transform = transform
        self.non_blocking = non_blocking
        self._queue: queue.Queue = queue.Queue(maxsize=depth)
        self._stop = threading.Event()
        self._done = False
        self._stream = torch.cuda.Stream(self.device) if self.on_gpu else None
        self._ready = None  # GPU: the next batch, already being copied on the side stream
        prepare = _pin if self.on_gpu else (transform or (lambda b: b))  # on CPU the thread converts too
        self._thread = threading.Thread(target=_produce, name="twogpu-prefetch", daemon=True,
                                        args=(iterable, self._queue, self._stop, spans, prepare))
        self._thread.start()

    def __iter__(self):
        return self

    def _take(self):
        """The next item from the thread: a batch, _END, or _Failed."""
        return self._queue.get()

    def _copy_ahead(self, item):
        """GPU: start copying ``item`` on the side stream; returns the device batch (not ready yet)."""
        if item is _END or isinstance(item, _Failed):
            return item
        with torch.cuda.stream(self._stream):
            batch = to_device(item, self.device, non_blocking=self.non_blocking)  # pinned: truly async
            return self.transform(batch) if self.transform else batch

    def __next__(self):
        if self._done:
            raise StopIteration
        if not self.on_gpu:
            item = self._take()
        else:
            item = self._ready if self._ready is not None else self._copy_ahead(self._take())
            if item is not _END and not isinstance(item, _Failed):
                current = torch.cuda.current_stream(self.device)
                current.wait_stream(self._stream)  # compute must not read the batch before its copy ends
                for tensor in _tensors(item):
                    tensor.record_stream(current)  # made on the side stream, used on `current`: keep its
                    # memory until `current` is done with it, not just until the side stream moves on
                self._ready = self._copy_ahead(self._take())  # the next copy overlaps this batch's compute
        if item is _END:
            self.close()
            raise StopIteration
        if isinstance(item, _Failed):
            self.close()
            raise item.error
        return item

    def close(self, timeout: float = 5.0) -> None:
        """Stop the thread and wait for it (it finishes the read it is in, then ends)."""
        self._done = True
        self._ready = None
        self._stop.set()
        with contextlib.suppress(queue.Empty):
            while True:
                self._queue.get_nowait()  # unblock a thread waiting to put
        if self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def __del__(self):
        with contextlib.suppress(Exception):
            self.close()


def _pin(batch):
    """Copy to page-locked memory (unless already there), so that the copy to the GPU can be asynchronous."""
    if isinstance(batch, torch.Tensor):
        return batch if batch.is_pinned() else batch.pin_memory()
    if isinstance(batch, (list, tuple)):
        return type(batch)(_pin(b) for b in batch)
    if isinstance(batch, dict):
        return {k: _pin(v) for k, v in batch.items()}
    return batch


class Prefetcher:
    """Wraps any iterable of batches: while the device computes on batch k, batch k+1 is already coming.

    Lesson 05. A background thread reads up to ``depth`` batches ahead. On CPU it also applies ``transform``
    (e.g. ``decode_images`` on the images). On a GPU it pins each batch, and the consumer copies the next one
    on a side CUDA stream (``non_blocking=True``) and applies ``transform`` there, then makes the compute
    stream wait for that copy (``wait_stream``) and tells the caching allocator the tensors are used on the
    compute stream (``record_stream``).

        with Prefetcher(loader, device=dev, transform=decode_pair) as batches:
            for images, labels in batches:     # one pass per ``for``; iterate again for the next epoch
                step((images, labels))

    No thread is ever left behind: see ``PrefetchPass``. ``spans()`` holds the last pass's load spans.
    """

    def __init__(self, iterable: Iterable, device="cpu", depth: int = 2, transform: Callable | None = None,
                 non_blocking: bool = True):
        if depth < 1:
            raise ValueError(f"depth must be at least 1, got {depth}")
        self.iterable, self.device, self.depth = iterable, str(device), depth
        self.transform, self.non_blocking = transform, non_blocking
        self._spans: list = []  # the latest pass's "load" spans, appended by its thread
        self._pass = None  # a weak reference: the for loop owns the pass, so a break can collect it

    def __iter__(self) -> PrefetchPass:
        self.close()
        self._spans = []
        current = PrefetchPass(self.iterable, self.device, self.depth, self.transform, self._spans,
                               self.non_blocking)
        self._pass = weakref.ref(current)
        return current

    def __len__(self) -> int:
        return len(self.iterable)

    def spans(self) -> list:
        """The background thread's "load" spans of the latest pass."""
        return sorted(self._spans, key=lambda s: s.start)

    def close(self) -> None:
        current = self._pass() if self._pass is not None else None
        if current is not None:
            current.close()

    def __enter__(self) -> "Prefetcher":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def decode_pair(batch):
    """``(uint8 images, labels)`` -> ``(float32 images, labels)``: the transfer-compression transform."""
    images, labels = batch
    return decode_images(images), labels


# ----------------------------------------------------------------------------------- transfer compression


@dataclass
class TransferResult:
    """Moving one batch of images as float32 vs as uint8 converted on the device."""

    float_bytes: int
    uint8_bytes: int
    float_seconds: float  # copy float32
    uint8_seconds: float  # copy uint8 only
    uint8_decode_seconds: float  # copy uint8, then convert on the device

    @property
    def byte_ratio(self) -> float:
        return self.float_bytes / self.uint8_bytes


def measure_transfer(n_images: int, device, side: int = 224, repeats: int = 5) -> TransferResult:
    """Time moving ``n_images`` 3 x side x side images to ``device``: float32, uint8, uint8 + decode there.

    On a GPU the source is pinned and the copy crosses PCIe; on CPU the "transfer" is a copy in memory.
    """
    device = str(device)
    on_gpu = device.startswith("cuda")
    images = torch.randint(0, 256, (n_images, 3, side, side), dtype=torch.uint8)
    as_float = images.float()
    if on_gpu:
        images, as_float = images.pin_memory(), as_float.pin_memory()

    # Destinations allocated once on the device, as a training loop's buffers would be after the first batch.
    float_dst, uint8_dst = torch.empty_like(as_float, device=device), torch.empty_like(images, device=device)
    float_m = bench.measure(lambda: float_dst.copy_(as_float, non_blocking=on_gpu), repeats=repeats, device=device)
    uint8_m = bench.measure(lambda: uint8_dst.copy_(images, non_blocking=on_gpu), repeats=repeats, device=device)
    decode_m = bench.measure(lambda: uint8_dst.copy_(images, non_blocking=on_gpu).float().div_(255),
                             repeats=repeats, device=device)
    return TransferResult(as_float.numel() * 4, images.numel(), float_m.median, uint8_m.median,
                          decode_m.median)


# -------------------------------------------------------------------------------------------- benchmark

BENCH_ITEMS, BENCH_BATCH, BENCH_ITEM_SECONDS, BENCH_STEP_SECONDS = 512, 16, 0.003, 0.04


def bench_configs(dataset: Dataset, batch_size: int) -> dict[str, tuple[int, Callable]]:
    """Lesson 05's loading set-ups: name -> (loaders working in parallel, a function making the iterable)."""
    def loader(**knobs):
        return DataLoader(dataset, batch_size=batch_size, **knobs)

    return {"no workers": (0, lambda: loader()),
            "Prefetcher thread": (1, lambda: Prefetcher(loader())),
            "2 workers": (2, lambda: loader(num_workers=2)),
            "2 persistent workers + Prefetcher": (2, lambda: Prefetcher(loader(num_workers=2,
                                                                                  persistent_workers=True)))}


def best_of_epochs(batches: Iterable, step: Callable, epochs: int = 2) -> EpochResult:
    """The fastest of ``epochs`` passes (a loader's workers start in the first; persistent ones stay)."""
    with loader_notes(show=False):
        results = [run_epoch(batches, step) for _ in range(epochs)]
    return min(results, key=lambda r: r.seconds)


@bench.register("prefetch")
def bench_prefetch() -> bench.Result:
    """Lesson 05: the best loading configuration's epoch against max(load/workers, compute)."""
    from utils import devices, models

    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # one core trains; the other is left to the loader
    try:
        return _bench_prefetch(devices.plan(1).devices[0], models.ArticleCNN(seed=0))
    finally:
        torch.set_num_threads(threads)


def _bench_prefetch(device: str, model: torch.nn.Module) -> bench.Result:
    floor = 0.0 if device.startswith("cuda") else BENCH_STEP_SECONDS
    dataset = SlowDigits(BENCH_ITEMS, BENCH_ITEM_SECONDS)
    step = train_step(model, device, min_seconds=floor)
    load = measure_load(dataset, BENCH_BATCH)
    compute = measure_compute(step, list(DataLoader(SlowDigits(BENCH_ITEMS, 0.0), batch_size=BENCH_BATCH)))
    rows = {}
    for name, (loaders, make) in bench_configs(dataset, BENCH_BATCH).items():
        rows[name] = (best_of_epochs(make(), step).seconds, bound(load, compute, loaders))
    best = min(rows, key=lambda n: rows[n][0])  # the fastest epoch
    measured, best_bound = rows[best]
    return bench.Result("prefetch", measured=measured, bound=best_bound, unit="s",
                        ratio_to_bound=best_bound / measured,
                        note=f"best: {best}; load {load:.2f} s, compute {compute:.2f} s per epoch",
                        extra={"configs": {name: {"seconds": s, "bound": b} for name, (s, b) in rows.items()}})


# ------------------------------------------------------------------------------------------- lab checks
# Lab 05 (feed the GPU): the learner writes ``make_batches(dataset)`` (an iterable of (images, labels)
# batches: loader settings, maybe a Prefetcher) and ``to_device(batch, device)`` (the images cross as
# uint8 and are converted there). Both are called inside the checks, so an unfinished exercise reports
# "not done yet" instead of stopping the notebook.


@dataclass(frozen=True)
class LabSetup:
    """The lab's fixed sizes (the checks measure the bound with the same ones)."""

    n_items: int = 512
    batch_size: int = 16
    item_seconds: float = 0.003
    step_seconds: float = 0.04
    tolerance: float = 0.10  # the epoch may be at most 10% over the bound
    loaders: int = 2  # the bound assumes loading split over this many loaders


LAB = LabSetup()


def lab_dataset(setup: LabSetup = LAB) -> SlowDigits:
    """The lab's slow data set: uint8 images, ``item_seconds`` per read."""
    return SlowDigits(setup.n_items, setup.item_seconds)


def _as_pair(batch, what: str):
    checks.expect(isinstance(batch, (tuple, list)) and len(batch) == 2,
                  f"{what} should give (images, labels) pairs, got {type(batch).__name__}")
    return batch


def check_data(make_batches: Callable, to_device_fn: Callable, device="cpu", setup: LabSetup = LAB,
               show: bool = True) -> checks.Verdict:
    """Lab 05: every item exactly once, in uint8 on the way, and the same float images after ``to_device``."""

    def body():
        dataset = SlowDigits(setup.n_items, 0.0)  # no read cost: this check is about the data, not speed
        images_seen, labels_seen, moved = [], [], 0
        with loader_notes(show=False):
            batches = list(make_batches(dataset))
        for batch in batches:
            images, labels = _as_pair(batch, "make_batches(dataset)")
            checks.expect(images.dtype == torch.uint8,
                          f"the batches carry {images.dtype} images; send uint8 (4x fewer bytes) and convert "
                          f"on the device")
            moved += images.numel() * images.element_size()
            on_device = _as_pair(to_device_fn((images, labels), device), "to_device(batch, device)")
            images_seen.append(on_device[0].detach().cpu())
            labels_seen.append(on_device[1].detach().cpu())
        checks.expect(images_seen, "make_batches(dataset) gave no batches")
        images, labels = torch.cat(images_seen), torch.cat(labels_seen)
        checks.expect(len(labels) == len(dataset),
                      f"one pass gave {len(labels)} items; the data set has {len(dataset)}")
        order = torch.arange(len(dataset))
        if not torch.equal(labels, dataset.labels):  # shuffled: compare as multisets of (label, pixels)
            order = _match(images, dataset)
        checks.expect_close(images, decode_images(dataset.images[order]), atol=1e-5,
                            what="your images after to_device")
        where = "" if str(device).startswith("cuda") else " (simulated on CPU: the copy stays in memory)"
        return (f"{len(labels)} items, {moved / 1e3:.0f} kB crossed as uint8 ({4 * moved / 1e3:.0f} kB as "
                f"float32){where}")

    return checks.run_check("the right data, sent as uint8", body, show=show,
                            hint="yield (uint8 images, labels); to_device moves them, then decode_images on "
                                 "the device")


def _match(images: torch.Tensor, dataset: SlowDigits) -> torch.Tensor:
    """The data set index of each image (for shuffled batches); fails on a missing or duplicated item."""
    reference = decode_images(dataset.images).flatten(1)
    nearest = torch.cdist(images.flatten(1).double(), reference.double()).argmin(dim=1)
    checks.expect(len(set(nearest.tolist())) == len(dataset),
                  "some items came twice and others never: one pass must give every item once")
    return nearest


def _your_bottleneck(epoch: EpochResult, limit: float, tolerance: float) -> str:
    """Which stage held the learner's own epoch back, from how long the device waited for data."""
    if epoch.wait_seconds > tolerance * limit:
        return (f"In your run loading is the bottleneck: the device waited {epoch.wait_seconds:.2f} s for "
                f"data ({epoch.wait_seconds / epoch.seconds:.0%} of the epoch).")
    return (f"In your run compute is the bottleneck: the device waited only {epoch.wait_seconds:.2f} s "
            f"for data.")


def lab_step(device, setup: LabSetup = LAB):
    """The lab's training step (ArticleCNN, seed 0), at least ``step_seconds`` long in cpu mode."""
    from utils import models

    floor = setup.step_seconds if not str(device).startswith("cuda") else 0.0
    return train_step(models.ArticleCNN(seed=0), device, min_seconds=floor)


def check_epoch(make_batches: Callable, to_device_fn: Callable, device="cpu", setup: LabSetup = LAB,
                show: bool = True) -> checks.Verdict:
    """Lab 05: a training epoch over the learner's batches within ``tolerance`` of the bound.

    The bound is max(load / loaders, compute), both measured in this run. The learner's iterable runs two
    epochs and the faster counts (a loader's workers start in the first; persistent ones stay for the second).
    """

    def body():
        dataset = lab_dataset(setup)
        step = lab_step(device, setup)
        batches = make_batches(dataset)

        def learner_step(batch):
            step(to_device_fn(tuple(batch), device))

        best = best_of_epochs(batches, learner_step)
        load = measure_load(dataset, setup.batch_size)
        compute = measure_compute(learner_step, [(dataset.images[i:i + setup.batch_size],
                                                  dataset.labels[i:i + setup.batch_size])
                                                 for i in range(0, len(dataset), setup.batch_size)])
        limit = bound(load, compute, setup.loaders)
        stage = bottleneck(load, compute, setup.loaders)
        checks.expect(best.batches * setup.batch_size >= len(dataset),
                      f"an epoch gave {best.batches} batches of {setup.batch_size}; it must cover all "
                      f"{len(dataset)} items")
        yours = _your_bottleneck(best, limit, setup.tolerance)
        checks.expect(best.seconds <= limit * (1 + setup.tolerance),
                      f"your epoch took {best.seconds:.2f} s against a bound of {limit:.2f} s "
                      f"(bound / yours = {limit / best.seconds:.0%}; the target is within {setup.tolerance:.0%}). "
                      f"{yours} The bound: {stage}")
        where = "" if str(device).startswith("cuda") else " (simulated on CPU)"
        return (f"epoch {best.seconds:.2f} s against a bound of {limit:.2f} s ({limit / best.seconds:.0%})"
                f"{where}. {yours}")

    return checks.run_check(f"epoch within {setup.tolerance:.0%} of the bound", body, show=show,
                            hint="load in parallel with the compute: num_workers=2 (persistent, so they start "
                                 "once), or a Prefetcher")
