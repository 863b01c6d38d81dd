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

__all__ = ["HalfWeights", "Autocast", "speed_reason", "tensor_bytes", "autocast_bytes_note"]


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


def tensor_bytes(model: nn.Module) -> int:
    """The bytes of the tensors ``model.state_dict()`` holds (elements x element size), without the saved
    file's key names and framing that ``measure.model_bytes`` counts too. Lesson 04."""
    return sum(t.numel() * t.element_size() for t in model.state_dict().values() if torch.is_tensor(t))


def autocast_bytes_note(name: str, half_name: str, stored: tuple[int, int], tensors: tuple[int, int]) -> str:
    """Why the autocast wrapper has no single bytes reference, with its stored bytes read against fp32's:
    ``stored`` (fp32's, the wrapper's: the saved state dict, as the table prints them) and ``tensors`` (the
    same two as ``tensor_bytes``). The same tensors with a different file size: the difference is not weights
    (the wrapper's key names are longer, "model." before each), so the page does not call two printed figures
    that differ "the same". Lesson 04."""
    (fp32_stored, wrapped_stored), (fp32_tensors, wrapped_tensors) = stored, tensors
    if fp32_tensors != wrapped_tensors:
        kept = (f"{name} holds {wrapped_tensors:,} bytes of tensors against fp32's {fp32_tensors:,}: not the "
                "fp32 weights alone")
    elif fp32_stored == wrapped_stored:
        kept = f"{name} keeps the fp32 weights (the same stored bytes)"
    else:
        more = wrapped_stored - fp32_stored
        kept = (f"{name} keeps the fp32 weights (the same {fp32_tensors:,} bytes of tensors; its saved file "
                f"holds {abs(more):,} bytes {'more' if more > 0 else 'fewer'}, which are not weights: its state "
                "dict's key names differ, \"model.\" before each)")
    return (f"{kept}; it casts each to {half_name} at every call: it reads 4 bytes a weight, writes 2 and reads "
            "those 2 again, more weight traffic than fp32; only the activations halve, so bytes give it no single "
            "reference.")


def speed_reason(ratio: float, verdict: str, device: str, cpu_bf16: bool, device_note: str) -> str:
    """One line on what the 16-bit model's measured speed says about this device. ``ratio``: its speedup over
    fp32, ``verdict``: ``measure.compare``'s ("within noise" or "beyond noise"); ``cpu_bf16``: whether the CPU
    reports bf16 instructions (``measure.bf16_support``); ``device_note``: the settings' ``half_note``, which
    explains a GPU. Every outcome has its own sentence: the text follows the run. Lesson 04."""
    if device != "cpu":
        return device_note
    noise = verdict.startswith("within")
    if cpu_bf16:
        if noise:
            return ("This CPU has bf16 instructions, yet this run shows no speed-up beyond noise: having the "
                    "units did not make this model faster here.")
        if ratio < 1:
            return ("This CPU has bf16 instructions, yet bf16 ran slower than fp32 here: its 16-bit arithmetic "
                    "did not pay for the casts around it.")
        return ("This CPU has bf16 instructions, and bf16 ran faster beyond noise: its 16-bit arithmetic, the "
                "halved activation bytes, or both can give that; this run does not time the two apart.")
    if noise or ratio < 1:
        return ("This CPU lacks bf16 instructions (or did not report them): bf16 is converted to fp32 for "
                "compute, and this run shows no speed-up.")
    return ("This CPU lacks bf16 instructions (or did not report them), yet bf16 ran faster beyond noise: a "
            "finding to explain (fewer bytes moved is the candidate to test).")
