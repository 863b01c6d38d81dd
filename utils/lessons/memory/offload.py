"""Lesson 06, section 7: what FSDP2's CPU offload (``CPUOffloadPolicy``) costs a step, counted per direction
of the link, and the CPU's AdamW step timed on this machine.

    rate = adamw_rate(threads=1)                     # parameters a second a CPU AdamW step updates (measured)
    cost = offload_cost(P, n=2, adamw_params_per_s=rate, link_bytes_per_s=16e9)
    cost.host_to_device, cost.device_to_host, cost.adamw_seconds, cost.seconds

With offload, each rank keeps its fp32 shards of the parameters, gradients and AdamW state in host memory.
Every step its fp32 parameter shards cross to the device before the forward, and again before the backward
(FSDP2 frees the gathered weights after the forward: ``reshard_after_forward=True``); its fp32 gradient
shards cross back after the reduce-scatter; AdamW then runs on the CPU, on the shard.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from utils import bench, claims
from utils.lessons.memory.threads_rounds import rounds_past_floor, rounds_reach

FP32 = 4


@dataclass(frozen=True)
class OffloadCost:
    """Bytes per step one rank moves each way over its link, and the seconds they and the CPU step take."""

    host_to_device: float  # bytes: the fp32 parameter shards, twice (forward, backward)
    device_to_host: float  # bytes: the fp32 gradient shards, once
    link_bytes_per_s: float  # per direction
    adamw_seconds: float  # the CPU AdamW step on this rank's shard, at the measured rate
    shard_parameters: float = 0.0  # this rank's parameters, which the CPU step updates (0: not given)
    adamw_params_per_s: float = 0.0  # the rate the CPU step runs at, parameters a second (0: not given)

    @property
    def copy_seconds(self) -> float:
        """Both directions' copies at the link's datasheet rate (a bound), one after the other: in a step's
        order the parameters cross before the forward and the backward, and the gradients cross back after
        it, before the CPU step can start; overlap with the device's compute could hide part of them."""
        return (self.host_to_device + self.device_to_host) / self.link_bytes_per_s

    @property
    def seconds(self) -> float:
        """The step's critical path with no overlap: the copies (``copy_seconds``), then the CPU step at the
        rate given (measured on one machine: a reference, not a bound), which needs every gradient first."""
        return self.copy_seconds + self.adamw_seconds


def printed_parts(cost: OffloadCost) -> tuple[float, float, float, float]:
    """(to the device, to the host, the CPU AdamW step, the step) in seconds, each part as the table prints it
    (0.01 s) and the step their sum, so that 0.84 + 0.42 + 11.10 reads 12.36 s, as a reader's addition does.
    Where the cost carries its shard and rate, the CPU step is worked from them as printed (3.36 B parameters at
    321.5 M parameters/s: 10.45 s, a reader's division)."""
    cpu_step = cost.adamw_seconds
    shard_b, rate_m = (claims.as_printed(cost.shard_parameters, 2, 1e9),   # B parameters, as printed
                       claims.as_printed(cost.adamw_params_per_s, 1, 1e6))   # M parameters/s, as printed
    if shard_b and rate_m:   # both printed beside the table (a model too small to print them keeps its own)
        cpu_step = shard_b * 1e9 / (rate_m * 1e6)
    seconds = (cost.host_to_device / cost.link_bytes_per_s, cost.device_to_host / cost.link_bytes_per_s, cpu_step)
    parts = tuple(claims.as_printed(s, 2) for s in seconds)
    return (*parts, sum(parts))


def printed_state(state: float, shard_parameters: float) -> tuple[float, float, float]:
    """(bytes a parameter, the shard in B parameters as printed, the state in GB) for the sentence that sets a
    rank's state beside its shard: the state worked from the shard as printed (0.01 B) x the bytes each of its
    parameters keeps (``state / shard_parameters``: 16 in bf16 mixed), rounded half up, so that a reader who
    redoes 16 x 3.36 B finds 53.8 GB beside it, not 53.7 from the unrounded 3.357 B (t42_0506 #2). Lesson 06."""
    per_parameter = claims.as_printed(state / shard_parameters, 1)
    shard_b = claims.as_printed(shard_parameters, 2, 1e9)
    return per_parameter, shard_b, claims.half_up(per_parameter * shard_b, 1)


def offload_cost(parameters: int, n: int, adamw_params_per_s: float, link_bytes_per_s: float) -> OffloadCost:
    """The offload cost of one step for one of ``n`` ranks sharding ``parameters`` (fp32 shards on the host).
    Lesson 06."""
    shard = parameters / n
    return OffloadCost(host_to_device=2 * shard * FP32, device_to_host=shard * FP32,
                       link_bytes_per_s=link_bytes_per_s, adamw_seconds=shard / adamw_params_per_s,
                       shard_parameters=shard, adamw_params_per_s=adamw_params_per_s)


def adamw_rate(numel: int = 2**22, threads: int | None = 1, repeats: int = 5) -> float:
    """Parameters a second that ``torch.optim.AdamW`` updates on the CPU (one fp32 tensor of ``numel``, its
    gradient set; the fastest of ``repeats`` steps after a warm-up). A reference measured here. Lesson 06."""
    weight = torch.nn.Parameter(torch.zeros(numel))
    weight.grad = torch.full((numel,), 1e-3)
    optimizer = torch.optim.AdamW([weight], lr=1e-3)
    with bench.threads(threads):
        m = bench.measure(optimizer.step, warmup=1, repeats=repeats, device="cpu")
    return numel / m.min


def reference_rate(rates: dict[int, float], cores: int) -> tuple[float, str]:
    """The CPU AdamW rate the offload table is worked from (parameters/s, from the M/s as printed) and its name
    for the column: the faster thread count's fastest round (``rates``: threads -> parameters/s), never past
    the bound equal work allows on ``cores`` threads, ``cores`` x one thread's rate. A rate past that bound is a
    finding to explain, not a reference to build on: the table then reads the bound (t32/t33_0506: 619 M/s on
    2 threads, 2.31x one thread's 268 M/s, read 536 M/s). The name carries the rate it is worked from, in M/s
    as printed, so that "half {name} = 270.0 M/s" reads as one sum: the bound's name gives the 1-thread rate
    it multiplies (t34_0506 #4: "half 2 x this machine's 1-thread rate, the 2-thread bound, 270.0" named no
    figure). Lesson 06, section 8."""
    best = max(rates, key=rates.get)
    rate = claims.as_printed(rates[best], 0, 1e6) * 1e6
    own = f"this machine's {best}-thread AdamW rate ({rate / 1e6:.0f} M/s)"
    if best == 1 or 1 not in rates:
        return rate, own
    one = claims.as_printed(rates[1], 0, 1e6)
    bound = cores * one * 1e6
    if rate > bound:
        return bound, f"the {cores}-thread bound ({cores} x this machine's 1-thread AdamW rate, {one:.0f} M/s)"
    return rate, own


def reference_doubt(paired: list[float], rates: dict[int, float], cores: int) -> str:
    """A sentence for the offload table's CPU rate where it comes from ``cores`` threads and the threads
    reading finds that count past its bound (equal work on N threads gives at most Nx one thread's rate): a
    round's own ratio (``paired``, as printed) past it, or the fastest of each (``rates``: threads -> the
    fastest rate, parameters/s, as printed in M/s) past it. Then the reference the table is worked from is the
    rate in doubt, and the page says so; "" where the table reads one thread's rate or nothing passed the bound.
    Lesson 06, section 8."""
    best = max(rates, key=rates.get)
    if best == 1 or cores not in rates or 1 not in rates:
        return ""
    fastest = claims.printed_ratio(rates[cores], rates[1], 0, 1e6)
    one, many = (claims.as_printed(rates[t], 0, 1e6) for t in (1, cores))
    if reference_rate(rates, cores)[0] < many * 1e6:   # the fastest pair passed the bound: the column reads it
        return (f" That column keeps to the bound, {cores} x {one:.0f} = {cores * one:.0f} M parameters/s: the "
                f"{cores}-thread rate measured, {many:.0f} M/s ({fastest:.2f}x one thread's), passed it: not a "
                f"rate to build on. {_rounds_past_words(paired, cores)}.")
    if not rounds_past_floor(paired, cores):   # no round past the bound beyond the 2 % floor: no doubt
        return ""
    # the threads reading sits in the collapsed details under the cell (t29_0506: lengths), so it points there
    return (f" That column's rate is the {cores}-thread one, its fastest pair under the {cores}x bound (the same "
            f"work on {cores} threads), though as a reference it may be too fast, and the CPU step then longer "
            f"than the column says. {_rounds_past_words(paired, cores, too=False)}.")


def _rounds_past_words(paired: list[float], cores: int, too: bool = True) -> str:
    """What the threads reading (``summary.threads_reading``, in the details under the cell) concluded about
    the rounds' own ratios (``paired``) against the bound ``cores``x, in its own terms, for the sentence that
    points to it: the same count of rounds past the bound (``claims.round_above``) and the same outcome, so
    that a reader who opens the details finds what the line promised (t36_0506 #1: the line said the details
    "name a finding to explain" where they said "no verdict from this run"). ``too``: whether the sentence
    before said the fastest pair passed the bound. A round counts as past only beyond the lesson's 2 % floor
    (``rounds_past_floor``), as there, unless every round passed it as printed."""
    printed = [k for k, r in enumerate(paired, 1) if claims.round_above(r, cores)]
    past = [(k, paired[k - 1]) for k in rounds_past_floor(paired, cores)]
    where, too = "In the threads reading (the details below),", " too" if too else ""
    if len(printed) == len(paired):
        reach = rounds_reach(paired, cores)   # the reading's verdict: past the bound only where the ± clears it
        if reach:
            return (f"{where} every round's own ratio passed it{too} as printed, but their median's ± reaches it "
                    f"({reach}): within noise of its bound")
        return f"{where} every round's own ratio passed it{too}; the cause is not timed apart here"
    if not past:
        floor = " beyond the lesson's 2 % floor" if printed else ""
        return f"{where} no round's own ratio passed it{floor}: that reading goes pair by pair"
    if len(past) >= len(paired) - len(past):   # as many past as not: the reading gives no verdict
        return (f"{where} {len(past)} of {len(paired)} rounds' own ratios passed it{too}: the rounds disagree, "
                f"no verdict from this run")
    names = " and ".join(f"round {k}'s {claims.as_printed(r, 2):.2f}x" for k, r in past)
    return f"{where} {names} passed it{too}, a finding to explain; the verdict there reads the other rounds"
