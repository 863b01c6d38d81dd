"""A fake NVIDIA driver for the tests and the GPU check's replayed topologies.

NVML's answers are replayed for a described machine, with pynvml's real constants
(``NVML_P2P_CAPS_INDEX_READ`` is the tuple ``(0,)`` there) and the argument types its ctypes calls accept
(an index that is not an int is refused, as the real call refuses it).

    layer = fake_layer([H100] * 2, lanes=18, fabric="switch")   # 2 of 8 H100 behind an NVSwitch
    hw = devices.hardware(layer=layer, n_gpus=2)
"""

from __future__ import annotations

import ctypes
from types import SimpleNamespace

import pynvml

from utils import nvml

# What NVML reports for each card (names as the driver spells them; memory clock x bus width gives the
# datasheet's bandwidth: 2 x 2619 MHz x 5120 bits / 8 = 3.35 TB/s for the H100 SXM).
H100 = {"name": "NVIDIA H100 80GB HBM3", "memory": 80 * 2**30, "cc": (9, 0), "pcie": (5, 16),
        "mem_clock": 2619, "bus_bits": 5120}  # the SXM card
H100_PCIE = {"name": "NVIDIA H100 PCIe", "memory": 80 * 2**30, "cc": (9, 0), "pcie": (5, 16),
             "mem_clock": 1593, "bus_bits": 5120}
H100_NVL = {"name": "NVIDIA H100 NVL", "memory": 95830 * 2**20, "cc": (9, 0), "pcie": (5, 16),
            "mem_clock": 2539, "bus_bits": 6144}
H200 = {"name": "NVIDIA H200", "memory": 141 * 2**30, "cc": (9, 0), "pcie": (5, 16),
        "mem_clock": 3201, "bus_bits": 6144}
A100 = {"name": "NVIDIA A100-SXM4-80GB", "memory": 80 * 2**30, "cc": (8, 0), "pcie": (4, 16),
        "mem_clock": 1593, "bus_bits": 5120}  # the SXM card
A100_PCIE = {"name": "NVIDIA A100-PCIE-40GB", "memory": 40 * 2**30, "cc": (8, 0), "pcie": (4, 16),
             "mem_clock": 1215, "bus_bits": 5120}
T4 = {"name": "Tesla T4", "memory": 15 * 2**30, "cc": (7, 5), "pcie": (3, 16), "mem_clock": 5001, "bus_bits": 256}
SWITCH_BUS = "00000000:C5:00.0"  # an NVSwitch's own PCI id: what a GPU's links report behind a switch


def real_constants() -> dict:
    """The constants as the installed pynvml defines them (tuples and all)."""
    return {name: getattr(pynvml, name) for name in nvml.CONSTANTS if hasattr(pynvml, name)}


def bus_of(i: int) -> str:
    return f"00000000:{i + 0x1A:02X}:00.0"


class FakeNvml:
    """``call(name, *args)`` as nvitop's nvmlQuery(ignore_errors=False) answers it on the described machine.

    fabric: "pcie" (no NVLink), "bridge" (``lanes`` links straight from GPU 0 to GPU 1), or "switch"
    (every GPU's ``lanes`` links go to an NVSwitch). version_enum is what nvmlDeviceGetNvLinkVersion
    returns (4: NVLink 3.0, 6: NVLink 4.0); speed_mbps the NVLink speed field (None: not reported).
    """

    def __init__(self, gpus, fabric="pcie", lanes=0, version_enum=6, speed_mbps=None, p2p_read=True,
                 ancestor=10, driver="550.54.15"):
        self.gpus, self.fabric, self.lanes = gpus, fabric, lanes if fabric != "pcie" else 0
        self.version_enum, self.speed_mbps, self.p2p_read = version_enum, speed_mbps, p2p_read
        self.ancestor, self.driver = ancestor, driver
        self.uuids = [f"GPU-{i:x}1a2b3c-{i:04x}" for i in range(len(gpus))]

    def __call__(self, name, *args):
        return getattr(self, name)(*args)

    def _gpu(self, h):
        return self.gpus[ctypes.c_uint(h).value]

    def nvmlDeviceGetCount(self):
        return len(self.gpus)

    def nvmlDeviceGetHandleByIndex(self, i):
        if not 0 <= ctypes.c_uint(i).value < len(self.gpus):
            raise pynvml.NVMLError(pynvml.NVML_ERROR_INVALID_ARGUMENT)
        return i

    def nvmlDeviceGetName(self, h):
        return self._gpu(h)["name"]

    def nvmlDeviceGetMemoryInfo(self, h):
        return SimpleNamespace(total=self._gpu(h)["memory"])

    def nvmlDeviceGetCudaComputeCapability(self, h):
        return self._gpu(h)["cc"]

    def nvmlDeviceGetMaxClockInfo(self, h, kind):
        return self._gpu(h).get("mem_clock") if ctypes.c_uint(kind).value == pynvml.NVML_CLOCK_MEM else None

    def nvmlDeviceGetMemoryBusWidth(self, h):
        return self._gpu(h).get("bus_bits")

    def nvmlDeviceGetMaxPcieLinkGeneration(self, h):
        return self._gpu(h)["pcie"][0]

    def nvmlDeviceGetMaxPcieLinkWidth(self, h):
        return self._gpu(h)["pcie"][1]

    def nvmlDeviceGetPciInfo(self, h):
        return SimpleNamespace(busId=bus_of(h).encode())

    def nvmlDeviceGetUUID(self, h):
        return self.uuids[h]

    def _lane(self, lane):
        lane = ctypes.c_uint(lane).value
        if lane >= self.lanes:
            raise pynvml.NVMLError(pynvml.NVML_ERROR_NOT_SUPPORTED)
        return lane

    def nvmlDeviceGetNvLinkState(self, h, lane):
        self._lane(lane)
        return pynvml.NVML_FEATURE_ENABLED

    def nvmlDeviceGetNvLinkRemoteDeviceType(self, h, lane):
        self._lane(lane)
        return pynvml.NVML_NVLINK_DEVICE_TYPE_SWITCH if self.fabric == "switch" else pynvml.NVML_NVLINK_DEVICE_TYPE_GPU

    def nvmlDeviceGetNvLinkRemotePciInfo_v2(self, h, lane):
        self._lane(lane)
        remote = SWITCH_BUS if self.fabric == "switch" else bus_of(1 - h)
        return SimpleNamespace(busId=remote.lower().replace("00000000:", "0000:"))  # fewer zeros, as NVML does

    def nvmlDeviceGetNvLinkVersion(self, h, lane):
        self._lane(lane)
        return self.version_enum

    def nvmlDeviceGetFieldValues(self, h, field_ids):
        out = []
        for field_id in field_ids:
            known = field_id == pynvml.NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON and self.speed_mbps is not None
            out.append(SimpleNamespace(fieldId=field_id, valueType=pynvml.NVML_VALUE_TYPE_UNSIGNED_INT,
                                       nvmlReturn=pynvml.NVML_SUCCESS if known else pynvml.NVML_ERROR_NOT_SUPPORTED,
                                       value=SimpleNamespace(uiVal=self.speed_mbps or 0)))
        return out

    def nvmlDeviceGetP2PStatus(self, a, b, index):
        index = ctypes.c_uint(index).value  # the real call refuses a tuple here, as ctypes does
        if index == pynvml.NVML_P2P_CAPS_INDEX_NVLINK:
            ok = self.lanes > 0
        else:
            ok = self.p2p_read
        return pynvml.NVML_P2P_STATUS_OK if ok else pynvml.NVML_P2P_STATUS_NOT_SUPPORTED

    def nvmlDeviceGetTopologyCommonAncestor(self, a, b):
        return self.ancestor

    def nvmlSystemGetDriverVersion(self):
        return self.driver


def fake_layer(gpus, **machine) -> nvml.NvmlLayer:
    return nvml.NvmlLayer(FakeNvml(gpus, **machine), real_constants())
