"""Benchmark of the notebook launcher: lesson 03, DDP from the notebook (``make bench`` runs it).

``launch``: median seconds of one 2-worker launch that all-reduces one tensor on gloo, against the
course's target of 1 s. ``failure_report_s``: seconds from a worker raising to the caller's exception.
"""

from __future__ import annotations

import time

import torch
import torch.distributed as dist

from utils.bench import Result, measure, register
from utils.launch import WorkerError, launch, process_group

TARGET_S = 1.0


def all_reduce_one() -> float:
    with process_group(backend="gloo"):
        t = torch.ones(1)
        dist.all_reduce(t)
        return t.item()


def fail_on_rank_1() -> None:
    with process_group(backend="gloo"):
        if dist.get_rank() == 1:
            raise RuntimeError("planned failure")
        dist.all_reduce(torch.ones(1))  # rank 0 waits here until rank 1's failure reaches it


def failure_report_seconds() -> float:
    """From the moment rank 1 raises to the caller's except (time.monotonic: one clock on Linux)."""
    try:
        launch(fail_on_rank_1, nprocs=2, backend="gloo")
    except WorkerError as err:
        return time.monotonic() - err.failed_at
    raise AssertionError("the launch was expected to fail")


@register("launch")
def bench_launch() -> Result:
    m = measure(lambda: launch(all_reduce_one, nprocs=2, backend="gloo"), warmup=1, repeats=7)
    report = sorted(failure_report_seconds() for _ in range(3))[1]
    return Result("launch", measured=m.median, bound=TARGET_S, unit="s", ratio_to_bound=TARGET_S / m.median,
                  note="2 gloo workers (fork), one all-reduce; lower is better",
                  extra={"min_s": m.min, "max_s": m.max, "failure_report_s": report})
