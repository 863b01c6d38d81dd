"""Lesson 08's decision guide: which techniques apply to a model on a machine, in which order, and why.

    steps = guide(Shape(...), batch=32, plan=devices.plan(2), hw=devices.hardware())
    for s in steps: print(s.step, s.choice, s.why)

It is a function of three things the course measured or looked up: the device plan (``utils.devices``: how
many devices, GPUs or CPU processes), the memory calculator (lesson 06: does a step fit one device, and with
which strategy it fits two) and the link (its bandwidth: how long DDP's all-reduce of the gradients takes).
The order is the order that costs least to try: feeding and precision change one line each, compile needs
time to pay back, a second device needs a launcher, and memory tricks trade compute for bytes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from utils import devices
from utils.lessons.memory.calculator import Shape, estimate

COMPILE_CPU_S = 45.0  # torch.compile of the small GPT's step on one CPU core, first call (measured once here)
COMPILE_GPU_S = 30.0  # the same on a GPU: Inductor's Triton kernels; about as long
PAYBACK = 10  # compile when the run is at least this many times longer than the compile
HOST_SHARE = 0.5  # cpu mode: the two worker processes share the host's memory, half each


@dataclass(frozen=True)
class Step:
    """One line of the guide: the step, what to do (``choice``; "skip" when it does not apply) and why."""

    step: str  # feeding, precision, compile, two devices, memory
    choice: str
    why: str

    @property
    def applies(self) -> bool:
        return self.choice != "skip"


def capacity(plan: devices.Plan, hw: devices.Hardware | None) -> tuple[float, str]:
    """Bytes one device may hold, and what they are: the GPU's memory, or in cpu mode half the host's."""
    if not plan.simulated and hw is not None and hw.gpus and hw.gpus[0].memory_total:
        return float(hw.gpus[0].memory_total), f"{hw.gpus[0].name}'s memory"
    host = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    return host * HOST_SHARE, "half the host's memory (two CPU workers share it)"


def precision(plan: devices.Plan, hw: devices.Hardware | None, isa: str | None = None) -> tuple[str, str]:
    """The low precision that pays on this device: ("bf16", why), ("fp16", why) or ("fp32", why)."""
    if plan.simulated or hw is None or not hw.gpus:
        isa = devices.cpu_isa() if isa is None else isa
        units = ", ".join(f for f in isa.split("; ")[-1].split(", ") if "BF16" in f and " " not in f)
        if units:
            return "bf16", f"the CPU has bf16 units ({units}): bf16 autocast"
        return "fp32", f"the CPU reports no bf16 units ({isa}): autocast would only convert"
    cc = hw.gpus[0].compute_capability or (0, 0)
    if cc >= (8, 0):
        return "bf16", f"compute capability {cc[0]}.{cc[1]}: bf16 tensor cores; bf16 autocast, no scaler"
    if cc >= (7, 0):
        return "fp16", (f"compute capability {cc[0]}.{cc[1]}: fp16 tensor cores but no bf16: fp16 autocast "
                        f"with a GradScaler")
    return "fp32", f"compute capability {cc[0]}.{cc[1]}: no tensor cores; fp32"


def compile_step(plan: devices.Plan, run_seconds: float) -> Step:
    """Compile when the run is long enough to pay back the compile (``PAYBACK`` times longer)."""
    cost = COMPILE_CPU_S if plan.simulated else COMPILE_GPU_S
    if run_seconds >= PAYBACK * cost:
        return Step("compile", "torch.compile", f"a run of {run_seconds:.0f} s pays back a compile of about "
                    f"{cost:.0f} s")
    return Step("compile", "skip", f"a run of {run_seconds:.0f} s is shorter than {PAYBACK}x the compile "
                f"(about {cost:.0f} s): the compile would not pay back")


def link_bandwidth(plan: devices.Plan, hw: devices.Hardware | None,
                   measured: float | None = None) -> float | None:
    """Bytes/s between the two devices: ``measured`` if given (cpu mode: the gloo link's 1/β), else the
    datasheet peak of the GPUs' link."""
    if measured:
        return measured
    return hw.link.bandwidth if hw is not None and hw.link is not None else None


def _allreduce_seconds(shape: Shape, n: int, grad_bytes: int, bandwidth: float | None) -> float | None:
    """Ring all-reduce of the gradients: each device sends 2(n-1)/n of them (lesson 03)."""
    return 2 * (n - 1) / n * shape.parameters() * grad_bytes / bandwidth if bandwidth else None


# Strategies for two or more devices, cheapest first: DDP keeps everything whole; FSDP shards the state at
# the cost of gathering weights every step; checkpointing costs one more forward; a pipeline comes last.
TWO_DEVICE_ORDER = [("ddp", False), ("fsdp", False), ("ddp", True), ("fsdp", True), ("pipeline", True)]


def _fitting(shape, batch, prec, n, cap):
    mixed = {"bf16": "bf16 mixed", "fp16": "fp16 mixed"}.get(prec, "fp32")
    for strategy, ckpt in TWO_DEVICE_ORDER:
        budget = estimate(shape, max(1, batch // n), mixed, checkpointing=ckpt, strategy=strategy, n=n)
        if budget.fits(cap)[0]:
            return strategy, ckpt, budget
    return None, None, None


def two_devices(shape: Shape, batch: int, prec: str, plan: devices.Plan, hw, cap: float,
                bandwidth: float | None) -> tuple[Step, str, bool | None]:
    """The two-device step, its strategy, and whether it needs checkpointing (None: nothing fits)."""
    n = plan.world_size
    if n < 2 or len(set(plan.devices)) < n and not plan.simulated:
        return Step("two devices", "skip", f"{plan.label}: the ranks would share one device, no "
                    "second one to add"), "one device", False
    strategy, ckpt, budget = _fitting(shape, batch, prec, n, cap)
    if strategy is None:
        why = (f"no strategy of lesson 06 fits {batch // n} sequences per device in {cap / 1e9:.0f} GB: a "
               "smaller batch, more devices, or tensor parallel over NVLink")
        return Step("two devices", "skip", why), "one device", None
    ar = _allreduce_seconds(shape, n, 4 if prec == "fp32" else 2, bandwidth)
    comm = f"; its all-reduce: {ar * 1e3:.3g} ms a step over {bandwidth / 1e9:.3g} GB/s" if ar else ""
    name = {"ddp": "DDP", "fsdp": "FSDP", "pipeline": "pipeline"}[strategy]
    fits = "fits one device" if strategy == "ddp" else "does not fit one device whole"
    return Step("two devices", f"{name} over {n}", f"the step {fits} ({budget.peak / 1e9:.3g} GB of "
                f"{cap / 1e9:.0f} GB){comm}"), strategy, ckpt


def guide(shape: Shape, batch: int, plan: devices.Plan, hw: devices.Hardware | None,
          run_seconds: float = 60.0, measured_link: float | None = None,
          isa: str | None = None) -> list[Step]:
    """The steps for ``shape`` trained on ``batch`` sequences a step on the plan's devices, in order.
    Lesson 08."""
    cap, cap_what = capacity(plan, hw)
    prec, prec_why = precision(plan, hw, isa)
    low = {"bf16": "bf16 autocast", "fp16": "fp16 autocast + GradScaler"}.get(prec, "skip")
    steps = [Step("feeding", "loader workers" + ("" if plan.simulated else ", pinned memory"),
                  "first, because it changes no maths: the profile's data share says how much it can buy"),
             Step("precision", low, prec_why),
             compile_step(plan, run_seconds)]
    link = link_bandwidth(plan, hw, measured_link)
    two, strategy, ckpt = two_devices(shape, batch, prec, plan, hw, cap, link)
    steps.append(two)
    steps.append(memory_step(shape, batch, prec, plan.world_size, strategy, cap, cap_what, ckpt))
    return steps


def memory_step(shape, batch, prec, n, strategy, cap, cap_what, ckpt) -> Step:
    """Checkpointing where it is needed to fit; otherwise grow the batch in the memory the same strategy takes
    in fp32 with every activation kept (or the device's, if less): what precision and checkpointing buy."""
    mixed = {"bf16": "bf16 mixed", "fp16": "fp16 mixed"}.get(prec, "fp32")
    n = 1 if strategy == "one device" else n
    if ckpt is None or (n == 1 and not estimate(shape, batch, mixed).fits(cap)[0]):
        if estimate(shape, batch, mixed, checkpointing=True).fits(cap)[0]:
            return Step("memory", "activation checkpointing",
                        f"needed to fit {batch} sequences in {cap_what}")
        return Step("memory", "skip", f"even with checkpointing {batch} sequences do not fit {cap_what}: "
                    "shrink the batch (accumulate) or add devices")
    if ckpt:
        return Step("memory", "activation checkpointing", "the strategy above fits only with it")
    per = max(1, batch // n)
    limit = min(cap, estimate(shape, per, "fp32", strategy=strategy, n=n).peak)
    grown = per
    while grown < 8 * per and estimate(shape, 2 * grown, mixed, checkpointing=True, strategy=strategy,
                                       n=n).peak <= limit:
        grown *= 2
    if grown == per:
        return Step("memory", "skip", f"checkpointing would not fit twice the batch in {limit / 1e9:.3g} GB: "
                    "nothing to buy back")
    return Step("memory", f"checkpointing, batch x{grown // per}", f"{grown} sequences per device fit in "
                f"{limit / 1e9:.3g} GB, the fp32 step's memory for {per}")
