"""DDP communication hooks: what the gradient all-reduce sends (lesson 03, section 4).

A hook receives each gradient bucket during ``backward()`` and decides what travels: the fp32 gradients
(``allreduce``, what DDP does without a hook), a float16 or bfloat16 copy (half the bytes), or PowerSGD's two
thin matrices P (n x r) and Q (m x r) in place of each n x m gradient matrix, with error feedback.
"""

from __future__ import annotations

from torch.distributed.algorithms.ddp_comm_hooks import default_hooks, powerSGD_hook
from torch.nn.parallel import DistributedDataParallel as DDP

HOOKS = {
    "allreduce": default_hooks.allreduce_hook,  # average the fp32 gradients: DDP's own behaviour
    "fp16": default_hooks.fp16_compress_hook,  # cast to float16, all-reduce, cast back
    "bf16": default_hooks.bf16_compress_hook,  # the same in bfloat16: NCCL only (gloo has no bf16 all-reduce)
    "powersgd": powerSGD_hook.powerSGD_hook,  # low-rank P, Q per matrix; needs a PowerSGDState
}


def register_hook(ddp_model: DDP, hook: str, powersgd_rank: int = 1, powersgd_start: int = 2):
    """Attach the communication hook named ``hook`` to ``ddp_model``; returns its state (PowerSGD keeps one).

    Registering ``allreduce`` explicitly changes nothing in what is sent; it lets the lesson count its bytes
    like the others'. PowerSGD sends plain all-reduces for its first ``powersgd_start`` steps.
    """
    if hook not in HOOKS:
        raise ValueError(f"hook must be one of {tuple(HOOKS)}, got {hook!r}")
    state = None  # the default hooks need none: they use the default process group
    if hook == "powersgd":
        state = powerSGD_hook.PowerSGDState(process_group=None, matrix_approximation_rank=powersgd_rank,
                                            start_powerSGD_iter=powersgd_start)
    ddp_model.register_comm_hook(state, HOOKS[hook])
    return state
