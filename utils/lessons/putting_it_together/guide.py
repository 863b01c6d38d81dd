"""Lesson 08's decision guide: which techniques apply to a model on a machine, in which order, and why, each
choice with its arithmetic.

    steps = guide(shape, batch=32, plan=devices.plan(2), hw=devices.hardware(), profile=found)
    for s in steps: print(s.step, s.choice, s.why)

A pure function of four things: the model's shape and batch, the device plan and hardware (``utils.devices``:
GPUs, their compute capability and memory, the link and its peer access; on a CPU its ISA), and the profile
of one baseline step (``Profile``: the data and matmul shares, the precision peak ratio, the noise of a
repeated run, a measured compile). Without a profile it still answers memory, precision and the link, and
says which choices wait for one. The order is the order that costs least to try: feeding and precision
change a line each, the optimizer's implementation is one argument, a second device needs a launcher, memory
tricks trade compute for bytes (only when a step must fit), and compile comes last (each change after it would
be compiled again; it must pay back its compile time over the planned run).
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass

from utils import claims, devices
from utils.lessons.memory.calculator import Shape
from utils.lessons.putting_it_together import fit
from utils.lessons.putting_it_together.link_cost import (  # noqa: F401 (KnownLink, _on_link: guide's API)
    KnownLink, _figure, _gb, _on_link, _compute_seconds, _sig3, link_rate, link_reason, printed_step_s)

HOST_SHARE = 0.5  # cpu mode: the two worker processes share the host's memory, half each
NOISE = 0.05  # a gain smaller than this cannot be told from two runs of the same step on a shared machine
MEASURE = "measure first"  # a step the guide can judge only from a measurement the run will make


@dataclass(frozen=True)
class Step:
    """One line of the guide: the step, what to do (``choice``; "skip" when it does not apply) and why."""

    step: str  # feeding, precision, compile, optimizer, two devices, memory
    choice: str
    why: str

    @property
    def applies(self) -> bool:
        """The step is chosen ("skip" and "measure first": not yet)."""
        return self.choice not in ("skip", MEASURE)


@dataclass(frozen=True)
class Profile:
    """What one profiled baseline step measured (lesson 08's section 2): the guide's fourth input."""

    parts: dict[str, float]  # seconds of one step by part: "load", "matmul", "memory-bound", ...
    peak_ratio: float | None = None  # the low-precision matmul peak over the fp32 one, on this device
    noise: float = NOISE  # relative spread of repeated runs of one step: a smaller gain is not seen
    compile_s: float | None = None  # measured: the first compiled step less an eager one
    compiled_step_s: float | None = None  # measured: one compiled step, warm
    optimizer_share: float | None = None  # measured: the AdamW step's share of a step (for-loop AdamW)
    matmul_flops: float | None = None  # the profiled step's matmul FLOPs (6·P·tokens + attention's)
    low_peak: float | None = None  # measured: the low-precision matmul peak, FLOP/s (one worker)
    shape: Shape | None = None  # the model the profile measured: another shape cannot use its shares

    @property
    def matmul_speedup(self) -> float | None:
        """How many times faster the step's matmuls can run at the low-precision peak: their measured time
        over their FLOPs at that peak (not the probe's peak ratio: the step's own fp32 matmuls ran below the
        fp32 peak). None without the FLOPs; then the probes' peak ratio stands in. Worked from the rate and
        the peak in GFLOP/s as section 2 prints them (0.1), so the ladder's "2.41x" is the page's division."""
        if not self.matmul_flops or not self.low_peak or not self.parts.get("matmul"):
            return self.peak_ratio
        rate = matmul_gflops(self.matmul_flops, self.parts["matmul"])
        return claims.printed_ratio(self.low_peak, rate * 1e9, 1, 1e9)

    @property
    def step_s(self) -> float:
        return sum(self.parts.values())

    def share(self, part: str) -> float:
        return self.parts.get(part, 0.0) / self.step_s


def matmul_gflops(flops: float, seconds: float) -> float:
    """The matmuls' rate in GFLOP/s to 0.1, worked from their figures as the page prints them: the GFLOP to 4
    significant figures (the guide's "20.36 GFLOP") over the seconds to 4 decimals (section 2's "0.2148")."""
    return claims.as_printed(_sig4(flops / 1e9) / claims.as_printed(seconds, 4), 1)


def _sig4(x: float) -> float:
    """``x`` to 4 significant figures: the matmuls' GFLOP, which section 2 divides by its 4-decimal seconds."""
    return float(f"{x:.4g}")


def printed_gflop(flops: float) -> float:
    """The matmuls' FLOPs in GFLOP as the page prints them (4 figures): the operand of every figure worked
    from them (their rate, the precision bound, the ladder's MFU)."""
    return _sig4(flops / 1e9)


def amdahl(share: float, speedup: float) -> float:
    """The whole step's speed-up when ``share`` of it runs ``speedup`` times faster: 1/((1-f) + f/s)."""
    return 1 / ((1 - share) + share / speedup)


def feeding_bound(load: float, step: float) -> float:
    """Lesson 05's bound: loading (L) overlapped with the rest (C = step - L) at best: (L + C) / max(L, C)."""
    return step / max(load, step - load)


def printed_feeding_bound(parts: dict[str, float]) -> float:
    """``feeding_bound`` worked from section 2's table as printed: the load row's seconds (4 decimals) and the
    step row (``printed_step_s``), so the bound and the share beside it come out of the one load the page
    prints (t31_0708 #2: "0.08 ms" beside a 0.0001 s row gave two loads, each figure from another)."""
    return feeding_bound(claims.as_printed(parts.get("load", 0.0), 4), printed_step_s(parts))


def break_even_steps(compile_s: float, eager_s: float, compiled_s: float) -> float:
    """Steps after which a compile has paid for itself: compile_s / (t_eager - t_compiled); inf if no gain."""
    saving = eager_s - compiled_s
    return compile_s / saving if saving > 0 else math.inf


def capacity(plan: devices.Plan, hw: devices.Hardware | None, host_bytes: float | None = None
             ) -> tuple[float, str]:
    """Bytes one device has, and what they are: the GPU's memory, or in cpu mode half the host's."""
    if not plan.simulated and hw is not None and hw.gpus and hw.gpus[0].memory_total:
        return float(hw.gpus[0].memory_total), f"{hw.gpus[0].name}'s memory"
    host = host_bytes or os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    return host * HOST_SHARE, "half the host's memory (two CPU workers share it)"


# --- feeding, precision, compile, optimizer ---------------------------------------------------------------

def feeding_step(plan: devices.Plan, profile: Profile | None) -> Step:
    """Loader workers only when the profile's data share can buy more than the noise."""
    if profile is None:
        return Step("feeding", "skip", "profile first: loader workers pay only when loading is a visible "
                    "share of a step")
    # the share and the bound from section 2's table as printed (the reader's divisions)
    share = printed_part_share(profile.parts, "load")
    bound = printed_feeding_bound(profile.parts)
    arith = f"loading is {share_text(share)} of a step: overlapping it with the compute buys at most {bound:.3f}x"
    if bound - 1 <= profile.noise:
        return Step("feeding", "skip", f"{arith}, within the {profile.noise:.0%} the guide allows for a repeated "
                    "run's noise (a planning figure, not this run's spread): too small to gain from overlapping")
    return Step("feeding", "loader workers" + ("" if plan.simulated else ", pinned memory"),
                f"{arith}, more than the {profile.noise:.0%} noise")


def low_precision(plan: devices.Plan, hw: devices.Hardware | None,
                  features: devices.CpuFeatures | None = None) -> tuple[str | None, str]:
    """The low precision this device computes faster, and why: "bf16", "fp16" or None (no such units)."""
    if plan.simulated or hw is None or not hw.gpus:
        features = devices.cpu_features() if features is None else features
        if features.bf16_units:
            return "bf16", f"the CPU has bf16 units ({features.describe()})"
        return None, (f"this CPU has no bf16 units ({features.describe()}): autocast would convert to fp32 and "
                      "back, slower than fp32; nothing to gain")
    cc = hw.gpus[0].compute_capability or (0, 0)
    if cc >= (8, 0):
        fp8 = "; FP8 (Transformer Engine, torchao.float8) is the next step on Hopper, not run here" \
            if cc >= (9, 0) else ""
        return "bf16", (f"compute capability {cc[0]}.{cc[1]}: TF32 for fp32 matmuls "
                        f"(torch.set_float32_matmul_precision('high')), then bf16 autocast, no scaler{fp8}")
    if cc >= (7, 0):
        return "fp16", (f"compute capability {cc[0]}.{cc[1]}: fp16 tensor cores, no bf16 and no TF32: fp16 "
                        "autocast with a GradScaler")
    return None, f"compute capability {cc[0]}.{cc[1]}: no tensor cores; fp32"


def precision_step(plan, hw, profile: Profile | None, features=None) -> tuple[Step, str | None]:
    """The precision step with its Amdahl bound from the profile's matmul share, and the dtype chosen."""
    low, why = low_precision(plan, hw, features)
    if low is None:
        return Step("precision", "skip", why), None
    tf32 = not plan.simulated and hw is not None and (hw.gpus[0].compute_capability or (0, 0)) >= (8, 0)
    choice = ("TF32, then " if tf32 else "") + {
        "bf16": "bf16 autocast", "fp16": "fp16 autocast + GradScaler"}[low]
    if profile is None or not profile.peak_ratio:
        return Step("precision", choice, why + "; its bound waits for the profile's matmul share"), low
    if precision_bound(profile) is None:   # no FLOPs: the peaks' ratio stands in
        bound, arith = _precision_by_peaks(profile.share("matmul"), profile.peak_ratio)
    else:  # the matmuls' measured time against their FLOPs at the low-precision peak
        bound, arith = _precision_by_flops(profile, low)
    if bound - 1 <= profile.noise:
        return Step("precision", "skip", f"{why}, but {arith}, within the {profile.noise:.0%} the guide allows "
                    "for noise (a planning figure, not this run's spread)"), None
    return Step("precision", choice, f"{why}; {arith}"), low


def _precision_by_peaks(share: float, ratio: float) -> tuple[float, str]:
    """Amdahl's bound from the matmuls' share and the peaks' ratio, each as printed (2 decimals)."""
    f, r = claims.as_printed(share, 2), claims.as_printed(ratio, 2)
    bound = amdahl(f, r)
    return bound, (f"matmuls are {f:.0%} of a step at {r:.2f}x the fp32 peak: Amdahl's bound "
                   f"1/({1 - f:.2f} + {f:.2f}/{r:.2f}) = {bound:.2f}x")


def precision_terms(profile: Profile) -> tuple[float, float, float, float, float, float]:
    """The precision bound's terms as the guide prints them: the step T and its matmuls M in ms to 0.1, as
    section 2's table prints them (seconds to 4 decimals: 0.2185 s is 218.5 ms; T its bottom row), the part
    outside the matmuls T - M, the matmuls' GFLOP to 4 figures, the low-precision peak in GFLOP/s to 0.1, and
    their ms at that peak (0.1)."""
    seconds = (printed_step_s(profile.parts), claims.as_printed(profile.parts["matmul"], 4))
    t, mm = (claims.half_up(x * 1e3, 1) for x in seconds)   # 0.2185 s -> 218.5 ms
    gflop, peak = _sig4(profile.matmul_flops / 1e9), claims.as_printed(profile.low_peak, 1, 1e9)
    return t, mm, claims.half_up(t - mm, 1), gflop, peak, claims.as_printed(gflop / peak, 1, 1e-3)


def printed_part_share(parts: dict[str, float], part: str) -> float:
    """A part's share of the step as section 2's table prints it: its seconds (4 decimals) over the printed
    step (``printed_step_s``). The guide's feeding line and the table quote this one figure."""
    return claims.printed_ratio(parts.get(part, 0.0), printed_step_s(parts), 4)


def share_digits(share: float) -> int:
    """Decimals of a per cent a share of a step prints with: 1, or 2 where 1 would show a share above zero as
    0.0% (loading's 0.05%: a 0.0% beside a bound of 1.001x would not give that bound)."""
    return 2 if share > 0 and f"{share:.1%}" == "0.0%" else 1


def share_text(share: float) -> str:
    """A share of a step as the page prints it (``share_digits``): "85.9%", "0.05%"."""
    return f"{share:.{share_digits(share)}%}"


def precision_bound(profile: Profile | None) -> float | None:
    """Amdahl's precision bound T/((T - M) + FLOPs/peak) from ``precision_terms``: the one figure that the
    guide, the ladder and the page print. None without the matmuls' FLOPs, time or low-precision peak (the
    peaks' ratio then stands in)."""
    if not profile or not profile.matmul_flops or not profile.low_peak or not profile.parts.get("matmul"):
        return None
    t, _, outside, _, _, at_low = precision_terms(profile)
    return t / claims.half_up(outside + at_low, 1)


def _precision_by_flops(profile: Profile, low: str) -> tuple[float, str]:
    """Amdahl's bound T/((T - M) + FLOPs/peak), every term worked from the figures as printed: the step T
    and its matmuls M in whole ms, the FLOPs to 4 figures (section 2's rate divides out of them), the measured
    low-precision peak to 0.1 GFLOP/s."""
    t, mm, outside, gflop, peak, at_low = precision_terms(profile)
    bound = precision_bound(profile)
    return bound, (f"matmuls take {mm:.1f} of a step's {t:.1f} ms (section 2's table); their {gflop:.4g} GFLOP "
                   f"at the measured {low} peak ({peak:,.1f} GFLOP/s) take {at_low:.1f} ms: Amdahl's bound "
                   f"T/((1 - f)T + FLOPs/peak) = {t:.1f}/({outside:.1f} + {at_low:.1f}) = {bound:.2f}x (an "
                   "estimate: the casts and the parts outside the matmuls can change too)")


def compile_step(profile: Profile | None, run_steps: int) -> Step:
    """torch.compile when the run pays back the measured compile: compile_s / (t_eager - t_compiled) steps."""
    if profile is None or profile.compile_s is None or profile.compiled_step_s is None:
        return Step("compile", MEASURE, "its compile is not measured yet: time the first compiled step and a "
                    "warm one; it pays after compile_s / (t_eager - t_compiled) steps")
    eager, compiled = profile.step_s, profile.compiled_step_s
    steps = break_even_steps(profile.compile_s, eager, compiled)
    arith = (f"{profile.compile_s:.1f} s / ({eager * 1e3:.1f} - {compiled * 1e3:.1f} ms) = {steps:,.0f} steps"
             if math.isfinite(steps) else f"the compiled step ({compiled * 1e3:.1f} ms) was not faster than "
             f"eager ({eager * 1e3:.1f} ms): compile never pays back")
    if eager - compiled <= profile.noise * eager:
        return Step("compile", "skip", f"a compiled step saves no more than the noise ({arith})")
    if run_steps >= steps:
        return Step("compile", "torch.compile", f"break-even after {arith}; the run has {run_steps:,}")
    return Step("compile", "skip", f"break-even after {arith}; the run has only {run_steps:,}")


def optimizer_step(plan: devices.Plan, shape: Shape, n: int, profile: Profile | None,
                   adapters: int | None = None) -> Step:
    # n: the devices the parameters are SHARDED over (FSDP's n; 1 under DDP, where every rank runs AdamW on
    # all of them)
    """Fused AdamW: one kernel a step for every parameter, and on a GPU no foreach list of temporaries. On a
    CPU it pays only as far as the profile's AdamW share allows (Amdahl: that share taken off at most).
    ``adapters``: only LoRA's adapters are trained, so AdamW's implementation matters for neither."""
    if adapters is not None:
        return Step("optimizer", "skip", f"AdamW updates only the adapters' {adapters / 1e6:.0f} M "
                    f"parameters (LoRA, see memory): its foreach list would be {_gb(4 * adapters / n)}, and "
                    "its step a sliver of a step through the frozen base; nothing to choose")
    share = profile.optimizer_share if profile is not None else None
    arith = ""
    if share is not None:
        share = claims.half_up(share, 3)   # as printed (3.3%, 0.033), half up: the bound is the reader's division
        bound = 1 / (1 - share)
        arith = (f"the for-loop AdamW step is {share:.1%} of a step: fused, at most 1/(1 - {share:.3f}) = "
                 f"{bound:.3f}x")
        if bound - 1 <= profile.noise and plan.simulated:  # a GPU's fused AdamW also saves memory: kept there
            return Step("optimizer", "skip", f"{arith}, within the {profile.noise:.0%} the guide allows for "
                        "noise (a planning figure, not this run's spread)")
    if plan.simulated:
        if share is None:
            return Step("optimizer", "skip", "profile first: on a CPU AdamW(fused=True) saves only the "
                        "for-loop AdamW's time (a dozen small ops per tensor), its share of a step")
        return Step("optimizer", "fused AdamW", f"{arith}, more than the {profile.noise:.0%} the guide "
                    "allows for noise (a planning figure; the ledger judges the step on its measured rounds): "
                    "AdamW(fused=True), one kernel for every parameter")
    temp = fit.optimizer_temporary(shape, shape.parameters() / n, "foreach")
    held = f"a shard of 1/{n} of the parameters" if n > 1 else "all the parameters (DDP: each rank updates all)"
    return Step("optimizer", "fused AdamW", f"AdamW(fused=True): one kernel per step for every parameter, and "
                "no list of temporaries from foreach AdamW (the default on a GPU: each op runs over the whole "
                f"list of tensors at once, so sqrt(v) exists for every parameter at once): 4 B x "
                f"{shape.parameters() / n / 1e9:.3g} bn parameters, {held} = {_gb(temp)} a device"
                + (f"; {arith}" if arith else ""))


# --- two devices and memory ---------------------------------------------------------------------------------

# What fits, cheapest first: DDP keeps everything whole; FSDP shards the state and gathers weights each step;
# selective checkpointing recomputes the cheap ops, full checkpointing every block's forward (~1/3 more).
FIT_ORDER = [("ddp", False), ("fsdp", False), ("ddp", "selective"), ("fsdp", "selective"), ("ddp", True),
             ("fsdp", True)]
ONE_DEVICE_ORDER = [("one device", False), ("one device", "selective"), ("one device", True)]
CKPT_NAME = {False: "no checkpointing", "selective": "selective checkpointing", True: "full checkpointing"}


@dataclass(frozen=True)
class Fit:
    strategy: str  # "one device", "ddp", "fsdp", or "none"
    n: int  # devices the step is spread over
    checkpointing: bool | str
    micro: int  # sequences per device per micro-batch
    held: fit.Held | None
    tried: list  # (strategy, checkpointing, peak) of what did not fit, for the reason


def find_fit(shape: Shape, per_device: int, prec: str, n: int, room: float) -> Fit:
    """The first (strategy, checkpointing) of ``FIT_ORDER`` whose step fits ``room``; then micro-batches of
    half, a quarter ... (accumulated) with checkpointing; else none."""
    order = FIT_ORDER if n > 1 else ONE_DEVICE_ORDER
    tried = []
    for strategy, ckpt in order:
        h = fit.held(shape, per_device, prec, strategy, n, ckpt)
        if h.peak <= room:
            return Fit(strategy, n, ckpt, per_device, h, tried)
        tried.append((strategy, ckpt, h.peak))
    micro = per_device // 2
    while micro >= 1:
        for strategy, ckpt in [o for o in order if o[1]]:
            h = fit.held(shape, micro, prec, strategy, n, ckpt)
            if h.peak <= room:
                return Fit(strategy, n, ckpt, micro, h, tried)
        micro //= 2
    return Fit("none", n, True, 1, None, tried)


def two_devices_step(shape, batch, prec, plan, hw, room, profile, measured_link) -> tuple[Step, Fit]:
    """DDP if a step of batch/n fits one device; FSDP if it fits only sharded; the link's bytes either way."""
    n = plan.world_size
    one = find_fit(shape, batch, prec or "fp32", 1, room)
    if n < 2 or len(set(plan.devices)) < n and not plan.simulated:
        return Step("two devices", "skip", f"{plan.label}: the ranks would share one device, no second one "
                    "to add"), one
    found = find_fit(shape, max(1, batch // n), prec or "fp32", n, room)
    if found.strategy == "none":
        return Step("two devices", "skip", f"full training fits no {n} devices of this size (see memory)"), found
    name = {"ddp": "DDP", "fsdp": "FSDP"}[found.strategy]
    tokens = found.micro * shape.context
    why = (f"{found.micro} sequences a device hold {_gb(found.held.peak)} of {_gb(room)} usable"
           + ("" if found.strategy == "ddp" else _ddp_alike(shape, found, prec or "fp32")) + "; "
           + link_reason(shape, found.strategy, n, prec, hw, plan, profile, tokens, measured_link,
                         batch * shape.context))
    return Step("two devices", f"{name} over {n}", why), found


def _ddp_alike(shape: Shape, found: Fit, prec: str) -> str:
    """Beside FSDP's bytes, DDP's for the same sequences and the same checkpointing, so the two compare like
    with like and DDP's figure is the one the memory row prints for that plan."""
    ddp = fit.held(shape, found.micro, prec, "ddp", found.n, found.checkpointing)
    return f" with {CKPT_NAME[found.checkpointing]} (DDP with the same: {_gb(ddp.peak)})"


def shown(step: Step) -> str:
    """A step's choice as the decision table shows it: a memory step skipped says why (the step fits as it
    is), so that its "skip" beside "DDP over 2" on one row does not read as skipping the DDP."""
    return "none needed: it fits" if step.step == "memory" and step.choice == "skip" else step.choice


def _two_as_memory_says(two: Step, found: Fit, memory: Step) -> Step:
    """Where full training fits no two devices, the two-devices step answers with what the memory step found
    to fit on them (its DDP or FSDP), so that one row never says "skip" beside "DDP over 2"."""
    over = re.search(r"\b(DDP|FSDP) over \d+", memory.choice) if found.strategy == "none" else None
    if over is None:
        return two
    return Step("two devices", f"as memory says: {over.group(0)}",
                f"full training fits no {found.n} devices of this size; what fits (see memory) runs as "
                f"{over.group(0)}")


def memory_step(shape: Shape, batch: int, found: Fit, room: float, cap_what: str, margin: str,
                prec: str = "fp32", hw=None, plan=None, measured_link: float | KnownLink | None = None) -> Step:
    """Checkpointing only to fit (selective before full); accumulation only when the state fits; and when
    full training fits nowhere, what does (8-bit AdamW, offload, LoRA, QLoRA) and how many GPUs it needs."""
    n = found.n
    per = max(1, batch // n)
    room_what = f"{_gb(room)} usable ({cap_what} less {margin})"
    if found.strategy == "none":
        return _nothing_fits(shape, n, room, room_what, prec, hw, plan, measured_link)
    held = _gb(found.held.peak)
    if found.checkpointing is False and found.micro == per:
        return Step("memory", "skip", f"the step holds {held} of {room_what}: checkpointing would recompute "
                    "every block's forward (about a third more compute) for nothing")
    tried = "; ".join(f"{s} with {CKPT_NAME[c]}: {_gb(p)}" for s, c, p in found.tried[-2:])
    name = CKPT_NAME[found.checkpointing]
    if found.micro < per:
        k = per // found.micro
        return Step("memory", f"{name} + {k} micro-batches",
                    f"{per} sequences do not fit ({tried}); {k} accumulated micro-batches of {found.micro} "
                    f"with {name}: {held} of {room_what}")
    return Step("memory", name.replace("full ", "activation "), f"without it: {tried}; with it: {held} of "
                f"{room_what}")


def _nothing_fits(shape: Shape, n: int, room: float, room_what: str, prec: str, hw, plan,
                  measured_link: float | KnownLink | None) -> Step:
    state = 16 * shape.parameters()
    options = fit.options_when_nothing_fits(shape, n, room)
    need = fit.devices_needed(shape, room)
    fitting = [o for o in options if o.fits]
    first, link = (fitting[0].name if fitting else None), ""
    if n > 1 and len(fitting) > 1:
        first, link = _by_link(shape, fitting, n, prec, hw, plan, measured_link)
    choice = f"does not fit: {first}" if first else f"does not fit: needs {need} devices of this size"
    lines = "; ".join(f"{o.name}: {o.arithmetic} ({'fits' if o.fits else 'no'})" for o in options)
    return Step("memory", choice, f"full training's state alone is 16 B x {shape.parameters() / 1e9:.3g} bn = "
                f"{_gb(state)}" + (f" ({_gb(state / n)} a device sharded over {n})" if n > 1 else "")
                + f", more than {room_what}: no batch size fits. {lines}.{link} Full training needs {need} "
                f"such devices with FSDP: {fit.devices_needed_arithmetic(shape, room)}")


def _by_link(shape: Shape, fitting: list, n: int, prec: str, hw, plan, measured_link) -> tuple[str, str]:
    """Of the options that fit ``n`` devices, the first (in ``fit.options_when_nothing_fits``'s order) whose
    link traffic for a micro-batch of one sequence hides behind its backward, each option's compute priced at
    its own FLOPs a weight a token at the datasheet peak (``_option_compute``: 4·P LoRA, 6·P full training,
    t32_0708 #3); if none hides, the one that moves the fewest bytes. On CPU workers nothing is taken to hide:
    the all-reduce runs on the cores the compute uses (as ``link_reason`` says for the small model, t32_0708
    #2). Its name, and the arithmetic."""
    rate, rate_what = link_rate(hw, measured_link)
    compute, compute_what = _compute_seconds(shape, shape.context, prec, hw, plan, None)
    timed = math.isfinite(compute) and not plan.simulated   # a datasheet peak, and a device for the link
    costs = [(o, *fit.link_bytes(shape, o.kind, n)) for o in fitting]  # (option, bytes, what they are)
    priced = {o.name: _option_compute(compute, o.name) for o in fitting} if timed else {}
    said = "; ".join(f"{o.name}: {what} = {_gb(moved)}"
                     + (f" = {_on_link(moved, rate, 1):.3g} s" if rate else "")
                     + (f" against {priced[o.name][2]}" if timed else "") for o, moved, what in costs)
    hidden = [o for o, moved, _ in costs
              if rate and timed and _sig3(_on_link(moved, rate, 1)) <= priced[o.name][1]]
    if hidden:
        pick, why = hidden[0], f"{hidden[0].name} is the first whose traffic hides behind backward"
    else:
        pick = min(costs, key=lambda c: c[1])[0]
        why = ((("none hides behind backward" if timed else
                 "CPU workers share the cores the link uses, so no traffic is taken to hide behind backward"
                 if plan.simulated else "no datasheet peak to time the compute against")
                if rate else "the link's rate is unknown") + f": {pick.name} moves the fewest bytes")
    over = f"over {rate / 1e9:.3g} GB/s ({rate_what})" if rate else "over a link of unknown rate"
    against = f" (compute {compute_what.replace('6·P·tokens ', '')})" if timed else ""
    return pick.name, f" The link, a micro-batch of one sequence {over}{against}: {said}; {why}."


def _option_compute(full: float, name: str) -> tuple[float, float, str]:
    """One option's compute for a micro-batch (seconds, to 3 figures as printed), its backward (as printed,
    from the printed compute) and the words: ``full`` is full training's 6·P·tokens at the peak, scaled to
    the option's own FLOPs a weight a token (``_flops_a_weight``); backward is all of it but the forward's 2
    (2/3 of full training's, 1/2 of LoRA's)."""
    flops, _ = _flops_a_weight(name)
    compute = _sig3(full * flops / 6)
    backward = _sig3(compute * (flops - 2) / flops)
    return compute, backward, (f"{compute:.3g} s of compute ({flops}·P·tokens), its backward "
                               f"({flops - 2} of the {flops}) {backward:.3g} s")


def _with_step_time(memory: Step, shape: Shape, batch: int, n: int, profiled: Profile, run_steps: int) -> Step:
    """A shape this CPU did not profile: the least time a step of the row's own plan can take here, its FLOPs
    a token (6·P full training, 4·P LoRA: ``_flops_a_weight``) at the measured low-precision peak on each of
    ``n`` workers (100 % MFU), and whether a run is practical."""
    peak = profiled.low_peak
    if not peak:
        return memory
    # every figure from the ones printed before it: the weights to 3 figures, the peak as every cell prints it
    bn, gflops = _sig3(shape.parameters() / 1e9), claims.as_printed(peak, 1, 1e9)   # "219.5 GFLOP/s"
    flops, whose = _flops_a_weight(memory.choice)
    step = flops * bn * batch * shape.context / (n * gflops)   # seconds
    # minutes to 3 figures too (4.13, not 4.1): the run's hours then come out alike from the minutes or seconds
    shown = f"{claims.sig_text(step, 3, 60, least=-12)} min" if step >= 60 else f"{_sig3(step):.3g} s"
    step = claims.as_printed_sig(step, 3, 60, least=-12) * 60 if step >= 60 else _sig3(step)   # as printed
    run_h = step * run_steps / 3600
    hours = f"{claims.half_up(run_h, 0):,.0f}" if run_h >= 100 else f"{claims.half_up(run_h, 1):.1f}"  # 392.5: 393
    slow = step > 60 or run_h > 24  # a minute a step, or a day a run: no way to try, measure and iterate
    verdict = (f"impractical on this machine ({run_steps:,} steps: at least {hours} h); rent GPUs" if slow
               else f"{run_steps:,} steps: at least {hours} h")
    said = (f"not profiled here (the profile above is the small model's); a step takes at least "
            f"{flops} x {bn:.3g} bn x {batch * shape.context:,} tokens / ({n} x {gflops:,.1f} GFLOP/s, the "
            f"measured peak) = {shown} (at 100 % MFU; {whose}): {verdict}")   # MFU first: t31_0708 #4
    choice = memory.choice + (" (impractical here)" if slow else "")
    return Step(memory.step, choice, f"{said}. {memory.why[:1].upper()}{memory.why[1:]}")


def _flops_a_weight(choice: str) -> tuple[int, str]:
    """FLOPs a weight a token of the row's chosen plan, and what they count: LoRA (QLoRA too) runs the
    forward (2) and the activations' gradients (2) but no gradients for its frozen weights, full training's
    other 2 (the adapters' own FLOPs are a fraction of a percent); anything else trains every weight (6).
    The floor is the plan's own, never full training's beside a LoRA plan (t30_0708 #2)."""
    if "LoRA" in choice:
        return 4, ("LoRA's FLOPs: forward and the activations' gradients, 4 a weight a token; its frozen "
                   "weights get none of full training's other 2, their gradients")
    return 6, "full training's FLOPs, 6 a weight a token"


def guide(shape: Shape, batch: int, plan: devices.Plan, hw: devices.Hardware | None,
          profile: Profile | None = None, run_steps: int = 1000,
          measured_link: float | KnownLink | None = None, features: devices.CpuFeatures | None = None,
          host_bytes: float | None = None) -> list[Step]:
    """The steps for ``shape`` trained on ``batch`` sequences a step on the plan's devices, in order, each
    with its reason and arithmetic. Lesson 08."""
    cap, cap_what = capacity(plan, hw, host_bytes)
    profiled = profile
    if profile is not None and profile.shape is not None and profile.shape != shape:
        profile = None  # another model's profile: its shares say nothing about this shape
    gpu = not plan.simulated and hw is not None and bool(hw.gpus)
    room, margin = fit.usable(cap, gpu), (fit.GPU_MARGIN if gpu else fit.CPU_MARGIN).why
    precision, prec = precision_step(plan, hw, profile, features)
    two, found = two_devices_step(shape, batch, prec, plan, hw, room, profile, measured_link)
    memory = memory_step(shape, batch, found, room, cap_what, margin, prec or "fp32", hw, plan, measured_link)
    two = _two_as_memory_says(two, found, memory)
    if profile is None and profiled is not None and plan.simulated:
        memory = _with_step_time(memory, shape, batch, plan.world_size, profiled, run_steps)
    adapters = fit.lora_parameters(shape) if "LoRA" in memory.choice else None
    fsdp = found.strategy == "fsdp" or "FSDP" in memory.choice
    sharded = found.n if fsdp else 1  # DDP: every rank's AdamW runs on all the parameters
    return [feeding_step(plan, profile), precision, optimizer_step(plan, shape, sharded, profile, adapters),
            two, memory, compile_step(profile, run_steps)]  # compile last: the settled script, compiled once
