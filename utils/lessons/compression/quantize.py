"""int8 quantization, lesson 04 (``notebooks/04_compression.ipynb``) and its lab: dynamic int8 (int8 weights and
int8 matmuls, the fast path on a CPU), weight-only int8 (int8 weights, fp32 compute), and torchao's versions.

    int8 = quantize_dynamic_int8(mlp)           # torch.ao dynamic int8: smaller and faster on a CPU
    small = weight_only_int8(mlp)               # smaller, not faster on a CPU
    quantize_torchao(mlp, "int8_dynamic")       # torchao, where it is installed
"""

from __future__ import annotations

import copy
import importlib.util
import warnings

import torch
import torch.nn.functional as F
from torch import nn

__all__ = ["quantize_dynamic_int8", "WeightOnlyInt8Linear", "weight_only_int8", "torchao_available",
           "quantize_torchao"]


def quantize_dynamic_int8(model: nn.Module) -> nn.Module:
    """A copy of ``model`` whose Linear layers run int8 (``torch.ao.quantization.quantize_dynamic``). Lesson 04.

    Weights are stored as int8 with one scale per tensor; each call quantizes the activations on the fly
    (hence *dynamic*) and multiplies with int8 kernels (fbgemm on x86, qnnpack on ARM). CPU only.
    ``torch.ao.quantization`` is deprecated in favour of torchao and warns on use; the warnings are caught
    here (lesson 04 shows them once), because for eager CPU inference it is still the int8 path that is
    fast without ``torch.compile``.
    """
    with warnings.catch_warnings():
        # Every deprecation warning this call raises (how many depends on the torch version: the package
        # itself, the quantized tensors it creates, ...); lesson 04 prints the distinct messages once.
        warnings.filterwarnings("ignore", message=r"(?s).*deprecated")
        return torch.ao.quantization.quantize_dynamic(copy.deepcopy(model).eval(), {nn.Linear},
                                                      dtype=torch.qint8)


class WeightOnlyInt8Linear(nn.Module):
    """A Linear layer that stores int8 weights and one fp32 scale per output row, and computes in fp32.

    ``weight_int8`` (out, in) int8, ``scale`` (out, 1) fp32: weight ≈ weight_int8 × scale (symmetric,
    per-channel). Four times fewer weight bytes; each call dequantizes, so on a CPU it is smaller but not
    faster. It pays off where moving weight bytes is the bottleneck (a GPU generating one token at a time).
    Lesson 04.
    """

    def __init__(self, linear: nn.Linear):
        super().__init__()
        weight = linear.weight.detach()  # (out, in)
        scale = weight.abs().amax(dim=1, keepdim=True).clamp(min=1e-12) / 127  # (out, 1): row max -> 127
        self.register_buffer("weight_int8", torch.round(weight / scale).to(torch.int8))
        self.register_buffer("scale", scale)
        self.register_buffer("bias", None if linear.bias is None else linear.bias.detach().clone())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # Dequantize (out, in) on every call, then an ordinary floating-point matmul.
        return F.linear(x, self.weight_int8.to(x.dtype) * self.scale.to(x.dtype), self.bias)


def weight_only_int8(model: nn.Module) -> nn.Module:
    """A copy of ``model`` with every ``nn.Linear`` replaced by ``WeightOnlyInt8Linear``. Lesson 04."""
    model = copy.deepcopy(model).eval()
    for name, child in list(model.named_children()):
        if isinstance(child, nn.Linear):
            setattr(model, name, WeightOnlyInt8Linear(child))
        else:
            setattr(model, name, weight_only_int8(child))
    return model


def torchao_available() -> bool:
    """True when torchao (the successor of ``torch.ao.quantization``) is installed. Lesson 04."""
    return importlib.util.find_spec("torchao") is not None


def quantize_torchao(model: nn.Module, kind: str = "int8_dynamic") -> nn.Module:
    """A copy of ``model`` quantized with torchao's ``quantize_``: ``int8_dynamic`` or ``int8_weight_only``.

    Lesson 04. Needs torchao, which is not a course dependency (on a CPU its int8 kernels only beat fp32
    under ``torch.compile``).
    """
    if kind not in ("int8_dynamic", "int8_weight_only"):
        raise ValueError(f"kind must be 'int8_dynamic' or 'int8_weight_only', not {kind!r}")
    # Imported here, not at the top: torchao is an optional dependency, absent from most installs.
    from torchao.quantization import Int8DynamicActivationInt8WeightConfig, Int8WeightOnlyConfig, quantize_

    config = Int8DynamicActivationInt8WeightConfig() if kind == "int8_dynamic" else Int8WeightOnlyConfig()
    model = copy.deepcopy(model).eval()
    quantize_(model, config)  # replaces each Linear's weight in place
    return model
