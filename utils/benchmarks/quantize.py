"""Benchmark ``quantize`` (lesson 04): how much faster torchao's dynamic int8 runs the Linear-heavy MLP than
fp32, against the roofline-based reference of lesson 04 (``utils.lessons.compression.roofline``): at the
timed batch the MLP is compute-bound, so the reference is the measured int8 / fp32 matmul rate of this
device. Timed where lesson 04's settings put section 4 (``quant_device``).
``python -m utils.benchmarks quantize --json``.
"""

from __future__ import annotations

import torch

from utils import bench, data, devices, models
from utils.lessons.compression.measure import compare, compare_latency, model_bytes, timed_batch
from utils.lessons.compression.plan import Settings, lesson_settings
from utils.lessons.compression.quantize import quantize_dynamic_int8, quantize_torchao, torchao_status
from utils.lessons.compression.roofline import int8_reference, linear_shapes, measure_rates
from utils.lessons.compression.train import linear_heavy_mlp, train

EPOCHS = 6
BATCH = 256  # compute-bound on a CPU: int8 arithmetic, not bytes, decides
ROUNDS = 21


def note(settings: Settings, reference: str = "roofline") -> str:
    """The result's note: the reference, what was timed, and where."""
    return (f"reference: {reference}; torchao int8 dynamic (Int8DynamicActivationInt8WeightConfig), eager, "
            f"Linear-heavy MLP, batch {settings.quant_batches[-1]}{settings.quant_label}")


@bench.register("quantize")
def quantize_benchmark() -> bench.Result:
    """fp32 latency / torchao int8 dynamic latency (median of paired rounds), the trained Linear-heavy MLP."""
    settings = lesson_settings(devices.plan(2), devices.hardware(), latency_batch=BATCH)
    device, batch = settings.quant_device, settings.quant_batches[-1]
    train_set, test_set = data.digits_28("train"), data.digits_28("test")
    model = linear_heavy_mlp()
    train(model, train_set, EPOCHS)
    available, why = torchao_status()
    if not available:
        raise RuntimeError(f"the quantize benchmark measures torchao: {why}")
    variants = {"fp32": model, "torchao int8 dynamic": quantize_torchao(model, "int8_dynamic")}
    if settings.legacy_int8:
        variants["torch.ao int8 dynamic"] = quantize_dynamic_int8(model)
    x = timed_batch(test_set, batch, device)
    times = compare_latency(variants, x, rounds=ROUNDS)
    k, n = max(linear_shapes(model), key=lambda shape: shape[0] * shape[1])  # the largest layer's matmul
    reference = int8_reference(model, batch, measure_rates(device, batch, k, n))
    measured, noise, _ = compare(times["fp32"], times["torchao int8 dynamic"])
    int8 = variants["torchao int8 dynamic"]
    extra = {"noise": noise, "reference_kind": reference.kind, "reference_why": reference.why,
             "cpu_capability": torch.backends.cpu.get_cpu_capability(),
             "size_ratio": model_bytes(model) / model_bytes(int8),
             "accuracy_drop": models.accuracy(model, test_set) - models.accuracy(int8, test_set)}
    if settings.legacy_int8:
        extra["torch_ao_speedup"] = compare(times["fp32"], times["torch.ao int8 dynamic"])[0]
    if reference.value is None:
        raise RuntimeError(f"no roofline reference on {device}: {reference.why}")
    return bench.Result("quantize", measured=measured, bound=reference.value, unit="x",
                        note=note(settings, f"{reference.value:.2f}x, {reference.kind}: {reference.why}"),
                        extra=extra)
