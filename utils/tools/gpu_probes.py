"""The GPU check's probes, one per phase: ``python -m utils.tools.gpu_probes NAME`` (see ``gpucheck``).

Each prints what it found as plain lines and exits non-zero when something the course relies on is wrong.
They run on a GPU machine; ``environment``, ``nvml`` and ``replayed_topologies`` also run without one.

The measurement probes (issue 36: ``profiler``, ``regime``, ``overlap``, ``link``) end with one line per
check, ``SANE: ...`` or ``NOT SANE: ...``, saying plainly whether a figure a lesson prints is right on this
GPU; their verdicts are plain functions of the figures (``*_verdicts``), tested without a GPU.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

import torch
import torch.distributed as dist
from torch.distributed.algorithms.ddp_comm_hooks import default_hooks, powerSGD_hook
from torch.nn.parallel import DistributedDataParallel as DDP

from utils import bench, devices, machine, nvml, precision
from utils.launch import keep_until_exit, launch, process_group
from utils.lessons.start_here import bandwidth
from utils.tools import fake_nvml

MIB = 2**20


def environment() -> None:
    """torch, CUDA, NCCL, the GPUs torch sees, the course's report, and the driver's topology matrix."""
    print(f"python {sys.version.split()[0]}, torch {torch.__version__}, CUDA (build) {torch.version.cuda}")
    if devices.gpu_count():
        nccl = torch.cuda.nccl.version() if hasattr(torch.cuda, "nccl") else None
        print(f"NCCL {nccl}; GPU 0: {torch.cuda.get_device_name(0)}, cc {torch.cuda.get_device_capability(0)}")
    devices.report(detail=True)
    try:
        topo = subprocess.run(["nvidia-smi", "topo", "-m"], capture_output=True, text=True, timeout=20)
        print(topo.stdout or topo.stderr)
    except (OSError, subprocess.TimeoutExpired) as exc:
        print(f"nvidia-smi topo -m: {exc}")


def nvml_facts() -> None:
    """Raw NVML answers: per-lane NVLink state, version enum and remote type; P2P; the link speed field."""
    layer, reason = nvml.real_layer()
    if layer is None:
        print(f"no NVML: {reason}")
        return
    for i in range(layer.count()):
        h = layer.handle(i)
        print(f"GPU {i}: {layer.gpu_facts(i)}")
        for lane in layer.active_lanes(h):
            print(f"  lane {lane}: version enum {layer.query('nvmlDeviceGetNvLinkVersion', h, lane)}, remote "
                  f"type {layer.query('nvmlDeviceGetNvLinkRemoteDeviceType', h, lane)}")
        print(f"  NVLink speed field: {layer.field(h, layer.c['NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON'])} MB/s")
    if layer.count() >= 2:
        print(f"GPU 0 -> GPU 1: {layer.nvlink_facts(0, 1)}")


def _cuda_worker() -> dict:
    x = torch.ones(4, device=f"cuda:{torch.cuda.current_device()}") * 2
    return {"sum": float(x.sum()), "tensor": x}  # a CUDA tensor: the launcher must send it back on the CPU


SCENARIOS = {
    "after report and monitor": "from utils import devices, monitor; devices.report(); monitor.Monitor(show=False)",
    "after torch.cuda.is_available()": "torch.cuda.is_available()",
    "after a CUDA allocation here": "torch.ones(1, device='cuda')",
}


def fork_safety() -> None:
    """Each scenario in a fresh process: then a launch whose worker uses CUDA must still work."""
    failures = 0
    for name, before in SCENARIOS.items():
        code = (f"import torch\n{before}\nfrom utils.launch import launch\nfrom utils.tools import gpu_probes\n"
                "(r,) = launch(gpu_probes._cuda_worker, nprocs=1, timeout=120)\n"
                "assert r['tensor'].device.type == 'cpu', r['tensor'].device\n"
                "print('worker sum', r['sum'], '| CUDA initialised here after:', torch.cuda.is_initialized())")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=150)
        ok = out.returncode == 0
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {(out.stdout + out.stderr).strip()[-600:]}")
    sys.exit(1 if failures else 0)


def timing() -> None:
    """bench.measure (CUDA events) against a plain clock around a synchronised matmul."""
    a = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
    m = bench.measure(lambda: a @ a, warmup=3, repeats=10, device="cuda")
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(10):
        a @ a
    torch.cuda.synchronize()
    manual = (time.perf_counter() - start) / 10
    ratio = m.median / manual
    print(f"bench.measure {m.median * 1e6:.1f} us, manual synchronise {manual * 1e6:.1f} us, ratio {ratio:.2f}; "
          f"{2 * 4096**3 / m.median / 1e12:.0f} TFLOP/s bf16")
    sys.exit(0 if 0.7 < ratio < 1.4 else 1)


def copies() -> None:
    """Copies 64 KiB to 1 GiB on every path of the mode; a fraction of bound above 1 is flagged."""
    points = bandwidth.measure_copies([64 * 1024 * 4**k for k in range(6)] + [256 * MIB, 1024 * MIB])
    flagged = [p for p in points if p.fraction_of_bound and p.fraction_of_bound > 1]
    for p in points:
        frac = f"{p.fraction_of_bound:.0%}" if p.fraction_of_bound else "n/a"
        print(f"{p.path:<26} {p.size // 1024:>9} KiB {p.rate / 1e9:8.1f} GB/s  {frac} of bound"
              + ("  <-- ABOVE BOUND" if p in flagged else ""))
    sys.exit(1 if flagged else 0)


HOOKS = {"allreduce": None, "fp16": default_hooks.fp16_compress_hook, "bf16": default_hooks.bf16_compress_hook}


def _ddp_through_every_hook() -> dict:
    """NCCL, world size 1: three steps of DDP through each communication hook; the losses."""
    losses = {}
    with process_group() as device:
        for name in list(HOOKS) + ["powersgd"]:
            torch.manual_seed(0)
            model = keep_until_exit(DDP(torch.nn.Linear(256, 256).to(device), device_ids=[device]))
            if name == "powersgd":
                state = powerSGD_hook.PowerSGDState(process_group=None, matrix_approximation_rank=2,
                                                    start_powerSGD_iter=2)
                model.register_comm_hook(state, powerSGD_hook.powerSGD_hook)
            elif HOOKS[name]:
                model.register_comm_hook(None, HOOKS[name])
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            for _ in range(3):
                loss = model(torch.randn(32, 256, device=device)).pow(2).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
            losses[name] = float(loss)
    return losses


def _all_reduce_sizes() -> list:
    rows = []
    with process_group() as device:
        for size in (MIB, 16 * MIB, 256 * MIB):
            x = torch.ones(size // 4, device=device)
            m = bench.measure(lambda: dist.all_reduce(x), warmup=1, repeats=3, device=device)
            rows.append((size, m.median))
    return rows


def distributed() -> None:
    """NCCL world 1 through every DDP hook; two gloo ranks sharing GPU 0; all-reduce up to 256 MiB."""
    print("DDP hooks, NCCL world size 1:", launch(_ddp_through_every_hook, nprocs=1, timeout=120)[0])
    rows = launch(_all_reduce_sizes, nprocs=2, timeout=120)[0]  # 1gpu mode: 2 ranks share cuda:0 on gloo
    for size, seconds in rows:
        print(f"gloo all-reduce, 2 ranks on one GPU: {size // MIB:>4} MiB in {seconds * 1e3:8.2f} ms "
              f"({size / seconds / 1e9:.2f} GB/s algbw)")


TOPOLOGIES = {
    "2 x T4 over PCIe, no peer access (Kaggle)": ([fake_nvml.T4] * 2, dict(p2p_read=False, ancestor=50)),
    "2 x H100 NVL on an NVLink bridge": ([fake_nvml.H100_NVL] * 2, dict(fabric="bridge", lanes=12, version_enum=6)),
    "2 of 8 A100 SXM behind NVSwitch (HGX)": ([fake_nvml.A100] * 8, dict(fabric="switch", lanes=12, version_enum=4)),
    "2 of 8 H100 behind NVSwitch": ([fake_nvml.H100] * 8, dict(fabric="switch", lanes=18, version_enum=6)),
}


def replayed_topologies() -> None:
    """The 2-GPU report on recorded machines (no GPU needed): what a learner there would read, and the busbw a
    healthy all-reduce reaches on that link (lesson 03)."""
    for name, (gpus, facts) in TOPOLOGIES.items():
        hw = devices.hardware(layer=fake_nvml.fake_layer(gpus, **facts), n_gpus=2)
        expected = machine.all_reduce_expectation(hw.link, hw.gpus)
        print(f"{name}:\n  {devices.summary_line(hw, '2gpu', devices.plan(2, mode_name='2gpu', n_gpus=2))}\n"
              f"  healthy all-reduce: busbw {expected.low:.0%}-{expected.high:.0%} of the link ({expected.why})")


# --- Issue 36: are the figures the lessons print right on this GPU? ---------------------------------------------


def report(verdicts: list[tuple[bool, str]]) -> None:
    """One line per check, SANE or NOT SANE; exit 1 when any is not."""
    for ok, text in verdicts:
        print(f"{'SANE' if ok else 'NOT SANE'}: {text}")
    sys.exit(0 if all(ok for ok, _ in verdicts) else 1)


def profile_verdicts(p) -> list[tuple[bool, str]]:
    """Lesson 01's profile of a GPU step (``why_slow.profile.StepProfile``), judged."""
    from utils.lessons.why_slow.profile import DEVICE_TIME

    share = p.by_category["matmul"] / p.wall_seconds
    total = sum(p.by_category.values())
    return [(p.time_source == DEVICE_TIME, f"categories from {p.time_source}"),
            (abs(total - p.wall_seconds) <= 0.01 * p.wall_seconds,
             f"categories add up to the step: {total * 1e3:.1f} of {p.wall_seconds * 1e3:.1f} ms"),
            ((p.gpu_busy_seconds or 0) <= 1.02 * p.wall_seconds,
             f"kernels {(p.gpu_busy_seconds or 0) * 1e3:.1f} ms fit in the step's {p.wall_seconds * 1e3:.1f} ms"),
            (share > 0.5, f"device time of the step's matmuls is {share:.0%} of the step (lesson 01: most of it)")]


def profiler() -> None:
    """Lesson 01's training step on this GPU (its sizes and dtype), profiled as the lesson does."""
    from utils.lessons.why_slow import plan, profile
    from utils.lessons.why_slow.step import training_step

    S = plan.lesson_settings(devices.plan(1), devices.hardware())
    run = training_step(S.model, S.batch, S.device, S.step_dtype)
    with tempfile.TemporaryDirectory() as folder:
        p = profile.profile_step(run.step, folder, S.device)
    print(f"lesson 01's step ({S.step_dtype}, {S.model}, batch {S.batch}) on {S.device}: "
          f"{p.wall_seconds * 1e3:.1f} ms; " + ", ".join(f"{k} {v * 1e3:.1f} ms" for k, v in p.by_category.items()))
    print("top ops by device time: " + ", ".join(f"{op} {s * 1e3:.2f} ms" for op, s, _ in p.top[:5]))
    report(profile_verdicts(p))


def regime_verdicts(cc, fp32_s: float, tf32_s: float, half_s: float, half: str) -> list[tuple[bool, str]]:
    """A 4096³ matmul in IEEE fp32, in TF32 and in the 16-bit dtype lessons 02-03 train in, judged: TF32 and
    16 bits at least 2x faster from Ampere on (datasheets: 7-8x), TF32 the same kernel as fp32 before it."""
    ampere = tuple(cc) >= precision.AMPERE_CC
    tf32, half_x = fp32_s / tf32_s, fp32_s / half_s
    tf32_ok = tf32 >= 2 if ampere else 0.8 <= tf32 <= 1.25
    return [(tf32_ok, f"TF32 on/off: {tf32:.1f}x ({'expected >= 2x from Ampere on' if ampere else 'no TF32 here: ~1x'})"),
            (half_x >= 2, f"{half} against IEEE fp32: {half_x:.1f}x (tensor cores: expected >= 2x)")]


def regime() -> None:
    """The arithmetic lessons 02 and 03 time on this GPU, and what it is worth against IEEE fp32."""
    cc = torch.cuda.get_device_capability(0)
    half = precision.training_regime(cc)
    half = half if half in precision.AUTOCAST else "fp16"
    a = torch.randn(4096, 4096, device="cuda")
    times = {}
    for name in ("fp32", "tf32"):
        precision.use(name)
        times[name] = bench.measure(lambda: a @ a, warmup=3, repeats=10, device="cuda").median
    precision.use("fp32")
    h = a.to(precision.AUTOCAST[half])
    times[half] = bench.measure(lambda: h @ h, warmup=3, repeats=10, device="cuda").median
    print(f"compute capability {cc}: lesson 03 trains in {precision.training_regime(cc)}, lesson 02's timed "
          f"workers run fp32 as {precision.fp32_regime(cc)}; 4096³ matmul: "
          + ", ".join(f"{k} {v * 1e3:.2f} ms" for k, v in times.items()))
    report(regime_verdicts(cc, times["fp32"], times["tf32"], times[half], half))


def capstone_peak_verdicts(cc, fp32_flops: float, half_flops: float, half: str, call_s: float
                           ) -> list[tuple[bool, str]]:
    """Lesson 08's peak probes (``plan.probe_size``) judged: one timed call long enough that a launch
    (5-10 µs) does not count, and the 16-bit peak at least 2x fp32's where there are tensor cores (datasheets: 8-16x),
    so that the precision step's Amdahl bound is not the ~1-2x a launch-bound 512³ matmul gave."""
    ratio = half_flops / fp32_flops
    tflops = f"{fp32_flops / 1e12:.1f} and {half_flops / 1e12:.1f} TFLOP/s"
    return [(call_s >= 1e-3, f"one timed call of the fastest probe: {call_s * 1e3:.2f} ms (expected >= 1 ms)"),
            (ratio >= 2 if tuple(cc) >= (7, 0) else True,
             f"{half}/fp32 matmul peak: {ratio:.1f}x ({tflops}; tensor cores: expected >= 2x)")]


def capstone_peaks() -> None:
    """The matmul peaks behind lesson 08's precision bound, measured as the lesson measures them on this GPU."""
    from utils.lessons.putting_it_together import plan, profile

    cc = torch.cuda.get_device_capability(0)
    half = "bf16" if tuple(cc) >= (8, 0) else "fp16"
    n, iterations = plan.probe_size(devices.plan(2), devices.hardware())
    probes = [profile.peak_probe(n, d, torch.device("cuda:0"), iterations) for d in ("fp32", half)]
    ceilings = machine.measure_ceilings(probes, rounds=3, runs=2, device="cuda:0")[0]
    print("\n".join(str(c) for c in ceilings))
    peaks = {c.dtype: c.best for c in ceilings}
    report(capstone_peak_verdicts(cc, peaks["fp32"], peaks[half], half, probes[1].work / peaks[half]))


def overlap_verdicts(ranks: list[dict], peers: bool) -> list[tuple[bool, str]]:
    """Lesson 03's DDP step timed on the GPU (``overlap.timeline`` with NCCL), judged on its slowest rank: read
    on CUDA events, figures inside the step, and with a peer NCCL's kernels overlapping the backward."""
    from utils.lessons.ddp import overlap

    r = overlap.slowest(ranks)
    spans = [s for s in r["spans"] if s["name"] == "all-reduce"]
    backward = next(s for s in r["spans"] if s["name"] == "backward")
    inside = sum(max(0.0, min(s["end"], backward["end"]) - s["start"]) for s in spans)
    found = [(r["clock"] == "GPU (CUDA events)", f"read on the {r['clock']} clock"),
             (0 < r["compute"] <= r["step"] and 0 <= r["exposed"] <= r["step"],
              f"rank {r['rank']}: backward {r['compute'] * 1e3:.1f} ms, exposed {r['exposed'] * 1e3:.1f} ms, "
              f"step {r['step'] * 1e3:.1f} ms, {r['messages']:.0f} all-reduces")]
    if peers:
        found.append((inside > 0 and r["exposed"] < r["communication"],
                      f"NCCL kernel time overlaps backward kernels: {inside * 1e3:.1f} of "
                      f"{r['communication'] * 1e3:.1f} ms during the backward, {r['exposed'] * 1e3:.1f} ms exposed"))
    return found


def _overlap_settings():
    from utils.lessons.ddp.plan import lesson_settings

    return lesson_settings(devices.plan(2), devices.hardware()).training(bucket_cap_mb=25)


def overlap_probe() -> None:
    """Lesson 03's overlap on NCCL: two ranks where there are two GPUs, else one (the event timing alone)."""
    from utils.lessons.ddp import overlap

    peers = devices.gpu_count() >= 2
    if peers:
        os.environ["TWOGPU_MODE"] = "2gpu"
    s = _overlap_settings()
    ranks = launch(overlap.timeline, s, True, 5, nprocs=2 if peers else 1, backend="nccl", timeout=120)
    if not peers:
        print("one GPU: NCCL with one rank has no peer to overlap with; checked: the GPU clock's figures")
    report(overlap_verdicts(ranks, peers))


def regime_losses_verdicts(gap: float, tolerance: float, why: str) -> list[tuple[bool, str]]:
    return [(gap <= tolerance, f"DDP's losses against one process's, in the lesson's regime: gap {gap:.1e} "
                               f"(lesson 03's tolerance {why})")]


def regime_losses() -> None:
    """Lesson 03's claim "DDP's losses = one process's" in the regime it trains in on this GPU."""
    from utils.lessons.ddp.plan import lesson_settings
    from utils.lessons.ddp.recipe import train

    S = lesson_settings(devices.plan(2), devices.hardware())
    base = S.training(steps=20)
    two = launch(train, base, nprocs=2, timeout=150)[0]
    one = launch(train, base.scaled(batch_per_worker=2 * base.batch_per_worker), nprocs=1, timeout=150)[0]
    gap = max(abs(a - b) for a, b in zip(two["losses"], one["losses"]))
    print(f"{S.precision}, {base.steps} steps: final loss {two['final_loss']:.4f} with DDP, {one['final_loss']:.4f} alone")
    report(regime_losses_verdicts(gap, S.loss_tolerance, S.loss_tolerance_why))


def link_verdicts(workers, pinned) -> list[tuple[bool, str]]:
    """1gpu mode: the two workers' link (gloo through host memory) against the pinned host-to-GPU copy."""
    return [(workers.fit.beta < pinned.fit.beta and workers.fit.alpha > pinned.fit.alpha,
             f"{workers.describe()}; slower than {pinned.describe()}, as a path through host memory must be")]


def link_probe() -> None:
    """The link lessons 00, 01 and 09 fit for two workers sharing this GPU (1gpu mode), and with two GPUs the
    all-reduce's busbw against what a healthy link of that kind reaches (lesson 03)."""
    sizes = [4, 2**12, 2**16, 2**20, 2**24]
    workers = machine.measure_link(devices.plan(2), sizes, repeats=5)  # launched first: nothing CUDA here yet
    pinned = machine.measure_link(devices.plan(1), sizes, repeats=5)
    found = link_verdicts(workers, pinned)
    if devices.gpu_count() >= 2:
        found.append(_all_reduce_verdict())
    report(found)


def _all_reduce_verdict() -> tuple[bool, str]:
    from utils.lessons.ddp import allreduce
    from utils.lessons.ddp.plan import lesson_settings

    os.environ["TWOGPU_MODE"] = "2gpu"
    S = lesson_settings(devices.plan(2), devices.hardware())
    rows = allreduce.all_reduce_benchmark([2**20, 2**24, 2**28], repeats=5, timeout=120)
    top = max(r["busbw"] for r in rows)
    e = S.allreduce_expected
    if e is None:
        return True, f"best busbw {top / 1e9:.1f} GB/s; the link's bandwidth is unknown: nothing to expect"
    return top >= e.low * S.allreduce_bound, f"best busbw {top / 1e9:.1f} GB/s: {e.reading(top / S.allreduce_bound)}"


PROBES = {"environment": environment, "nvml": nvml_facts, "fork_safety": fork_safety, "timing": timing,
          "copies": copies, "distributed": distributed, "replayed_topologies": replayed_topologies,
          "profiler": profiler, "regime": regime, "overlap": overlap_probe, "regime_losses": regime_losses,
          "link": link_probe, "capstone_peaks": capstone_peaks}

if __name__ == "__main__":
    PROBES[sys.argv[1]]()
