"""Lesson 05's measurements: an epoch's time and its waits, the load and compute terms, and the bound.

    bound = load + compute                      one process does both, one after the other
    bound = max(load / loaders, compute)        ``loaders`` workers load while the device computes

    result = run_epoch(make_loader(data, 16, num_workers=2), step)   # EpochResult: seconds, waits, spans
    bound(measure_load(data, 16), measure_compute(step, cached), loaders=2)

The timing lives here, apart from the recipe: ``run_epoch`` times the training loop, and ``RecordLoads``
wraps the iterable a ``Prefetcher`` reads to time its thread's reads.
"""

from __future__ import annotations

import contextlib
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from torch.utils.data import DataLoader, Dataset

from utils import timeline
from utils.claims import as_printed, half_up, printed_ratio
from utils.lessons.data_prefetch.busy import BusyMeter
from utils.lessons.data_prefetch.loaders import loader_notes

_DONE = object()  # what ``next(iterator, _DONE)`` gives when the batches run out


class RecordLoads:
    """Wraps an iterable of batches: a "load" span for each batch it gives, on the row ``row`` (lesson 05).

    Wrap what a ``Prefetcher`` reads, and the spans are its thread's reads, timed outside the prefetcher.
    ``spans`` holds the latest pass's:

        loads = RecordLoads(loader)
        run_epoch(Prefetcher(loads), step)
        loads.spans   # [Span("prefetch thread", "load", 0, ...), ...]
    """

    def __init__(self, batches: Iterable, row: str = "prefetch thread"):
        self.batches, self.row = batches, row
        self.spans: list[timeline.Span] = []

    def __len__(self) -> int:
        return len(self.batches)

    def __iter__(self):
        self.spans = spans = []
        iterator, k = iter(self.batches), 0
        while True:
            start = time.perf_counter()
            batch = next(iterator, _DONE)
            if batch is _DONE:
                return
            spans.append(timeline.Span(self.row, "load", k, start, time.perf_counter()))
            yield batch
            k += 1


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

    @property
    def busy_between_steps(self) -> float:
        """Fraction of the time from the first step's start to the last step's end that the device computed:
        the window ``busy.plot_device_busy`` draws (the wait for the first batch is left out)."""
        steps = [s for s in self.spans if s.name == "compute"]
        window = steps[-1].end - steps[0].start if steps else 0.0
        return sum(s.duration for s in steps) / window if window > 0 else 0.0


def run_epoch(batches: Iterable, step: Callable, wait_name: str = "wait", row: str = "training process",
              meter: BusyMeter | None = None) -> EpochResult:
    """One pass over ``batches``, calling ``step`` on each, timing the waits for data and the compute.

    The spans go on one timeline row: ``wait_name`` while ``next()`` blocks (use "load" when the loading
    happens right here, with no workers), "compute" while the step runs. ``meter`` marks the steps as the
    device's busy time, for ``busy.DeviceSampler``.
    """
    recorder = timeline.SpanRecorder(row)
    busy = meter.busy if meter else contextlib.nullcontext
    waited, k = 0.0, 0
    iterator = iter(batches)
    start = recorder.clock()
    try:
        while True:
            t0 = recorder.clock()
            with recorder.span(wait_name, k):
                batch = next(iterator, _DONE)
            waited += recorder.clock() - t0
            if batch is _DONE:
                break
            with recorder.span("compute", k), busy():
                step(batch)
            k += 1
    finally:
        if iterator is not batches and hasattr(iterator, "close"):
            iterator.close()  # a Prefetcher's pass: stop its thread now, even when the step raised
    seconds = recorder.clock() - start
    final_wait = (wait_name, k)  # the last next() found no batch: not a wait for data
    spans = [s for s in recorder.spans() if (s.name, s.index) != final_wait]
    return EpochResult(seconds, k, waited, spans)


def epoch_spans(result: EpochResult, loads: list | None = None, batches: int | None = 8) -> list:
    """The first ``batches`` batches of an epoch as two timeline rows: the device's compute and the loading;
    ``batches=None``: every batch of the epoch.

    Without ``loads`` the loading is the epoch's own "load" waits (no workers: the training process reads);
    with them (``RecordLoads.spans``) it is the thread's reads. Waits are left out: they are idle time.
    A thread reads ahead: while step k-1 computes it reads batch k, so cutting at ``batches`` would draw it idle
    while it reads the first batch left out (and its "busy %" would count that time idle). Draw a prefetching
    epoch whole (``batches=None``): the chart's busy % (``timeline.busy_fractions`` of these spans) then covers
    every read and step it draws.
    """
    everything = result.spans + list(loads or [])
    first = [s for s in everything if s.index is not None and (batches is None or s.index < batches)]
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


def printed_bound(load_seconds: float, compute_seconds: float, loaders: int) -> float:
    """``bound`` as the page prints it: worked from L and C as printed (two decimals, in seconds) and rounded
    half up, so that a reader who adds 1.56 + 1.29 beside "L + C" finds 2.85, and halves 1.55 to 0.78."""
    exact = bound(as_printed(load_seconds, 2), as_printed(compute_seconds, 2), loaders)
    return half_up(exact, 2)


def bound_formula(loaders: int) -> str:
    """The formula ``bound`` uses for ``loaders``: "L + C", "max(L, C)", "max(L/2, C)"."""
    if loaders <= 0:
        return "L + C"
    return "max(L, C)" if loaders == 1 else f"max(L/{loaders}, C)"


def bottleneck(load_seconds: float, compute_seconds: float, loaders: int) -> str:
    """Which stage bounds the epoch, in words a learner can act on."""
    per_loader = load_seconds / max(loaders, 1)
    if loaders <= 0:
        return "no overlap: the device waits for every batch (load + compute)"
    if per_loader > compute_seconds:
        return (f"loading ({per_loader:.2f} s with {loaders} loader(s)) is the bottleneck: more loaders, "
                f"or cheaper reads")
    return f"compute ({compute_seconds:.2f} s) is the bottleneck: the loading is hidden behind it"


def load_setting(load: float, items: int, read_ms: float, batches: int) -> str:
    """L as measured (``load``) beside what the settings ask for (``items`` reads of ``read_ms`` each, added up),
    both in seconds as printed (2 decimals), so that the two figures the lesson uses for the same reads are told
    apart: section 1's L is measured, section 6's CPU reads are the setting by construction. Above it, the
    overshoot a batch from the printed figures (a wait wakes a little after its time, and the batch is put
    together after it: not timed apart); equal, as set; below, a finding (a wait cannot end early). Lesson 05:
    "set: 1.54 s (512 reads of 3 ms); measured 0.02 s over, 0.6 ms a batch: ..."."""
    measured, asked = as_printed(load, 2), as_printed(items * read_ms / 1e3, 2)
    said = f"the setting: {asked:.2f} s ({items:,} reads of {read_ms:.3g} ms)"
    if measured == asked:
        return said + ", as measured"
    gap = measured - asked
    if gap < 0:
        return said + f"; measured {-gap:.2f} s under it: a wait cannot end early, a finding to explain"
    return (said + f"; measured {gap:.2f} s over, {half_up(gap / batches * 1e3, 1):.1f} ms a batch: a wait wakes "
            "a little after its time and the batch is put together after it (not timed apart). Section 6's "
            "CPU-bound reads use the setting")


def measure_load(dataset: Dataset, batch_size: int) -> float:
    """Seconds to read one epoch of ``dataset`` in this process, with no compute (the load term L).

    A data set's one-off set-up (``SlowDigits.open``) is paid before the clock starts: it is not a read.
    """
    if hasattr(dataset, "open"):
        dataset.open()
    start = time.perf_counter()
    for _ in DataLoader(dataset, batch_size=batch_size):
        pass
    return time.perf_counter() - start


def measure_compute(step: Callable, batches: list) -> float:
    """Seconds of compute for ``batches`` already in memory (the compute term C); one warm-up step first.

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

    Compare settings by their medians, and read differences within the noise as noise (``compare_medians``).
    """
    with loader_notes(show=False):
        for _ in range(warm_up):
            run_epoch(batches, step)
        results = sorted((run_epoch(batches, step) for _ in range(epochs)), key=lambda r: r.seconds)
    return results[len(results) // 2], [r.seconds for r in results]


def paired_epochs(configurations: dict[str, Iterable], step: Callable,
                  rounds: int = 4) -> dict[str, list[float]]:
    """Seconds of ``rounds`` epochs of each configuration, run in paired rounds: each round runs one epoch of
    every configuration, the order reversed every other round, so that the epochs of a round met the same
    machine. Ratio the lists round by round and judge them with ``claims.paired_spread`` (lesson 05)."""
    seconds: dict[str, list[float]] = {name: [] for name in configurations}
    with loader_notes(show=False):
        for k in range(rounds):
            order = list(configurations) if k % 2 == 0 else list(reversed(configurations))
            for name in order:
                seconds[name].append(run_epoch(configurations[name], step).seconds)
    return seconds


def ratio_spread(slow: list[float], fast: list[float], floor: float = 0.02) -> float:
    """How far the speed-up median(slow) / median(fast) may be off, from two settings' measured epochs: down
    to the least favourable pairing, min(slow) / max(fast), and at least ``floor`` (2 %) of it: paced steps
    and sleeping reads give spreads of 0.00 s that do not make a 1 % gap real (lesson 05). The spread covers
    1x exactly when the two settings' epochs overlap."""
    value = statistics.median(slow) / statistics.median(fast)
    return max(value - min(slow) / max(fast), floor * value)


def median_speedup(before: list[float], after: list[float], floor: float = 0.02) -> tuple[float, float]:
    """``(median(before) / median(after), spread)``: the speed-up of a change from its measured epochs before
    and after it, and how far it may be off: to the least favourable pairing of the two sets' epochs, so that
    the spread covers 1x exactly when they overlap, and at least ``floor`` (2 %) of it (lesson 05). Each ratio
    is worked from the epochs as the page prints them (0.01 s), so that 1.74 s / 1.67 s reads 1.04x."""
    value = printed_ratio(statistics.median(before), statistics.median(after))
    worst = (printed_ratio(min(before), max(after)) if value >= 1 else
             printed_ratio(max(before), min(after)))
    return value, max(abs(value - worst), floor * value)


def compare_medians(seconds: dict, floor: float = 0.02) -> str:
    """Whether settings' median epochs differ by more than noise, in one sentence (lesson 05).

    ``seconds`` maps a setting to its measured epochs' seconds. The slowest and the fastest setting differ
    when their epochs do not overlap and their medians are more than ``floor`` apart (``ratio_spread``): one
    epoch slowed by another program does not decide it. The gap is given as a share of the slowest setting's
    epoch: the time a change of setting took off it.
    """
    by_median = sorted(seconds, key=lambda k: statistics.median(seconds[k]))
    fast, slow = seconds[by_median[0]], seconds[by_median[-1]]
    real = statistics.median(slow) / statistics.median(fast) - ratio_spread(slow, fast, floor) > 1
    verdict = ("more than the noise: a real difference in this run" if real
               else "within the noise: these settings perform the same here")
    # the gap and its share from the two medians as printed (0.01 s): a reader's subtraction and division
    slowest, fastest = as_printed(statistics.median(slow), 2), as_printed(statistics.median(fast), 2)
    gap = round(slowest - fastest, 2)
    return (f"the medians differ by {gap:.2f} s at most, {gap / slowest:.1%} of the slowest setting's median "
            f"epoch ({slowest:.2f} s); its epochs ({epochs_span(slow)}) against the fastest's "
            f"({epochs_span(fast)}), with a {floor:.0%} floor: {verdict}")


def epochs_span(seconds: list[float]) -> str:
    """A setting's epochs as printed (0.01 s): their range, or one figure where every epoch prints alike, so
    that no range reads "1.36-1.36 s", like a typo (t38_0506). Lesson 05."""
    low, high = as_printed(min(seconds), 2), as_printed(max(seconds), 2)
    return f"{low:.2f} s each" if low == high else f"{low:.2f}-{high:.2f} s"


def best_of_epochs(batches: Iterable, step: Callable, epochs: int = 2) -> EpochResult:
    """The fastest of ``epochs`` passes (a loader's workers start in the first; persistent ones stay)."""
    with loader_notes(show=False):
        results = [run_epoch(batches, step) for _ in range(epochs)]
    return min(results, key=lambda r: r.seconds)
