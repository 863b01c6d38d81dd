"""The NVIDIA driver's answers (NVML, through nvitop) that lesson 00's hardware report is built from.

Introduced in lesson 00 (``utils.devices.hardware`` asks these questions). Nothing here initialises CUDA:
NVML is the driver's management library, which ``nvidia-smi`` uses too, and a process that has only asked
NVML can still fork workers that use CUDA.

Everything goes through one ``call(name, *args)`` function: the real one is nvitop's ``libnvml.nvmlQuery``;
tests pass a fake that replays recorded answers with pynvml's real constants and signatures, so every path
here runs on a machine without a GPU. A question NVML cannot answer (an unsupported field, an older driver,
a wrong argument) gives None, and that fact is then left out of the report, never an error.

Three traps this module handles, each one a wrong fact in an earlier version of the course:
* pynvml defines ``NVML_P2P_CAPS_INDEX_READ = 0,`` (a tuple: a trailing comma), so passing the constant
  as it is fails; constants are turned into plain ints first (``_as_int``).
* ``nvmlDeviceGetNvLinkVersion`` returns an enum (4 means NVLink 3.0, 6 means NVLink 4.0), not the version.
* Behind an NVSwitch, a GPU's links end at the switch, whose PCI id is not the other GPU's: NVLink between
  two GPUs is then read from the P2P status (``NVML_P2P_CAPS_INDEX_NVLINK``) and the remote device type.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os

NVLINK_MAX_LINKS = 18
# nvmlDeviceGetNvLinkVersion's enum -> the NVLink version NVIDIA's datasheets name (nvml.h).
NVLINK_VERSION_NAMES = {1: "1.0", 2: "2.0", 3: "2.2", 4: "3.0", 5: "3.1", 6: "4.0", 7: "5.0", 8: "6.0"}
# The constants the course needs, with the values nvml.h gives them (used when a layer gets none).
CONSTANTS = {
    "NVML_CLOCK_MEM": 2,
    "NVML_FEATURE_ENABLED": 1,
    "NVML_P2P_CAPS_INDEX_READ": 0,
    "NVML_P2P_CAPS_INDEX_NVLINK": 2,
    "NVML_P2P_STATUS_OK": 0,
    "NVML_NVLINK_DEVICE_TYPE_GPU": 0,
    "NVML_NVLINK_DEVICE_TYPE_SWITCH": 2,
    "NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON": 90,
    "NVML_SUCCESS": 0,
}
# c_nvmlValue_t's member for each NVML_VALUE_TYPE (double, uint, ulong, ulonglong, longlong, int, ushort).
VALUE_MEMBERS = {0: "dVal", 1: "uiVal", 2: "ulVal", 3: "ullVal", 4: "sllVal", 5: "siVal", 6: "usVal"}


def _as_int(value) -> int:
    """pynvml's constants as plain ints: ``NVML_P2P_CAPS_INDEX_READ`` is ``(0,)`` there (a trailing comma)."""
    return int(value[0]) if isinstance(value, tuple) else int(value)


def _text(value) -> str | None:
    if value is None:
        return None
    return value.decode() if isinstance(value, bytes) else str(value)


def same_bus(x: str | None, y: str | None) -> bool:
    """Bus ids differ in leading zeros between calls ("00000000:1A:00.0" vs "0000:1a:00.0")."""
    if not x or not y:
        return False
    return x.lower().split(":", 1)[-1] == y.lower().split(":", 1)[-1]


class NvmlLayer:
    """The few NVML questions the course asks, each answered or None."""

    def __init__(self, call, constants: dict | None = None):
        self.call = call
        given = constants or {}
        self.c = {name: _as_int(given.get(name, default)) for name, default in CONSTANTS.items()}

    def query(self, name: str, *args):
        """``call(name, *args)``, or None where NVML has no answer (or the call is refused)."""
        try:
            return self.call(name, *args)
        except Exception:
            return None

    def count(self) -> int:
        return self.query("nvmlDeviceGetCount") or 0

    def handle(self, index: int):
        return self.query("nvmlDeviceGetHandleByIndex", index)

    def bus_id(self, h) -> str | None:
        return _text(getattr(self.query("nvmlDeviceGetPciInfo", h), "busId", None))

    def driver_version(self) -> str | None:
        return _text(self.query("nvmlSystemGetDriverVersion"))

    def field(self, h, field_id: int) -> float | None:
        """One NVML field value (``nvmlDeviceGetFieldValues``), or None where the driver has none."""
        values = self.query("nvmlDeviceGetFieldValues", h, [field_id])
        if not values or getattr(values[0], "nvmlReturn", None) != self.c["NVML_SUCCESS"]:
            return None
        member = VALUE_MEMBERS.get(getattr(values[0], "valueType", None))
        return getattr(values[0].value, member, None) if member else None

    def gpu_facts(self, nvml_index: int) -> dict:
        """Name, memory, compute capability, PCIe link and memory bandwidth of one GPU (None: unknown)."""
        h = self.handle(nvml_index)
        memory = self.query("nvmlDeviceGetMemoryInfo", h)
        cc = self.query("nvmlDeviceGetCudaComputeCapability", h)
        mem_clock_mhz = self.query("nvmlDeviceGetMaxClockInfo", h, self.c["NVML_CLOCK_MEM"])
        bus_bits = self.query("nvmlDeviceGetMemoryBusWidth", h)
        # Double data rate: two transfers per clock, bus_bits / 8 bytes per transfer.
        memory_bandwidth = 2 * mem_clock_mhz * 1e6 * bus_bits / 8 if mem_clock_mhz and bus_bits else None
        return dict(name=_text(self.query("nvmlDeviceGetName", h)), memory_total=getattr(memory, "total", None),
                    compute_capability=tuple(cc) if cc else None,
                    pcie_generation=self.query("nvmlDeviceGetMaxPcieLinkGeneration", h),
                    pcie_width=self.query("nvmlDeviceGetMaxPcieLinkWidth", h), memory_bandwidth=memory_bandwidth)

    def active_lanes(self, h) -> list[int]:
        return [lane for lane in range(NVLINK_MAX_LINKS)
                if self.query("nvmlDeviceGetNvLinkState", h, lane) == self.c["NVML_FEATURE_ENABLED"]]

    def p2p_ok(self, ha, hb, capability: str) -> bool | None:
        """Whether GPU a can reach GPU b's memory (``capability`` "READ") or do so over NVLink ("NVLINK")."""
        status = self.query("nvmlDeviceGetP2PStatus", ha, hb, self.c[f"NVML_P2P_CAPS_INDEX_{capability}"])
        return None if status is None else status == self.c["NVML_P2P_STATUS_OK"]

    def nvlink_facts(self, nvml_a: int, nvml_b: int) -> dict:
        """How GPU a reaches GPU b over NVLink: lanes straight to b, lanes to an NVSwitch, version, speed."""
        ha, hb = self.handle(nvml_a), self.handle(nvml_b)
        b_bus = self.bus_id(hb)
        direct, to_switch = [], []
        for lane in self.active_lanes(ha):
            remote_type = self.query("nvmlDeviceGetNvLinkRemoteDeviceType", ha, lane)
            if remote_type == self.c["NVML_NVLINK_DEVICE_TYPE_SWITCH"]:
                to_switch.append(lane)
            elif same_bus(_text(getattr(self.query("nvmlDeviceGetNvLinkRemotePciInfo_v2", ha, lane),
                                        "busId", None)), b_bus):
                direct.append(lane)
        lanes = direct or to_switch
        version = self.query("nvmlDeviceGetNvLinkVersion", ha, lanes[0]) if lanes else None
        speed = self.field(ha, self.c["NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON"]) if lanes else None
        return dict(direct_lanes=len(direct), switch_lanes=len(to_switch),
                    version=NVLINK_VERSION_NAMES.get(version), speed_mbps=speed or None,
                    p2p_read=self.p2p_ok(ha, hb, "READ"), p2p_nvlink=self.p2p_ok(ha, hb, "NVLINK"),
                    topology_level=self.query("nvmlDeviceGetTopologyCommonAncestor", ha, hb))

    def index_of(self, visible: str) -> int | None:
        """The NVML index of one ``CUDA_VISIBLE_DEVICES`` entry: an index, a GPU UUID (or a unique prefix of
        one, as CUDA accepts), or a MIG device's UUID (its parent GPU). None if nothing matches."""
        if visible.isdigit():
            return int(visible)
        if visible.startswith("MIG-"):
            parent = self.query("nvmlDeviceGetDeviceHandleFromMigDeviceHandle",
                                self.query("nvmlDeviceGetHandleByUUID", visible))
            return self.query("nvmlDeviceGetIndex", parent)
        uuids = [_text(self.query("nvmlDeviceGetUUID", self.handle(i))) or "" for i in range(self.count())]
        matches = [i for i, uuid in enumerate(uuids) if uuid.startswith(visible)]
        return matches[0] if len(matches) == 1 else None

    def visible_indices(self, count: int) -> list[int]:
        """NVML index of each of the ``count`` GPUs torch sees. NVML ignores CUDA_VISIBLE_DEVICES; torch does
        not, so ``cuda:0`` is NVML's device 3 under ``CUDA_VISIBLE_DEVICES=3``. Unmatched entries fall back
        to NVML's own order."""
        visible = os.environ.get("CUDA_VISIBLE_DEVICES")
        if visible is None:
            return list(range(count))
        entries = [e.strip() for e in visible.split(",") if e.strip()][:count]
        found = [self.index_of(e) for e in entries]
        return [i if i is not None else pos for pos, i in enumerate(found + [None] * (count - len(found)))]


def _library_present() -> bool:
    """True when the NVIDIA driver's NVML library can be loaded (checked quietly, before nvitop)."""
    for name in ("libnvidia-ml.so.1", "libnvidia-ml.so", "nvml.dll"):
        try:
            ctypes.CDLL(name)
            return True
        except OSError:
            continue
    return False


@contextlib.contextmanager
def quiet_nvitop():
    """Keep nvitop's log lines (e.g. its "FATAL ERROR: NVML not found" banner) out of the notebook."""
    loggers = [logging.getLogger("nvitop"), logging.getLogger("nvitop.api.libnvml")]
    before = [logger.disabled for logger in loggers]
    for logger in loggers:
        logger.disabled = True
    try:
        yield
    finally:
        for logger, disabled in zip(loggers, before):
            logger.disabled = disabled


def real_layer() -> tuple[NvmlLayer | None, str | None]:
    """The real NVML layer, or None and the reason in a few words (no driver, driver not loaded...)."""
    if not _library_present():
        return None, "no NVIDIA driver (NVML library not found)"
    with quiet_nvitop():
        try:
            from nvitop.api import libnvml  # here, not at the top: it looks for the driver when imported
        except Exception as exc:  # a broken nvitop install must not break the course
            return None, f"nvitop could not load NVML ({type(exc).__name__})"

    def call(name, *args):
        with quiet_nvitop():
            value = libnvml.nvmlQuery(name, *args, ignore_errors=False)
        return None if value is libnvml.NA else value

    layer = NvmlLayer(call, {name: getattr(libnvml, name) for name in CONSTANTS if hasattr(libnvml, name)})
    try:
        call("nvmlDeviceGetCount")
    except Exception as exc:
        return None, f"NVIDIA driver present but NVML failed ({type(exc).__name__})"
    return layer, None
