"""Benchmark ``prefetch``: the best loading set-up's epoch against max(L/w, C) (lesson 05).

Four set-ups of lesson 05 over the same slow data set, at lesson 05's sizes for this machine
(``data_prefetch.plan.lesson_settings``); the fastest epoch counts, against its own bound.
"""

from __future__ import annotations

from collections.abc import Callable

import torch

from utils import bench, models
from utils.lessons.data_prefetch.dataset import SlowDigits
from utils.lessons.data_prefetch.epoch import best_of_epochs, bound, measure_compute, measure_load
from utils.lessons.data_prefetch.loaders import make_loader
from utils.lessons.data_prefetch.plan import Settings, current_settings
from utils.lessons.data_prefetch.prefetcher import Prefetcher
from utils.lessons.data_prefetch.step import paced, train_step


def loading_setups(dataset: SlowDigits, s: Settings) -> dict[str, tuple[int, Callable]]:
    """Lesson 05's loading set-ups: name -> (loaders working in parallel, a function making the iterable)."""
    return {"no workers": (0, lambda: make_loader(dataset, s.batch)),
            "Prefetcher thread": (1, lambda: Prefetcher(make_loader(dataset, s.batch), device=s.device)),
            "2 workers": (2, lambda: make_loader(dataset, s.batch, num_workers=2, pin_memory=s.pin_memory)),
            "2 persistent workers + Prefetcher": (2, lambda: Prefetcher(make_loader(
                dataset, s.batch, num_workers=2, persistent_workers=True, pin_memory=s.pin_memory),
                device=s.device))}


@bench.register("prefetch")
def bench_prefetch() -> bench.Result:
    """Lesson 05: the best loading configuration's epoch against max(load/workers, compute)."""
    s = current_settings()
    with bench.threads(s.torch_threads):  # cpu mode: one core trains, the other is left to the loader
        return measure_setups(s, models.ArticleCNN(seed=0))


def measure_setups(s: Settings, model: torch.nn.Module) -> bench.Result:
    """Each set-up's best of two epochs and its bound, L and C measured in the same run."""
    dataset = SlowDigits(s.items, s.read_seconds)
    step = paced(train_step(model, s.device), s.step_seconds)  # paced in cpu mode only: a GPU's speed, simulated
    load = measure_load(dataset, s.batch)
    compute = measure_compute(step, list(make_loader(SlowDigits(s.items, 0.0), s.batch)))
    rows = {}
    for name, (loaders, make) in loading_setups(dataset, s).items():
        rows[name] = (best_of_epochs(make(), step).seconds, bound(load, compute, loaders))
    best = min(rows, key=lambda n: rows[n][0])  # the fastest epoch
    measured, best_bound = rows[best]
    configs = {name: {"seconds": sec, "bound": b} for name, (sec, b) in rows.items()}
    return bench.Result("prefetch", measured=measured, bound=best_bound, unit="s",
                        ratio_to_bound=best_bound / measured,
                        note=f"best: {best}; load {load:.2f} s, compute {compute:.2f} s per epoch{s.label}; "
                             f"{s.batch} images a batch",
                        extra={"configs": configs, "device": s.device, "batch": s.batch, "items": s.items})
