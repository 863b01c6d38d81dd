"""FLOPs of the small GPT, by formula and by torch's counter, and model FLOPs utilisation (MFU).

Introduced in lesson 01, section 1. A multiply-add is 2 FLOPs, so an (m x k) @ (k x n) matmul costs 2mkn.
Per token, the forward pass of a GPT multiplies by every weight matrix once: 2 FLOPs per weight, 2N in all
(N = the weights of the matmuls: 12 width² per block plus the output layer, width x vocab). The backward pass
costs twice the forward (a gradient for the input and one for the weight), so a training step is 6N per
token, plus attention's own matmuls (scores QKᵀ and the weighted sum of V: 2 x 2 T width per token per
layer forward, x3 for training). That is nanoGPT's and TorchTitan's estimate of a step's "model FLOPs".
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch.utils import flop_counter


@dataclass(frozen=True)
class GptFlops:
    matmul_params: int  # N: weights that multiply activations (embeddings only look rows up: 0 FLOPs)
    tokens: int  # B x T
    attention_forward: int  # FLOPs of QKᵀ and AV, all layers, forward
    forward: int
    train: int  # forward + backward: 3 x forward


def gpt_flops(vocab: int, context: int, width: int, depth: int, batch: int, tokens_per_seq: int | None = None,
              **_) -> GptFlops:
    """The formula count for one forward and one training step of ``batch`` sequences of ``tokens_per_seq``
    tokens (default: the full context). Biases, norms and softmax are left out: O(width) per token, not
    O(width²)."""
    T = tokens_per_seq or context
    # qkv 3C², proj C², fc 4C², proj 4C² per block; then the output layer
    n = 12 * depth * width**2 + width * vocab
    tokens = batch * T
    attention = depth * 2 * (2 * batch * T * T * width)  # QKᵀ: 2·T·T·C per sequence, AV the same
    forward = 2 * n * tokens + attention
    return GptFlops(n, tokens, attention, forward, 3 * forward)


def printed(count: float, significant: int = 4) -> float:
    """A FLOP count as the lesson prints it, to ``significant`` figures ("5.309e+09")."""
    return float(f"{count:.{significant}g}")


def printed_gap(count: float, reference: float, significant: int = 4) -> float:
    """``count`` over ``reference``, less one, worked from the two counts as printed (``printed``): the
    "+1.3% from the formula" a reader finds again by dividing the two figures on the page."""
    return printed(count, significant) / printed(reference, significant) - 1


def remaining_gap(counted: float, formula: float) -> float:
    """The counter's count less the formula's, worked from the two counts as printed (4 figures each), so that
    a reader who subtracts 5.309e+09 from 5.376e+09 finds the printed 6.7e+07 (reader t10_0001: the unrounded
    difference printed 6.71e+07)."""
    return printed(counted) - printed(formula)


def _cpu_attention_flops(query, key, value, *args, out_val=None, **kwargs) -> int:
    """torch's counter has formulas for the GPU attention kernels; this is the same formula for the CPU's."""
    return flop_counter.sdpa_flop_count(query.shape, key.shape, value.shape)


def _cpu_attention_backward_flops(grad_out, query, key, value, *args, out_val=None, **kwargs) -> int:
    return flop_counter.sdpa_backward_flop_count(grad_out.shape, query.shape, key.shape, value.shape)


_cpu_attention_flops._get_raw = True  # called with the tensors themselves (FlopCounterMode's custom_mapping)
_cpu_attention_backward_flops._get_raw = True
CPU_ATTENTION = {torch.ops.aten._scaled_dot_product_flash_attention_for_cpu: _cpu_attention_flops,
                 torch.ops.aten._scaled_dot_product_flash_attention_for_cpu_backward:
                     _cpu_attention_backward_flops}


def counted_flops(fn, cpu_attention: bool = True) -> tuple[int, dict[str, int]]:
    """Run ``fn()`` under ``torch.utils.flop_counter.FlopCounterMode``: total FLOPs and FLOPs per operator.

    ``cpu_attention=False`` shows what the counter sees without a formula for the CPU's attention kernel."""
    mapping = CPU_ATTENTION if cpu_attention else {}
    with flop_counter.FlopCounterMode(display=False, custom_mapping=mapping) as counter:
        fn()
    per_op = {str(op).removeprefix("aten."): n for op, n in counter.get_flop_counts()["Global"].items()}
    return counter.get_total_flops(), per_op


def attention_backward_ratio(per_op: dict[str, int]) -> tuple[float, float] | None:
    """(attention's backward FLOPs over its forward's, its forward FLOPs) as the counter counted them (the
    formula says 2x: one product for each input of the two matmuls), or None where it counted no attention."""
    forward = sum(n for op, n in per_op.items() if "attention" in op and "backward" not in op)
    backward = sum(n for op, n in per_op.items() if "attention" in op and "backward" in op)
    return (backward / forward, forward) if forward and backward else None


def mfu(model_flops: float, seconds: float, peak_flops: float) -> float:
    """Model FLOPs utilisation: the model's FLOPs per second (formula count / measured time) over the peak.

    Only the model's FLOPs count, not recomputation or padding: MFU says how much of the machine the model's
    arithmetic uses (PaLM's definition; nanoGPT's ``estimate_mfu``, TorchTitan's MFU log)."""
    if seconds <= 0 or peak_flops <= 0:
        raise ValueError(f"MFU needs a positive time and peak, got {seconds=} and {peak_flops=}")
    return model_flops / seconds / peak_flops
