"""utils.devices: mode, plan and report, on this CPU machine and on fake GPUs (a replayed NVML layer)."""

import subprocess
import sys
from types import SimpleNamespace

import pytest
import torch

from utils import devices


class FakeNvml:
    """Answers NVML queries from a recorded table, the way nvitop's nvmlQuery would (None = no answer)."""

    def __init__(self, gpus, nvlinks=0, nvlink_version=4, p2p=0, topology=10, driver="550.54.15"):
        self.gpus, self.nvlinks, self.nvlink_version = gpus, nvlinks, nvlink_version
        self.p2p, self.topology, self.driver = p2p, topology, driver

    def __call__(self, name, *args):
        g = self.gpus
        answers = {
            "nvmlDeviceGetCount": lambda: len(g),
            "nvmlDeviceGetHandleByIndex": lambda i: i,
            "nvmlDeviceGetName": lambda h: g[h]["name"].encode(),
            "nvmlDeviceGetMemoryInfo": lambda h: SimpleNamespace(total=g[h]["memory"]),
            "nvmlDeviceGetCudaComputeCapability": lambda h: g[h]["cc"],
            "nvmlDeviceGetMaxClockInfo": lambda h, kind: g[h].get("mem_clock"),
            "nvmlDeviceGetMemoryBusWidth": lambda h: g[h].get("bus_bits"),
            "nvmlDeviceGetMaxPcieLinkGeneration": lambda h: g[h]["pcie"][0],
            "nvmlDeviceGetMaxPcieLinkWidth": lambda h: g[h]["pcie"][1],
            "nvmlDeviceGetPciInfo": lambda h: SimpleNamespace(busId=f"00000000:{h + 0x1A:02X}:00.0".encode()),
            "nvmlDeviceGetNvLinkState": lambda h, link: 1 if link < self.nvlinks else None,
            "nvmlDeviceGetNvLinkRemotePciInfo_v2": lambda h, link: SimpleNamespace(
                busId=f"0000:{(1 - h) + 0x1A:02x}:00.0"),
            "nvmlDeviceGetNvLinkVersion": lambda h, link: self.nvlink_version,
            "nvmlDeviceGetP2PStatus": lambda a, b, kind: self.p2p,
            "nvmlDeviceGetTopologyCommonAncestor": lambda a, b: self.topology,
            "nvmlSystemGetDriverVersion": lambda: self.driver,
        }
        return answers[name](*args)


H100 = {"name": "NVIDIA H100 80GB HBM3", "memory": 80 * 2**30, "cc": (9, 0), "pcie": (5, 16),
        "mem_clock": 2619, "bus_bits": 5120}
T4 = {"name": "Tesla T4", "memory": 15 * 2**30, "cc": (7, 5), "pcie": (3, 16), "mem_clock": 5001, "bus_bits": 256}


def fake_hardware(gpu, n, **kw):
    return devices.hardware(layer=devices.NvmlLayer(FakeNvml([gpu] * n, **kw)), n_gpus=n)


def test_this_machine_is_cpu_mode_and_report_is_one_clean_line(capfd, monkeypatch):
    monkeypatch.delenv("TWOGPU_MODE", raising=False)
    devices.report()
    out, err = capfd.readouterr()
    assert out.count("\n") == 1 and out.startswith("Mode cpu:")
    assert "simulated on CPU" in out
    assert "NVML" not in err and "FATAL" not in out + err


def test_report_does_not_initialise_cuda():
    devices.report(detail=True)
    devices.plan(2)
    assert torch.cuda.is_initialized() is False


def test_import_has_no_side_effects():
    code = ("import sys, threading; n = threading.active_count(); import utils, utils.devices, utils.bench;"
            "assert threading.active_count() == n; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ok" and out.stderr == ""


def test_forcing_a_mode_the_machine_cannot_give_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("TWOGPU_MODE", "2gpu")
    with pytest.raises(devices.DeviceError, match="needs at least 2 GPU.*no usable GPU.*TWOGPU_MODE=cpu"):
        devices.mode(n_gpus=0)
    monkeypatch.setenv("TWOGPU_MODE", "3gpu")
    with pytest.raises(devices.DeviceError, match="not a mode"):
        devices.mode(n_gpus=0)


@pytest.mark.parametrize("n_gpus, expected", [(0, "cpu"), (1, "1gpu"), (2, "2gpu"), (4, "ngpu")])
def test_mode_detection(monkeypatch, n_gpus, expected):
    monkeypatch.delenv("TWOGPU_MODE", raising=False)
    assert devices.mode(n_gpus=n_gpus) == expected


def test_forcing_cpu_on_a_gpu_machine_runs_the_cpu_path(monkeypatch):
    monkeypatch.setenv("TWOGPU_MODE", "cpu")
    p = devices.plan(2, n_gpus=2)
    assert p.devices == ("cpu", "cpu") and p.backend == "gloo" and p.simulated


def test_plan_per_mode(monkeypatch):
    monkeypatch.delenv("TWOGPU_MODE", raising=False)
    cpu = devices.plan(2, n_gpus=0)
    assert cpu.label == "2 CPU processes (simulated GPUs)" and cpu.backend == "gloo"
    one = devices.plan(2, n_gpus=1)
    assert one.devices == ("cuda:0", "cuda:0") and one.backend == "gloo"  # NCCL refuses a shared GPU
    two = devices.plan(2, n_gpus=2)
    assert two.devices == ("cuda:0", "cuda:1") and two.backend == "nccl"
    shared = devices.plan(3, n_gpus=2)
    assert shared.devices == ("cuda:0", "cuda:1", "cuda:0") and shared.backend == "gloo"


def test_plan_rejects_what_cannot_work(monkeypatch):
    monkeypatch.delenv("TWOGPU_MODE", raising=False)
    with pytest.raises(devices.DeviceError, match="3 NCCL ranks need 3 GPUs"):
        devices.plan(3, backend="nccl", n_gpus=2)
    with pytest.raises(devices.DeviceError, match="cpu mode"):
        devices.plan(2, backend="nccl", n_gpus=0)
    with pytest.raises(ValueError, match="at least one worker"):
        devices.plan(0)


def test_two_gpus_over_nvlink_from_a_fake_nvml(monkeypatch):
    monkeypatch.delenv("TWOGPU_MODE", raising=False)
    hw = fake_hardware(H100, 2, nvlinks=18, nvlink_version=4)
    assert hw.gpus[0].compute_capability == (9, 0)
    assert hw.link.kind == "NVLink" and hw.link.nvlink_count == 18
    assert hw.link.bandwidth == pytest.approx(450e9)  # 18 links x 25 GB/s per direction
    assert hw.gpus[0].pcie_bandwidth == pytest.approx(63.0e9, rel=0.01)  # PCIe 5.0 x16
    assert hw.gpus[0].memory_bandwidth == pytest.approx(3.35e12, rel=0.01)  # H100 HBM3 datasheet
    line = devices.summary_line(hw, "2gpu", devices.plan(2, n_gpus=2))
    assert "2 x NVIDIA H100" in line and "NVLink 4 x18 (450 GB/s" in line and "peer access yes" in line


def test_two_t4s_over_pcie_like_kaggle(monkeypatch):
    monkeypatch.delenv("TWOGPU_MODE", raising=False)
    hw = fake_hardware(T4, 2, nvlinks=0, p2p=2, topology=50)
    assert hw.link.kind == "PCIe" and hw.link.peer_access is False
    assert hw.link.bandwidth == pytest.approx(15.76e9, rel=0.01)  # PCIe 3.0 x16
    rows = dict(devices.detail_rows(hw))
    assert "PCIe 3.0 x16" in rows["link GPU 0 - GPU 1"] and "across CPU sockets" in rows["link GPU 0 - GPU 1"]
    assert rows["peer access"] == "no"


def test_missing_nvml_answers_are_left_out_not_errors():
    sparse = {"name": "Odd GPU", "memory": None, "cc": None, "pcie": (None, None)}
    hw = fake_hardware(sparse, 1)
    assert hw.gpus[0].name == "Odd GPU" and hw.gpus[0].pcie_bandwidth is None
    assert "compute capability ?" in dict(devices.detail_rows(hw))["GPU 0"]


def test_cuda_visible_devices_maps_to_nvml_indices(monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "1")
    nvml = FakeNvml([T4, H100])
    hw = devices.hardware(layer=devices.NvmlLayer(nvml), n_gpus=1)
    assert hw.gpus[0].name == H100["name"] and hw.gpus[0].index == 0


def test_cli_style_check_from_a_fresh_process():
    out = subprocess.run([sys.executable, "-c", "from utils import devices; devices.report()"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.startswith("Mode cpu:") and out.stderr == ""
    bad = subprocess.run([sys.executable, "-c", "from utils import devices; devices.report()"],
                         capture_output=True, text=True, env={"TWOGPU_MODE": "2gpu", "PATH": ""})
    assert bad.returncode != 0 and "TWOGPU_MODE=2gpu needs at least 2 GPU(s)" in bad.stderr
