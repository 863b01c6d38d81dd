"""The pipeline recipes of lesson 02 (``notebooks/02_model_split.ipynb``): how the split stages are run.

* ``pipeline_grads_worker``: two worker processes, one stage each, with ``torch.distributed.pipelining``
  (``PipelineStage`` and ``ScheduleGPipe`` or ``Schedule1F1B``, built by ``build_schedule``, stepped by
  ``train_step``); run it with ``utils.launch.launch(pipeline_grads_worker, task, [3], 16, 4, nprocs=2)``;
* ``naive_step``: the naive two-stage split written by hand with ``dist.send`` and ``dist.recv``;
* ``gpipe_in_process``: GPipe in ONE process over two GPUs, relying on asynchronous CUDA launches.

Timing and byte counting are added from outside (``instrument.py``): a ``PipelineStage`` subclass passed as
``stage_type``, a ``timed`` context manager passed to ``naive_step``.
"""

from __future__ import annotations

from typing import Callable, Sequence

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.pipelining import PipelineStage, Schedule1F1B, ScheduleGPipe

from utils import devices, launch
from utils.lessons.model_split.instrument import no_timing
from utils.lessons.model_split.split import grads_of, split_sequential
from utils.lessons.model_split.tasks import Task

SCHEDULES = {"gpipe": ScheduleGPipe, "1f1b": Schedule1F1B}


def stage_device() -> torch.device:
    """This worker's device for a pipeline stage: its GPU on NCCL, the CPU when the backend is gloo.

    Gloo's send and receive move host memory, so where ranks share one GPU (``1gpu`` mode, gloo) the
    two-process pipelines of lesson 02 run on the CPU; with two GPUs they run on ``cuda:0`` and ``cuda:1``.
    """
    device = launch.current_device()
    return device if launch.current_backend() == "nccl" else torch.device("cpu")


def stage_devices_for(plan: devices.Plan) -> tuple[str, ...]:
    """Where the workers of ``plan`` run their pipeline stages: their GPUs with one GPU each (NCCL), else
    the CPU (``cpu`` mode, and ``1gpu`` mode, where gloo workers share one GPU: gloo's ``send``/``recv``
    move host memory only, so a pipeline over gloo keeps its stages on the CPU)."""
    return tuple(plan.devices) if plan.backend == "nccl" else ("cpu",) * plan.world_size


def stage_devices(n: int = 2) -> tuple[str, ...]:
    """The devices the n-worker pipelines of lesson 02 run on here, decided without initialising CUDA."""
    return stage_devices_for(devices.plan(n))


def build_schedule(module: nn.Module, rank: int, n_stages: int, device, name: str, m: int, loss_fn: Callable,
                   stage_type: type = PipelineStage):
    """This worker's pipeline stage and the schedule that runs it: ``(stage, schedule)``.

    ``ScheduleGPipe`` runs all m forwards, then all m backwards; ``Schedule1F1B`` alternates one forward and
    one backward. Both average the micro-batches' gradients, so a step's gradients equal the unsplit model's
    on the whole batch when the loss is a mean. ``stage_type``: ``instrument.RecordedStage`` to time it.
    """
    if name not in SCHEDULES:
        raise ValueError(f"schedule must be one of {tuple(SCHEDULES)}, got {name!r}")
    stage = stage_type(module, rank, n_stages, torch.device(device))  # stage `rank` of n_stages
    schedule = SCHEDULES[name](stage, n_microbatches=m, loss_fn=loss_fn)  # cuts each batch into m
    return stage, schedule


def train_step(stage, schedule, x, y, losses: list | None = None, return_outputs: bool = True):
    """One training step: the first stage feeds the batch, the last the targets; the library sends
    activations forward and gradients back. Returns the last stage's output (None elsewhere)."""
    inputs = (x,) if stage.is_first else ()  # the whole batch (B, ...): the schedule cuts it into m
    if not stage.is_last:
        return schedule.step(*inputs)  # receive, forward, send on; later receive gradients, backward
    return schedule.step(*inputs, target=y, losses=losses, return_outputs=return_outputs)  # loss, backward


def pipeline_grads_worker(task: Task, split_points: Sequence[int], batch: int, m: int,
                          schedule: str = "gpipe", seed: int = 1,
                          build_stages: Callable = split_sequential) -> dict:
    """Worker (run by ``launch``, one per stage): one pipelined training step; rank r holds stage r.

    Returns this stage's gradients, and on the last stage its output and the loss (mean over micro-batches).
    ``build_stages(model, split_points)`` makes the stages (``split_sequential`` unless told otherwise).
    """
    with launch.process_group():
        rank, device = dist.get_rank(), stage_device()
        model = task.build()  # the same seeded weights on every worker
        stages = build_stages(model, list(split_points))
        module = stages[rank].to(device)  # this worker's stage; the others' layers stay unused here
        stage, sched = build_schedule(module, rank, len(stages), device, schedule, m, task.loss_fn)
        x, y = (t.to(device) for t in task.make_batch(batch, seed))  # every worker makes the same batch
        losses: list = []  # the last stage's loss of each micro-batch
        out = train_step(stage, sched, x, y, losses)
        return {"grads": grads_of(module), "output": None if out is None else out.detach().cpu(),
                "loss": float(torch.stack(losses).detach().mean()) if losses else None}


def naive_step(stage: nn.Module, rank: int, device, x, y, loss_fn, hidden_shape, timed=no_timing,
               losses: list | None = None) -> None:
    """One training step of the naive two-stage split, written by hand with ``dist.send``/``dist.recv``.

    Stage 0 computes, sends its activation (B, T, C) and waits; stage 1 computes forward, loss and backward
    and sends back the activation's gradient; then stage 0 runs its backward. One device works at a time.
    ``timed(name)`` wraps each piece of work (``instrument.span_timer``); by default it times nothing.
    ``losses``: where stage 1 keeps its loss (kept, not read: no wait inside a timed step).
    """
    if rank == 0:
        with timed("forward"):
            h = stage(x.to(device))  # activation (B, T, C)
        dist.send(h.detach().contiguous(), dst=1)
        grad = torch.empty_like(h)
        dist.recv(grad, src=1)  # idle until stage 1 has finished its forward and backward
        with timed("backward"):
            h.backward(grad)
    else:
        h = torch.empty(hidden_shape, device=device)
        dist.recv(h, src=0)  # idle until stage 0 has finished its forward
        h.requires_grad_(True)
        with timed("forward"):
            loss = loss_fn(stage(h), y.to(device))
        with timed("backward"):
            loss.backward()
        if losses is not None:
            losses.append(loss.detach())
        dist.send(h.grad.contiguous(), dst=0)  # the activation's gradient (B, T, C) goes back


def gpipe_in_process(stages: Sequence[nn.Module], devices: Sequence[str], x: torch.Tensor, y: torch.Tensor,
                     m: int, loss_fn: Callable) -> torch.Tensor:
    """One GPipe training step in ONE process: all micro-batches forward, then their backward passes.

    On two GPUs a kernel launch returns before the kernel runs, so the loop below queues stage 0's work on
    micro-batch k+1 while GPU 1 still computes stage 1 of micro-batch k: both GPUs work at once. On a CPU
    every operation runs as it is called, so this gives the right gradients but no speedup (the lesson
    uses two worker processes there). ``stages[k]`` must already be on ``devices[k]``, and so should ``x``
    (on the first device) and ``y`` (on the last): moved once before the loop, not in every step, where a
    copy from the host's pageable memory would make the host wait. Returns the loss.
    """
    x, y = x.to(devices[0]), y.to(devices[-1])  # no-ops when the caller placed them, as it should
    losses = []
    for xk, yk in zip(x.chunk(m), y.chunk(m)):  # micro-batches of B/m rows
        h = xk
        for stage, device in zip(stages, devices):
            h = stage(h.to(device, non_blocking=True))  # GPU to GPU: queued on the stream, the host goes on
        losses.append(loss_fn(h, yk) / m)  # mean over micro-batches
    for loss in reversed(losses):
        loss.backward()  # each backward is queued too: stage 0 of one overlaps stage 1 of the next
    return sum(loss.detach() for loss in losses)
