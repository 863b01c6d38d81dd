"""The roofline behind lesson 04's quantization references (``notebooks/04_compression.ipynb``, section 4):
is a model's matmul work limited by arithmetic or by moving bytes, on this device, and what int8 can therefore
buy at most.

    rates = measure_rates("cpu", 256, 1024, 1024, cache_bytes=12e6)   # matmul rates, DRAM and L3 bandwidth
    ref = int8_reference(mlp, batch=256, rates=rates, weight_bytes=1, int8_compute=True)
    ref.kind, ref.value, ref.why          # "compute-bound", 4.9 (measured int8 / fp32 matmul rate), "..."

A layer ``(B, K) @ (K, N)`` does ``2 B K N`` operations and moves at least ``4 (K N + B K + B N)`` bytes in
fp32. Its *arithmetic intensity* (operations per byte) against the device's *ridge point* (lesson 01: measured
fp32 operations per second / measured bytes per second) says which limit it meets first: above the ridge point
the arithmetic (compute-bound), below it the bytes (memory-bound). Where the bytes come from matters: a warm pass
whose bytes fit in the last-level cache reads them from the L3, far faster than from DRAM, and is set beside
the L3's measured bandwidth (a reference), not DRAM's, where STREAM's three arrays of its size fit in the L3 too
(else no L3 rate is measured, and DRAM's is used: ``no_cache_rate`` says which).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

import torch
from torch import nn

from utils import bench, claims, devices, machine

__all__ = ["Rates", "measure_rates", "linear_shapes", "intensity", "Reference", "attainable",
           "int8_reference", "printed_rate_ratio", "rate_spread", "figure_text", "busy_note", "ROUGH",
           "no_cache_rate", "pass_rate_note"]


@dataclass(frozen=True)
class Rates:
    """Throughputs measured on one device, the same run, interleaved (``utils.machine``'s probes). Lesson 04."""

    fp32_flops: float  # fp32 matmul, operations per second, at the shape measured
    int8_ops: float | None  # int8 matmul (int32 accumulate), operations per second; None where none runs
    bandwidth: float  # bytes per second from memory (DRAM): STREAM on 3 arrays that together overflow the L3
    shape: tuple[int, int, int]  # (B, K, N) of the matmuls timed
    int8_error: str = ""  # why no int8 matmul ran, where none did
    cache_bandwidth: float | None = None  # bytes per second from the last-level cache (a reference), if measured
    cache_bytes: int = 0  # the last-level cache's size: a pass whose bytes fit in it runs from the cache
    ceilings: tuple = ()  # the machine.Ceiling of every rate above, by name (the lesson's collapsed block)
    bf16_flops: float | None = None  # 16-bit matmul (bf16; fp16 on a T4), operations per second, where measured
    last_cache: int = 0  # the last-level cache this CPU reports, measured against or not (0: none, or a GPU)

    @property
    def ridge_point(self) -> float:
        """fp32 operations per byte moved at which the device turns from memory-bound to compute-bound."""
        return self.fp32_flops / self.bandwidth

    @property
    def int8_speedup(self) -> float | None:
        """int8 matmul rate / fp32 matmul rate: what int8 arithmetic can buy a compute-bound layer."""
        return None if self.int8_ops is None else self.int8_ops / self.fp32_flops

    def bandwidth_for(self, moved: float) -> tuple[float, str]:
        """The bandwidth a pass moving ``moved`` bytes meets, and its regime: a warm pass whose bytes fit in
        the last-level cache is fed from the cache ("L3"), not from DRAM. Where they fit but no L3 rate was
        measured (``no_cache_rate``), DRAM's rate is used, yet nothing says the bytes come from DRAM: the
        regime is "L3 or DRAM" (``pass_rate_note`` reads the pass's own time for a hint)."""
        if self.cache_bandwidth and moved <= self.cache_bytes:
            return self.cache_bandwidth, "L3"
        if moved <= self.last_cache:
            return self.bandwidth, "L3 or DRAM"
        return self.bandwidth, "DRAM"


def _int8_matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """(B, K) int8 @ (K, N) int8 -> (B, N) int32: torch's int8 matmul (oneDNN on a CPU, cuBLAS on a GPU)."""
    return torch._int_mm(a, b)


def _matmul_probe(dtype: str, device: str, batch: int, k: int, n: int, threads: int | None) -> machine.Probe:
    """``machine``'s matmul probe at one layer's shape, ``(batch, k) @ (k, n)``, named by that shape."""
    def make():
        if dtype == "int8":
            a = torch.randint(-64, 64, (batch, k), dtype=torch.int8, device=device)
            b = torch.randint(-64, 64, (k, n), dtype=torch.int8, device=device)
            return lambda: _int8_matmul(a, b)
        a, b = (torch.randn(shape, device=device, dtype=machine.DTYPES[dtype]) for shape in ((batch, k), (k, n)))
        return lambda: a @ b

    return machine.Probe("matmul peak", dtype, None if device.startswith("cuda") else threads,
                         f"({batch}, {k}) @ ({k}, {n})", 2 * batch * k * n,
                         "ops/s" if dtype == "int8" else "FLOP/s", make)


def _int8_runs(device: str, batch: int, k: int, n: int) -> str:
    """Why torch's int8 matmul cannot run this shape here ("" where it runs)."""
    try:
        _int8_matmul(torch.ones(batch, k, dtype=torch.int8, device=device),
                     torch.ones(k, n, dtype=torch.int8, device=device))
    except RuntimeError as error:  # e.g. a GPU's int8 matmul wants B > 16 and K, N multiples of 8
        return f"{type(error).__name__}: {str(error).splitlines()[0]}"
    return ""


def measure_rates(device: str, batch: int, k: int, n: int, *, rounds: int = 5, copy_bytes: int = 64 << 20,
                  cache_bytes: int | None = None, threads: int | None = 1, half: str = "bf16") -> Rates:
    """fp32 and int8 matmul throughput on ``(batch, k) @ (k, n)`` and memory bandwidth on ``device``, measured
    by the machine profile's functions (``utils.machine``) in interleaved rounds, each the fastest run.

    DRAM's bandwidth is STREAM on arrays of ``copy_bytes`` or of the last-level cache's size, whichever is
    larger (a server's L3 of hundreds of MiB holds 64 MiB): STREAM's three arrays then overflow the cache
    together, each at least its size. ``cache_bytes``: where given, STREAM also runs on
    arrays of that size (a model's weights), warm: the cache-resident reference of a pass that fits in the
    L3. ``threads``: CPU threads while timing on the CPU (lesson 04 times its models on one). ``half``: the
    16-bit type whose matmul rate is ``Rates.bf16_flops`` ("fp16" on a GPU that emulates bf16, a T4). Lesson 04.
    """
    gpu = device.startswith("cuda")
    last_cache = 0 if gpu else max(devices.cpu_caches().get("L3", 0), devices.cpu_caches().get("L2", 0))
    int8_error = _int8_runs(device, batch, k, n)
    probes = [_matmul_probe("fp32", device, batch, k, n, threads)]
    probes += [] if int8_error else [_matmul_probe("int8", device, batch, k, n, threads)]
    probes += [_matmul_probe(half, device, batch, k, n, threads)]
    probes += machine.stream_probes(max(copy_bytes, last_cache) // 4, device, threads)
    cached = bool(cache_bytes) and not gpu and 3 * cache_bytes <= last_cache  # all three arrays fit
    probes += machine.stream_probes(cache_bytes // 4, device, threads) if cached else []
    with torch.inference_mode():  # every probe in the same interleaved rounds, as machine.measure_ceilings
        timed = machine.run_rounds([(p.threads, p.make()) for p in probes], rounds, runs=2, device=device)
    found = [machine.ceiling_of(p, m) for p, m in zip(probes, timed)]
    peak = {c.dtype: c for c in found if c.kind == "matmul peak"}
    # STREAM copy and add on each array size: keep the faster of the two, as the machine profile does
    dram = max(found[len(peak):len(peak) + 2], key=lambda c: c.best)
    cache = max(found[len(peak) + 2:], key=lambda c: c.best) if cached else None
    return Rates(fp32_flops=peak["fp32"].best, int8_ops=peak["int8"].best if "int8" in peak else None,
                 bandwidth=dram.best, shape=(batch, k, n), int8_error=int8_error,
                 cache_bandwidth=cache.best if cache else None, cache_bytes=last_cache if cached else 0,
                 bf16_flops=peak[half].best, last_cache=last_cache,
                 ceilings=(*peak.values(), dram, *([cache] if cache else [])))


def no_cache_rate(rates: Rates, weights: float, model: str = "model") -> str:
    """Why no L3 rate stands beside a model's bytes, where none was measured (``rates.cache_bytes`` 0): its
    ``weights`` (bytes) do not fit in the last-level cache, or they fit but STREAM's three arrays of their size
    do not, so the L3's rate cannot be measured on them; either way the ridge point uses DRAM's bandwidth.
    Where they fit, that does not make DRAM where the bytes come from: the sentence says so, and that the pass's
    own time is read later (``pass_rate_note``). "" where an L3 rate was measured, or no cache size is known
    (a GPU). Lesson 04."""
    if rates.cache_bytes or not rates.last_cache:
        return ""
    size, cache = f"{weights / 1e6:.1f} MB", f"{rates.last_cache / 2**20:.0f} MiB"
    if weights > rates.last_cache:
        return (f"The {model}'s {size} of fp32 weights do not fit in the {cache} last-level cache this CPU "
                "reports: its bytes come from DRAM, and every reference uses DRAM's bandwidth.")
    return (f"The {model}'s {size} of fp32 weights fit in the {cache} last-level cache this CPU reports, but "
            f"STREAM's three arrays of that size ({3 * weights / 1e6:.1f} MB) do not, so no L3 rate was measured "
            "for them: the ridge points above use DRAM's bandwidth. That says nothing of where the bytes come "
            "from: run again and again, the model may be read partly or wholly from the L3 (hence \"L3 or "
            "DRAM\"), whose higher rate would give a lower ridge point than the one printed. The memory-bound "
            "references are ratios of bytes, so they hold either way; the fp32 pass's own time, read after the "
            "timings, shows whether it moved its bytes faster than DRAM's rate.")


def pass_rate_note(rates: Rates, model: nn.Module, batch: int, seconds: float, name: str = "fp32",
                   passed: list[str] | None = None) -> str:
    """What a memory-bound pass's own time says of where its bytes come from: the bytes ``intensity`` counts
    for ``model`` at ``batch`` over ``seconds`` (its median), beside STREAM's DRAM rate. A pass that moves its
    bytes faster than DRAM's rate cannot be reading them all from DRAM: part at least comes from a cache. Not
    faster proves nothing (a pass also pays for its arithmetic). The rate is worked from the figures printed
    (MB to 2 decimals, the time as ``bench.fmt_seconds`` prints it) and set beside DRAM's as printed.
    "" where the pass is compute-bound (its time then says nothing of its bytes). ``passed``, where given: the
    rows of this batch that passed their reference beyond noise (``report.passed_references``), named beside
    the word that a pass can pass them, or said to be none. Lesson 04."""
    ops, moved = intensity(linear_shapes(model), batch)
    bandwidth, regime = rates.bandwidth_for(moved)
    if ops / moved >= rates.fp32_flops / bandwidth:
        return ""
    shown, printed_seconds = bench.fmt_seconds_as_printed(seconds)  # "374.7 µs": the operand a reader divides
    mb = claims.as_printed(moved, 2, 1e6)
    rate = claims.half_up(mb / printed_seconds / 1e3, 1)  # GB/s
    dram = float(f"{rates.bandwidth / 1e9:.1f}")  # as the roofline's terms print it
    head = f"The {name} pass at batch {batch} moves {mb:.2f} MB in {shown} (median): {rate:.1f} GB/s, "
    if rate > dram:
        where = {"L3": "as its L3 regime expects", "DRAM": "a cache holds part of what it reads"}.get(
            regime, "the L3 holds the whole model: \"L3 or DRAM\" is here at least partly the L3")
        return (head + f"faster than STREAM's {dram:.1f} GB/s from DRAM allows, so part of its bytes at least came "
                f"from a cache ({where}). The memory-bound references stand (ratios of bytes), though a pass "
                "served partly from a cache can pass them" + _passed_words(passed, batch))
    said = (f"no faster than STREAM's {dram:.1f} GB/s from DRAM: its time does not say whether its bytes came from "
            "the L3 or DRAM (it also pays for its arithmetic)." if regime != "DRAM" else
            f"no faster than STREAM's {dram:.1f} GB/s from DRAM, as a pass too large for the last-level cache "
            "should be." if rates.last_cache else f"no faster than STREAM's {dram:.1f} GB/s from DRAM.")
    passed_anyway = (f" All the same, {_named(passed)} passed {'its' if len(passed) == 1 else 'their'} "
                     "reference beyond noise: a reference is not a ceiling." if passed else "")
    return head + said + passed_anyway


def _named(rows: list[str]) -> str:
    """Rows' names with their figures, as one list: "A", "A and B", "A, B and C"."""
    return rows[0] if len(rows) == 1 else ", ".join(rows[:-1]) + " and " + rows[-1]


def _passed_words(passed: list[str] | None, batch: int) -> str:
    """The end of ``pass_rate_note``'s sentence that a cache can let a pass beat its reference: which rows of
    this run did, or that none did; a full stop alone where the rows were not given."""
    if passed is None:
        return "."
    if not passed:
        return f"; at batch {batch} no row of this run passed its reference beyond noise."
    return f": at batch {batch} {_named(passed)} {'does' if len(passed) == 1 else 'do'}."


def linear_shapes(model: nn.Module, takes: Callable[[nn.Module], bool] | None = None) -> list[tuple[int, int]]:
    """``(in_features, out_features)`` of every ``nn.Linear`` in ``model`` (only those ``takes`` is true
    of, where given), in order. Lesson 04."""
    return [(m.in_features, m.out_features) for m in model.modules()
            if isinstance(m, nn.Linear) and (takes is None or takes(m))]


def intensity(shapes: list[tuple[int, int]], batch: int, weight_bytes: float = 4,
              activation_bytes: float = 4) -> tuple[float, float]:
    """``(operations, bytes)`` of one forward pass through Linear layers of ``shapes`` on ``batch`` rows:
    ``2 B K N`` operations and ``weight_bytes K N + activation_bytes B (K + N)`` bytes per layer (each
    weight read once, each input read and each output written once). Lesson 04."""
    ops = sum(2 * batch * k * n for k, n in shapes)
    moved = sum(weight_bytes * k * n + activation_bytes * batch * (k + n) for k, n in shapes)
    return ops, moved


ROUGH = 0.25  # above this spread of its repeats, a measured term (and a reference built on it) is rough


def busy_note(wide: list[str]) -> str:
    """The line lesson 04 prints where roofline terms spread beyond ``ROUGH`` (``wide``: their short names):
    each probe repeats the same code, so a spread that wide most likely means other work shared the machine;
    the load average over the last minute (``os.getloadavg``, where the OS keeps one) is printed beside it,
    so that a learner sees why the references turned rough. "" where no term is that wide."""
    if not wide:
        return ""
    try:
        load = f" (load average over the last minute: {os.getloadavg()[0]:.1f}, on {devices.cpu_cores()} cores)"
    except (AttributeError, OSError):  # no load average on this OS
        load = ""
    return (f" {', '.join(wide)} spread beyond {ROUGH:.0%} although each probe repeats the same code: other work "
            f"most likely shared the machine{load}; rerun on a quiet machine for firm references.")


def figure_text(value: float, rough: bool = False) -> str:
    """How lesson 04 prints a reference: ``5.04x``, or ``~5.0x (rough)`` where a measured term it rests on
    spread by more than ``ROUGH``: one mark for every rough reference, in tables, sentences and claims."""
    # half up, as a reader rounds a ratio worked from printed rates (434.5 / 100.0 = 4.345: 4.35x, not the
    # binary 4.34499...'s 4.34x)
    return f"~{claims.half_up(value, 1):.1f}x (rough)" if rough else f"{claims.half_up(value, 2):.2f}x"


def rate_spread(rates: Rates, *values: float | None) -> float:
    """The widest spread ((max - min) / median of the repeats) of the measured ceilings whose rate is one of
    ``values`` (e.g. ``rates.int8_ops, rates.fp32_flops``): how rough a ratio of them is. Lesson 04."""
    return max((c.spread for c in rates.ceilings if c.best in values), default=0.0)


@dataclass(frozen=True)
class Reference:
    """What int8 can buy a model's Linear layers on one device, from the roofline. Lesson 04."""

    kind: str  # "compute-bound" or "memory-bound"
    value: float  # the reference speedup
    intensity: float  # the fp32 model's operations per byte
    ridge_point: float  # the device's fp32 operations per byte (measured) from where the pass's bytes live
    why: str  # one line: where the value comes from
    regime: str = "DRAM"  # where the fp32 pass's bytes live: "L3" (cache-resident), "DRAM", or "L3 or DRAM"
    spread: float = 0.0  # the widest spread of the measured terms the value is a ratio of (0: bytes, or 1x)

    @property
    def rough(self) -> bool:
        """True where a term the value rests on spread by more than ``ROUGH`` over its repeats: then the value
        is good to about that share, not to its two decimals, and no share of its gain is scored."""
        return self.spread > ROUGH

    def text(self) -> str:
        """``9.21x``, or ``~9.2x (rough)`` where ``rough``: how the lesson prints the value."""
        return figure_text(self.value, self.rough)

    @property
    def label(self) -> str:
        """``memory-bound (L3)``, ``compute-bound``: the kind, and for a memory-bound pass where it reads."""
        return f"{self.kind} ({self.regime})" if self.kind == "memory-bound" else self.kind


def attainable(rates: Rates, ops: float, moved: float, int8_compute: bool = False,
               bandwidth: float | None = None, roof: float | None = None) -> float:
    """Operations per second the roofline allows a pass of ``ops`` operations moving ``moved`` bytes: the
    lower of the compute roof (the measured fp32 matmul rate, or int8's where ``int8_compute``) and what the
    measured bandwidth (DRAM's unless ``bandwidth`` is given) can feed (``ops / moved`` operations per byte ×
    bytes per second). ``roof``: another compute roof (a bf16 matmul's rate). Lesson 04."""
    compute = roof or (rates.int8_ops if int8_compute and rates.int8_ops else rates.fp32_flops)
    return min(compute, ops / moved * (bandwidth or rates.bandwidth))


def _roof(rates: Rates, int8_compute: bool, compute: float | None) -> float:
    """The compute roof of the quantized pass: ``compute`` where given, int8's rate for an int8 matmul."""
    return compute or (rates.int8_ops if int8_compute and rates.int8_ops else rates.fp32_flops)


def printed_rate_ratio(over: float, under: float, digits: int, scale: float = 1.0) -> float:
    """``over / under`` as a reader works it from the two figures printed (``digits`` decimals, in units of
    ``scale``: ``claims.printed_ratio``): 220.4 / 100.0 G operations/s is 2.20x, not the unrounded rates'
    2.21x, wherever the lesson quotes it (section 4's reference, section 5's 16-bit rate), so one ratio
    never prints two ways."""
    return claims.printed_ratio(over, under, digits, scale)


def _from_printed(value: float, over: float, under: float, digits: int, scale: float = 1.0) -> float:
    """``value`` worked from the two figures printed beside it (``printed_rate_ratio``) where it is their
    ratio (a pass limited by the same roof in both), so that a reader who divides them finds the reference
    printed; else ``value`` unchanged (the quantized pass met another roof: its reference is not that ratio)."""
    if abs(value - over / under) > 1e-9 * value:
        return value
    return printed_rate_ratio(over, under, digits, scale)


def _float_matmul_why(base_bytes: float, weight_bytes: float) -> str:
    """Why a compute-bound pass whose matmul stays a float matmul has a 1x reference, in words that fit its
    bytes a weight: fewer (int8 or int4 weight-only), or not fewer (a compiled fp32 model, or int8 by hand,
    which moves more), so that no row is told of bytes it does not save."""
    if weight_bytes < base_bytes:
        return "the matmul stays a float matmul: fewer weight bytes do not shorten the arithmetic"
    return (f"the same float matmul as its base, {base_bytes:g} bytes a weight -> {weight_bytes:g} (no fewer): "
            "the arithmetic does not change")


def int8_reference(model: nn.Module, batch: int, rates: Rates, *, weight_bytes: float = 1,
                   int8_compute: bool = True, base_bytes: float = 4, compute: float | None = None,
                   base_compute: float | None = None, takes: Callable[[nn.Module], bool] | None = None,
                   activation_bytes: float | None = None) -> Reference:
    """The speedup reference of a quantized ``model`` against its float self on ``batch`` rows: the roofline's
    attainable rate of the quantized pass over the float pass's.

    Memory-bound (the fp32 model's intensity below the ridge point of the memory its bytes come from: the L3
    where the whole pass fits in it, warm, else DRAM) this is the ratio of bytes moved,
    ``base_bytes`` per weight and activation (4: fp32; 2: a bf16 baseline) against ``weight_bytes`` per weight
    (1 for int8, 0.5 for int4; activations as in the baseline). Compute-bound it is the measured int8 / fp32
    matmul rate where the quantized model computes in int8 (``int8_compute``: dynamic int8), else 1x
    (weight-only: the matmul is still a float matmul). ``compute``, ``base_compute``: other compute roofs of
    the quantized and the baseline pass (``rates.bf16_flops`` for a bf16 matmul: bf16 weights, or int4
    dequantized to bf16). ``takes``: which Linear layers the quantization takes (``quantize.int4_fits``);
    the others keep ``base_bytes`` a weight. ``activation_bytes``: the quantized pass's bytes an activation in
    the layers it takes, where not the base's (2: a model that casts its input to 16 bits, bf16 against
    fp32), so one 16-bit model is priced at one byte count a pass, as the variant or as a base. Lesson 04.
    """
    shapes = linear_shapes(model)
    ops, fp32_bytes = intensity(shapes, batch)
    base = intensity(shapes, batch, weight_bytes=base_bytes, activation_bytes=base_bytes)[1]
    taken = linear_shapes(model, takes)  # the layers that get ``weight_bytes``; the rest stay at base_bytes
    kept = base - intensity(taken, batch, weight_bytes=base_bytes, activation_bytes=base_bytes)[1]
    act = base_bytes if activation_bytes is None else activation_bytes
    small = kept + intensity(taken, batch, weight_bytes=weight_bytes, activation_bytes=act)[1]
    int8_compute = int8_compute and rates.int8_ops is not None
    bandwidth, regime = rates.bandwidth_for(fp32_bytes)  # a warm pass that fits in the L3 is fed from it
    value = (attainable(rates, ops, small, int8_compute, bandwidth, compute)
             / attainable(rates, ops, base, bandwidth=bandwidth, roof=base_compute))
    ridge_point = rates.fp32_flops / bandwidth
    kind = "memory-bound" if ops / fp32_bytes < ridge_point else "compute-bound"
    spread = 0.0  # memory-bound or 1x: a ratio of bytes (or none), not of measured rates
    if kind == "memory-bound":
        some = ""  # every Linear quantized; int4 takes only some (``takes``): the rest keep the base's bytes
        if len(taken) < len(shapes):
            some = (f" in the {len(taken)} of {len(shapes)} Linear layers it takes "
                    f"(the others stay at {base_bytes:g})")
        where = {"L3": "read from the L3 (it fits)", "DRAM": "read from DRAM"}.get(
            regime, "priced at DRAM's rate (it fits in the L3, whose rate is not measured here)")
        acts = f", {base_bytes:g} an activation -> {act:g}" if act != base_bytes else ""  # a 16-bit cast
        why = (f"bytes moved, {base_bytes:g} bytes a weight -> {weight_bytes:g}{acts}{some}: "
               f"{base / 1e6:.2f} MB -> {small / 1e6:.2f} MB a pass, {where}")
        value = _from_printed(value, base, small, 2, 1e6)
    elif _roof(rates, int8_compute, compute) != (base_compute or rates.fp32_flops):
        spread = rate_spread(rates, _roof(rates, int8_compute, compute), base_compute or rates.fp32_flops)
        b, k, n = rates.shape
        quantized = _roof(rates, int8_compute, compute) / 1e9
        baseline = (base_compute or rates.fp32_flops) / 1e9
        why = (f"matmul rates measured on ({b}, {k}) @ ({k}, {n}), quantized / baseline: {quantized:.1f} / "
               f"{baseline:.1f} G operations/s")
        value = _from_printed(value, quantized, baseline, 1)
    else:
        why = _float_matmul_why(base_bytes, weight_bytes)
        if rates.int8_error and weight_bytes == 1:
            why += f" (no int8 matmul ran here: {rates.int8_error})"
    return Reference(kind, value, ops / fp32_bytes, ridge_point, why, regime, spread)
