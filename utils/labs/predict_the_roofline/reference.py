"""Lab 01's reference counts, what the checks hold a learner's ``count`` and ``turning_length`` against.
(Reading it before you solve the lab spoils exercises A and B; the lab does not import it.)

Nothing here runs an op. FLOPs: torch's FLOP counter (``torch.utils.flop_counter``, lesson 01 §1) traces the
op's call on ``meta`` tensors (shapes only, no arithmetic); attention's FLOPs come from lesson 01's formula for
the CPU's attention kernel (the counter's custom mapping), times the share of scores the causal mask keeps
(the counter counts every score; the fused kernel computes the ones the mask keeps). Bytes: the sizes of the
inputs and of the output (worked out from the shapes), each once; for a lookup, the ids, the table's rows the
ids name (each once) and one output row per id.
"""

from __future__ import annotations

import functools

import torch
from torch.utils import flop_counter

from utils.labs.predict_the_roofline.ops import LabOp
from utils.lessons.why_slow import flops as lesson_flops
from utils.lessons.why_slow.roofline import Op

# --- What an op does: counted on its shapes, and its tensors' bytes ----------------------------------------


def kept_share(op: LabOp) -> float:
    """The share of an attention's scores its mask keeps: all of them, or the causal lower triangle."""
    if op.kind != "attention" or not op.dims["causal"]:
        return 1.0
    T = op.dims["length"]
    return torch.ones(T, T).tril().mean().item()


def done_flops(op: LabOp) -> float:
    """FLOPs the op does: torch's counter on its call (on ``meta`` tensors: shapes, no arithmetic), with
    lesson 01's formula for the CPU's attention kernel, times the share of scores the mask keeps."""
    operands = tuple(t.to("meta") for t in op.operands())
    with flop_counter.FlopCounterMode(display=False, custom_mapping=lesson_flops.CPU_ATTENTION) as counter:
        op.call(operands)
    return counter.get_total_flops() * kept_share(op)


def moved_bytes(op: LabOp) -> int:
    """The fewest bytes the op must move: every tensor it reads, and its result, once. A lookup reads the
    table's rows its ids name, each once however often it is named."""
    size, d = op.dtype.itemsize, op.dims
    if op.kind == "embedding":
        rows = op.ids.unique().numel()
        return op.ids.numel() * op.ids.element_size() + (rows + op.ids.numel()) * d["width"] * size
    inputs = tuple(t.to("meta") for t in op.operands())  # shapes only: the output's is worked out, not computed
    return sum(t.numel() for t in (*inputs, op.call(inputs))) * size


def written_bytes(op: LabOp) -> int:
    """Of ``moved_bytes``, those the op writes: its result (for a lookup, one row per id)."""
    if op.kind == "embedding":
        return op.ids.numel() * op.dims["width"] * op.dtype.itemsize
    return op.call(tuple(t.to("meta") for t in op.operands())).numel() * op.dtype.itemsize


def reference_op(op: LabOp, device: str = "cpu") -> Op:
    """Lesson 01's ``roofline.Op`` of ``op``: what it does (its FLOPs, the bytes it moves and, of those, the
    bytes it writes), and its timed call (for ``measure_roofline``)."""
    return Op(op.name, done_flops(op), moved_bytes(op), lambda: op.timed_call(device), written=written_bytes(op))


def intensity(op: LabOp) -> float:
    """FLOPs per byte the attention does and moves (the reference counts above), remembered by size."""
    return _attention_intensity(tuple(sorted(op.dims.items())), op.dtype)


@functools.lru_cache(maxsize=4096)
def _attention_intensity(dims: tuple, dtype: torch.dtype) -> float:
    op = LabOp("attention", "attention", dict(dims), dtype)
    return done_flops(op) / moved_bytes(op)


def first_compute_bound(op: LabOp, ridge: float, limit: int = 2**24) -> int:
    """The shortest length at which attention ``op`` reaches ``ridge`` FLOPs a byte (doubling, then halving)."""
    high = 1
    while intensity(op.with_length(high)) < ridge:
        high *= 2
        if high > limit:
            return limit
    low = high // 2  # below ridge (or 0)
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if intensity(op.with_length(mid)) >= ridge else (mid, high)
    return high
