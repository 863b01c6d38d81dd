"""Lesson 00's hardware decisions, made in one place from the device plan (and checked on every fake machine
by ``tests/test_modes_start_here.py``): which copy sizes to time, which path stands for "the link", and the
label every figure carries."""

from __future__ import annotations

from dataclasses import dataclass

from utils import devices


@dataclass(frozen=True)
class Settings:
    copy_sizes: tuple[int, ...]  # bytes, smallest first
    link_path: str  # the copy path that moves a model's weights between devices here (a CopyPoint.path)
    label: str  # appended to every figure: where the number was measured


def lesson_settings(plan: devices.Plan, hw: devices.Hardware, copy_sizes, gpu_extra_sizes) -> Settings:
    """Copy sizes grow on GPUs (large copies leave the caches and show the link's real speed); the link is
    GPU 0 to GPU 1 with two GPUs, host to GPU over PCIe with one, and host memory standing in for it on CPU."""
    if plan.simulated:
        return Settings(tuple(copy_sizes), "host memcpy", " (simulated on CPU: host memory stands in for the link)")
    sizes = tuple(sorted(set(copy_sizes) | set(gpu_extra_sizes)))
    two_gpus = len(hw.gpus) >= 2 and plan.mode != "1gpu"
    return Settings(sizes, "GPU 0 to GPU 1" if two_gpus else "host to GPU 0, pinned", "")
