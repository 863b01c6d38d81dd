"""Hardware discovery: which mode the course runs in, and which device each worker or stage gets.

Introduced in lesson 00 (``notebooks/00_start_here.ipynb``); every later lesson prints ``report()`` in its
set-up cell, and the launcher and pipeline helpers ask ``plan(n)`` where to put their workers.

Nothing in this module initialises CUDA in the calling process. GPU facts come from NVML (through
nvitop) and the GPU count from ``torch.cuda.device_count()``, which asks NVML too. Why it matters: the
notebook launcher forks workers, and a forked child cannot use CUDA that its parent already started.

Modes (see the README's hardware routes):
    cpu   no usable GPU: workers are CPU processes on gloo, every figure is *simulated on CPU*
    1gpu  one GPU: all workers or stages share ``cuda:0`` (gloo, because NCCL refuses a shared GPU)
    2gpu  two GPUs: ``cuda:0`` and ``cuda:1`` on NCCL, link type (NVLink or PCIe) detected
    ngpu  three or more GPUs
``TWOGPU_MODE=cpu`` (or another mode) forces one; asking for more than the machine has is an error.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import platform
from dataclasses import dataclass, field

from utils.tables import Table, show

MODES = ("cpu", "1gpu", "2gpu", "ngpu")
GPUS_NEEDED = {"cpu": 0, "1gpu": 1, "2gpu": 2, "ngpu": 3}

# Theoretical bandwidth per lane and direction, in GB/s, after line encoding (PCIe 1-2: 8b/10b,
# PCIe 3-5: 128b/130b, PCIe 6: FLIT mode). A x16 PCIe 4.0 link: 16 x 1.969 = 31.5 GB/s each way.
PCIE_LANE_GBPS = {1: 0.25, 2: 0.5, 3: 0.985, 4: 1.969, 5: 3.938, 6: 7.563}
# NVLink bandwidth per link and direction, in GB/s, by NVLink version (P100, V100, A100, H100, B200).
NVLINK_LINK_GBPS = {1: 20.0, 2: 25.0, 3: 25.0, 4: 25.0, 5: 50.0}
NVLINK_MAX_LINKS = 18
# nvmlDeviceGetTopologyCommonAncestor levels, in words a learner can look up.
TOPOLOGY = {
    0: "same board",
    10: "one PCIe switch",
    20: "several PCIe switches",
    30: "one CPU host bridge",
    40: "one NUMA node",
    50: "across CPU sockets",
}


class DeviceError(RuntimeError):
    """The machine cannot give what was asked (a mode, a backend, a number of ranks)."""


@dataclass(frozen=True)
class GPU:
    """One GPU as NVML sees it. Sizes in bytes, bandwidths in bytes per second (theoretical peaks)."""

    index: int
    name: str
    memory_total: int | None = None
    compute_capability: tuple[int, int] | None = None
    pcie_generation: int | None = None  # the maximum the link supports (idle GPUs clock it down)
    pcie_width: int | None = None
    memory_bandwidth: float | None = None  # HBM/GDDR peak: 2 x memory clock x bus width

    @property
    def pcie_bandwidth(self) -> float | None:
        """Host-to-device peak of this GPU's PCIe link, one direction."""
        if self.pcie_generation in PCIE_LANE_GBPS and self.pcie_width:
            return PCIE_LANE_GBPS[self.pcie_generation] * self.pcie_width * 1e9
        return None


@dataclass(frozen=True)
class Link:
    """How GPU ``a`` reaches GPU ``b``: NVLink (and how many links) or PCIe, and its peak."""

    a: int
    b: int
    kind: str  # "NVLink" or "PCIe"
    nvlink_count: int = 0
    nvlink_version: int | None = None
    pcie_generation: int | None = None
    pcie_width: int | None = None
    topology: str | None = None
    peer_access: bool | None = None

    @property
    def bandwidth(self) -> float | None:
        """Theoretical peak between the two GPUs, one direction, bytes per second."""
        if self.kind == "NVLink" and self.nvlink_version in NVLINK_LINK_GBPS:
            return NVLINK_LINK_GBPS[self.nvlink_version] * self.nvlink_count * 1e9
        if self.pcie_generation in PCIE_LANE_GBPS and self.pcie_width:
            return PCIE_LANE_GBPS[self.pcie_generation] * self.pcie_width * 1e9
        return None

    def describe(self) -> str:
        if self.kind == "NVLink":
            version = f" {self.nvlink_version}" if self.nvlink_version else ""
            text = f"NVLink{version} x{self.nvlink_count}"
        elif self.pcie_generation and self.pcie_width:
            text = f"PCIe {self.pcie_generation}.0 x{self.pcie_width}"
        else:
            text = "PCIe"
        if self.bandwidth:
            text += f" ({self.bandwidth / 1e9:.0f} GB/s per direction)"
        if self.topology:
            text += f", {self.topology}"
        return text


@dataclass(frozen=True)
class Hardware:
    """Everything ``report()`` prints. Build it with ``hardware()``."""

    gpus: tuple[GPU, ...]
    link: Link | None
    no_gpu_reason: str | None  # why there are no GPUs, in one line, or None
    cpu_model: str
    cpu_cores: int  # cores this process may use (affinity), which is what workers share
    torch_version: str
    cuda_version: str | None  # the CUDA that torch was built with; None for a CPU build
    driver_version: str | None = None
    extra: dict = field(default_factory=dict)


# --- NVML, through nvitop ------------------------------------------------------------------------------


class NvmlLayer:
    """The few NVML questions the course asks, through one ``query(name, *args)`` function.

    The real layer passes nvitop's ``libnvml.nvmlQuery``; tests pass a fake that replays recorded answers,
    so that everything below runs on a machine without a GPU. ``query`` returns None where NVML has no
    answer (an unsupported field, an older driver): that fact is then left out, never an error.
    """

    def __init__(self, query, constants=None):
        self.query = query
        c = constants or {}
        self.clock_mem = c.get("NVML_CLOCK_MEM", 2)
        self.p2p_read = c.get("NVML_P2P_CAPS_INDEX_READ", 0)
        self.p2p_ok = c.get("NVML_P2P_STATUS_OK", 0)
        self.feature_enabled = c.get("NVML_FEATURE_ENABLED", 1)

    def count(self) -> int:
        return self.query("nvmlDeviceGetCount") or 0

    def handle(self, index: int):
        return self.query("nvmlDeviceGetHandleByIndex", index)

    def gpu(self, index: int, nvml_index: int | None = None) -> GPU:
        h = self.handle(index if nvml_index is None else nvml_index)
        name = self.query("nvmlDeviceGetName", h)
        memory = self.query("nvmlDeviceGetMemoryInfo", h)
        cc = self.query("nvmlDeviceGetCudaComputeCapability", h)
        mem_clock_mhz = self.query("nvmlDeviceGetMaxClockInfo", h, self.clock_mem)
        bus_bits = self.query("nvmlDeviceGetMemoryBusWidth", h)
        # Double data rate: two transfers per clock, bus_bits / 8 bytes per transfer.
        mem_bw = 2 * mem_clock_mhz * 1e6 * bus_bits / 8 if mem_clock_mhz and bus_bits else None
        return GPU(
            index=index,
            name=_text(name) or f"GPU {index}",
            memory_total=getattr(memory, "total", None),
            compute_capability=tuple(cc) if cc else None,
            pcie_generation=self.query("nvmlDeviceGetMaxPcieLinkGeneration", h),
            pcie_width=self.query("nvmlDeviceGetMaxPcieLinkWidth", h),
            memory_bandwidth=mem_bw,
        )

    def bus_id(self, h) -> str | None:
        info = self.query("nvmlDeviceGetPciInfo", h)
        return _text(getattr(info, "busId", None))

    def link(self, a: int, b: int, gpu_a: GPU, gpu_b: GPU, nvml_a=None, nvml_b=None) -> Link:
        ha = self.handle(a if nvml_a is None else nvml_a)
        hb = self.handle(b if nvml_b is None else nvml_b)
        b_bus = (self.bus_id(hb) or "").lower()
        links, version = 0, None
        for lane in range(NVLINK_MAX_LINKS):
            if self.query("nvmlDeviceGetNvLinkState", ha, lane) != self.feature_enabled:
                continue
            remote = self.query("nvmlDeviceGetNvLinkRemotePciInfo_v2", ha, lane)
            remote_bus = (_text(getattr(remote, "busId", None)) or "").lower()
            # Bus ids differ only in leading zeros between calls ("00000000:1A:00.0" vs "0000:1a:00.0").
            if remote_bus and b_bus and remote_bus.split(":", 1)[-1] == b_bus.split(":", 1)[-1]:
                links += 1
                version = version or self.query("nvmlDeviceGetNvLinkVersion", ha, lane)
        p2p = self.query("nvmlDeviceGetP2PStatus", ha, hb, self.p2p_read)
        level = self.query("nvmlDeviceGetTopologyCommonAncestor", ha, hb)
        gens = [g for g in (gpu_a.pcie_generation, gpu_b.pcie_generation) if g]
        widths = [w for w in (gpu_a.pcie_width, gpu_b.pcie_width) if w]
        return Link(
            a=a,
            b=b,
            kind="NVLink" if links else "PCIe",
            nvlink_count=links,
            nvlink_version=version,
            pcie_generation=min(gens) if gens else None,
            pcie_width=min(widths) if widths else None,
            topology=TOPOLOGY.get(level),
            peer_access=None if p2p is None else p2p == self.p2p_ok,
        )

    def driver_version(self) -> str | None:
        return _text(self.query("nvmlSystemGetDriverVersion"))


def _text(value) -> str | None:
    if value is None:
        return None
    return value.decode() if isinstance(value, bytes) else str(value)


def _nvml_library_present() -> bool:
    """True when the NVIDIA driver's NVML library can be loaded (checked quietly, before nvitop)."""
    for name in ("libnvidia-ml.so.1", "libnvidia-ml.so", "nvml.dll"):
        try:
            ctypes.CDLL(name)
            return True
        except OSError:
            continue
    return False


@contextlib.contextmanager
def _quiet_nvitop():
    """Keep nvitop's log lines (e.g. its "FATAL ERROR: NVML not found" banner) out of the notebook."""
    logger = logging.getLogger("nvitop")
    old_disabled = logger.disabled
    logger.disabled = True
    lib_logger = logging.getLogger("nvitop.api.libnvml")
    old_lib = lib_logger.disabled
    lib_logger.disabled = True
    try:
        yield
    finally:
        logger.disabled = old_disabled
        lib_logger.disabled = old_lib


def nvml_layer() -> tuple[NvmlLayer | None, str | None]:
    """The real NVML layer, or None and the reason in a few words (no driver, driver not loaded...)."""
    if not _nvml_library_present():
        return None, "no NVIDIA driver (NVML library not found)"
    with _quiet_nvitop():
        try:
            from nvitop.api import libnvml
        except Exception as exc:  # a broken nvitop install must not break the course
            return None, f"nvitop could not load NVML ({type(exc).__name__})"

        def query(name, *args):
            with _quiet_nvitop():
                try:
                    value = libnvml.nvmlQuery(name, *args, ignore_errors=False)
                except Exception:
                    return None
            return None if value is libnvml.NA else value

        consts = {k: getattr(libnvml, k) for k in ("NVML_CLOCK_MEM", "NVML_P2P_CAPS_INDEX_READ",
                                                   "NVML_P2P_STATUS_OK", "NVML_FEATURE_ENABLED")
                  if hasattr(libnvml, k)}
        layer = NvmlLayer(query, consts)
        try:
            with _quiet_nvitop():
                libnvml.nvmlQuery("nvmlDeviceGetCount", ignore_errors=False)
        except Exception as exc:
            return None, f"NVIDIA driver present but NVML failed ({type(exc).__name__})"
    return layer, None


# --- Facts about this machine --------------------------------------------------------------------------


def gpu_count() -> int:
    """GPUs that torch can use here (respects CUDA_VISIBLE_DEVICES); 0 for a CPU build of torch.

    ``torch.cuda.device_count()`` asks NVML first and does not initialise CUDA, so a later fork is safe.
    """
    import torch

    if torch.version.cuda is None and getattr(torch.version, "hip", None) is None:
        return 0
    return torch.cuda.device_count()


def cpu_cores() -> int:
    """Cores this process may run on (its affinity mask), which is what worker processes share."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def _visible_nvml_indices(count: int) -> list[int | None]:
    """NVML index of each GPU torch sees. NVML ignores CUDA_VISIBLE_DEVICES; torch does not."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is None:
        return list(range(count))
    parts = [p.strip() for p in visible.split(",") if p.strip()]
    if all(p.isdigit() for p in parts):
        return [int(p) for p in parts][:count]
    return [None] * count  # UUIDs or MIG names: fall back to NVML's own order below


def hardware(layer: NvmlLayer | None = None, n_gpus: int | None = None) -> Hardware:
    """Collect the hardware facts without initialising CUDA. ``layer``/``n_gpus`` are for tests."""
    import torch

    reason = None
    if layer is None:
        layer, reason = nvml_layer()
    n = gpu_count() if n_gpus is None else n_gpus
    gpus: list[GPU] = []
    link = None
    driver = None
    if layer is not None and n > 0:
        nvml_ids = _visible_nvml_indices(n)
        nvml_ids = [i if i is not None else pos for pos, i in enumerate(nvml_ids)]
        gpus = [layer.gpu(pos, nvml_ids[pos]) for pos in range(n)]
        if n >= 2:
            link = layer.link(0, 1, gpus[0], gpus[1], nvml_ids[0], nvml_ids[1])
        driver = layer.driver_version()
    elif n == 0 and layer is not None:
        seen = layer.count()
        reason = (f"NVML sees {seen} NVIDIA GPU(s) but this torch cannot use them "
                  f"(torch {torch.__version__}, built without CUDA)") if seen else "no NVIDIA GPU found"
    elif n > 0:  # torch sees GPUs (e.g. ROCm) that NVML cannot describe
        gpus = [GPU(index=i, name=f"GPU {i}") for i in range(n)]
    return Hardware(
        gpus=tuple(gpus),
        link=link,
        no_gpu_reason=None if gpus else (reason or "no NVIDIA GPU found"),
        cpu_model=cpu_model(),
        cpu_cores=cpu_cores(),
        torch_version=torch.__version__,
        cuda_version=torch.version.cuda,
        driver_version=driver,
    )


# --- Mode and plan -------------------------------------------------------------------------------------


def mode_for(n_gpus: int) -> str:
    """The mode a machine with ``n_gpus`` usable GPUs runs in."""
    return MODES[min(n_gpus, 3)]


def mode(n_gpus: int | None = None) -> str:
    """The course's mode here: ``cpu``, ``1gpu``, ``2gpu`` or ``ngpu``; ``TWOGPU_MODE`` forces one.

    Forcing a mode that needs more GPUs than the machine has raises ``DeviceError`` naming what was found.
    """
    n = gpu_count() if n_gpus is None else n_gpus
    detected = mode_for(n)
    forced = os.environ.get("TWOGPU_MODE", "").strip().lower()
    if not forced:
        return detected
    if forced not in MODES:
        raise DeviceError(f"TWOGPU_MODE={forced!r} is not a mode; use one of {', '.join(MODES)} "
                          f"(or unset it: this machine is {detected!r}).")
    if n < GPUS_NEEDED[forced]:
        found = f"{n} usable GPU(s)" if n else "no usable GPU"
        raise DeviceError(f"TWOGPU_MODE={forced} needs at least {GPUS_NEEDED[forced]} GPU(s), but this machine "
                          f"has {found}. Unset TWOGPU_MODE, or set TWOGPU_MODE={detected}.")
    return forced


@dataclass(frozen=True)
class Plan:
    """Where each of n workers (or pipeline stages) runs, and which backend connects them."""

    devices: tuple[str, ...]  # e.g. ("cpu", "cpu") or ("cuda:0", "cuda:1")
    backend: str  # "gloo" or "nccl"
    mode: str
    label: str  # e.g. "2 CPU processes (simulated GPUs)"

    @property
    def simulated(self) -> bool:
        """True when CPU processes stand in for GPUs: label every figure *simulated on CPU*."""
        return self.mode == "cpu"

    @property
    def world_size(self) -> int:
        return len(self.devices)


def plan(n: int = 2, backend: str | None = None, mode_name: str | None = None,
         n_gpus: int | None = None) -> Plan:
    """Device and backend for ``n`` workers or stages in the current mode.

    NCCL needs one distinct GPU per rank; ranks that share a GPU, or CPU ranks, use gloo. Asking for
    ``backend="nccl"`` where that cannot work is a ``DeviceError`` that says what to do instead.
    """
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"need at least one worker, got n={n!r}")
    if backend not in (None, "gloo", "nccl"):
        raise ValueError(f"backend must be 'gloo' or 'nccl', got {backend!r}")
    g = gpu_count() if n_gpus is None else n_gpus
    m = mode_name or mode(g)
    usable = {"cpu": 0, "1gpu": 1}.get(m, g)
    if usable == 0:
        if backend == "nccl":
            raise DeviceError("backend='nccl' needs NVIDIA GPUs, and this run is in cpu mode; use "
                              "backend='gloo' (or leave it out).")
        return Plan(("cpu",) * n, "gloo", m, f"{n} CPU process{'es' if n > 1 else ''} (simulated GPUs)")
    devices = tuple(f"cuda:{r % usable}" for r in range(n))
    if n <= usable:
        names = ", ".join(devices)
        label = f"{n} GPU{'s' if n > 1 else ''} ({names})" if n > 1 else f"1 process on {devices[0]}"
        return Plan(devices, backend or "nccl", m, label)
    if backend == "nccl":
        raise DeviceError(f"{n} NCCL ranks need {n} GPUs, but this run has {usable} "
                          f"({m} mode). NCCL refuses two ranks on one GPU: use nprocs<={usable}, or "
                          f"backend='gloo' to let ranks share a GPU.")
    share = "sharing cuda:0" if usable == 1 else f"sharing {usable} GPUs"
    return Plan(devices, "gloo", m, f"{n} processes {share} (gloo)")


# --- Report --------------------------------------------------------------------------------------------


def _gib(n_bytes) -> str:
    return f"{n_bytes / 2**30:.0f} GiB" if n_bytes else "?"


def summary_line(hw: Hardware, mode_name: str, p: Plan) -> str:
    """The one line every notebook prints at the top."""
    torch_part = f"torch {hw.torch_version}" + (f", CUDA {hw.cuda_version}" if hw.cuda_version else "")
    if p.simulated:
        why = hw.no_gpu_reason or "forced by TWOGPU_MODE=cpu"
        return (f"Mode cpu: {why}; {hw.cpu_cores} CPU cores. Workers are CPU processes on gloo, "
                f"so every figure is simulated on CPU. {torch_part}.")
    used = hw.gpus[:1] if mode_name == "1gpu" else hw.gpus
    names = sorted({g.name for g in used})
    gpu_part = f"{len(used)} x {' / '.join(names)} ({_gib(used[0].memory_total)} each)"
    link_part = ""
    if hw.link and len(used) >= 2:
        peer = {True: "peer access yes", False: "peer access no", None: "peer access unknown"}
        link_part = f"; link {hw.link.describe()}, {peer[hw.link.peer_access]}"
    return f"Mode {mode_name}: {gpu_part}{link_part}; {p.label} on {p.backend}. {torch_part}."


def detail_rows(hw: Hardware) -> list[tuple[str, str]]:
    """The detailed report as (what, value) rows."""
    rows = []
    for g in hw.gpus:
        cc = ".".join(map(str, g.compute_capability)) if g.compute_capability else "?"
        pcie = f"PCIe {g.pcie_generation}.0 x{g.pcie_width}" if g.pcie_generation and g.pcie_width else "?"
        bw = f", memory {g.memory_bandwidth / 1e9:.0f} GB/s" if g.memory_bandwidth else ""
        rows.append((f"GPU {g.index}", f"{g.name}, {_gib(g.memory_total)}, compute capability {cc}, "
                                       f"{pcie}{bw}"))
    if hw.link:
        peer = {True: "yes", False: "no", None: "unknown"}[hw.link.peer_access]
        rows.append((f"link GPU {hw.link.a} - GPU {hw.link.b}", hw.link.describe()))
        rows.append(("peer access", peer))
    if not hw.gpus:
        rows.append(("GPUs", hw.no_gpu_reason or "none"))
    rows.append(("CPU", f"{hw.cpu_model}, {hw.cpu_cores} cores usable"))
    rows.append(("torch", hw.torch_version))
    rows.append(("CUDA (torch build)", hw.cuda_version or "none (CPU build)"))
    if hw.driver_version:
        rows.append(("NVIDIA driver", hw.driver_version))
    return rows


def detail_table(hw: Hardware | None = None):
    """The detailed hardware report as a ``utils.tables.Table`` (lesson 00 shows it)."""

    return Table(["what", "found"], detail_rows(hw or hardware()), title="Hardware")


def report(detail: bool = False, hw: Hardware | None = None) -> None:
    """Print the one-line device report; with ``detail=True`` also show the table of everything found.

    Lesson 00 introduces it; every lesson calls it in its set-up cell.
    """

    hw = hw or hardware()
    m = mode(len(hw.gpus))
    print(summary_line(hw, m, plan(2, mode_name=m, n_gpus=len(hw.gpus))))
    if detail:
        show(detail_table(hw))
