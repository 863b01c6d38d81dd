"""Benchmark ``prefetch``: the best loading set-up's epoch against max(L/w, C) (lesson 05).

Four set-ups of lesson 05 over the same slow data set; the fastest epoch counts, against its own bound.
"""

from __future__ import annotations

from collections.abc import Callable

import torch

from utils import bench, devices, models
from utils.lessons.data_prefetch.dataset import SlowDigits
from utils.lessons.data_prefetch.epoch import best_of_epochs, bound, measure_compute, measure_load
from utils.lessons.data_prefetch.loaders import make_loader
from utils.lessons.data_prefetch.prefetcher import Prefetcher
from utils.lessons.data_prefetch.step import paced, train_step

ITEMS, BATCH, ITEM_SECONDS, STEP_SECONDS = 512, 16, 0.003, 0.04


def loading_setups(dataset: SlowDigits, batch_size: int) -> dict[str, tuple[int, Callable]]:
    """Lesson 05's loading set-ups: name -> (loaders working in parallel, a function making the iterable)."""
    return {"no workers": (0, lambda: make_loader(dataset, batch_size)),
            "Prefetcher thread": (1, lambda: Prefetcher(make_loader(dataset, batch_size))),
            "2 workers": (2, lambda: make_loader(dataset, batch_size, num_workers=2)),
            "2 persistent workers + Prefetcher": (2, lambda: Prefetcher(make_loader(
                dataset, batch_size, num_workers=2, persistent_workers=True)))}


@bench.register("prefetch")
def bench_prefetch() -> bench.Result:
    """Lesson 05: the best loading configuration's epoch against max(load/workers, compute)."""
    with bench.threads(1):  # one core trains; the other is left to the loader
        return measure_setups(devices.plan(1).devices[0], models.ArticleCNN(seed=0))


def measure_setups(device: str, model: torch.nn.Module) -> bench.Result:
    """Each set-up's best of two epochs and its bound, L and C measured in the same run."""
    floor = 0.0 if device.startswith("cuda") else STEP_SECONDS  # cpu mode: a GPU's fixed speed, simulated
    dataset = SlowDigits(ITEMS, ITEM_SECONDS)
    step = paced(train_step(model, device), floor)
    load = measure_load(dataset, BATCH)
    compute = measure_compute(step, list(make_loader(SlowDigits(ITEMS, 0.0), BATCH)))
    rows = {}
    for name, (loaders, make) in loading_setups(dataset, BATCH).items():
        rows[name] = (best_of_epochs(make(), step).seconds, bound(load, compute, loaders))
    best = min(rows, key=lambda n: rows[n][0])  # the fastest epoch
    measured, best_bound = rows[best]
    configs = {name: {"seconds": s, "bound": b} for name, (s, b) in rows.items()}
    return bench.Result("prefetch", measured=measured, bound=best_bound, unit="s",
                        ratio_to_bound=best_bound / measured,
                        note=f"best: {best}; load {load:.2f} s, compute {compute:.2f} s per epoch",
                        extra={"configs": configs})
