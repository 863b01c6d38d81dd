"""Quantization, lesson 04 (``notebooks/04_compression.ipynb``) and its lab: torchao's ``quantize_`` (int8
weight-only, int8 dynamic, and int4 weight-only on a GPU), the weight-only idea written out by hand, and the
deprecated ``torch.ao.quantization`` path kept as a measured comparison.

    torchao_status()                            # (True, "torchao 0.18.0") or (False, the import error)
    q = quantize_torchao(mlp, "int8_dynamic")   # int8 weights and int8 matmuls (torchao)
    q = quantize_torchao(mlp, "int8_weight_only")   # int8 weights, float matmuls (torchao)
    q = quantize_torchao(mlp.cuda().bfloat16(), "int4_weight_only")   # a GPU only
    old = quantize_dynamic_int8(mlp)            # torch.ao's quantize_dynamic (deprecated; fbgemm, a CPU only)
    small = weight_only_int8(mlp)               # weight-only int8 written out: smaller, never faster
"""

from __future__ import annotations

import copy
import importlib
import importlib.util
import logging
import warnings

import torch
import torch.nn.functional as F
from torch import nn

__all__ = ["quantize_dynamic_int8", "WeightOnlyInt8Linear", "weight_only_int8", "torchao_available",
           "torchao_status", "TORCHAO_KINDS", "quantize_torchao"]

# torchao's configurations, by the name this lesson uses; int4 weight-only has GPU kernels only (tinygemm).
TORCHAO_KINDS = {"int8_weight_only": "Int8WeightOnlyConfig",
                 "int8_dynamic": "Int8DynamicActivationInt8WeightConfig",
                 "int4_weight_only": "Int4WeightOnlyConfig"}


def quantize_dynamic_int8(model: nn.Module) -> nn.Module:
    """A copy of ``model`` whose Linear layers run int8 (``torch.ao.quantization.quantize_dynamic``). Lesson 04.

    Weights are stored as int8 with one scale per tensor; each call quantizes the activations on the fly
    (hence *dynamic*) and multiplies with fbgemm's int8 kernels (qnnpack on ARM): a CPU only.
    ``torch.ao.quantization`` is deprecated in favour of torchao and warns on use; lesson 04 shows the
    warnings once and measures this path beside torchao's, and its lab uses it; the warnings are caught here.
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
    per-channel). Four times fewer stored weight bytes; but each call writes a dequantized fp32 copy of the
    weight and the matmul reads it back, so it moves *more* bytes than fp32 and cannot be faster anywhere.
    It shows what weight-only int8 stores; a fused kernel (torchao's) reads the int8 weight directly.
    Lesson 04 and its lab.
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


def torchao_status() -> tuple[bool, str]:
    """``(True, "torchao 0.18.0")`` where torchao imports, else ``(False, "<the error it raised>")``.
    Lesson 04.

    torchao is pinned in ``requirements.txt`` to a version built for the pinned torch; a preinstalled torch of
    another version (Colab, Kaggle) may not match it, and the lesson then says so with this error.
    """
    if importlib.util.find_spec("torchao") is None:
        return False, "torchao is not installed (pip install -r requirements.txt installs the pinned version)"
    try:
        with _quiet_torchao_import():
            module = importlib.import_module("torchao")
    except Exception as error:  # a build for another torch fails here, in many ways
        return False, f"import torchao failed: {type(error).__name__}: {error}"
    return True, f"torchao {getattr(module, '__version__', '?')}"


def torchao_available() -> bool:
    """True where torchao imports (``torchao_status``). Lesson 04."""
    return torchao_status()[0]


class _quiet_torchao_import:
    """Import-time chatter of torchao 0.18 on a CPU-only torch: a log line about its CUDA-only kernel
    library and a deprecation warning about how it registers an enum; neither concerns this lesson."""

    def __enter__(self):
        self.warnings = warnings.catch_warnings()
        self.warnings.__enter__()
        warnings.filterwarnings("ignore", message=r"(?s).*(register_constant|_C_cutlass|Could not load)")
        self.level = logging.root.manager.disable
        logging.disable(logging.WARNING)  # torchao logs "Failed to load ... .so" when no CUDA kernels exist

    def __exit__(self, *exc):
        logging.disable(self.level)
        self.warnings.__exit__(*exc)


def quantize_torchao(model: nn.Module, kind: str = "int8_dynamic") -> nn.Module:
    """A copy of ``model`` quantized by torchao's ``quantize_`` with the config ``TORCHAO_KINDS[kind]``.

    ``int8_weight_only``: int8 weights, one scale per row, the matmul in the input's float type;
    ``int8_dynamic``: int8 weights and activations quantized at each call, int8 matmuls;
    ``int4_weight_only``: 4-bit weights in groups of 128 with bf16 scales, GPU kernels only (the model must be
    on a GPU, in bf16). Each ``nn.Linear``'s weight becomes a torchao tensor subclass. Lesson 04.
    """
    if kind not in TORCHAO_KINDS:
        raise ValueError(f"kind must be one of {sorted(TORCHAO_KINDS)}, not {kind!r}")
    available, why = torchao_status()
    if not available:
        raise RuntimeError(f"quantize_torchao needs torchao: {why}")
    with _quiet_torchao_import():
        ao = importlib.import_module("torchao.quantization")
    device = next((p.device for p in model.parameters()), torch.device("cpu"))
    if kind == "int4_weight_only" and device.type != "cuda":
        raise ValueError("int4_weight_only has GPU kernels only: move the model to a GPU (and bf16) first")
    model = copy.deepcopy(model).eval()
    ao.quantize_(model, getattr(ao, TORCHAO_KINDS[kind])())  # replaces each Linear's weight in place
    return model
