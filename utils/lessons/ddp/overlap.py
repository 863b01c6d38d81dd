"""Data parallelism by hand, then what DDP adds: buckets all-reduced while the backward pass still runs
(lesson 03, section 2).

``by_hand_step`` is the whole idea of data parallelism in five lines: each rank computes the gradient of its
own rows, then every gradient is all-reduced (summed over the ranks) and divided by the world size, so every
rank holds the gradient of the whole global batch. DDP computes the same numbers; what it adds is *when* it
communicates: gradients are grouped into buckets (about 25 MB each by default), and a bucket is all-reduced,
asynchronously, as soon as its last gradient is ready, while the backward pass goes on with earlier layers.

``timeline`` measures both on every rank (host-side ``perf_counter`` times, one clock for all processes):
the backward computation (from ``backward()`` to the last gradient accumulated, seen by each parameter's
post-accumulate hook) and each all-reduce (from issue to completion), for the chart of section 2.
"""

from __future__ import annotations

import contextlib
import statistics
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from utils.launch import keep_until_exit, process_group
from utils.lessons.ddp.gradients import fixed_global_batch, flat_grad
from utils.lessons.ddp.settings import Settings, build_model, text_data
from utils.timeline import Span


def by_hand_step(model: torch.nn.Module, loss: torch.Tensor) -> None:
    """Data parallelism without DDP: backward, then all-reduce every gradient and divide by the world size."""
    loss.backward()  # this rank's gradient of its own rows
    world = dist.get_world_size()
    for p in model.parameters():
        dist.all_reduce(p.grad)  # the sum over the ranks (one message per tensor, after the whole backward)
        p.grad /= world  # the mean: the gradient of the mean loss over the whole global batch


def _model_and_rows(s: Settings, device) -> tuple[torch.nn.Module, torch.Tensor, torch.Tensor]:
    """A fresh model (the same seed on every rank) and this rank's rows of ``fixed_global_batch``, on
    ``device``: x, y are (batch_per_worker x accumulate, T) int64."""
    rank, world = dist.get_rank(), dist.get_world_size()
    x, y = fixed_global_batch(s, world)
    model = build_model(s, text_data(s).corpus.vocab_size).to(device)
    return model, x[rank::world].to(device), y[rank::world].to(device)


def by_hand_gradients(s: Settings) -> torch.Tensor:
    """On every worker: ``by_hand_step`` on this rank's rows of ``fixed_global_batch``; the gradient (CPU)."""
    with process_group(backend="gloo" if s.device == "cpu" else None) as planned_device:
        model, x, y = _model_and_rows(s, torch.device(s.device) if s.device else planned_device)
        by_hand_step(model, model.loss(x, y))
        return flat_grad(model)


@contextlib.contextmanager
def _timed_all_reduces(spans: list, row: str):
    """For the block, ``dist.all_reduce`` records each call as a span (as ``instrumentation.ByteCounter``
    counts its bytes), so that ``by_hand_step`` runs as the lesson shows it, timed; put back on the way out."""
    original = dist.all_reduce

    def timed(tensor, *args, **kwargs):
        start = time.perf_counter()
        result = original(tensor, *args, **kwargs)
        spans.append(Span(row, "all-reduce", len(spans), start, time.perf_counter()))
        return result

    dist.all_reduce = timed
    try:
        yield
    finally:
        dist.all_reduce = original


def _timed_allreduce_hook(spans: list, row: str):
    """A DDP communication hook doing what DDP does (average the bucket in fp32), recording each bucket's
    all-reduce as a span from its issue to its completion (the future's callback)."""

    def hook(state, bucket):  # no annotations: DDP checks them
        start = time.perf_counter()
        buffer = bucket.buffer().div_(dist.get_world_size())
        future = dist.all_reduce(buffer, async_op=True).get_future()

        def done(fut):
            spans.append(Span(row, "all-reduce", bucket.index(), start, time.perf_counter()))
            return fut.value()[0]

        return future.then(done)

    return hook


def _last_gradient_clock(model: torch.nn.Module) -> list[float]:
    """A list that each parameter's post-accumulate hook appends the time to when its gradient is ready."""
    ready: list[float] = []
    for p in model.parameters():
        p.register_post_accumulate_grad_hook(lambda _p: ready.append(time.perf_counter()))
    return ready


def _one_step(net, model, x, y, ready: list, spans: list, rows: tuple[str, str], use_ddp: bool) -> dict:
    """One forward and backward (by hand: ``by_hand_step``), timed; fills ``spans``; returns the figures."""
    comm_row, compute_row = rows
    spans.clear()
    ready.clear()
    model.zero_grad(set_to_none=True)
    dist.barrier()  # both ranks start together
    start = time.perf_counter()
    loss = net(x, y)[1]  # (logits, loss)
    backward_start = time.perf_counter()
    if use_ddp:
        loss.backward()  # returns when the last bucket's all-reduce is done
    else:
        with _timed_all_reduces(spans, comm_row):
            by_hand_step(model, loss)  # the step the lesson shows, its all-reduces timed
    end, last_ready = time.perf_counter(), max(ready)
    spans.append(Span(compute_row, "forward", None, start, backward_start))
    spans.append(Span(compute_row, "backward", None, backward_start, last_ready))
    return {"compute": last_ready - backward_start, "exposed": end - last_ready, "step": end - start,
            "communication": sum(sp.duration for sp in spans if sp.name == "all-reduce"),
            "messages": sum(sp.name == "all-reduce" for sp in spans)}


def timeline(s: Settings, use_ddp: bool, steps: int = 5) -> dict:
    """On every worker: ``steps`` forward and backward passes, by hand or with DDP (``s.bucket_cap_mb``).

    Returns the median over the steps after the first of ``compute`` (backward until the last gradient is
    ready), ``communication`` (all-reduce spans summed, waits for the other rank included), ``exposed``
    (last gradient ready to the step's end: communication not hidden), ``step`` and ``messages`` (seconds,
    counts), and the last step's ``spans``.
    """
    with process_group(backend="gloo" if s.device == "cpu" else None) as planned_device:
        device = torch.device(s.device) if s.device else planned_device
        rank = dist.get_rank()
        model, x, y = _model_and_rows(s, device)
        spans: list[Span] = []
        rows = (f"rank {rank} all-reduce", f"rank {rank} backward")
        net = model
        if use_ddp:
            net = keep_until_exit(DDP(model, device_ids=[device.index] if device.type == "cuda" else None,
                                      bucket_cap_mb=s.bucket_cap_mb or 25))
            net.register_comm_hook(None, _timed_allreduce_hook(spans, rows[0]))
        ready = _last_gradient_clock(model)
        # The first step warms up (and DDP rebuilds its buckets in the order the gradients arrived).
        figures = [_one_step(net, model, x, y, ready, spans, rows, use_ddp) for _ in range(steps)][1:]
        medians = {k: statistics.median(f[k] for f in figures) for k in figures[0]}
        return {**medians, "spans": [sp.to_dict() for sp in spans]}
