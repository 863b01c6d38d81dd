"""Every quantized path lesson 04 teaches, run under one CPU ISA, each model's outputs against the fp32
model's: the numerics check behind ``tests/test_isa.py``. Run it under an emulated ISA (the environment from
``utils.devices.isa_emulations()``) to see what an older CPU computes:

    ATEN_CPU_CAPABILITY=avx2 ONEDNN_MAX_CPU_ISA=AVX2 python -m utils.tools.isa_check   # one JSON line

Prints ``{"isa": ..., "int8_path": ..., "errors": {variant: error}, "tolerance": {variant: tolerance},
"full_range_error": ...}``; the last is int8 dynamic forced to the full 8-bit range, the worse of eager and
compiled (which kernel saturates depends on the ISA): beyond tolerance
where the CPU's int8 matmul saturates (the hazard the course's path avoids), within it elsewhere.
error is the largest error over the largest output (``quantize.output_error``), on an untrained MLP fed random
inputs, the hardest case for int8 (no outliers tamed by training). A maintainer's tool; learners never need it.
"""

from __future__ import annotations

import json
import warnings

import torch

from utils import devices
from utils.lessons.compression import quantize
from utils.lessons.compression.precision import HalfWeights
from utils.lessons.compression.train import linear_heavy_mlp

BATCH = 64


def variants(mlp: torch.nn.Module) -> dict[str, tuple[torch.nn.Module, bool, str]]:
    """name -> (model, compiled, what it stores): every path of lesson 04's section 4 on a CPU."""
    out = {"bf16": (HalfWeights(mlp, torch.bfloat16), True, "bf16"),
           "int8 weight-only, by hand": (quantize.weight_only_int8(mlp), False, "int8"),
           "torch.ao int8 dynamic (deprecated)": (quantize.quantize_dynamic_int8(mlp), False, "int8")}
    for kind in ("int8_weight_only", "int8_dynamic"):
        q = quantize.quantize_torchao(mlp, kind)
        out[f"torchao {kind}"] = (q, False, "int8")
        out[f"torchao {kind}, compiled"] = (q, True, "int8")
    out["torchao int4_weight_only, compiled"] = (quantize.quantize_torchao(HalfWeights(mlp, torch.bfloat16),
                                                                           "int4_weight_only"), True, "int4")
    return out


def main() -> None:
    torch.manual_seed(0)
    mlp = linear_heavy_mlp(width=256, hidden_layers=2, seed=0).eval()
    x = torch.randn(BATCH, 1, 28, 28)
    errors, tolerance = {}, {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, (model, compiled, stores) in variants(mlp).items():
            run = quantize.compile_quantized(model, x)[0] if compiled else model
            errors[name] = quantize.output_error(run, mlp, x)
            tolerance[name] = quantize.TOLERANCE[stores]
        full = quantize.quantize_torchao(mlp, "int8_dynamic", reduce_range=False)
        full_range_error = max(quantize.output_error(full, mlp, x),  # the worse of eager and compiled
                               quantize.output_error(quantize.compile_quantized(full, x)[0], mlp, x))
    print(json.dumps({"isa": devices.cpu_isa(), "full_range_error": full_range_error, "int8_saturates": devices.cpu_features().int8_saturates,
                      "int8_path": quantize.int8_path("cpu"), "errors": errors, "tolerance": tolerance}))


if __name__ == "__main__":
    main()
