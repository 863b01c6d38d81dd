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
from utils.tools.fake_nvml import A100, A100_PCIE, H100, H100_NVL, H100_PCIE, H200, T4, fake_layer

NVSWITCH_A100 = dict(fabric="switch", lanes=12, version_enum=4)  # HGX A100: 12 NVLink 3 links to the NVSwitches
NVSWITCH_H100 = dict(fabric="switch", lanes=18, version_enum=6)  # HGX H100: 18 NVLink 4 links to the NVSwitches

# name: (GPUs torch sees, GPUs NVML sees, how they are linked). One chip name, several cards: the PCIe, SXM
# and NVL cards of the A100 and H100 have different datasheet rows, links and figures (utils.gpu_specs).
MACHINES = {
    "cpu": (0, [], {}),
    "1gpu T4 (Colab)": (1, [T4], {}),
    "1gpu A100 PCIe 40GB": (1, [A100_PCIE], {}),
    "1gpu H100 PCIe": (1, [H100_PCIE], {}),
    "1gpu H200": (1, [H200], {}),
    "2gpu 2xT4 PCIe, no peer access (Kaggle)": (2, [T4, T4], dict(p2p_read=False, ancestor=50)),
    # Two H100 NVL cards are sold as a pair on NVLink bridges: 12 NVLink 4 links straight from one to the other.
    "2gpu 2xH100 NVL, NVLink bridge": (2, [H100_NVL] * 2, dict(fabric="bridge", lanes=12, version_enum=6)),
    "2gpu 2 of 8 A100 SXM behind NVSwitch (HGX)": (2, [A100] * 8, NVSWITCH_A100),
    "2gpu 2 of 8 H100 SXM behind NVSwitch": (2, [H100] * 8, NVSWITCH_H100),
    "ngpu 4xH100": (4, [H100] * 4, NVSWITCH_H100),
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
