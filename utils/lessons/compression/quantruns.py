"""Section 4 of lesson 04 (``notebooks/04_compression.ipynb``) and the ``quantize`` benchmark: every
quantized variant of the MLP, eager and compiled, timed in the same interleaved rounds at each batch, each
speedup set beside its roofline reference.

    variants = quant_variants(mlp, S)          # name -> Variant (the model, its base, its reference's terms)
    runs = time_variants(variants, batches, test_set, S.quant_device, rounds=21)
    runs[256].speedup["torchao int8 dynamic, compiled"]   # against its base (fp32, or bf16 on a GPU)
    runs[256].error["torchao int8 dynamic, compiled"]     # its outputs against the fp32 model's (0.01 = 1 %)
    runs[256].correct("torchao int8 dynamic, compiled")   # within tolerance: only then does its speed count

A compiled model is specialised to one input shape (``compile_quantized``): each batch compiles its own, and
the seconds that took are kept (``runs[b].compile_seconds``).
"""

from __future__ import annotations

import copy
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field

import torch
from torch import nn

from utils import bench, claims
from utils.lessons.compression.measure import (compare, compare_latency, noise_text, printed_ratio_spread,
                                              timed_batch)
from utils.lessons.compression.precision import HalfWeights
from utils.lessons.compression.report import fmt_seconds_as_printed, verdict_against
from utils.lessons.compression.quantize import (TOLERANCE, compile_quantized, int4_fits, output_error,
                                                quantize_dynamic_int8, quantize_torchao, weight_only_int8)
from utils.lessons.compression.roofline import Rates, Reference, int8_reference

__all__ = ["Variant", "Run", "BY_HAND_BYTES", "by_hand_bytes", "by_hand_sum", "quant_variants", "time_variants",
           "reference_of", "outside_matmuls", "outside_words", "compile_alone", "compile_part", "over_compile",
           "int4_reading", "against_base", "paired_base_note", "shown_name"]

MATMUL_OPS = ("mm", "linear", "matmul")  # in a profiler's operator names: aten::addmm, aten::mm, mkl::_mkl_linear


@dataclass(frozen=True)
class Variant:
    """One model of section 4 and what its reference needs. Lesson 04."""

    model: nn.Module
    base: str  # the variant its speedup is measured against ("fp32"; "bf16" for int4; on a GPU bf16 or fp16)
    compiled: bool  # run through compile_quantized (torch.compile, freezing on a CPU)
    weight_bytes: float | None  # bytes a weight for the reference (None: no reference, a baseline)
    compute: str  # the quantized pass's matmul: "fp32", "bf16" or "int8"
    stores: str = "fp32"  # what its weights are stored in: "fp32", "bf16", "int8", "int4" (its tolerance)
    takes: Callable[[nn.Module], bool] | None = None  # the Linear layers it quantizes (None: all of them)

    @property
    def tolerance(self) -> float:
        """How far its outputs may stray from the fp32 model's (``quantize.TOLERANCE``): an fp32 model must
        match to rounding, so it is held to the 16-bit tolerance."""
        return TOLERANCE.get(self.stores, TOLERANCE["bf16"])


@dataclass
class Run:
    """One batch's timings: every variant's Measurement, its speedup against its base and the noise of it."""

    batch: int
    times: dict[str, bench.Measurement]
    speedup: dict[str, float] = field(default_factory=dict)
    noise: dict[str, float] = field(default_factory=dict)
    verdict: dict[str, str] = field(default_factory=dict)
    compile_seconds: dict[str, float] = field(default_factory=dict)
    error: dict[str, float] = field(default_factory=dict)  # output_error against the fp32 model, this batch
    tolerance: dict[str, float] = field(default_factory=dict)  # the error each variant is allowed

    def correct(self, name: str) -> bool:
        """True where ``name``'s outputs are within its tolerance: only then is its speed-up reported."""
        return self.error.get(name, 0.0) <= self.tolerance.get(name, float("inf"))


# What WeightOnlyInt8Linear moves per weight on every call (quantize.py: dequantize, then a float matmul), in
# bytes: its reference's weight bytes are their sum, 17, against fp32's 4 (the matmul reads the weight once).
BY_HAND_BYTES = (("read the int8 weight", 1), ("write its fp32 copy", 4), ("read that copy", 4),
                 ("write the scaled copy", 4), ("the matmul reads the scaled copy", 4))


def by_hand_bytes() -> int:
    """Bytes a weight the hand-written int8 layer moves per call: the sum of ``BY_HAND_BYTES``."""
    return sum(n for _, n in BY_HAND_BYTES)


def by_hand_sum() -> str:
    """``BY_HAND_BYTES`` written as a sum a learner can add up: "read the int8 weight 1 + ... = 17"."""
    return " + ".join(f"{what} {n}" for what, n in BY_HAND_BYTES) + f" = {by_hand_bytes()}"


def quant_variants(mlp: nn.Module, settings, torchao: bool = True) -> dict[str, Variant]:
    """Every variant section 4 times, for ``settings`` (``lesson_settings``): the float bases, the
    hand-written int8, torchao's int8 eager and compiled, torch.ao's deprecated int8 (a CPU only) and int4 against bf16."""
    device = settings.quant_device
    fp32 = mlp.eval() if device == "cpu" else copy.deepcopy(mlp).to(device).eval()  # the CPU's own model
    half_name = settings.half_name  # bf16; fp16 on a GPU that emulates bf16 (a T4)
    half = HalfWeights(mlp, settings.half_dtype).to(device)  # input cast to 16 bits, output back to fp32
    base = settings.quant_base
    out = {"fp32": Variant(fp32, "fp32", False, None, "fp32"),
           "fp32, compiled": Variant(fp32, "fp32", True, 4, "fp32"),
           half_name: Variant(half, "fp32", True, 2, half_name, half_name),
           "int8 weight-only, by hand": Variant(weight_only_int8(fp32), base, False, by_hand_bytes(), "fp32",
                                                "int8")}
    if torchao:
        for kind, label, compute in (("int8_weight_only", "int8 weight-only", "fp32"),
                                     ("int8_dynamic", "int8 dynamic", "int8")):
            quantized = quantize_torchao(fp32 if base == "fp32" else half, kind)
            out[f"torchao {label}"] = Variant(quantized, base, False, 1, compute, "int8")
            out[f"torchao {label}, compiled"] = Variant(quantized, base, True, 1, compute, "int8")
        if "int4_weight_only" in settings.quant_kinds:
            out["torchao int4 weight-only, compiled"] = Variant(quantize_torchao(half, "int4_weight_only"),
                                                                "bf16", True, 0.5, "bf16", "int4",
                                                                int4_fits)
    if settings.legacy_int8:  # torch.ao's fbgemm kernels: a CPU only
        legacy = quantize_dynamic_int8(fp32)
        out["torch.ao int8 dynamic (deprecated)"] = Variant(legacy, "fp32", False, 1, "int8", "int8")
    return out


def time_variants(variants: dict[str, Variant], batches, test_set, device: str, *, rounds: int = 21,
                  threads: int | None = 1) -> dict[int, Run]:
    """Each batch of ``batches``: compile what is compiled (for that shape), then time every variant in the
    same interleaved rounds (``compare_latency``); a batch-1 pass is timed over 50 calls in a row."""
    runs = {}
    for b in batches:
        x = timed_batch(test_set, b, device)
        models, seconds = {}, {}
        with bench.threads(threads if device == "cpu" else None):
            for name, v in variants.items():
                models[name], seconds[name] = compile_quantized(v.model, x) if v.compiled else (v.model, 0.0)
        times = compare_latency(models, x, rounds=rounds, threads=threads, calls=1 if b > 1 else 50)
        run = Run(b, times, compile_seconds={n: s for n, s in seconds.items() if s})
        reference = models[next(iter(models))]  # the first variant: the fp32 model
        for name, v in variants.items():  # correct before fast: each model's outputs on the timed batch
            run.error[name], run.tolerance[name] = output_error(models[name], reference, x), v.tolerance
        for name, v in variants.items():
            if v.weight_bytes is not None or name != v.base:
                run.speedup[name], run.noise[name], run.verdict[name] = compare(times[v.base], times[name])
        runs[b] = run
    return runs


def compile_seconds_total(runs: dict[int, Run]) -> float:
    """Every variant's compile seconds at every batch, summed as the timing block prints them (one decimal
    each), so that the total beside them is the reader's own sum: 2.8 + 0.9 + ... = 12.6 s, where the unrounded
    seconds could sum to 12.4 and print 12 s. Lesson 04, section 4."""
    return claims.half_up(sum(claims.as_printed(s, 1) for run in runs.values()
                              for s in run.compile_seconds.values()), 1)


def shown_name(variants: dict[str, Variant], name: str) -> str:
    """``name`` as section 4's tables print it: a variant that runs compiled says so (the 16-bit model, keyed
    "bf16", runs compiled against eager fp32: "bf16, compiled"), so its speedup is not read as bf16's alone."""
    compiled = name in variants and variants[name].compiled and "compiled" not in name
    return f"{name}, compiled" if compiled else name


def against_base(variants: dict[str, Variant], run: Run, name: str) -> str:
    """The "against" column of a timing table: the base ``name``'s speedup was measured against (fp32, or bf16
    for int4), read from its Variant and named as its own row is (``shown_name``), so that every row says what
    its ratio divides; "" for a row with no speedup (a baseline). Lesson 04, section 4."""
    return shown_name(variants, variants[name].base) if name in run.speedup else ""


def paired_base_note(variants: dict[str, Variant], run: Run) -> str:
    """The note under a timing table: what its paired speedups are taken against, worded from the bases its
    rows really have (``against_base``): one base named, or several pointed to the "against" column, since a
    note "against fp32" beside int4's ratio against bf16 would send a reader to the wrong median. Lesson 04."""
    bases = list(dict.fromkeys(against_base(variants, run, n) for n in run.times if n in run.speedup))
    if len(bases) == 1:
        base, whose = f"against {bases[0]}", f"{bases[0]}'s"
    else:
        base, whose = f"against each row's base (the \"against\" column: {' or '.join(bases)})", "the base's"
    return textwrap.fill(f"speedup (paired): the median of the rounds' ratios {base}, taken round by round, so "
                         f"it need not equal {whose} median over the variant's median (a median of ratios is "
                         "not a ratio of medians)", 108)  # 108: the collapsed block indents by two


def reference_of(variant: Variant, mlp: nn.Module, batch: int, rates: Rates) -> Reference | None:
    """The roofline reference of ``variant`` against its base at ``batch``: bytes where the pass is
    memory-bound, the matmul rates where it is compute-bound (``int8_reference``). None for a baseline."""
    if variant.weight_bytes is None:
        return None
    roofs = {"fp32": rates.fp32_flops, "bf16": rates.bf16_flops, "fp16": rates.bf16_flops, "int8": rates.int8_ops}
    base_bytes = 2 if variant.base in ("bf16", "fp16") else 4
    sixteen = variant.compute in ("bf16", "fp16")  # its input cast to 16 bits: 16-bit activations, as int4's base
    return int8_reference(mlp, batch, rates, weight_bytes=variant.weight_bytes,
                          activation_bytes=2 if sixteen else base_bytes,
                          int8_compute=variant.compute == "int8", base_bytes=base_bytes,
                          compute=roofs[variant.compute] if variant.compute != "int8" else None,
                          base_compute=roofs[variant.base], takes=variant.takes)


def outside_matmuls(ops: list[tuple[str, float]]) -> tuple[float, list[tuple[str, float]]]:
    """The share of a pass spent outside its matmul operators, and those operators, largest first, from a
    whole profile (``time_by_op(model, x, top=None)``). The share is 100% less the matmul operators' shares as
    the profile prints them (whole per cent, ``claims.percent``): "aten::addmm 96%, ..., aten::linear 0%" reads
    4% outside, the reader's subtraction, not 3% from the unrounded 96.8%. Lesson 04."""
    rest = [(op, share) for op, share in ops if not any(k in op for k in MATMUL_OPS)]
    matmuls = sum(_whole_percent(share) for op, share in ops if any(k in op for k in MATMUL_OPS))
    return max(100 - matmuls, 0) / 100, rest


def _whole_percent(share: float) -> int:
    """``share`` in whole per cent as the page prints it (``claims.percent``, half up: 0.125 -> 13, where
    ``:.0%`` and ``round`` print 12), as a number to add or compare: 0.012 -> 1."""
    return int(claims.percent(share)[:-1])


def compiled_overhead(ops: list[tuple[str, float]]) -> float:
    """The share of a compiled pass in the compiled graph's own code and dynamo's guards (the profile's
    operators named "Compiled" or "Dynamo"), summed as the profile prints each share (whole per cent, half
    up), so that a reader who adds the printed 11% + 7% + 6% finds the 24% the sentence prints, not the 25%
    of the unrounded shares. A fraction: 0.24."""
    return sum(_whole_percent(s) for op, s in ops if "Compiled" in op or "Dynamo" in op) / 100


def outside_words(share: float, rest: list[tuple[str, float]]) -> str:
    """"3% of its pass outside its matmul operators (aten::clamp_min 1%, aten::copy_ 1%, other operators
    1%)": ``share`` (as printed) and its largest parts (``outside_matmuls``'s ``rest``), the operators not
    named summed into one part. Each part is rounded on its own, so where the parts as printed do not add up
    to the whole, the line says so: a reader who adds them must not find a contradiction. Lesson 04."""
    named = [(op, s) for op, s in rest[:3] if s >= 0.005]  # a part printed 0% would name nothing
    if not named:
        return f"{claims.percent(share)} of its pass outside its matmul operators (none above 0.5% each)"
    parts = [(op, _whole_percent(s)) for op, s in named]
    others = sum(s for _, s in rest) - sum(s for _, s in named)  # the operators not named, together
    if len(rest) > len(named) and _whole_percent(others):
        parts.append(("other operators", _whole_percent(others)))
    total = sum(p for _, p in parts)
    apart = ("" if total == _whole_percent(share) else
             f"; each share is rounded on its own, so these add up to {total}%, not {claims.percent(share)}")
    return (f"{claims.percent(share)} of its pass outside its matmul operators "
            f"({', '.join(f'{op} {p}%' for op, p in parts)}{apart})")


def compile_alone(batch: int, ratio: float, verdict: str, noise: float, reference: float,
                  eager_ops: list[tuple[str, float]], compiled_ops: list[tuple[str, float]] = ()) -> str:
    """Why compiling the fp32 model alone changes its speed at ``batch`` although its roofline ``reference``
    (1x: the same arithmetic, the same weight bytes) says it cannot: what compile changes besides, read from
    the eager pass's whole profile (``eager_ops``) and the compiled one's (``compiled_ops``, largest first).
    ``ratio``, ``verdict``, ``noise``: compiled fp32 against eager fp32, paired (``compare``). Lesson 04."""
    share, rest = outside_matmuls(eager_ops)
    share = claims.as_printed(share, 2)  # the one figure the whole % and the 1/(1 - share) below both print
    fusion = 1 / (1 - share) if share < 1 else float("inf")  # every step outside the matmuls removed
    line = (f"Compiling fp32 alone runs {ratio:.2f}x at batch {batch} ({verdict}), beside a roofline reference of "
            f"{reference:.2f}x: the reference prices only the matmuls' arithmetic and the weights' bytes, which "
            f"compile leaves as they are. Eager fp32 spends {outside_words(share, rest)}: compile can fuse those "
            f"steps into its matmul calls, which removes at most 1/(1 - {share:.2f}) = "
            f"{claims.half_up(fusion, 2):.2f}x, and with freezing on it packs the weights for its own matmul "
            "kernel, which can change the matmul's own speed; this run does not time the two apart. ")
    if verdict.startswith("within"):
        return line + "Here compile gained nothing beyond noise."
    if ratio < 1:
        return line + compiled_slower(share, compiled_ops, ratio)
    # both figures as printed, and the ratio's spread as a reader works it (the ratio times its printed noise):
    # the course's one noise rule, so that 1.15x ± 6% (± 0.07) beside a 1.08x ceiling reads as reaching it
    shown, ceiling = claims.as_printed(ratio, 2), claims.half_up(fusion, 2)
    if shown <= ceiling:
        return line + "The gain fits within what fusing those steps can remove."
    if claims.within_noise(shown, printed_ratio_spread(ratio, noise), ceiling):  # above it, within the noise
        return line + (f"The gain passes that {ceiling:.2f}x by no more than the round-to-round noise "
                       f"({noise_text(ratio, noise)}): "
                       "it may be fusion alone, or part of it the matmuls; this run cannot tell.")
    eager_mm = next((op for op, _ in eager_ops if any(k in op for k in MATMUL_OPS)), None)
    compiled_mm = next(((op, s) for op, s in compiled_ops if any(k in op for k in MATMUL_OPS)), None)
    kernels = (f": compiled, the pass multiplies in {compiled_mm[0]} ({claims.percent(compiled_mm[1])} of it) "
               "where eager fp32 "
               f"calls {eager_mm}, on weights packed at compile time" if compiled_mm and eager_mm
               and compiled_mm[0] != eager_mm else ", which this run does not time apart")
    return line + f"The gain is more than fusing those steps can remove: the rest came from the matmuls{kernels}."


def compiled_slower(outside: float, compiled_ops: list[tuple[str, float]], ratio: float = 1.0) -> str:
    """Why compiled fp32 ran slower than eager (``ratio`` < 1, compiled over eager), only as far as the
    profiles show it. The slowdown is ``1 - ratio`` of the compiled pass (the time eager did not spend); the
    compiled graph's call and dynamo's guards (``fixed``, their share of that pass in ``compiled_ops``) add
    time, fusing saves up to ``outside`` (the eager pass's share outside its matmuls), and this run times
    neither the saving nor the packed matmul apart. So the fixed cost cannot explain the slowdown alone where
    it is smaller, explains it where it passes the slowdown plus all fusing could save, and in between explains
    it only if fusing saved little. All three figures are compared as printed, in whole per cent. Lesson 04."""
    if not compiled_ops:
        return ("Here compile cost more than it fused; with no profile of the compiled pass, this run does not "
                "show why.")
    # the three figures in whole per cent as printed, half up (``claims.percent``)
    fixed = _whole_percent(compiled_overhead(compiled_ops))  # the printed shares, added
    loss, most = _whole_percent(1 - claims.as_printed(ratio, 2)), _whole_percent(outside)
    line = (f"Here compile cost more than it fused: at {ratio:.2f}x, {loss}% of the compiled pass is time eager "
            f"fp32 did not spend; the compiled graph's call and dynamo's guards take {fixed}% of it (the profile "
            f"above), and fusing could save at most {most}% (of the eager pass): ")
    if fixed < loss:
        return line + ("less than the slowdown, so they cannot explain it alone; the packed matmul's own speed, "
                       "not timed apart, may explain the rest.")
    if fixed > loss + most:
        return line + "more than the slowdown and all that fusing could save together, so they explain it."
    if fixed == loss:
        return line + ("as much as the slowdown, so they explain it only if fusing saved nothing; this run does "
                       "not time fusion apart.")
    return line + (f"more than the slowdown, so they explain it if fusing saved at most {fixed - loss}% of the pass; this run does not time "
                   "fusion apart, nor the packed matmul's own speed.")


def why_legacy_leads(batch: int, legacy: tuple[str, float, float], compiled: tuple[str, float, float],
                     overhead: float, fp32_overhead: float, fp32_seconds: float | None = None) -> str:
    """Why torch.ao's eager int8 beats torchao's compiled int8 at ``batch``, read from both profiles.
    ``legacy``/``compiled``: (kernel operator, its share of the pass, the pass's median seconds);
    ``overhead``: the compiled int8 pass's share in the compiled graph's code and dynamo's guards
    (``compiled_overhead``: the profile's shares as printed, added),
    ``fp32_overhead``: the same share for compiled fp32, whose pass's median is ``fp32_seconds``. Kernel time
    ~ share x the pass's median, worked from both as printed (``_kernel_us``); given ``fp32_seconds``, the two
    compiled overheads are set side by side in µs the same way (``_overhead_reading``). Lesson 04."""
    (op_a, share_a, time_a), (op_b, share_b, time_b) = legacy, compiled
    kernel_a, kernel_b = _kernel_us(share_a, time_a), _kernel_us(share_b, time_b)  # µs, as printed below
    line = (f"Why torch.ao leads at batch {batch}: its {op_a} takes about {kernel_a:.0f} µs "
            f"({claims.percent(share_a)} of its pass), torchao's {op_b} about {kernel_b:.0f} µs "
            f"({claims.percent(share_b)} of its pass; both estimated "
            "as share x the pass's median). ")
    if kernel_b > 1.2 * kernel_a > 0:  # beyond a 20 % margin: the profiler's shares are rough
        slower = claims.half_up(kernel_b / kernel_a, 1)  # the two µs as printed above, divided
        line += f"The int8 kernel itself is {slower:.1f}x slower: that is most of the gap. "
    else:
        line += "The two kernels take about the same time: the gap lies outside them. "
    if fp32_seconds is not None:
        return line + _overhead_reading(overhead, time_b, fp32_overhead, fp32_seconds)
    # shares only: within 5 points of the pass (the profiler's resolution here), as printed (whole %)
    same = abs(_whole_percent(overhead) - _whole_percent(fp32_overhead)) <= 5
    return line + (f"The compiled graph's own code and dynamo's guards take {claims.percent(overhead)} of "
                   f"torchao's pass, {claims.percent(fp32_overhead)} of compiled fp32's: " +
                   ("the same fixed cost per call as compiling fp32, not int8's." if same else
                    "more than compiling fp32 costs: part of the gap is int8's compiled overhead."
                    if overhead > fp32_overhead else "less than compiling fp32 costs, as a share of each pass."))


def _overhead_reading(overhead: float, seconds: float, fp32_overhead: float, fp32_seconds: float) -> str:
    """The compiled graph's own code and dynamo's guards in torchao's int8 pass and in compiled fp32's, each
    as its share x its pass's median (``_kernel_us``, as printed), read with the kernels' 20 % margin: more
    in int8's pass (part of the gap is int8's compiled overhead), or no more (a cost of compiling, which the
    eager torch.ao pass does not pay, not of int8)."""
    int8_us, fp32_us = _kernel_us(overhead, seconds), _kernel_us(fp32_overhead, fp32_seconds)
    said = (f"The compiled graph's own code and dynamo's guards take {claims.percent(overhead)} of torchao's "
            f"pass, about {int8_us:.0f} µs, and {claims.percent(fp32_overhead)} of compiled fp32's, about "
            f"{fp32_us:.0f} µs (share x the pass's median): ")
    if int8_us > 1.2 * fp32_us:  # beyond the same 20 % margin as the kernels
        return said + ("more in torchao's pass: part of the gap is int8's own compiled overhead, beyond "
                       "compile's.")
    how = "about the same as" if fp32_us <= 1.2 * int8_us else "less than"
    return said + (f"{how} compiled fp32 pays, so that part is a cost of compiling, which the eager torch.ao "
                   "pass does not pay, not of int8.")


def _kernel_us(share: float, seconds: float) -> float:
    """A kernel's time in whole µs, estimated as its share of the pass times the pass's median, each taken as
    the page prints it (the share in whole percent, the median as ``bench.fmt_seconds`` shows it), so that a
    reader who multiplies the two printed figures finds it: 72% x 748.0 µs = 538.56 -> 539 (half up)."""
    median_us = fmt_seconds_as_printed(seconds)[1] * 1e6
    return claims.half_up(claims.printed_percent(share) * median_us / 100, 0)


def compile_part(batch: int, alone: float, verdict: str) -> str:
    """What compiling fp32 alone (``alone``: compiled fp32 over eager fp32, paired; ``verdict``: beyond or
    within noise) does to the compiled int8 figure beside it, read from its sign as printed: part of that
    figure is compile's only where compile alone sped fp32 up; where it slowed it, the int8 figure carries
    compile's cost. Lesson 04, section 4."""
    shown = claims.as_printed(alone, 2)
    measured = f"fp32 compiled alone runs {alone:.2f}x at batch {batch} ({verdict})"
    if verdict.startswith("beyond") and shown > 1:
        return (f"Compile alone speeds this pass up: {measured}, so part of the int8 figure above is compile's, "
                "not quantization's. ")
    if verdict.startswith("beyond") and shown < 1:
        return (f"Compile alone slows this pass down: {measured}, so the int8 figure above carries compile's "
                "cost besides quantization's effect. ")
    return f"Compile alone is not what sets the int8 figure above: {measured}. "


def over_compile(ratio: float, noise: float, verdict: str, reference: Reference) -> str:
    """What int8 compiled against fp32 compiled says (both compiled, paired: ``compare``'s ``ratio``, ``noise``,
    ``verdict``): quantization's own gain, set beside the roofline ``reference`` of the bytes (or the
    arithmetic) it saves, read by ``report.verdict_against``: under it, at it within noise, or above it (a
    reference may be passed). Lesson 04, section 4."""
    if verdict.startswith("within"):
        return ("quantizing adds no time beyond compile's, and saves none: the bytes saved do not show at this "
                "batch")
    if ratio < 1:
        # The run times the whole pass only: which of quantize, int8 matmul and rescale costs the time is not
        # measured, so the line names no cause (the notebook points to the profile's shares after it).
        return ("quantizing costs time beyond compile's; this run does not time its steps (quantize the row, "
                "int8 matmul, rescale) apart")
    against = verdict_against(ratio, reference.value, noise, "reference", rough=reference.rough)
    return (f"quantizing gains over compile alone; beside the roofline reference of {reference.text()} "
            f"({reference.label}): {against}")


def int4_reading(hi: int, hi_ratio: float, op: str, share: float, lo: int, lo_ratio: float | None,
                 lo_noise: float, lo_ref: Reference | None, device: str = "cpu") -> str:
    """Why int4 weight-only ran slower than its bf16 base at the large batch ``hi`` (``op``: the operator that
    took the largest ``share`` of its pass), and what the small batch ``lo`` showed: int4 is called a
    small-batch technique only where this run shows it paying there (``lo_ratio`` beyond noise, read by
    ``report.verdict_against`` beside ``lo_ref``); otherwise the line says the run does not show it.
    ``device``: where it ran, which names the kernel. Lesson 04, section 4."""
    kernel = "torch's CPU int4 kernel" if device == "cpu" else "tinygemm, torchao's int4 GPU kernel,"
    line = (f"int4 at batch {hi} runs {hi_ratio:.2f}x its bf16 base: {op} takes {claims.percent(share)} of the "
            f"pass. {kernel} "
            "is made for decoding, a few rows at a time (its design, not measured here): at a large batch it "
            "unpacks the 4-bit weights again for every block of rows, while the bf16 matmul it replaces runs at "
            "full speed. ")
    if lo_ratio is None or lo_ref is None:
        return line + f"int4 was not timed at batch {lo} here: whether it pays at a small batch is not shown."
    verdict = verdict_against(lo_ratio, lo_ref.value, lo_noise, "reference", slower="slower than bf16",
                              rough=lo_ref.rough)
    at_lo = (f"At batch {lo} ({lo_ref.label}) it ran {lo_ratio:.2f}x (noise ±{lo_noise:.0%}) beside its "
             f"{lo_ref.text()} reference: {verdict}")
    if verdict.startswith(("within", "slower")):
        return line + at_lo + (". This run does not show it paying at a small batch either, so it does not show "
                               "int4 weight-only to be a small-batch technique here.")
    return line + at_lo + (". It paid at the small batch and cost at the large one: in this run int4 "
                           f"weight-only is a small-batch technique (batch {lo}: {lo_ref.label}).")

