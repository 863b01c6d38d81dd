"""Lesson 08's look before the steps: one step of the baseline profiled (lesson 01), its loading timed
apart from its compute (lesson 05's L and C) and the matmul peaks probed (lesson 00's probe, re-timed here
and named so: ``peaks``), all in one launched worker on the plan's first device, so that the notebook itself
never starts CUDA.

    found = launch(profile_worker, S.training, S.probe_n, S.probe_iterations, nprocs=1)[0]
    found["load"], found["compute"], found["optimizer"], found["shares"], found["peaks"], found["top"]
"""

from __future__ import annotations

import time

import torch

from utils import bench, machine
from utils.lessons.ddp import settings as ddp_settings
from utils.lessons.ddp.recipe import build
from utils.lessons.putting_it_together import peaks
from utils.lessons.putting_it_together.ladder import _median, flops_per_token, vocab_of
from utils.lessons.putting_it_together.script import Settings
from utils.lessons.why_slow.profile import profile_step

TRACE_DIR = "results/traces"


def step_parts(s: Settings, device, batches: int = 8) -> tuple[float, float, float]:
    """L, C and O of one step of ``s`` in this process: seconds to load a batch, of its compute, and of the
    AdamW step inside that compute (the for-loop AdamW, torch's default on a CPU); medians."""
    loader = torch.utils.data.DataLoader(ddp_settings.text_data(s), batch_size=s.batch_per_worker,
                                         shuffle=True)
    it, loads = iter(loader), []
    for _ in range(batches):
        start = time.perf_counter()
        batch = next(it)
        loads.append((batch, time.perf_counter() - start))
    model, optimizer, _ = build(s.scaled(checkpoint=None), vocab_of(s), device)
    times, steps = [], []
    for (x, y), _ in loads:
        x, y = x.to(device), y.to(device)
        bench.synchronize(device)
        start = time.perf_counter()
        optimizer.zero_grad(set_to_none=True)
        model(x, y)[1].backward()
        bench.synchronize(device)  # a GPU runs asynchronously: the backward is done only after this
        between = time.perf_counter()
        optimizer.step()
        bench.synchronize(device)
        times.append(time.perf_counter() - start)
        steps.append(time.perf_counter() - between)
    return _median([t for _, t in loads[1:]]), _median(times[1:]), _median(steps[1:])


def profile_one_step(s: Settings, device):
    """Lesson 01's ``profile_step`` on one optimizer step of the baseline (after one warm-up step)."""
    model, optimizer, _ = build(s.scaled(checkpoint=None), vocab_of(s), device)
    loader = torch.utils.data.DataLoader(ddp_settings.text_data(s), batch_size=s.batch_per_worker,
                                         shuffle=True, generator=torch.Generator().manual_seed(s.seed))
    x, y = (t.to(device) for t in next(iter(loader)))

    def one_step():
        optimizer.zero_grad(set_to_none=True)
        model(x, y)[1].backward()
        optimizer.step()

    return profile_step(one_step, TRACE_DIR, device=str(device), name="08_putting_it_together_step")


def peak_probe(n: int, dtype: str, device, iterations: int = 1) -> machine.Probe:
    """The machine profile's n³ matmul (``machine.matmul_probe``), ``iterations`` of them in one timed call:
    on a GPU one pair of CUDA events then brackets enough work that the launch (5-10 µs) does not count."""
    one = machine.matmul_probe(n, dtype, device=str(device), threads=1 if device.type == "cpu" else None)
    if iterations == 1:
        return one

    def make():
        call = one.make()

        def repeated():
            for _ in range(iterations):
                call()
        return repeated

    size = f"{one.size} x {iterations} in one timing"
    return machine.Probe(one.kind, dtype, one.threads, size, one.work * iterations, one.unit, make)


def profile_worker(s: Settings, probe_size: int = 1024, iterations: int = 1) -> dict:
    """In a launched worker: L, C and the optimizer's seconds, the profile's seconds by part, its top ops and
    the fp32 and low-precision matmul peaks of this device (one thread on a CPU; ``iterations`` matmuls a
    timing on a GPU, plan.probe_size), each the fastest of ``peaks.PROBE_ROUNDS`` x ``PROBE_RUNS`` runs:
    "peaks" the ones the lesson reads (``peaks.ceiling_peaks``: fp32 lifted to the step's own matmul rate
    where that beat the probe, "fp32_lifted"), "probed" the probes' own."""
    from utils.launch import current_device

    device = current_device()
    with bench.threads(s.threads):
        load, compute, optimizer = step_parts(s, device)
        prof = profile_one_step(s, device)
        on_cpu = device.type == "cpu"
        dtypes = ("fp32", "bf16") if on_cpu else ("fp32", "bf16", "fp16")  # fp16: a T4's precision step
        probes = [peaks.named(peak_probe(probe_size, dtype, device, iterations)) for dtype in dtypes]
        ceilings = machine.measure_ceilings(probes, rounds=peaks.PROBE_ROUNDS, runs=peaks.PROBE_RUNS,
                                            device=str(device))[0]
    # The profiler's parts give the shares; their seconds are scaled to the timed step C (under the profiler
    # a step runs slower: it records every op), so that the parts add up to L + C, the step printed
    profiled_s = sum(prof.by_category.values())
    scaled = {part: seconds * compute / profiled_s for part, seconds in prof.by_category.items()}
    tokens = s.batch_per_worker * s.context  # one batch a step, as step_parts and the profile ran it
    matmul_flops = flops_per_token(s, vocab_of(s)) * tokens
    probed = {c.dtype: c.best for c in ceilings}
    # a peak the step beats is no ceiling: the fp32 peak is the higher of the probe's and the step's own rate
    kept, lifted = peaks.ceiling_peaks(probed, matmul_flops, scaled.get("matmul"))
    return {"load": load, "compute": compute, "optimizer": optimizer, "profiled_s": profiled_s,
            "matmul_flops": matmul_flops, "shares": {"load": load, **scaled},
            "top": prof.top, "peaks": kept, "probed": probed, "fp32_lifted": lifted,
            "ceilings": [str(c) for c in ceilings]}


def look_first(s: Settings, probe_size: int = 1024, simulated: bool = True, iterations: int = 1) -> dict:
    """``profile_worker``'s figures: in this process on a CPU (the profiler's C++ library complains when it
    starts in a launched worker's thread), in one launched worker on a GPU (the notebook never starts CUDA)."""
    if simulated:
        return profile_worker(s, probe_size, iterations)
    from utils.launch import launch

    return launch(profile_worker, s, probe_size, iterations, nprocs=1, timeout=300)[0]


def guide_profile(found: dict, shape=None) -> "guide.Profile":
    """The guide's fourth input from ``look_first``'s figures: the profile's parts, the low-precision matmul
    peak over the fp32 one (bf16 where measured, else fp16) and that peak, the step's matmul FLOPs, the AdamW
    step's share of the step, and ``shape``: the model profiled (the guide uses the shares for it only)."""
    from utils.lessons.putting_it_together import guide, profile_words

    peaks = found["peaks"]
    low = peaks.get("bf16", peaks.get("fp16"))
    # the share from the ms section 2 prints (9.4 of the 289.0 ms step), so it is the reader's division
    share = profile_words.optimizer_share(found["optimizer"], found["shares"])
    return guide.Profile(found["shares"], peak_ratio=low / peaks["fp32"] if low else None,
                         optimizer_share=share,
                         matmul_flops=found.get("matmul_flops"), low_peak=low, shape=shape)


PROFILE_LINK = "machine profile, lesson 00"  # how the guide names a link rate it read from the profile


def profile_link(plan, device: str = "cpu", path=machine.PROFILE_PATH) -> "guide.KnownLink | None":
    """The link rate (beta) lesson 00 kept in the machine profile for this machine, if it is the path the plan's
    workers use (``machine.link_route``: gloo between two processes on a CPU); None where the profile keeps
    none or another path. Read only: nothing is measured here. ``device``: the one lesson 00 profiled."""
    from utils.lessons.putting_it_together import guide

    kept = machine.saved_link(device, path)
    if not kept or kept.name != machine.link_route(plan)[0]:
        return None
    return guide.KnownLink(kept.fit.beta, f"{PROFILE_LINK}, {kept.name}")
