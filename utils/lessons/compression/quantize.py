"""Quantization, lesson 04 (``notebooks/04_compression.ipynb``) and its lab: torchao's ``quantize_`` (int8
weight-only, int8 dynamic, int4 weight-only) run as torchao means it, through ``torch.compile``; the
weight-only idea written out by hand; the deprecated ``torch.ao.quantization`` path kept as a measured
comparison.

    torchao_status()                            # (True, "torchao 0.18.0") or (False, the import error)
    q = quantize_torchao(mlp, "int8_dynamic")   # int8 weights and int8 matmuls (torchao; 7-bit without VNNI)
    int8_path("cpu")                            # which int8 path that is on this CPU, and why
    output_error(q, mlp, x)                     # largest error over the largest output: 0.01 = 1 %
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
import weakref

import torch
import torch.nn.functional as F
from torch import nn

__all__ = ["quantize_dynamic_int8", "WeightOnlyInt8Linear", "weight_only_int8", "torchao_available",
           "torchao_status", "TORCHAO_KINDS", "quantize_torchao", "int4_fits", "compile_quantized",
           "torchao_int8", "int8_reduced_range", "emulated_int8_linear", "emulated_int8_model", "int8_path",
           "output_error", "TOLERANCE"]

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


def _config(kind: str, device: torch.device, reduce_range: bool | None = None):
    """torchao's config object for ``kind`` on ``device`` (the CPU's int4 layout is a prototype config; int8
    dynamic in 7 bits where the CPU's int8 matmul would saturate, ``int8_reduced_range``)."""
    with _quiet_torchao_import():
        if kind == "int4_weight_only" and device.type == "cpu":
            module_name, name = INT4_CPU_CONFIG
            return getattr(importlib.import_module(module_name), name)(group_size=INT4_GROUP)
        ao = importlib.import_module("torchao.quantization")
    config = getattr(ao, TORCHAO_KINDS[kind])
    if kind == "int4_weight_only":
        return config(group_size=INT4_GROUP)
    if kind == "int8_dynamic":
        return config(reduce_range=int8_reduced_range(device) if reduce_range is None else reduce_range)
    return config()


def int8_reduced_range(device: torch.device | str) -> bool:
    """True where int8 activations and weights must be quantized to 7 bits to stay exact: a CPU whose int8
    matmul adds pairs of products in 16 bits (no VNNI, no AMX: ``devices.cpu_features().int8_saturates``).
    There full-range int8 saturates (255 x 127 x 2 > 32767) and the compiled model is tens of % off. torchao's
    own switch for it is ``reduce_range``. Lesson 04."""
    from utils import devices

    return torch.device(device).type == "cpu" and devices.cpu_features().int8_saturates


def int8_path(device: torch.device | str) -> str:
    """Which int8 dynamic path runs on ``device``, and why, in one phrase (the lesson prints it). Lesson 04."""
    from utils import devices

    if torch.device(device).type != "cpu":
        return "int8 dynamic, full 8-bit range (the GPU's int8 matmuls accumulate in 32 bits)"
    isa = devices.cpu_features().describe()
    if int8_reduced_range(device):
        return (f"int8 dynamic, reduced 7-bit range: this CPU ({isa}) has no VNNI or AMX, so oneDNN adds "
                "pairs of int8 products in 16 bits, which full-range int8 overflows")
    return f"int8 dynamic, full 8-bit range: this CPU ({isa}) accumulates int8 products in 32 bits"


def emulated_int8_linear(x: torch.Tensor, linear: nn.Linear, reduced_range: bool = False,
                         pairs_in_16_bits: bool = True) -> torch.Tensor:
    """``linear(x)`` computed as oneDNN's int8 matmul does it, written out in plain torch so that any CPU can
    show what an older one computes. Lesson 04.

    Activations (B, K) are quantized per row, weights (N, K) per output row, symmetric: to [-127, 127], or
    [-64, 63] with ``reduced_range``. oneDNN shifts the activations to unsigned (+128: u8 in [1, 255]) and
    takes the shift back out afterwards (128 x the weights' column sums). With ``pairs_in_16_bits`` (a CPU
    without VNNI: AVX2's vpmaddubsw) each two neighbouring products are added into a 16-bit register, which
    saturates at ±32767; otherwise (VNNI, AMX) they accumulate in 32 bits. Returns (B, N) in fp32.
    """
    top = 63 if reduced_range else 127
    w = linear.weight.detach().float()  # (N, K)
    w_scale = w.abs().amax(dim=1, keepdim=True).clamp(min=1e-12) / top  # (N, 1)
    w_q = torch.round(w / w_scale).clamp(-top - 1, top).to(torch.int32)  # (N, K)
    a_scale = x.abs().amax(dim=1, keepdim=True).clamp(min=1e-12) / top  # (B, 1)
    a_u = torch.round(x / a_scale).clamp(-top - 1, top).to(torch.int32) + 128  # (B, K), unsigned
    products = a_u.unsqueeze(1) * w_q.unsqueeze(0)  # (B, N, K)
    if pairs_in_16_bits:
        products = products[..., 0::2] + products[..., 1::2]  # (B, N, K/2): a pair in one 16-bit lane
        products = products.clamp(-32768, 32767)  # saturation: what does not fit is cut, silently
    acc = products.sum(dim=-1) - 128 * w_q.sum(dim=1)  # (B, N) in 32 bits, the +128 shift taken back out
    out = acc.float() * a_scale * w_scale.T
    return out + linear.bias.detach() if linear.bias is not None else out


def emulated_int8_model(model: nn.Module, x: torch.Tensor, reduced_range: bool = False,
                        pairs_in_16_bits: bool = True) -> torch.Tensor:
    """``model(x)`` with every ``nn.Linear`` computed by ``emulated_int8_linear`` (forward hooks replace each
    layer's output): the whole model as an older CPU's int8 kernel would run it. Keep ``x`` small: the
    emulation holds every product, (batch, out, in) integers a layer. Lesson 04."""
    def as_int8(layer, inputs, output):
        return emulated_int8_linear(inputs[0].flatten(0, -2), layer, reduced_range,
                                    pairs_in_16_bits).reshape(output.shape)

    hooks = [m.register_forward_hook(as_int8) for m in model.modules() if isinstance(m, nn.Linear)]
    try:
        with torch.inference_mode():
            return model(x)
    finally:
        for hook in hooks:
            hook.remove()


# How far a compressed model's outputs may stray from the fp32 model's before its speed stops counting:
# largest error over largest output (``output_error``). A speed-up is reported only within it (lesson 04).
TOLERANCE = {"bf16": 0.05, "fp16": 0.05, "int8": 0.05, "int4": 0.10}


def output_error(model: nn.Module, reference: nn.Module, x: torch.Tensor) -> float:
    """max |model(x) - reference(x)| / max |reference(x)|: 0.01 means the worst output is off by 1 % of the
    largest. Both run under inference mode, in fp32 (a 16-bit output is converted). Lesson 04."""
    with torch.inference_mode():
        want = reference(x).float()
        got = model(x).float()
    return float((got - want).abs().max() / want.abs().max().clamp(min=1e-12))


def quantize_torchao(model: nn.Module, kind: str = "int8_dynamic",
                     reduce_range: bool | None = None) -> nn.Module:
    """A copy of ``model`` quantized by torchao's ``quantize_`` with the config of ``kind``.

    ``int8_weight_only``: int8 weights, one scale per row, the matmul in the input's float type;
    ``int8_dynamic``: int8 weights and activations quantized at each call, int8 matmuls (7-bit where the
    CPU's int8 matmul would saturate: ``int8_path`` says which);
    ``int4_weight_only``: 4-bit weights in groups of 128 with bf16 scales, for a bf16 model (on a CPU, the
    CPU layout; on a GPU, tinygemm, torchao's int4 matmul kernel, which wants bf16 tensor cores: compute
    capability 8 or more); only the layers ``int4_fits`` takes. Each quantized ``nn.Linear``'s weight becomes
    a torchao tensor subclass. Run it through ``compile_quantized``: that is where torchao's fused kernels
    are. ``reduce_range``: int8 dynamic's 7-bit range forced on or off (None: chosen from this CPU,
    ``int8_reduced_range``; forcing it off on a CPU without VNNI gives the saturating model, which the ISA
    tests use to show the hazard is real).
    Lesson 04 and its lab.
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
    ao.quantize_(model, _config(kind, device, reduce_range),  # replaces each Linear's weight in place
                 filter_fn=int4_fits if kind == "int4_weight_only" else None)
    return model


# Compiled models already made, by model and input (shape, dtype, device): a lesson compiles each once.
_COMPILED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


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
    Asked again for the same model and shape, it returns the model compiled the first time (and the seconds
    that first compile took): a lesson pays for each compile once. Lesson 04 and its lab.
    """
    key = (tuple(example.shape), example.dtype, str(example.device))
    done = _COMPILED.setdefault(model, {})
    if key not in done:
        done[key] = _compile_now(model, example)
    return done[key]


def _compile_now(model: nn.Module, example: torch.Tensor) -> tuple[nn.Module, float]:
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
