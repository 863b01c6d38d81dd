"""Benchmark ``quantize`` (lesson 04): how much faster torchao's dynamic int8 runs the Linear-heavy MLP than
its base (fp32 on a CPU, bf16 on a GPU), compiled as torchao means it to run, against the roofline-based
reference of lesson 04 (``utils.lessons.compression.roofline``): at the timed batch the MLP is
compute-bound, so the reference is the measured int8 / fp32 matmul rate of this device. torchao eager and
compiled and, on a CPU, torch.ao's deprecated int8 are timed in the same interleaved rounds; the note names
the regime of the reference and, where torchao's compiled path trails torch.ao's, the kernel that loses.
Correct before fast: every variant's output error against the fp32 model (largest error over largest output)
is reported beside its speed-up, the int8 path that ran is named (7-bit where the CPU's int8 matmul would
saturate), and a variant beyond its tolerance gets no speed-up: the result then measures 0.
Timed where lesson 04's settings put section 4 (``quant_device``). ``python -m utils.benchmarks quantize --json``.
"""

from __future__ import annotations

import torch

from utils import bench, data, devices, models
from utils.lessons.compression.measure import model_bytes, time_by_op, timed_batch
from utils.lessons.compression.plan import Settings, lesson_settings
from utils.lessons.compression.quantize import compile_quantized, int8_path, torchao_status
from utils.lessons.compression.quantruns import quant_variants, reference_of, time_variants
from utils.lessons.compression.roofline import figure_text, linear_shapes, measure_rates
from utils.lessons.compression.train import linear_heavy_mlp, train

EPOCHS = 6
BATCH = 256  # compute-bound on a CPU: int8 arithmetic, not bytes, decides
ROUNDS = 21
BEST, EAGER, LEGACY = "torchao int8 dynamic, compiled", "torchao int8 dynamic", "torch.ao int8 dynamic (deprecated)"
TIMED = ("fp32", "bf16", "fp16", EAGER, BEST, LEGACY)


def note(settings: Settings, reference: str = "roofline", extra: str = "") -> str:
    """The result's note: the reference (with its regime), what was timed, and where."""
    return (f"reference: {reference}; torchao int8 dynamic (Int8DynamicActivationInt8WeightConfig) through "
            f"torch.compile, Linear-heavy MLP, batch {settings.quant_batches[-1]}, against "
            f"{settings.quant_base}{settings.quant_label}{extra}")


def _loser(variants, x) -> str:
    """Where torchao's compiled int8 trails torch.ao's: the top operators of each, from the profiler."""
    fast = compile_quantized(variants[BEST].model, x)[0]
    ops = {name: time_by_op(model, x, top=2) for name, model in ((BEST, fast), (LEGACY, variants[LEGACY].model))}
    return "; ".join(f"{n}: " + ", ".join(f"{op} {share:.0%}" for op, share in shares) for n, shares in ops.items())


@bench.register("quantize")
def quantize_benchmark() -> bench.Result:
    """base latency / torchao int8 dynamic (compiled) latency, median of paired rounds, the trained MLP."""
    settings = lesson_settings(devices.plan(2), devices.hardware(), latency_batch=BATCH)
    device, batch = settings.quant_device, settings.quant_batches[-1]
    train_set, test_set = data.digits_28("train"), data.digits_28("test")
    model = linear_heavy_mlp()
    train(model, train_set, EPOCHS)
    available, why = torchao_status()
    if not available:
        raise RuntimeError(f"the quantize benchmark measures torchao: {why}")
    every = quant_variants(model, settings)
    variants = {n: every[n] for n in TIMED if n in every}
    run = time_variants(variants, (batch,), test_set, device, rounds=ROUNDS)[batch]
    k, n = max(linear_shapes(model), key=lambda shape: shape[0] * shape[1])  # the largest layer's matmul
    rates = measure_rates(device, batch, k, n, cache_bytes=model_bytes(model), half=settings.half_name)
    reference = reference_of(variants[BEST], model, batch, rates)
    int8 = variants[BEST].model
    errors = {n: round(run.error[n], 5) for n in variants}
    wrong = [n for n in variants if not run.correct(n)]
    extra = {"output_error": errors, "tolerance": {n: run.tolerance[n] for n in variants}, "wrong": wrong,
             "int8_path": int8_path(device),
             "noise": run.noise[BEST], "eager_speedup": run.speedup[EAGER], "reference_kind": reference.label,
             "reference_why": reference.why, "reference_rough": reference.rough,
             "threads": torch.get_num_threads(),  # lesson 04 times on one thread: lesson 09 names the difference
             "cpu_capability": torch.backends.cpu.get_cpu_capability(),
             "cpu_isa": devices.cpu_isa(), "compile_seconds": run.compile_seconds.get(BEST),
             "size_ratio": model_bytes(model) / model_bytes(int8),
             "accuracy_drop": models.accuracy(model, test_set) - models.accuracy(int8, test_set)}
    if settings.half_name in run.speedup:
        extra[f"{settings.half_name}_speedup"] = run.speedup[settings.half_name]
    lost = ""
    if LEGACY in variants:
        extra["torch_ao_speedup"] = run.speedup[LEGACY]
        if run.speedup[BEST] < run.speedup[LEGACY]:
            lost = f"; torchao trails torch.ao: {_loser(variants, timed_batch(test_set, batch, device))}"
    correct = run.correct(BEST)
    checked = (f"; outputs within {run.tolerance[BEST]:.0%} of fp32's (error {run.error[BEST]:.2%})" if correct else
               f"; NO SPEED-UP REPORTED: its outputs are {run.error[BEST]:.1%} off fp32's (tolerance "
               f"{run.tolerance[BEST]:.0%}), a fast wrong answer")
    if wrong:
        checked += "; beyond tolerance: " + ", ".join(f"{n} {run.error[n]:.1%}" for n in wrong)
    return bench.Result("quantize", measured=run.speedup[BEST] if correct else 0.0, bound=reference.value,
                        unit="x", note=note(settings, f"{figure_text(reference.value, reference.rough)}, {reference.label}: "
                                                      f"{reference.why}",  # "~8.1x (rough)" as lesson 04 prints it
                                            lost + checked + f"; path: {int8_path(device)}"),
                        extra=extra)
