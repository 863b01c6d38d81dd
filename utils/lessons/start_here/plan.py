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


def lesson_settings(plan: devices.Plan, hw: devices.Hardware, copy_sizes, gpu_extra_sizes) -> Settings:
    """Copy sizes grow on GPUs (large copies leave the caches and show the link's real speed); the link is
    GPU 0 to GPU 1 with two GPUs, host to GPU over PCIe with one, and on a CPU the path the simulated GPUs
    really use: gloo over loopback TCP between two processes (not memcpy inside one)."""
    gloo = plan.backend == "gloo"  # cpu mode, and 1gpu mode (NCCL refuses two ranks on one GPU)
    loopback = tuple(sorted({4, 4 * 2**10} | set(copy_sizes))) if gloo else ()
    workers = ("gloo over loopback TCP between the worker processes (lessons 02 and 03 and their labs)" if gloo else
               f"NCCL between {' and '.join(plan.devices)} (lesson 03 measures it)")
    if plan.simulated:
        return Settings(tuple(copy_sizes), LOOPBACK_PATH,
                        " (simulated on CPU: gloo between two processes stands in for the link)", loopback, workers)
    sizes = tuple(sorted(set(copy_sizes) | set(gpu_extra_sizes)))
    two_gpus = len(hw.gpus) >= 2 and plan.mode != "1gpu"
    return Settings(sizes, "GPU 0 to GPU 1" if two_gpus else "host to GPU 0, pinned", "", loopback, workers)
