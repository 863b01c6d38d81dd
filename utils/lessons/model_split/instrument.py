"""Instrumentation for lesson 02 (``notebooks/02_model_split.ipynb``), kept apart from the recipes it measures.

    stage = RecordedStage(module, rank, n_stages, device)   # a PipelineStage that times every micro-batch
    stage.recorder = timeline.SpanRecorder("stage 0")       # ... into this recorder (None: no timing)
    stage.bytes_sent                                        # activations and gradients it sent
    moved = InputBytes(split_model.stages[1:])              # bytes that reach stage 1 of a naive split
    naive_step(..., timed=span_timer(recorder, index=0))    # the hand-written split, timed from outside

The recipes (``split.py``, ``schedules.py``) carry no timing or counting code: what is timed or counted is
added here, by a subclass, a forward hook or a context manager passed in.
"""

from __future__ import annotations

import contextlib
from typing import Callable, Sequence

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.pipelining import PipelineStage

from utils import bench


def nbytes(value) -> int:
    """Bytes of a tensor, or of every tensor in a (nested) list or tuple."""
    if isinstance(value, torch.Tensor):
        return value.numel() * value.element_size()
    if isinstance(value, (list, tuple)):
        return sum(nbytes(v) for v in value)
    return 0


def span_timer(recorder, index: int | None = None,
               chunk: int | None = None) -> Callable[[str], contextlib.AbstractContextManager]:
    """``timed(name)``: a span of ``recorder`` (a ``timeline.SpanRecorder``) named ``name``; no-op without
    one. ``chunk``: which of its worker's stages the span ran on, where a worker holds several ("F3c1")."""
    def timed(name: str):
        return recorder.span(name, index, chunk) if recorder is not None else contextlib.nullcontext()
    return timed


def no_timing(name: str) -> contextlib.AbstractContextManager:
    """The default ``timed`` of the recipes: times nothing."""
    return contextlib.nullcontext()


def sync_barrier(device) -> None:
    """Wait for ``device``'s queued work, then for every worker: what a timed step starts and ends with."""
    bench.synchronize(device)  # on a GPU, queued work must finish before the clock is read
    dist.barrier()


class RecordedStage(PipelineStage):
    """A ``torch.distributed.pipelining.PipelineStage`` that times every micro-batch and counts what it sends.

    ``forward_one_chunk`` and ``backward_one_chunk`` are what every schedule calls per micro-batch; here each
    runs inside a span of ``self.recorder`` (a ``timeline.SpanRecorder``, or None for no timing), and the
    bytes of the activation sent on and of the input gradient sent back add up in ``self.bytes_sent``.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.recorder = None
        self.chunk = None  # which of its worker's stages this is, where a worker holds several (multi.py)
        self.bytes_sent = 0  # bytes this stage sent to its neighbours (activations and gradients)
        self.messages = 0  # how many tensors it sent

    def _remote(self, neighbour: int) -> bool:
        """Whether stage ``neighbour`` lives on another worker (with several stages per worker, the
        schedule sets ``stage_index_to_group_rank``; two stages of one worker pass tensors in memory)."""
        ranks = getattr(self, "stage_index_to_group_rank", None)
        return not ranks or ranks.get(neighbour, -1) != self.group_rank

    def forward_one_chunk(self, fwd_chunk_id, *args, **kwargs):
        with span_timer(self.recorder, fwd_chunk_id, self.chunk)("forward"):
            out = super().forward_one_chunk(fwd_chunk_id, *args, **kwargs)
        if not self.is_last and self._remote(self.stage_index + 1):  # the activation goes on to the next stage
            self.bytes_sent += nbytes(out)
            self.messages += 1
        return out

    def backward_one_chunk(self, bwd_chunk_id, *args, **kwargs):
        if not self.is_first and self._remote(self.stage_index - 1):  # the input's gradient goes back
            self.bytes_sent += nbytes(self.fwd_cache[bwd_chunk_id][1])
            self.messages += 1
        with span_timer(self.recorder, bwd_chunk_id, self.chunk)("backward"):
            return super().backward_one_chunk(bwd_chunk_id, *args, **kwargs)

    def backward_weight_one_chunk(self, bwd_chunk_id, *args, **kwargs):
        """Zero-bubble schedules split the backward pass: input gradients first (``backward``), the
        weights' gradients later (``weight``, W on the chart), to fill what would be bubbles."""
        with span_timer(self.recorder, bwd_chunk_id, self.chunk)("weight"):
            return super().backward_weight_one_chunk(bwd_chunk_id, *args, **kwargs)


class InputBytes:
    """Counts the bytes of every input that reaches ``modules`` (a forward pre-hook on each).

    On the stages after the first of a ``SplitModel`` that is the activation crossing between devices.
    ``remove()`` takes the hooks off.
    """

    def __init__(self, modules: Sequence[nn.Module]):
        self.bytes = 0
        self._handles = [module.register_forward_pre_hook(self._count) for module in modules]

    def _count(self, module, args) -> None:
        self.bytes += nbytes(args)

    def remove(self) -> None:
        for handle in self._handles:
            handle.remove()
