"""Lesson 05's device utilisation: how much of the time the device computes instead of waiting for data.

On a GPU that is the GPU's own utilisation; in cpu mode the "device" is the training step, and a
``BusyMeter`` marks its busy time so that ``monitor.record`` can draw it as one more row:

    meter = BusyMeter()
    with record(sampler=DeviceSampler(meter)) as recording:
        result = run_epoch(loader, step, meter=meter)
    plot_device_busy({"no workers": (recording, result)})
"""

from __future__ import annotations

import contextlib
import math
import statistics
import threading
import time

from utils import monitor, plots, timeline
from utils.claims import half_up


class BusyMeter:
    """Which share of time the (simulated) device spends computing: like a GPU's utilisation (lesson 05).

    ``with meter.busy(): step(batch)`` marks busy time; ``fraction(t0, t1)`` reads it for a window.
    """

    def __init__(self):
        self.intervals: list[tuple[float, float]] = []
        self.lock = threading.Lock()  # the sampler's thread reads while the training loop writes
        self.started: float | None = None

    @contextlib.contextmanager
    def busy(self):
        self.started = time.perf_counter()
        try:
            yield
        finally:
            with self.lock:
                self.intervals.append((self.started, time.perf_counter()))
            self.started = None

    def fraction(self, t0: float, t1: float) -> float:
        if t1 <= t0:
            return 0.0
        with self.lock:
            intervals = list(self.intervals)
        started = self.started
        if started is not None:
            intervals.append((started, t1))  # a step still running counts up to now
        covered = sum(max(0.0, min(b, t1) - max(a, t0)) for a, b in intervals)
        return min(1.0, covered / (t1 - t0))


class DeviceSampler:
    """A ``monitor.record`` sampler, the real one plus in cpu mode a row for the simulated device (lesson 05).

    The DataLoader's worker processes appear as "loader worker k" instead of their process ids.
    """

    def __init__(self, meter: BusyMeter, base=None):
        self.meter = meter
        self.base = base if base is not None else monitor.default_sampler(throughput=False)
        self.no_gpu_reason = getattr(self.base, "no_gpu_reason", None)
        self.last = time.perf_counter()
        self.names: dict[int, str] = {}

    def sample(self) -> dict:
        sample = self.base.sample()
        now = time.perf_counter()
        workers = []
        for w in sample.get("workers", []):
            name = self.names.setdefault(w["pid"], f"loader worker {len(self.names) + 1}")
            workers.append(dict(w, label=name if w["label"].startswith("pid ") else w["label"]))
        if not sample.get("gpus"):  # cpu mode: the device is this process's training step
            workers.append({"pid": 0, "label": "device (simulated)", "rss": float("nan"),
                            "cpu": 100 * self.meter.fraction(self.last, now)})
        self.last = now
        return dict(sample, workers=workers)


def epoch_window(result) -> tuple[float, float] | None:
    """(start of the first step, end of the last) of an ``EpochResult``, on the ``perf_counter`` clock."""
    steps = [s for s in result.spans if s.name == "compute"]
    return (steps[0].start, steps[-1].end) if steps else None


def device_busy(recording, result=None) -> tuple[str, list[float], list[float]]:
    """From a ``monitor.record`` recording: the device's row name, times (s) and busy % (lesson 05).

    In cpu mode the device is the ``DeviceSampler``'s "device (simulated)" row; on a GPU, the first GPU. The
    host CPU and loader worker rows are left out: they are not the device. With ``result`` (the epoch's
    ``EpochResult``) only the samples taken wholly between its first step's start and its last step's end are
    kept, times counted from that first step: before it the device has not started (a 0 % sample at t = 0, the
    first read, the workers' start-up), and those samples are not the epoch.
    """
    series = recording.series()
    name = "device (simulated)" if recording.simulated else next(iter(series), None)
    if name not in series:
        return name or "device", [], []
    times, busy = list(series[name]["t"]), list(series[name]["busy"])
    window = epoch_window(result) if result is not None else None
    if window is None:
        return name, times, busy
    t0 = recording.samples[0]["t"]  # ``series`` counts times from the first sample
    start, end = window[0] - t0, window[1] - t0
    kept = [(t - start, b) for previous, t, b in zip([-1e9] + times, times, busy)
            if previous >= start and t <= end]  # a sample covers the interval since the one before it
    return name, [t for t, _ in kept], [b for _, b in kept]


def sampled_mean(busy: list[float]) -> float | None:
    """The mean of a ``device_busy`` line's points (%), None where no point fell within the epoch."""
    measured = [b for b in busy if not math.isnan(b)]
    return statistics.fmean(measured) if measured else None


def sampled_against_timed(recording, result, which: str = "") -> str:
    """The recording's mean busy % set beside the timed share ``result.busy_between_steps``, one sentence: the
    two measure the same window, one sampled, one from the steps' own spans (lesson 05). ``which``: the
    chart's name for this recording, where the chart below draws more than one."""
    mean = sampled_mean(device_busy(recording, result)[2])
    timed = 100 * result.busy_between_steps
    what = ("the simulated device's busy share of each tenth of a second" if recording.simulated
            else "the GPU's own utilisation, as its driver samples it")
    if mean is None:
        return f"The recording below ({what}) has no sample within the epoch: the timed {timed:.0f}% stands."
    # both whole per cent as printed (half up), the gap between them as a reader works it: 98% and 99% are 1
    # point apart, whatever the unrounded figures gave (t37_0506 #3)
    mean, timed = half_up(mean, 0), half_up(timed, 0)
    apart = round(abs(mean - timed))
    which = f" (its {which} line)" if which else ""
    return (f"The recording below{which} samples {what}, over the same window: the mean of its points, {mean:.0f}%, "
            f"is {apart} point{'s' * (apart != 1)} from the timed {timed:.0f}% "
            "(a point's tenth of a second starts wherever the sampler woke, not at a step's edge).")


def drawn_against_timed(drawn: list, result) -> str:
    """Why the timeline's "busy %" (the batches drawn, ``epoch.epoch_spans``) differs from the epoch's timed
    share (from its first step to its last), one sentence with both figures (lesson 05)."""
    chart = timeline.busy_fractions(drawn).get("device (computes)", 0.0)
    n = sum(s.name == "compute" for s in drawn)
    steps = sum(s.name == "compute" for s in result.spans)
    return (f"The chart's busy {chart:.0%} covers the {n} batches drawn, from the first read to step {n}: "
            f"{n} reads and {n} steps; the {result.busy_between_steps:.0%} printed above covers the epoch "
            f"from its first step to its last: {steps} steps and the {steps - 1} reads between them.")


def plot_device_busy(runs: dict, title: str = "Device busy % while training"):
    """One line per run (name -> (``monitor.record`` recording, its ``EpochResult``)): the device's busy %.

    Each line covers its epoch from the first step to the last (``device_busy``), and its legend gives the
    mean of the plotted samples: the same window as ``EpochResult.busy_between_steps``, so the two agree.
    """
    fig, (ax,) = plots.new_figure(rows=1, row_height=2.6)
    simulated = False
    for i, (label, (recording, result)) in enumerate(runs.items()):
        _, times, busy = device_busy(recording, result)
        simulated = simulated or recording.simulated
        measured = sampled_mean(busy)
        mean = f"mean {measured:.0f}%" if measured is not None else "no sample within the epoch"
        ax.plot(times, busy, color=plots.device_color(i), marker=".", label=f"{label} ({mean})")
    ax.set_ylabel("device busy %")
    ax.set_ylim(0, 105)
    ax.set_xlabel("time (s) since the epoch's first step")
    ax.legend(loc="upper right", bbox_to_anchor=(1.0, 0.85), fontsize=8)  # between the two usual levels
    plots.stamp_simulated(fig, simulated)
    return plots.finish(fig, title + (" (simulated on CPU)" if simulated else ""))
