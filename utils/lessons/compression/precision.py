"""16-bit inference, lesson 04 (``notebooks/04_compression.ipynb``), section 5: two ways to run a trained fp32
model in bf16 (or fp16), which store different bytes and move different bytes.

    HalfWeights(cnn)            # the whole model stored in bf16: half the stored bytes
    Autocast(cnn)               # fp32 weights kept; autocast casts them to bf16 at every call
    HalfWeights(cnn, torch.float16)   # fp16, the 16-bit type of GPUs without bf16 tensor cores (T4)

Training in 16 bits is ``train(..., autocast_dtype=...)`` in ``train.py``.
"""

from __future__ import annotations

import copy

import torch
from torch import nn

__all__ = ["HalfWeights", "Autocast", "speed_reason"]


class HalfWeights(nn.Module):
    """A copy of ``model`` stored in ``dtype`` (2 bytes a weight instead of 4); the input is cast to match and
    the output cast back to fp32. Every weight and activation moves in 16 bits: half the bytes. Lesson 04."""

    def __init__(self, model: nn.Module, dtype: torch.dtype = torch.bfloat16):
        super().__init__()
        self.dtype = dtype
        self.model = copy.deepcopy(model).to(dtype)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.model(x.to(self.dtype)).float()  # (N, 10) logits, back in fp32


class Autocast(nn.Module):
    """``model`` with its fp32 weights, run under ``torch.autocast``: convolutions and matmuls in ``dtype``.

    The stored bytes do not change, and every call casts each weight to 16 bits first (read 4 bytes, write
    2, read 2: more weight traffic than fp32 alone); activations between layers are 16-bit. Lesson 04.
    """

    def __init__(self, model: nn.Module, dtype: torch.dtype = torch.bfloat16):
        super().__init__()
        self.dtype = dtype
        self.model = model

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        with torch.autocast(x.device.type, dtype=self.dtype):
            return self.model(x).float()


def speed_reason(fastest: float, device: str, cpu_bf16: bool, device_note: str) -> str:
    """One line on why the 16-bit variants ran as they did. ``fastest``: the better one's speedup over fp32;
    ``cpu_bf16``: whether the CPU reports bf16 instructions (``measure.bf16_support``); ``device_note``: the
    settings' ``half_note``, which explains a GPU. Lesson 04."""
    if device != "cpu":
        return device_note
    if not cpu_bf16:
        return "This CPU lacks bf16 instructions (or did not report them): bf16 is converted to fp32 for compute."
    if fastest < 1.1:
        return ("This CPU has bf16 instructions, yet not every kernel uses them, and the casts cost time too: "
                "fewer bytes, little less time.")
    return "This CPU has bf16 instructions: the 16-bit units and the halved bytes both help."
