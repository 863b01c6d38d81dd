"""The GPU check's probes, one per phase: ``python -m utils.tools.gpu_probes NAME`` (see ``gpucheck``).

Each prints what it found as plain lines and exits non-zero when something the course relies on is wrong.
They run on a GPU machine; ``environment``, ``nvml`` and ``replayed_topologies`` also run without one.
"""

from __future__ import annotations

import subprocess
import sys
import time

import torch
import torch.distributed as dist
from torch.distributed.algorithms.ddp_comm_hooks import default_hooks, powerSGD_hook
from torch.nn.parallel import DistributedDataParallel as DDP

from utils import bench, devices, nvml
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
    "2 x A100 with an NVLink bridge": ([fake_nvml.A100] * 2, dict(fabric="bridge", lanes=12, version_enum=4)),
    "2 of 8 H100 behind NVSwitch": ([fake_nvml.H100] * 8, dict(fabric="switch", lanes=18, version_enum=6)),
}


def replayed_topologies() -> None:
    """The 2-GPU report on recorded machines (no GPU needed): what a learner there would read."""
    for name, (gpus, machine) in TOPOLOGIES.items():
        hw = devices.hardware(layer=fake_nvml.fake_layer(gpus, **machine), n_gpus=2)
        print(f"{name}:\n  {devices.summary_line(hw, '2gpu', devices.plan(2, mode_name='2gpu', n_gpus=2))}")


PROBES = {"environment": environment, "nvml": nvml_facts, "fork_safety": fork_safety, "timing": timing,
          "copies": copies, "distributed": distributed, "replayed_topologies": replayed_topologies}

if __name__ == "__main__":
    PROBES[sys.argv[1]]()
