"""Fake hardware for the mode matrix (``pytest -m modes``): each machine a learner may bring, replayed through
the fake NVIDIA driver, so that every hardware-dependent decision of the course can be checked without a GPU.

    def test_something(machine):        # the fixture in tests/conftest.py: one run per machine below
        plan = devices.plan(2)          # what the lessons ask, as on that machine
        machine.name, machine.mode, machine.hw

The patch is what a notebook would see: ``devices.gpu_count()`` (torch's count, after CUDA_VISIBLE_DEVICES) and
the NVML layer behind ``devices.hardware()``. CUDA is never touched.
"""

from __future__ import annotations

from types import SimpleNamespace

from utils import devices
from utils.tools.fake_nvml import A100, H100, H200, T4, fake_layer

# name: (GPUs torch sees, GPUs NVML sees, how they are linked)
MACHINES = {
    "cpu": (0, [], {}),
    "1gpu T4 (Colab)": (1, [T4], {}),
    "1gpu H200": (1, [H200], {}),
    "2gpu 2xT4 PCIe, no peer access (Kaggle)": (2, [T4, T4], dict(p2p_read=False, ancestor=50)),
    "2gpu 2xA100 NVLink bridge": (2, [A100, A100], dict(fabric="bridge", lanes=12, version_enum=4)),
    "2gpu 2 of 8 H100 behind NVSwitch": (2, [H100] * 8, dict(fabric="switch", lanes=18, version_enum=6)),
    "ngpu 4xH100": (4, [H100] * 4, dict(fabric="switch", lanes=18, version_enum=6)),
}


def use_machine(monkeypatch, name: str) -> SimpleNamespace:
    """Make ``devices`` answer as machine ``name`` would for the rest of the test; returns its facts."""
    seen_by_torch, gpus, links = MACHINES[name]
    monkeypatch.delenv("TWOGPU_MODE", raising=False)
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    monkeypatch.setattr(devices, "gpu_count", lambda: seen_by_torch)
    if gpus:
        monkeypatch.setattr(devices, "real_layer", lambda: (fake_layer(gpus, **links), None))
    else:
        monkeypatch.setattr(devices, "real_layer", lambda: (None, "no NVIDIA driver (NVML library not found)"))
    hw = devices.hardware()
    return SimpleNamespace(name=name, hw=hw, mode=devices.mode(), n_gpus=seen_by_torch)
