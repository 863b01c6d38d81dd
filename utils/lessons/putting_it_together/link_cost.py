"""Lesson 08's guide, the link's part: the bytes a plan moves over the link a step, their time at the link's
rate, and the compute they are set against; and the figures' printing rules the guide shares (3 significant
figures, worked from the figures as printed). Split out of ``guide`` (its 600-line cap); ``guide`` imports
every name here, so ``guide.link_reason`` and ``guide.KnownLink`` still work."""

from __future__ import annotations

import math
from dataclasses import dataclass

from utils import claims, gpu_specs, machine
from utils.lessons.memory.calculator import Shape


def _gb(x: float) -> str:
    return f"{x / 1e9:.3g} GB"


def _sig3(x: float) -> float:
    """``x`` as the guide prints it, to 3 significant figures, rounded half up as a reader rounds (126.5 ->
    127): ``claims.as_printed_sig``, the course's one rule, here also rounding large figures to tens
    (1,234 -> 1,230). Every quotient is worked from these."""
    return claims.as_printed_sig(x, 3, least=-12)


def _figure(x: float) -> str:
    """A figure to 3 significant figures, and from 1,000 on whole with a comma: "1,083", never "1.08e+03"."""
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.3g}"


def printed_step_s(parts: dict[str, float]) -> float:
    """The step in seconds as section 2's table prints it: the sum of its parts, each printed to 4 decimals
    (``profile_words.printed_step``), so the bound's T is the table's bottom row."""
    return claims.as_printed(sum(claims.as_printed(s, 4) for s in parts.values()), 4)


@dataclass(frozen=True)
class KnownLink:
    """A link rate the guide is given rather than reads from the topology, with where it comes from."""

    rate: float  # bytes a second (a fit's beta)
    what: str  # "machine profile, lesson 00", "measured"


def link_rate(hw, measured_link: float | KnownLink | None) -> tuple[float | None, str]:
    """Bytes a second the link moves, and where the figure comes from: measured (a ``KnownLink`` names its
    source), or the detected topology's datasheet rate at the low end of what a healthy link reaches
    (``machine.all_reduce_expectation``)."""
    if isinstance(measured_link, KnownLink):
        return measured_link.rate, measured_link.what
    if measured_link:
        return measured_link, "measured"
    link = hw.link if hw is not None else None
    if link is None or not link.bandwidth:
        return None, "unknown"
    healthy = machine.all_reduce_expectation(link, hw.gpus, 2)
    peer = {False: "no peer access", True: "peer access", None: "peer access unknown"}[link.peer_access]
    if healthy is None:
        return link.bandwidth, link.kind
    # the datasheet rate to 4 digits: the share times it gives the rate printed before it
    return link.bandwidth * healthy.low, (f"{link.kind}, {peer}: the guide's planning assumption, "
                                          f"{healthy.low * 100:.3g}% of the datasheet's "
                                          f"{link.bandwidth / 1e9:.4g} GB/s achieved")


def link_reason(shape: Shape, strategy: str, n: int, prec: str, hw, plan, profile, tokens: int,
                measured_link: float | KnownLink | None, profiled_tokens: int | None = None) -> str:
    """Bytes the strategy moves a step over the link, against the step's compute (a device's ``tokens``; the
    profile, where given, timed a step of ``profiled_tokens`` on one device)."""
    # the parameters as the lesson's model line prints them (Shape.describe: 3.22 M, never 3.225 M beside it;
    # a 7 B model in bn, as the memory rows), and the bytes worked from that figure: 4 B x 3.22 M is the GB
    # printed after it
    big = shape.parameters() >= 1e9
    p = _sig3(shape.parameters()) if big else claims.half_up(shape.parameters() / 1e6, 2) * 1e6
    count = f"{p / 1e9:.3g} bn" if big else f"{p / 1e6:.2f} M"
    if strategy == "ddp":  # ring all-reduce of the fp32 gradients (autocast keeps them fp32)
        moved, what = 2 * (n - 1) / n * p * 4, f"all-reduce 2(n-1)/n x 4 B x {count}"
    else:  # two all-gathers of 16-bit weights (forward, backward) and a reduce-scatter of 16-bit gradients
        moved = 3 * (n - 1) / n * p * 2   # each of the three moves (n-1)/n of the 16-bit tensor
        what = f"two all-gathers + a reduce-scatter, 3 x (n-1)/n x 2 B x {count}"
        # the 2 B assume FSDP2 gathers 16-bit weights: its MixedPrecisionPolicy, not autocast alone
        dtype = "float16" if (prec or "").startswith("fp16") else "bfloat16"
        what += (f" (with FSDP2's MixedPrecisionPolicy(param_dtype=torch.{dtype}); with autocast alone FSDP "
                 "gathers fp32 shards: twice the bytes)")
    rate, rate_what = link_rate(hw, measured_link)
    if rate is None:
        return f"{what} = {_gb(moved)} a step; the link's rate is unknown"
    comm = _on_link(moved, rate)   # ms, from the GB and GB/s as printed
    compute, compute_what = _compute_seconds(shape, tokens, prec, hw, plan, profile, profiled_tokens)
    compute = _sig3(compute * 1e3) if math.isfinite(compute) else compute   # ms, as printed
    hides = comm <= 2 / 3 * compute
    verdict = ("it can hide behind backward (2/3 of the compute)" if hides else
               "longer than backward: it can show in every step; a bigger batch a device amortises it")
    if hides and plan.simulated:  # the overlap needs spare hardware: NCCL's own stream on a GPU, a free core here
        verdict = ("it could hide behind backward (2/3 of the compute) if the all-reduce had a core of its own; "
                   "CPU workers share the cores their compute uses: the two-devices step measures what hides")
    if profile is None:
        verdict += (", even at the datasheet peak" if hides else
                    " at the datasheet peak; a real step is slower: measure it (lesson 03)")
    if not hides and strategy == "ddp":  # lesson 03's fp16 compression hook: half the bytes on the link
        half = moved / 2
        verdict += (f"; or the fp16 compression hook (the script's --hook fp16, lesson 03) halves the bytes: "
                    f"2(n-1)/n x 2 B x {count} = {_gb(half)} = {_figure(_on_link(half, rate))} ms "
                    "on the link")
    return (f"{what} = {_gb(moved)} a step over {rate / 1e9:.3g} GB/s ({rate_what}) = {_figure(comm)} ms on the "
            f"link against {_figure(compute)} ms of compute ({compute_what}): {verdict}")


def _on_link(moved: float, rate: float, unit: float = 1e-3) -> float:
    """Seconds (in ``unit``: ms by default) to move ``moved`` bytes at ``rate`` B/s, worked from the GB and
    the GB/s as printed (3 figures), so that 0.0509 GB over 5.52 GB/s reads 9.22 ms, the reader's division."""
    return _sig3(moved / 1e9) / _sig3(rate / 1e9) / unit


def _compute_seconds(shape, tokens, prec, hw, plan, profile, profiled_tokens=None) -> tuple[float, str]:
    """One device's compute a step: measured (the profile, scaled from its ``profiled_tokens`` to ``tokens``:
    a device of DDP does its share of the batch) or at the datasheet peak (the fastest it can be)."""
    if profile is not None:
        if profiled_tokens and profiled_tokens != tokens:
            step_ms = claims.half_up(printed_step_s(profile.parts) * 1e3, 1)   # section 2's bottom row, as T
            return (step_ms * 1e-3 * tokens / profiled_tokens,
                    "an estimate before any two-device run: the timed step's "
                    f"{step_ms:.1f} ms (section 2's table) x {tokens:,} / {profiled_tokens:,} tokens")
        return profile.step_s, "profiled"
    spec = gpu_specs.spec_for(hw.gpus[0].name) if hw is not None and hw.gpus else None
    dtype = prec or "fp32"
    if spec is None or dtype not in spec.peak_flops:
        return math.inf, "no datasheet peak"
    return 6 * shape.parameters() * tokens / spec.peak_flops[dtype], f"6·P·tokens at the {dtype} datasheet peak"
