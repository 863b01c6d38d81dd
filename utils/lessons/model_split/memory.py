"""Activation memory of a pipeline stage, GPipe against 1F1B: lesson 02 (``notebooks/02_model_split.ipynb``).

    with SavedActivations(exclude=model) as saved:     # bytes autograd keeps for the backward pass
        model(x).sum().backward()
    saved.peak
    per_stage = measure_memory(gpt_task(), [3], batch=64, m=8)   # [{"gpipe": {...}, "1f1b": {...}}, ...]
"""

from __future__ import annotations

import functools
from typing import Sequence

import torch
import torch.distributed as dist
from torch import nn

from utils import launch
from utils.lessons.model_split.instrument import RecordedStage, sync_barrier
from utils.lessons.model_split.schedules import SCHEDULES, build_schedule, stage_device, train_step
from utils.lessons.model_split.split import split_sequential
from utils.lessons.model_split.tasks import Task


class SavedActivations:
    """Counts the bytes autograd saves for the backward pass while the block runs: now and at the peak.

        with SavedActivations(model) as saved:
            loss = model(x).sum(); loss.backward()
        saved.peak   # bytes

    What it counts: every tensor storage an operation saves for its backward (the activations), once
    however many operations save it, from when it is saved until autograd frees it (after the backward
    that used it). Parameters (``exclude``) are left out: they exist whatever the schedule. Works on every
    device; on a GPU, ``torch.cuda.max_memory_allocated`` measures the allocator's view as well.
    """

    def __init__(self, exclude: nn.Module | None = None):
        self._excluded = ({p.untyped_storage().data_ptr() for p in exclude.parameters()}
                          if exclude is not None else set())
        self._counts: dict[int, int] = {}
        self._sizes: dict[int, int] = {}
        self.live = 0
        self.peak = 0
        self._hooks = torch.autograd.graph.saved_tensors_hooks(self._pack, self._unpack)

    def __enter__(self):
        self._hooks.__enter__()
        return self

    def __exit__(self, *exc):
        self._hooks.__exit__(*exc)

    def _pack(self, tensor: torch.Tensor):
        storage = tensor.untyped_storage()
        key = storage.data_ptr()
        if key in self._excluded or storage.nbytes() == 0:
            return tensor
        if self._counts.get(key, 0) == 0:
            self._sizes[key] = storage.nbytes()
            self.live += storage.nbytes()
            self.peak = max(self.peak, self.live)
        self._counts[key] = self._counts.get(key, 0) + 1
        return _Saved(tensor, functools.partial(self._release, key))

    @staticmethod
    def _unpack(packed):
        return packed.tensor if isinstance(packed, _Saved) else packed

    def _release(self, key: int) -> None:
        self._counts[key] -= 1
        if self._counts[key] == 0:
            self.live -= self._sizes.pop(key)
            del self._counts[key]


class _Saved:
    """A saved tensor that tells its meter when autograd lets it go."""

    __slots__ = ("tensor", "_on_release")

    def __init__(self, tensor, on_release):
        self.tensor, self._on_release = tensor, on_release

    def __del__(self):
        self._on_release()


def _cuda_reset(device) -> int | None:
    if torch.device(device).type != "cuda":
        return None
    torch.cuda.synchronize(device)
    torch.cuda.reset_peak_memory_stats(device)
    return torch.cuda.memory_allocated(device)


def _cuda_peak(device, before: int | None) -> int | None:
    return None if before is None else torch.cuda.max_memory_allocated(device) - before


def memory_worker(task: Task, split_points: Sequence[int], batch: int, m: int, schedules: Sequence[str],
                  seed: int) -> dict:
    """Worker (run by ``launch``): peak activation bytes of this stage during one step of each schedule.

    ``saved``: bytes autograd held for the backward pass at its peak (``SavedActivations``), every device.
    ``cuda_peak``: on a GPU, the allocator's peak above what was allocated before the step (weights,
    gradients), from ``torch.cuda.max_memory_allocated``.
    """
    with launch.process_group():
        device, rank = stage_device(), dist.get_rank()
        module = split_sequential(task.build(), split_points)[rank].to(device)
        x, y = (t.to(device) for t in task.make_batch(batch, seed))
        out = {}
        for name in schedules:
            stage, sched = build_schedule(module, rank, len(split_points) + 1, device, name, m, task.loss_fn,
                                          stage_type=RecordedStage)
            train_step(stage, sched, x, y, return_outputs=False)  # first step: the stages exchange shapes
            module.zero_grad(set_to_none=False)  # keep gradient buffers: they are not activations
            cuda_before = _cuda_reset(device)
            with SavedActivations(exclude=module) as saved:
                train_step(stage, sched, x, y, return_outputs=False)
            sync_barrier(device)
            out[name] = {"saved": saved.peak, "cuda_peak": _cuda_peak(device, cuda_before)}
        return out


def measure_memory(task: Task, split_points: Sequence[int], batch: int, m: int,
                   schedules: Sequence[str] = tuple(SCHEDULES), seed: int = 0, timeout: float = 300) -> list[dict]:
    """Per stage (a list, stage 0 first): ``{schedule: {"saved": bytes, "cuda_peak": bytes or None}}``."""
    return launch.launch(memory_worker, task, list(split_points), batch, m, list(schedules), seed,
                         nprocs=len(split_points) + 1, timeout=timeout)
