"""Lesson 00's hardware decisions, made in one place from the device plan (and checked on every fake machine
by ``tests/test_modes_start_here.py``): which copy sizes to time, which path stands for "the link", whether
the workers' gloo path is measured (and at which sizes), and the label every figure carries."""

from __future__ import annotations

from dataclasses import dataclass

from utils import devices
from utils.lessons.start_here.loopback import PATH as LOOPBACK_PATH


@dataclass(frozen=True)
class Settings:
    copy_sizes: tuple[int, ...]  # bytes, smallest first
    link_path: str  # the path that moves a model's weights between devices here (a CopyPoint.path)
    label: str  # appended to every figure: where the number was measured
    loopback_sizes: tuple[int, ...] = ()  # gloo message sizes to time; () where the workers do not use gloo
    workers_path: str = ""  # what the later lessons' two workers exchange tensors through, in words
    # The machine profile (``utils.machine``): where, on how many threads, and at which sizes.
    profile_device: str = "cpu"
    profile_threads: tuple[int, ...] = (1,)  # CPU: one thread and every core (two different ceilings)
    matmul_n: int = 1024  # the n x n x n matmul of the peak
    stream_numel: int = 2**23  # fp32 elements per STREAM array: 32 MiB on a CPU (beyond a 32 MiB L3 x 3)


def beyond_the_caches(copy_sizes, caches: dict[str, int], cap: int = 2**30) -> tuple[int, ...]:
    """``copy_sizes``, plus (when none of them leaves the last cache) the first size of the same series
    whose working set (source and destination) outgrows half of it, so that a copy out of DRAM, and DRAM's
    bound, are always measured: a server's L3 of hundreds of MiB holds every default size. Capped at ``cap``."""
    last = caches.get("L3") or caches.get("L2")
    sizes = sorted(copy_sizes)
    if not last or 2 * sizes[-1] > last // 2:
        return tuple(sizes)
    size = sizes[-1]
    while 2 * size <= last // 2 and size * 4 <= cap:
        size *= 4
    return tuple(sizes + ([size] if 2 * size > last // 2 else []))


def lesson_settings(plan: devices.Plan, hw: devices.Hardware, copy_sizes, gpu_extra_sizes,
                    caches: dict[str, int] | None = None) -> Settings:
    """Copy sizes grow on GPUs (large copies leave the caches and show the link's real speed); the link is
    GPU 0 to GPU 1 with two GPUs, host to GPU over PCIe with one, and on a CPU the path the simulated GPUs
    really use: gloo over loopback TCP between two processes (not memcpy inside one)."""
    gloo = plan.backend == "gloo"  # cpu mode, and 1gpu mode (NCCL refuses two ranks on one GPU)
    loopback = tuple(sorted({4, 4 * 2**10} | set(copy_sizes))) if gloo else ()
    if plan.simulated:  # a CPU copy must also leave the caches (``caches``: devices.cpu_caches() by default)
        copy_sizes = beyond_the_caches(copy_sizes, devices.cpu_caches() if caches is None else caches)
    workers = ("gloo over loopback TCP between the worker processes (lessons 02, 03 and 07 and their labs; "
               "lesson 05 sends a batch over it)" if gloo else
               f"NCCL between {' and '.join(plan.devices)} (lesson 03 measures it)")
    if gloo and not plan.simulated:  # 1gpu: the profile's link (host to GPU) is not the workers' path (t24_0001 #6)
        workers += (f", each message staged through host memory, both processes sharing {plan.devices[0]}: not "
                    "the machine profile's link (the host-to-GPU copy), so lesson 01 times this path itself")
    if plan.simulated:
        threads = tuple(sorted({1, max(1, hw.cpu_cores)}))
        return Settings(tuple(copy_sizes), LOOPBACK_PATH,
                        " (simulated on CPU: gloo between two processes stands in for the link)", loopback, workers,
                        profile_threads=threads)
    sizes = tuple(sorted(set(copy_sizes) | set(gpu_extra_sizes)))
    two_gpus = len(hw.gpus) >= 2 and plan.mode != "1gpu"
    return Settings(sizes, "GPU 0 to GPU 1" if two_gpus else "host to GPU 0, pinned", "", loopback, workers,
                    profile_device=plan.devices[0], profile_threads=(1,), matmul_n=8192, stream_numel=2**26)
