"""Lesson 08's memory column: one worker's peak memory for a rung's step (on a CPU lesson 06's tracker, on a
GPU the CUDA allocator's peak the workers reported)."""

from __future__ import annotations

import torch

from utils.lessons.putting_it_together.script import DTYPES, Settings


def peak_of(s: Settings, shape) -> float:
    """One worker's peak memory for a step of ``s`` (lesson 06's ``measure_peak``: on a CPU its tracker sees
    every tensor). It runs the step eagerly with lesson 06's AdamW, so rungs that change only compile or the
    optimizer's implementation measure the same step: measured once per batch, precision and checkpointing."""
    key = (repr(shape), s.batch_per_worker, s.precision, s.checkpointing, s.lr)   # shapes may not hash
    if key not in _PEAKS:
        _PEAKS[key] = _measure_peak(shape, *key[1:])
    return _PEAKS[key]


# One tracked step per setting, kept for the kernel's life (a module-level cache, cleared only by a restart):
# rungs that change only compile or the optimizer's implementation repeat a setting, and a tracked step takes
# seconds. The key is the step's every input; ``repr(shape)`` stands for the shape, since a shape passed here
# may hold unhashable fields, and a dataclass's repr names every field, so equal shapes share one key.
_PEAKS: dict[tuple, float] = {}


def _measure_peak(shape, batch_per_worker: int, precision: str, checkpointing: bool, lr: float) -> float:
    """One tracked step of the model at ``shape`` (bytes at its peak)."""
    from torch.utils.checkpoint import checkpoint

    from utils import models
    from utils.lessons.memory import measure

    def loss_fn(model, x, y):
        with torch.autocast("cpu", DTYPES.get(precision), enabled=precision in DTYPES):
            h = model.embed(x)
            for block in model.blocks:
                h = checkpoint(block, h, use_reentrant=False) if checkpointing else block(h)
            return models.cross_entropy(model.head(h), y)

    model, optimizer = measure.new_model(shape, "cpu", lr=lr)
    x, y = measure.batch_of(shape, batch_per_worker, "cpu")
    step = measure.training_step(model, optimizer, x, y, loss_fn=loss_fn)
    return measure.measure_peak(step, model, optimizer, "cpu").peak


def step_peak(s: Settings, shape, runs: list[dict], simulated: bool) -> float:
    """One worker's peak memory for a step of ``s``: on a CPU lesson 06's tracker (``peak_of``: the process's
    resident set counts torch itself); on a GPU the CUDA allocator's peak that the workers reported."""
    return peak_of(s, shape) if simulated else max(r["peak_bytes"] for r in runs)
