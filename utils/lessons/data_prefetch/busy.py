"""Lesson 05's device utilisation: how much of the time the device computes instead of waiting for data.

On a GPU that is the GPU's own utilisation; in cpu mode the "device" is the training step, and a
``BusyMeter`` marks its busy time so that ``monitor.record`` can draw it as one more row:

    meter = BusyMeter()
    with record(sampler=DeviceSampler(meter)) as recording:
        run_epoch(loader, step, meter=meter)
    plot_device_busy({"no workers": recording})
"""

from __future__ import annotations

import contextlib
import math
import statistics
import threading
import time

from utils import monitor, plots


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
