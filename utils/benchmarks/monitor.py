"""Benchmark ``monitor``: what the live monitor of lesson 00 costs, in % of one CPU core.

A monitor that took the CPU the workers need would distort every number it shows, so its cost is a
registered target: at most 1% of one core at 1 Hz and 5% at 10 Hz. ``python -m utils.bench monitor``.

The cost is the sampling thread's own CPU time (``time.thread_time``, read inside the thread), which counts
everything one sample does: NVML questions, psutil reads, the HTML of the panel. Two idle child processes
stand in for workers, so that listing and sampling workers is part of the price.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

from utils import monitor
from utils.bench import Result, register

TARGET_1HZ = 1.0  # % of one core
TARGET_10HZ = 5.0


def _idle_workers(n: int = 2) -> list[subprocess.Popen]:
    code = "import time; time.sleep(120)"
    return [subprocess.Popen([sys.executable, "-c", code], env=dict(os.environ, RANK=str(rank)))
            for rank in range(n)]


def overhead_percent(hz: float, seconds: float) -> float:
    """Run the real sampler and panel at ``hz`` for ``seconds``; the thread's CPU time in % of one core."""
    workers = _idle_workers()
    try:
        sampler = monitor.default_sampler()
        panel = monitor.Panel(1 / hz, sampler.no_gpu_reason)  # the panel, without replacing a live Monitor
        thread = monitor.SamplingThread(sampler, 1 / hz, panel.update, name=monitor.THREAD_NAME + "-bench")
        thread.start()
        time.sleep(seconds)
        thread.stop()
    finally:
        for worker in workers:
            worker.kill()
            worker.wait()
    return thread.cpu_percent


@register("monitor")
def monitor_overhead_bench() -> Result:
    at_1hz = overhead_percent(hz=1, seconds=10)
    at_10hz = overhead_percent(hz=10, seconds=5)
    return Result("monitor", measured=at_1hz, bound=TARGET_1HZ, unit="% of one core",
                  ratio_to_bound=TARGET_1HZ / at_1hz if at_1hz else float("inf"),  # lower is better
                  note=f"monitor thread CPU at 1 Hz (target <= {TARGET_1HZ:g}%); "
                       f"at 10 Hz {at_10hz:.2f}% (target <= {TARGET_10HZ:g}%)",
                  extra={"percent_10hz": at_10hz, "bound_10hz": TARGET_10HZ,
                         "ratio_to_bound_10hz": TARGET_10HZ / at_10hz if at_10hz else float("inf")})
