"""The article's other idea, attention on one device and feed-forward on the other, measured: lesson 02.

Lesson 02 (``notebooks/02_model_split.ipynb``, section 8):

    stages = attention_ffn_stages(gpt.as_sequential())   # [embed + attn 0], [ffn 0], [attn 1], ... [ffn + head]
    measure_placement(gpt_task(), "attn/ffn", batch=32)   # step time and bytes moved, on two workers
"""

from __future__ import annotations

import statistics
import time
from typing import Sequence

import torch.distributed as dist
from torch import nn
from torch.distributed.pipelining import ScheduleLoopedBFS

from utils import launch
from utils.lessons.model_split.instrument import RecordedStage, sync_barrier
from utils.lessons.model_split.schedules import stage_device
from utils.lessons.model_split.split import split_sequential
from utils.lessons.model_split.tasks import Task

PLACEMENTS = ("layers", "attn/ffn")


class Residual(nn.Module):
    """``x + f(x)``: one sub-layer of a pre-LayerNorm block (``f`` is ``block.attn`` or ``block.ffn``)."""

    def __init__(self, f: nn.Module):
        super().__init__()
        self.f = f

    def forward(self, x):
        return x + self.f(x)


def attention_ffn_stages(gpt_sequence: nn.Sequential) -> list[nn.Sequential]:
    """The article's other idea as pipeline stages: attention on one device, feed-forward on the other.

    [embed + attn 0], [ffn 0], [attn 1], [ffn 1], ... [ffn last + head]: stage k runs on worker k % 2, so
    the activation crosses between devices twice per block (2·depth − 1 times forward, as many backward).
    Uses the same modules as ``gpt_sequence`` (an unsplit GPT's ``as_sequential()``).
    """
    embed, *blocks, head = list(gpt_sequence)
    stages = []
    for k, block in enumerate(blocks):
        stages.append(nn.Sequential(*([embed] if k == 0 else []), Residual(block.attn)))
        stages.append(nn.Sequential(Residual(block.ffn), *([head] if k == len(blocks) - 1 else [])))
    return stages


def _placed_modules(model: nn.Sequential, placement: str, split_points: Sequence[int]) -> list[nn.Sequential]:
    if placement == "layers":
        return split_sequential(model, split_points)
    if placement == "attn/ffn":
        return attention_ffn_stages(model)
    raise ValueError(f"placement must be one of {PLACEMENTS}, got {placement!r}")


def placement_worker(task: Task, placement: str, batch: int, split_points: Sequence[int], rounds: int,
                     seed: int) -> dict:
    """Worker (run by ``launch``): time one step with the model placed as ``"layers"`` (a split at
    ``split_points``) or ``"attn/ffn"`` (the article's placement), one micro-batch; times and bytes sent."""
    with launch.process_group():
        device, rank = stage_device(), dist.get_rank()
        model = task.build().to(device)
        x, y = (t.to(device) for t in task.make_batch(batch, seed))
        modules = _placed_modules(model, placement, split_points)
        world = dist.get_world_size()
        mine = [RecordedStage(mod, k, len(modules), device) for k, mod in enumerate(modules) if k % world == rank]
        sched = ScheduleLoopedBFS(mine, n_microbatches=1, loss_fn=task.loss_fn)  # several stages per worker
        args = (x,) if rank == 0 else ()
        kwargs = {"target": y, "return_outputs": False} if any(s.is_last for s in mine) else {}
        times, sent = [], []
        for r in range(rounds + 1):  # round 0 warms up
            model.zero_grad(set_to_none=True)
            for stage in mine:
                stage.bytes_sent = 0
            sync_barrier(device)
            start = time.perf_counter()
            sched.step(*args, **kwargs)
            sync_barrier(device)
            if r:
                times.append(time.perf_counter() - start)
                sent.append(sum(s.bytes_sent for s in mine))
        return {"times": times, "bytes_sent": sent[-1], "crossings": len(modules) - 1}


def measure_placement(task: Task, placement: str, batch: int, split_points: Sequence[int] = (3,),
                      rounds: int = 5, seed: int = 0, timeout: float = 300) -> dict:
    """Median step time and bytes moved (both directions, both workers) of a placement on two workers."""
    raw = launch.launch(placement_worker, task, placement, batch, list(split_points), rounds, seed,
                        nprocs=2, timeout=timeout)
    return {"seconds": statistics.median(raw[0]["times"]), "times": raw[0]["times"],
            "bytes": sum(w["bytes_sent"] for w in raw), "crossings": raw[0]["crossings"]}
