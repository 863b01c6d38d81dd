"""Benchmark ``quantize`` (lesson 04): how much faster dynamic int8 runs the Linear-heavy MLP than fp32.

Set against 4x, a reference (int8 moves 4x fewer weight bytes than fp32), not a ceiling: compute-bound
int8 can exceed it. Timed on the CPU in every mode (torch.ao's dynamic int8 kernels are CPU kernels), as
lesson 04's settings decide (``utils.lessons.compression.plan``). ``python -m utils.benchmarks quantize --json``.
"""

from __future__ import annotations

from utils import bench, data, devices, models
from utils.lessons.compression.measure import model_bytes, speedup, timed_batch
from utils.lessons.compression.plan import Settings, lesson_settings
from utils.lessons.compression.quantize import quantize_dynamic_int8
from utils.lessons.compression.train import linear_heavy_mlp, train

EPOCHS = 6
BATCH = 256  # a batch where int8 matrix multiplies beat fp32 clearly on a CPU


def note(settings: Settings) -> str:
    """The result's note: the reference, what was timed, and where."""
    return ("reference 4x = int8 vs fp32 bytes moved (compute-bound int8 can exceed it); torch.ao dynamic "
            f"int8, eager, Linear-heavy MLP, batch {settings.cpu_batch}{settings.cpu_label}")


@bench.register("quantize")
def quantize_benchmark() -> bench.Result:
    """fp32 latency / int8 dynamic latency of the trained Linear-heavy MLP on a batch of 256 digits."""
    settings = lesson_settings(devices.plan(2), devices.hardware(), latency_batch=BATCH)
    train_set, test_set = data.digits_28("train"), data.digits_28("test")
    model = linear_heavy_mlp()
    train(model, train_set, EPOCHS)
    int8 = quantize_dynamic_int8(model)
    measured = speedup(model, int8, timed_batch(test_set, settings.cpu_batch, "cpu"), rounds=21)
    return bench.Result(
        "quantize", measured=measured, bound=4.0, unit="x", note=note(settings),
        extra={"size_ratio": model_bytes(model) / model_bytes(int8),
               "accuracy_drop": models.accuracy(model, test_set) - models.accuracy(int8, test_set)})
