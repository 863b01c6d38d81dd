"""DDP communication hooks: what the gradient all-reduce sends (lesson 03, section 5).

A hook receives each gradient bucket during ``backward()`` and decides what travels: the fp32 gradients
(``allreduce``, what DDP does without a hook), a float16 or bfloat16 copy (half the bytes), or PowerSGD's two
thin matrices P (n x r) and Q (m x r) in place of each n x m gradient matrix, with error feedback.
"""

from __future__ import annotations

import torch
import torch.distributed as dist
from torch.distributed.algorithms.ddp_comm_hooks import default_hooks, powerSGD_hook
from torch.nn.parallel import DistributedDataParallel as DDP


def bf16_hook(process_group, bucket):  # no annotations: DDP checks them, and this module's are strings
    """torch's ``bf16_compress_hook``, under another name: cast to bfloat16, divide, all-reduce, cast back.

    ``process_group``: the group (None: the default one); ``bucket``: a ``dist.GradBucket``; returns a
    ``torch.futures.Future`` of the averaged fp32 gradients, as every communication hook does.

    Why a copy: DDP refuses to register a hook *named* ``bf16_compress_hook`` unless torch was built with
    CUDA and NCCL 2.10+, yet gloo all-reduces bfloat16 (torch 2.13; section 5 measures it). The work is the
    same as torch's; the all-reduce goes through ``dist.all_reduce``, so the lesson's byte counter sees it.
    """
    group = process_group if process_group is not None else dist.group.WORLD
    buffer = bucket.buffer()  # the bucket's fp32 gradients, flattened
    compressed = buffer.to(torch.bfloat16).div_(group.size())  # divide first: the sum stays in range

    def decompress(fut):
        buffer.copy_(fut.value()[0])  # back to fp32, in place: no second full-size buffer
        return buffer

    return dist.all_reduce(compressed, group=group, async_op=True).get_future().then(decompress)


HOOKS = {
    "none": None,  # no hook: DDP's built-in reduction (its C++ reducer calls the process group directly)
    "allreduce": default_hooks.allreduce_hook,  # the same fp32 average, from Python: the lesson can count it
    "fp16": default_hooks.fp16_compress_hook,  # cast to float16, all-reduce, cast back
    "bf16": bf16_hook,  # the same in bfloat16, on NCCL and gloo alike (see its docstring)
    "powersgd": powerSGD_hook.powerSGD_hook,  # low-rank P, Q per matrix; needs a PowerSGDState
}


def register_hook(ddp_model: DDP, hook: str, powersgd_rank: int = 1, powersgd_start: int = 2):
    """Attach the communication hook named ``hook`` to ``ddp_model``; returns its state (PowerSGD keeps one).

    ``none`` registers nothing: DDP's built-in reduction. ``allreduce`` sends the same fp32 averages through a
    Python hook, which lets the lesson count its bytes like the others' (section 5 times both). PowerSGD
    sends plain all-reduces for its first ``powersgd_start`` steps (torch's default is 1000 steps; the
    lesson's short runs start at 2 so that PowerSGD's approximation is what trains).
    """
    if hook not in HOOKS:
        raise ValueError(f"hook must be one of {tuple(HOOKS)}, got {hook!r}")
    state = None  # the default hooks need none: they use the default process group
    if hook == "powersgd":
        state = powerSGD_hook.PowerSGDState(process_group=None, matrix_approximation_rank=powersgd_rank,
                                            start_powerSGD_iter=powersgd_start)
    if HOOKS[hook] is not None:
        ddp_model.register_comm_hook(state, HOOKS[hook])
    return state


def builtin_bytes_per_sync(ddp_model: DDP) -> int:
    """Bytes DDP's built-in reduction all-reduces at each synchronising backward: the sum of its buckets.

    Without a hook the C++ reducer calls the process group itself, so ``ByteCounter`` sees nothing; DDP's own
    log (``_get_ddp_logging_data``, a private API: "bucket_sizes", bytes, comma-separated, known after the
    first backward) says what its buckets hold. Falls back to the gradients' size, which the buckets hold.
    """
    sizes = ddp_model._get_ddp_logging_data().get("bucket_sizes", "")
    if sizes:
        return sum(int(b) for b in str(sizes).split(",") if b.strip())
    return sum(p.numel() * p.element_size() for p in ddp_model.parameters() if p.requires_grad)


def trap_outcomes(outcomes: list[str]) -> str:
    """``["ran", "aborted", ...]`` of repeated PowerSGD runs with DDP's default buckets, in one sentence that ends
    the trap's line (``trap_heading`` begins it)."""
    n = len(outcomes)
    counts = ", ".join(f"{outcomes.count(k)}/{n} {k}" for k in ("aborted", "hung", "ran"))
    failed = n - outcomes.count("ran")
    if failed == 0:
        return (f"{counts}: the race did not strike in these {n} runs: not reproduced here; with one bucket "
                f"for all gradients there is nothing to interleave, and the comparison below uses one.")
    return (f"{counts}: the race struck in {failed} of {n} runs here; with one bucket for all gradients "
            f"there is nothing to interleave, and the comparison below uses one.")


def trap_heading(buckets: float, runs: int, backend: str) -> str:
    """The trap's line, before its outcomes: how many buckets DDP's default made of this model's gradients in
    section 2's run (its all-reduces a step), so that the markdown states no count the run could contradict."""
    count = f"{buckets:.0f} bucket{'' if round(buckets) == 1 else 's'} a step in section 2's table"
    one = "; with one there is nothing to interleave" if round(buckets) == 1 else ""
    return f"PowerSGD with DDP's default buckets ({count}{one}), {runs} runs on {backend}: "
