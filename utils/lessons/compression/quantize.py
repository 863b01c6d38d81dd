"""Quantization, lesson 04 (``notebooks/04_compression.ipynb``) and its lab: torchao's ``quantize_`` (int8
weight-only, int8 dynamic, int4 weight-only) run as torchao means it, through ``torch.compile``; the
weight-only idea written out by hand; the deprecated ``torch.ao.quantization`` path kept as a measured
comparison.

    torchao_status()                            # (True, "torchao 0.18.0") or (False, the import error)
    q = quantize_torchao(mlp, "int8_dynamic")   # int8 weights and int8 matmuls (torchao)
    q = quantize_torchao(mlp, "int8_weight_only")   # int8 weights, float matmuls (torchao)
    q = quantize_torchao(mlp.bfloat16(), "int4_weight_only")   # 4-bit weights: a bf16 model, CPU or GPU
    fast, seconds = compile_quantized(q, x)     # torch.compile, compiled now for x's shape
    fast, seconds = torchao_int8(mlp, x)        # both steps: what lesson 04's lab uses
    old = quantize_dynamic_int8(mlp)            # torch.ao's quantize_dynamic (deprecated; fbgemm, a CPU only)
    small = weight_only_int8(mlp)               # weight-only int8 written out: smaller, never faster
"""

from __future__ import annotations

import copy
import importlib
import importlib.util
import logging
import time
import warnings

import torch
import torch.nn.functional as F
from torch import nn

__all__ = ["quantize_dynamic_int8", "WeightOnlyInt8Linear", "weight_only_int8", "torchao_available",
           "torchao_status", "TORCHAO_KINDS", "quantize_torchao", "int4_fits", "compile_quantized",
           "torchao_int8"]

# torchao's configurations (torchao.quantization), by the name this lesson uses.
TORCHAO_KINDS = {"int8_weight_only": "Int8WeightOnlyConfig",
                 "int8_dynamic": "Int8DynamicActivationInt8WeightConfig",
                 "int4_weight_only": "Int4WeightOnlyConfig"}
# int4 on a CPU: torchao 0.18 keeps its CPU layout (torch's CPU int4 kernel, _weight_int4pack_mm_for_cpu)
# under a prototype config; Int4WeightOnlyConfig's own layouts are GPU layouts.
INT4_CPU_CONFIG = ("torchao.prototype.quantization.int4", "PrototypeInt4WeightOnlyConfig")
INT4_GROUP = 128  # int4 weights share one scale per group of 128 inputs


def quantize_dynamic_int8(model: nn.Module) -> nn.Module:
    """A copy of ``model`` whose Linear layers run int8 (``torch.ao.quantization.quantize_dynamic``).
    Lesson 04.

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


def int4_fits(module: nn.Module, fqn: str = "") -> bool:
    """True for a Linear that int4's packed kernels take: inputs a multiple of the group (128), outputs of 16
    (the packing's tile). Others (the MLP's 784-input first layer, its 10-class head) stay bf16. Lesson 04."""
    return (isinstance(module, nn.Linear) and module.in_features % INT4_GROUP == 0
            and module.out_features % 16 == 0)


def _config(kind: str, device: torch.device):
    """torchao's config object for ``kind`` on ``device`` (the CPU's int4 layout is a prototype config)."""
    with _quiet_torchao_import():
        if kind == "int4_weight_only" and device.type == "cpu":
            module_name, name = INT4_CPU_CONFIG
            return getattr(importlib.import_module(module_name), name)(group_size=INT4_GROUP)
        ao = importlib.import_module("torchao.quantization")
    config = getattr(ao, TORCHAO_KINDS[kind])
    return config(group_size=INT4_GROUP) if kind == "int4_weight_only" else config()


def quantize_torchao(model: nn.Module, kind: str = "int8_dynamic") -> nn.Module:
    """A copy of ``model`` quantized by torchao's ``quantize_`` with the config of ``kind``.

    ``int8_weight_only``: int8 weights, one scale per row, the matmul in the input's float type;
    ``int8_dynamic``: int8 weights and activations quantized at each call, int8 matmuls;
    ``int4_weight_only``: 4-bit weights in groups of 128 with bf16 scales, for a bf16 model (on a CPU, the
    CPU layout; on a GPU, tinygemm, which wants bf16 tensor cores: compute capability 8 or more); only the
    layers ``int4_fits`` takes. Each quantized ``nn.Linear``'s weight becomes a torchao tensor subclass.
    Run it through ``compile_quantized``: that is where torchao's fused kernels are. Lesson 04 and its lab.
    """
    if kind not in TORCHAO_KINDS:
        raise ValueError(f"kind must be one of {sorted(TORCHAO_KINDS)}, not {kind!r}")
    available, why = torchao_status()
    if not available:
        raise RuntimeError(f"quantize_torchao needs torchao: {why}")
    with _quiet_torchao_import():
        ao = importlib.import_module("torchao.quantization")
    param = next(model.parameters(), None)
    device = param.device if param is not None else torch.device("cpu")
    if kind == "int4_weight_only" and param is not None and param.dtype != torch.bfloat16:
        raise ValueError("int4_weight_only quantizes a bf16 model: call it on model.bfloat16()")
    model = copy.deepcopy(model).eval()
    ao.quantize_(model, _config(kind, device),  # replaces each Linear's weight in place
                 filter_fn=int4_fits if kind == "int4_weight_only" else None)
    return model


def compile_quantized(model: nn.Module, example: torch.Tensor) -> tuple[nn.Module, float]:
    """``model`` through ``torch.compile``, compiled now for ``example``'s shape, and the seconds that took.

    Why: in eager mode a torchao weight is a tensor subclass, and each call dispatches in Python, one pass
    over memory per step (quantize the activations, the int8 matmul, rescale, add the bias). Compiled,
    inductor traces through the subclass, fuses those steps and picks its int8 kernels, as torchao's
    documentation intends. On a CPU inductor swaps in its packed int8 and int4 kernels only with *freezing* on
    (the weights become constants it may pre-pack), so freezing is on while it compiles. Inference only.

    The result is specialised to ``example``'s shape: call it once per shape you time. A new shape would
    compile again, without freezing; so would a call outside ``torch.inference_mode()`` (dynamo guards on
    it): time and evaluate the compiled model under inference mode, or score the model it was made from.
    Lesson 04 and its lab.
    """
    compiled = torch.compile(model, dynamic=False)
    on_cpu = example.device.type == "cpu"
    # Every compiled model of this lesson shares nn.Sequential.forward's code, whose cache dynamo caps at
    # 8 entries by default (then it silently runs eager): room for one entry per model and shape.
    with torch._inductor.config.patch(freezing=on_cpu), torch._dynamo.config.patch(recompile_limit=256), \
            torch.inference_mode(), _quiet_torchao_import():
        start = time.perf_counter()
        compiled(example)
        if example.device.type == "cuda":
            torch.cuda.synchronize(example.device)
        seconds = time.perf_counter() - start
    return compiled, seconds


def torchao_int8(model: nn.Module, example: torch.Tensor) -> tuple[nn.Module, float]:
    """torchao's int8 dynamic quantization of ``model``, compiled for ``example``'s shape: the recommended
    path in one call, ``compile_quantized(quantize_torchao(model, "int8_dynamic"), example)``. Returns the
    model to time and the compile seconds. Lesson 04's lab."""
    return compile_quantized(quantize_torchao(model, "int8_dynamic"), example)
