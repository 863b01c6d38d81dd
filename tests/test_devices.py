"""utils.devices: mode, plan and report, on this CPU machine and on fake GPUs (a replayed NVML layer)."""

import subprocess
import sys

import pytest
import torch

from utils import devices
from utils.tools.fake_nvml import A100_PCIE, H100, H200, T4, FakeNvml, fake_layer, real_constants


def fake_hardware(gpu, n, **machine):
    return devices.hardware(layer=fake_layer([gpu] * n, **machine), n_gpus=n)


def test_this_machine_is_cpu_mode_and_report_is_one_clean_paragraph(capfd, monkeypatch):
    monkeypatch.delenv("TWOGPU_MODE", raising=False)
    devices.report()
    out, err = capfd.readouterr()
    assert out.startswith("Mode cpu:") and out.count("\n") <= 3
    assert all(len(line) <= 110 for line in out.splitlines())  # the course's narrow-output rule
    out = " ".join(out.split())
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


def test_two_h100s_with_nvlink_bridge_name_the_version_not_nvml_s_enum(monkeypatch):
    monkeypatch.delenv("TWOGPU_MODE", raising=False)
    hw = fake_hardware(H100, 2, fabric="bridge", lanes=18, version_enum=6)  # NVML's 6 is NVLink 4.0
    assert hw.gpus[0].compute_capability == (9, 0)
    assert hw.link.kind == "NVLink" and hw.link.nvlink_count == 18 and hw.link.nvlink_version == "4.0"
    assert hw.link.bandwidth == pytest.approx(450e9)  # 18 links x 25 GB/s per direction
    assert hw.gpus[0].pcie_bandwidth == pytest.approx(63.0e9, rel=0.01)  # PCIe 5.0 x16
    assert hw.gpus[0].memory_bandwidth == pytest.approx(3.35e12, rel=0.01)  # H100 HBM3 datasheet
    line = devices.summary_line(hw, "2gpu", devices.plan(2, n_gpus=2))
    assert "2 x NVIDIA H100" in line and "NVLink 4.0 x18 (450 GB/s" in line and "peer access yes" in line


def test_an_a100_pcie_pair_on_a_bridge_is_nvlink_3_and_the_driver_s_link_speed_wins_over_the_table(monkeypatch):
    monkeypatch.delenv("TWOGPU_MODE", raising=False)  # bridges pair PCIe cards (SXM cards sit on an NVSwitch)
    hw = fake_hardware(A100_PCIE, 2, fabric="bridge", lanes=12, version_enum=4, speed_mbps=25781)
    assert hw.link.nvlink_version == "3.0" and "NVLink 3.0 x12" in hw.link.describe()
    assert hw.link.bandwidth == pytest.approx(12 * 25781e6)
    without_field = fake_hardware(A100_PCIE, 2, fabric="bridge", lanes=12, version_enum=4)
    assert without_field.link.bandwidth == pytest.approx(300e9)  # 12 x 25 GB/s from the table


def test_two_of_eight_gpus_behind_an_nvswitch_are_nvlink_not_pcie(monkeypatch):
    """Their links end at the switch (its PCI id, not the other GPU's): the P2P status says NVLink."""
    monkeypatch.delenv("TWOGPU_MODE", raising=False)
    hw = fake_hardware(H100, 8, fabric="switch", lanes=18, version_enum=6)
    assert hw.link.kind == "NVLink" and hw.link.via_switch and hw.link.nvlink_count == 18
    assert hw.link.bandwidth == pytest.approx(450e9)
    assert "NVLink 4.0 x18 through NVSwitch (450 GB/s" in hw.link.describe()


def test_h200_and_b200_versions_get_their_bandwidth(monkeypatch):
    monkeypatch.delenv("TWOGPU_MODE", raising=False)
    assert fake_hardware(H200, 2, fabric="switch", lanes=18, version_enum=6).link.bandwidth == pytest.approx(450e9)
    b200 = fake_hardware(H200, 2, fabric="switch", lanes=18, version_enum=7).link  # NVLink 5.0: 50 GB/s a link
    assert b200.nvlink_version == "5.0" and b200.bandwidth == pytest.approx(900e9)


def test_peer_access_is_read_with_pynvml_s_own_constant_a_tuple():
    """pynvml defines NVML_P2P_CAPS_INDEX_READ = 0, (a tuple); passed as it is, the query is refused."""
    assert isinstance(real_constants()["NVML_P2P_CAPS_INDEX_READ"], tuple)
    with pytest.raises(TypeError):
        FakeNvml([T4, T4])("nvmlDeviceGetP2PStatus", 0, 1, real_constants()["NVML_P2P_CAPS_INDEX_READ"])
    assert fake_hardware(T4, 2, p2p_read=True).link.peer_access is True
    assert fake_hardware(T4, 2, p2p_read=False).link.peer_access is False


def test_two_t4s_over_pcie_like_kaggle(monkeypatch):
    monkeypatch.delenv("TWOGPU_MODE", raising=False)
    hw = fake_hardware(T4, 2, p2p_read=False, ancestor=50)
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


@pytest.mark.parametrize("visible", ["1", "GPU-11a2b3c-0001", "GPU-11a2"])
def test_cuda_visible_devices_maps_to_nvml_indices_by_index_uuid_or_uuid_prefix(monkeypatch, visible):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", visible)
    hw = devices.hardware(layer=fake_layer([T4, H100]), n_gpus=1)
    assert hw.gpus[0].name == H100["name"] and hw.gpus[0].index == 0


def test_an_unknown_cuda_visible_devices_entry_falls_back_to_nvml_order(monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "GPU-nothing-like-it")
    assert fake_layer([T4, H100]).visible_indices(1) == [0]


def test_cli_style_check_from_a_fresh_process():
    out = subprocess.run([sys.executable, "-c", "from utils import devices; devices.report()"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.startswith("Mode cpu:") and out.stderr == ""
    bad = subprocess.run([sys.executable, "-c", "from utils import devices; devices.report()"],
                         capture_output=True, text=True, env={"TWOGPU_MODE": "2gpu", "PATH": ""})
    assert bad.returncode != 0 and "TWOGPU_MODE=2gpu needs at least 2 GPU(s)" in bad.stderr
