"""The roofline behind lesson 04's quantization references (``notebooks/04_compression.ipynb``, section 4):
is a model's matmul work limited by arithmetic or by moving bytes, on this device, and what int8 can therefore
buy at most.

    rates = measure_rates("cpu", 256, 1024, 1024)   # fp32 and int8 matmul throughput, memory bandwidth
    ref = int8_reference(mlp, batch=256, rates=rates, weight_bytes=1, int8_compute=True)
    ref.kind, ref.value, ref.why          # "compute-bound", 4.9 (measured int8 / fp32 matmul rate), "..."

A layer ``(B, K) @ (K, N)`` does ``2 B K N`` operations and moves at least ``4 (K N + B K + B N)`` bytes in
fp32. Its *arithmetic intensity* (operations per byte) against the device's *balance* (measured fp32
operations per second / measured bytes per second) says which limit it meets first: above the balance the
arithmetic (compute-bound), below it the bytes (memory-bound).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

import torch
from torch import nn

from utils import bench

__all__ = ["Rates", "measure_rates", "linear_shapes", "intensity", "Reference", "attainable",
           "int8_reference"]


@dataclass(frozen=True)
class Rates:
    """Throughputs measured on one device, the same run, interleaved. Lesson 04."""

    fp32_flops: float  # fp32 matmul, operations per second, at the shape measured
    int8_ops: float | None  # int8 matmul (int32 accumulate), operations per second; None where none runs
    bandwidth: float  # bytes per second of a large copy (read + write)
    shape: tuple[int, int, int]  # (B, K, N) of the matmuls timed
    int8_error: str = ""  # why no int8 matmul ran, where none did

    @property
    def balance(self) -> float:
        """fp32 operations per byte moved at which the device turns from memory-bound to compute-bound."""
        return self.fp32_flops / self.bandwidth

    @property
    def int8_speedup(self) -> float | None:
        """int8 matmul rate / fp32 matmul rate: what int8 arithmetic can buy a compute-bound layer."""
        return None if self.int8_ops is None else self.int8_ops / self.fp32_flops


def _int8_matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """(B, K) int8 @ (K, N) int8 -> (B, N) int32: torch's int8 matmul (oneDNN on a CPU, cuBLAS on a GPU)."""
    return torch._int_mm(a, b)


def measure_rates(device: str, batch: int, k: int, n: int, *, rounds: int = 15,
                  copy_bytes: int = 64 << 20, threads: int | None = 1) -> Rates:
    """fp32 and int8 matmul throughput on ``(batch, k) @ (k, n)`` and copy bandwidth, on ``device``, timed in
    interleaved rounds (both matmuls and the copy each round); each rate from the median paired round.

    ``threads``: CPU threads while timing on the CPU (lesson 04 times its models on one). Lesson 04.
    """
    a, b = torch.randn(batch, k, device=device), torch.randn(k, n, device=device)
    ai = torch.randint(-127, 128, (batch, k), dtype=torch.int8, device=device)
    bi = torch.randint(-127, 128, (k, n), dtype=torch.int8, device=device)
    src = torch.empty(copy_bytes // 4, device=device)
    dst = torch.empty_like(src)
    int8_error = ""
    try:
        _int8_matmul(ai, bi)
    except RuntimeError as error:  # e.g. a GPU's int8 matmul wants B > 16 and K, N multiples of 8
        int8_error = f"{type(error).__name__}: {str(error).splitlines()[0]}"
    jobs = {"fp32": lambda: a @ b, "copy": lambda: dst.copy_(src)}
    if not int8_error:
        jobs["int8"] = lambda: _int8_matmul(ai, bi)
    samples = {name: [] for name in jobs}
    with bench.threads(threads if device == "cpu" else None), torch.inference_mode():
        for r in range(rounds):
            for name in jobs if r % 2 == 0 else reversed(list(jobs)):
                samples[name] += bench.measure(jobs[name], warmup=1 if r == 0 else 0, repeats=1,
                                               device=device).samples
    ops = 2 * batch * k * n
    fp32 = statistics.median(samples["fp32"])
    int8_ops = None
    if not int8_error:  # the paired ratio of each round: both matmuls saw the same machine
        int8_ops = ops / fp32 * statistics.median(f / i for f, i in zip(samples["fp32"], samples["int8"]))
    return Rates(fp32_flops=ops / fp32, int8_ops=int8_ops, bandwidth=2 * copy_bytes / min(samples["copy"]),
                 shape=(batch, k, n), int8_error=int8_error)


def linear_shapes(model: nn.Module) -> list[tuple[int, int]]:
    """``(in_features, out_features)`` of every ``nn.Linear`` in ``model``, in order. Lesson 04."""
    return [(m.in_features, m.out_features) for m in model.modules() if isinstance(m, nn.Linear)]


def intensity(shapes: list[tuple[int, int]], batch: int, weight_bytes: float = 4,
              activation_bytes: float = 4) -> tuple[float, float]:
    """``(operations, bytes)`` of one forward pass through Linear layers of ``shapes`` on ``batch`` rows:
    ``2 B K N`` operations and ``weight_bytes K N + activation_bytes B (K + N)`` bytes per layer (each
    weight read once, each input read and each output written once). Lesson 04."""
    ops = sum(2 * batch * k * n for k, n in shapes)
    moved = sum(weight_bytes * k * n + activation_bytes * batch * (k + n) for k, n in shapes)
    return ops, moved


@dataclass(frozen=True)
class Reference:
    """What int8 can buy a model's Linear layers on one device, from the roofline. Lesson 04."""

    kind: str  # "compute-bound" or "memory-bound"
    value: float  # the reference speedup
    intensity: float  # the fp32 model's operations per byte
    balance: float  # the device's fp32 operations per byte (measured)
    why: str  # one line: where the value comes from


def attainable(rates: Rates, ops: float, moved: float, int8_compute: bool = False) -> float:
    """Operations per second the roofline allows a pass of ``ops`` operations moving ``moved`` bytes: the
    lower of the compute roof (the measured fp32 matmul rate, or int8's where ``int8_compute``) and what the
    measured bandwidth can feed (``ops / moved`` operations per byte × bytes per second). Lesson 04."""
    compute = rates.int8_ops if int8_compute and rates.int8_ops else rates.fp32_flops
    return min(compute, ops / moved * rates.bandwidth)


def int8_reference(model: nn.Module, batch: int, rates: Rates, *, weight_bytes: float = 1,
                   int8_compute: bool = True, base_bytes: float = 4) -> Reference:
    """The speedup reference of a quantized ``model`` against its float self on ``batch`` rows: the roofline's
    attainable rate of the quantized pass over the float pass's.

    Memory-bound (the fp32 model's intensity below the balance) this is the ratio of bytes moved,
    ``base_bytes`` per weight and activation (4: fp32; 2: a bf16 baseline) against ``weight_bytes`` per weight
    (1 for int8, 0.5 for int4; activations as in the baseline). Compute-bound it is the measured int8 / fp32 matmul rate
    where the quantized model computes in int8 (``int8_compute``: dynamic int8), else 1x (weight-only: the
    matmul is still a float matmul). Lesson 04.
    """
    shapes = linear_shapes(model)
    ops, fp32_bytes = intensity(shapes, batch)
    base = intensity(shapes, batch, weight_bytes=base_bytes, activation_bytes=base_bytes)[1]
    small = intensity(shapes, batch, weight_bytes=weight_bytes, activation_bytes=base_bytes)[1]
    int8_compute = int8_compute and rates.int8_ops is not None
    value = attainable(rates, ops, small, int8_compute) / attainable(rates, ops, base)
    kind = "memory-bound" if ops / fp32_bytes < rates.balance else "compute-bound"
    if kind == "memory-bound":
        why = (f"bytes moved, {base_bytes:g} bytes a weight -> {weight_bytes:g}: {base / 1e6:.1f} MB -> "
               f"{small / 1e6:.1f} MB a pass")
    elif int8_compute:
        b, k, n = rates.shape
        why = (f"int8 / fp32 matmul rate measured on ({b}, {k}) @ ({k}, {n}): {rates.int8_ops / 1e9:.0f} / "
               f"{rates.fp32_flops / 1e9:.0f} G operations/s")
    else:
        why = "the matmul stays a float matmul: fewer weight bytes do not shorten the arithmetic"
        if rates.int8_error and weight_bytes == 1:
            why += f" (no int8 matmul ran here: {rates.int8_error})"
    return Reference(kind, value, ops / fp32_bytes, rates.balance, why)
