"""Fabricated figures shared by lesson 05's tests (tests/test_data_prefetch.py, tests/test_0506_s63.py): a
monitor recording of the device row's busy share, and an epoch of two timed steps. Plain functions, no
fixtures: each test builds what it reads."""

from __future__ import annotations

from utils.lessons.data_prefetch import epoch
from utils.monitor import Recording
from utils.timeline import Span


def recording(busy_by_time, t0: float = 100.0, loader_worker: bool = True) -> Recording:
    """A recording sampled every 0.1 s: the simulated device's busy % at each (t, busy), and, where
    ``loader_worker``, one loader worker at 3 % beside it (the row ``busy.device_busy`` must leave out)."""
    worker = [{"pid": 7, "label": "loader worker 1", "cpu": 3.0, "rss": 1e8}] if loader_worker else []
    samples = [{"t": t0 + t, "gpus": [], "host": {"cpu": 100.0, "mem_used": 2e9},
                "workers": [{"pid": 0, "label": "device (simulated)", "cpu": busy, "rss": float("nan")}] + worker}
               for t, busy in busy_by_time]
    return Recording(interval=0.1, samples=samples)


def two_step_epoch(first_step: float, last_end: float, t0: float = 100.0) -> epoch.EpochResult:
    """An epoch of two 0.04 s steps: the first starting ``first_step`` s after ``t0``, the last ending at
    ``last_end``."""
    spans = [Span("training process", "compute", 0, t0 + first_step, t0 + first_step + 0.04),
             Span("training process", "compute", 1, t0 + last_end - 0.04, t0 + last_end)]
    return epoch.EpochResult(last_end, 2, 0.0, spans)
