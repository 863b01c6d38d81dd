"""Hardware discovery: which mode the course runs in, and which device each worker or stage gets.

Introduced in lesson 00 (``notebooks/00_start_here.ipynb``); every later lesson prints ``report()`` in its
set-up cell, and the launcher and pipeline helpers ask ``plan(n)`` where to put their workers.

Nothing in this module initialises CUDA in the calling process. GPU facts come from NVML (``utils.nvml``,
through nvitop) and the GPU count from ``torch.cuda.device_count()``, which asks NVML too. Why it matters: the
notebook launcher forks workers, and a forked child cannot use CUDA that its parent already started.

Modes (see the README's hardware routes):
    cpu   no usable GPU: workers are CPU processes on gloo, every figure is *simulated on CPU*
    1gpu  one GPU: all workers or stages share ``cuda:0`` (gloo, because NCCL refuses a shared GPU)
    2gpu  two GPUs: ``cuda:0`` and ``cuda:1`` on NCCL, link type (NVLink or PCIe) detected
    ngpu  three or more GPUs
``TWOGPU_MODE=cpu`` (or another mode) forces one; asking for more than the machine has is an error.
"""

from __future__ import annotations

import os
import textwrap
import platform
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from utils.nvml import NvmlLayer, real_layer
from utils.tables import Table, show

MODES = ("cpu", "1gpu", "2gpu", "ngpu")
GPUS_NEEDED = {"cpu": 0, "1gpu": 1, "2gpu": 2, "ngpu": 3}

# Theoretical bandwidth per lane and direction, in GB/s, after line encoding (PCIe 1-2: 8b/10b,
# PCIe 3-5: 128b/130b, PCIe 6: FLIT mode). A x16 PCIe 4.0 link: 16 x 1.969 = 31.5 GB/s each way.
PCIE_LANE_GBPS = {1: 0.25, 2: 0.5, 3: 0.985, 4: 1.969, 5: 3.938, 6: 7.563}
# NVLink bandwidth per link and direction, in GB/s, by NVLink version: P100 (1.0), V100 (2.x), A100 (3.x,
# 12 links), H100/H200 (4.0, 18 links), B200 (5.0, 18 links). Used where the driver does not report the
# link speed itself (NVML's NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON field, preferred when present).
NVLINK_LINK_GBPS = {"1.0": 20.0, "2.0": 25.0, "2.2": 25.0, "3.0": 25.0, "3.1": 25.0, "4.0": 25.0, "5.0": 50.0}
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
    """How GPU ``a`` reaches GPU ``b``: NVLink (direct or through an NVSwitch) or PCIe, and its peak."""

    a: int
    b: int
    kind: str  # "NVLink" or "PCIe"
    nvlink_count: int = 0  # links used: to the other GPU, or to the NVSwitch fabric
    nvlink_version: str | None = None  # "3.0", "4.0" ... as NVIDIA's datasheets name it
    nvlink_speed: float | None = None  # bytes/s per link and direction, as the driver reports it
    via_switch: bool = False
    pcie_generation: int | None = None
    pcie_width: int | None = None
    topology: str | None = None
    peer_access: bool | None = None

    @property
    def per_link(self) -> float | None:
        """One NVLink's peak, one direction: the driver's figure, else the version's from the table."""
        if self.nvlink_speed:
            return self.nvlink_speed
        return NVLINK_LINK_GBPS[self.nvlink_version] * 1e9 if self.nvlink_version in NVLINK_LINK_GBPS else None

    @property
    def bandwidth(self) -> float | None:
        """Theoretical peak between the two GPUs, one direction, bytes per second."""
        if self.kind == "NVLink":
            return self.per_link * self.nvlink_count if self.per_link and self.nvlink_count else None
        if self.pcie_generation in PCIE_LANE_GBPS and self.pcie_width:
            return PCIE_LANE_GBPS[self.pcie_generation] * self.pcie_width * 1e9
        return None

    def describe(self) -> str:
        if self.kind == "NVLink":
            version = f" {self.nvlink_version}" if self.nvlink_version else ""
            count = f" x{self.nvlink_count}" if self.nvlink_count else ""
            text = f"NVLink{version}{count}" + (" through NVSwitch" if self.via_switch else "")
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


# --- From NVML's answers to the course's facts -------------------------------------------------------


def gpu_from(layer: NvmlLayer, index: int, nvml_index: int) -> GPU:
    """GPU ``index`` as torch numbers it (``cuda:index``), described from NVML device ``nvml_index``."""
    facts = layer.gpu_facts(nvml_index)
    return GPU(index=index, **dict(facts, name=facts["name"] or f"GPU {index}"))


def link_from(layer: NvmlLayer, a: GPU, b: GPU, nvml_a: int, nvml_b: int) -> Link:
    """How GPU a reaches GPU b. NVLink when links go straight to b, or when they go to an NVSwitch and the
    driver says a and b talk over NVLink (P2P status); else PCIe at the slower of the two GPUs' links."""
    f = layer.nvlink_facts(nvml_a, nvml_b)
    via_switch = not f["direct_lanes"] and f["switch_lanes"] > 0 and f["p2p_nvlink"] is not False
    nvlink = f["direct_lanes"] > 0 or via_switch or (f["p2p_nvlink"] is True)
    gens = [g for g in (a.pcie_generation, b.pcie_generation) if g]
    widths = [w for w in (a.pcie_width, b.pcie_width) if w]
    return Link(a=a.index, b=b.index, kind="NVLink" if nvlink else "PCIe",
                nvlink_count=(f["direct_lanes"] or f["switch_lanes"]) if nvlink else 0,
                nvlink_version=f["version"] if nvlink else None,
                nvlink_speed=f["speed_mbps"] * 1e6 if nvlink and f["speed_mbps"] else None,
                via_switch=via_switch, pcie_generation=min(gens) if gens else None,
                pcie_width=min(widths) if widths else None, topology=TOPOLOGY.get(f["topology_level"]),
                peer_access=f["p2p_read"])


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


def hardware(layer: NvmlLayer | None = None, n_gpus: int | None = None) -> Hardware:
    """Collect the hardware facts without initialising CUDA. ``layer``/``n_gpus`` are for tests."""
    import torch

    reason = None
    if layer is None:
        layer, reason = real_layer()
    n = gpu_count() if n_gpus is None else n_gpus
    gpus: list[GPU] = []
    link = None
    driver = None
    if layer is not None and n > 0:
        nvml_ids = layer.visible_indices(n)
        gpus = [gpu_from(layer, pos, nvml_ids[pos]) for pos in range(n)]
        if n >= 2:
            link = link_from(layer, gpus[0], gpus[1], nvml_ids[0], nvml_ids[1])
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


def summary_line(hw: Hardware, mode_name: str, p: Plan, workers: bool = True) -> str:
    """The one line every notebook prints at the top. ``workers=False``: for a lesson that starts no workers
    (lesson 04 times one device), the line leaves out what the workers would be and run on."""
    torch_part = f"torch {hw.torch_version}" + (f", CUDA {hw.cuda_version}" if hw.cuda_version else "")
    if p.simulated:
        why = hw.no_gpu_reason or "forced by TWOGPU_MODE=cpu"
        if not workers:
            return f"Mode cpu: {why}; {hw.cpu_cores} CPU cores. Every timing is measured on this CPU. {torch_part}."
        # Every timing here is this CPU's own; what differs is what it stands for. A lesson labels a figure
        # "simulated on CPU" where the CPU stands in for a GPU, and names this CPU where the CPU is the subject.
        return (f"Mode cpu: {why}; {hw.cpu_cores} CPU cores. Workers are CPU processes on gloo standing in "
                f"for GPUs. Every timing is measured on this CPU; a figure that stands in for a GPU's is "
                f"labelled simulated on CPU. {torch_part}.")
    used = hw.gpus[:1] if mode_name == "1gpu" else hw.gpus
    names = sorted({g.name for g in used})
    gpu_part = f"{len(used)} x {' / '.join(names)} ({_gib(used[0].memory_total)} each)"
    link_part = ""
    if hw.link and len(used) >= 2:
        peer = {True: "peer access yes", False: "peer access no", None: "peer access unknown"}
        link_part = f"; link {hw.link.describe()}, {peer[hw.link.peer_access]}"
    workers_part = f"; {p.label} on {p.backend}" if workers else ""
    return f"Mode {mode_name}: {gpu_part}{link_part}{workers_part}. {torch_part}."


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
    rows.append(("CPU vector ISA", cpu_isa()))
    caches = cpu_caches()
    rows.append(("CPU caches (core 0)", ", ".join(f"{name} {_cache_size(size)}" for name, size in caches.items())
                 if caches else "not readable here"))
    rows.append(("torch", hw.torch_version))
    rows.append(("CUDA (torch build)", hw.cuda_version or "none (CPU build)"))
    if hw.driver_version:
        rows.append(("NVIDIA driver", hw.driver_version))
    return rows


def detail_table(hw: Hardware | None = None):
    """The detailed hardware report as a ``utils.tables.Table`` (lesson 00 shows it)."""

    return Table(["what", "found"], detail_rows(hw or hardware()), title="Hardware")


def report(detail: bool = False, hw: Hardware | None = None, workers: bool = True) -> None:
    """Print the one-line device report; with ``detail=True`` also show the table of everything found.

    Lesson 00 introduces it; every lesson calls it in its set-up cell (``workers=False`` where the lesson
    starts no worker processes: its line then says nothing about them).
    """

    hw = hw or hardware()
    m = mode(len(hw.gpus))
    # Wrapped at the course's 110 characters: a reader sees the whole line without scrolling.
    print(textwrap.fill(summary_line(hw, m, plan(2, mode_name=m, n_gpus=len(hw.gpus)), workers), 110,
                        break_long_words=False))
    if detail:
        show(detail_table(hw))


# ---------------------------------------------------------------------------------------------- CPU ISA
# What a CPU's vector instructions change for this course (lessons 01, 04, 06, 08 ask ``cpu_features()``):
# - int8: oneDNN multiplies u8 activations by s8 weights. With VNNI (AVX512-VNNI, AVX-VNNI) or AMX-INT8 the
#   products accumulate in 32 bits. Without (plain AVX2, AVX-512 before Cascade Lake) it uses vpmaddubsw,
#   which adds each *pair* of products into a 16-bit register and saturates at 32767: 255 x 127 x 2 = 64770
#   does not fit. Quantizing to 7 bits ("reduced range") keeps every pair under it: 127 x 63 x 2 = 16002.
# - bf16: with AVX512-BF16 or AMX-BF16 a bf16 matmul runs on bf16 units; without, torch converts to fp32 and
#   back, so bf16 saves bytes but costs time.
# The machine may be told to pretend to be an older one (the tests do): ATEN_CPU_CAPABILITY caps torch's and
# inductor's kernels, ONEDNN_MAX_CPU_ISA caps oneDNN's. Both are read here, so what is reported is what runs.
_ISA_FLAGS = {"avx512_vnni": "AVX512-VNNI (int8)", "avx_vnni": "AVX-VNNI (int8)", "avx512_bf16": "AVX512-BF16",
              "amx_int8": "AMX-INT8", "amx_bf16": "AMX-BF16"}
# What each ONEDNN_MAX_CPU_ISA value lets oneDNN use of the extensions above. Not a simple ladder: AVX512_CORE
# (Skylake-X) has no VNNI at all, although AVX2_VNNI (Alder Lake) below it in oneDNN's list has.
_VNNI = {"avx_vnni", "avx512_vnni"}
_BF16 = _VNNI | {"avx512_bf16"}
_AMX = _BF16 | {"amx_int8", "amx_bf16"}
ONEDNN_CAP_ALLOWS = {"SSE41": set(), "AVX": set(), "AVX2": set(), "AVX2_VNNI": {"avx_vnni"},
                     "AVX2_VNNI_2": {"avx_vnni"}, "AVX512_CORE": set(), "AVX512_CORE_VNNI": _VNNI,
                     "AVX512_CORE_BF16": _BF16, "AVX10_1_512": _BF16, "AVX512_CORE_FP16": _BF16,
                     "AVX10_1_512_AMX": _AMX, "AVX512_CORE_AMX": _AMX, "AVX10_1_512_AMX_FP16": _AMX,
                     "AVX512_CORE_AMX_FP16": _AMX, "AVX10_2_512": _BF16, "AVX10_2_512_AMX_2": _AMX}
# The ISAs a machine can pretend to be, lowest first: the environment that caps torch, inductor and oneDNN.
EMULATIONS = {"AVX2": {"ATEN_CPU_CAPABILITY": "avx2", "ONEDNN_MAX_CPU_ISA": "AVX2"},
              "AVX512": {"ATEN_CPU_CAPABILITY": "avx512", "ONEDNN_MAX_CPU_ISA": "AVX512_CORE"},
              "AVX512-VNNI": {"ATEN_CPU_CAPABILITY": "avx512", "ONEDNN_MAX_CPU_ISA": "AVX512_CORE_VNNI"},
              "AVX512-BF16": {"ATEN_CPU_CAPABILITY": "avx512", "ONEDNN_MAX_CPU_ISA": "AVX512_CORE_BF16"}}
_EMULATION_NEEDS = {"AVX2": "avx2", "AVX512": "avx512f", "AVX512-VNNI": "avx512_vnni", "AVX512-BF16": "avx512_bf16"}


@dataclass(frozen=True)
class CpuFeatures:
    """What this CPU's instructions allow, as the kernels will use them. Introduced in lesson 00."""

    capability: str  # torch.backends.cpu.get_cpu_capability(): DEFAULT, AVX2, AVX512, ...
    extensions: tuple[str, ...]  # the int8/bf16 extensions in use, e.g. ("AVX512-VNNI (int8)", "AMX-BF16")
    int8_dot: bool  # int8 products accumulate in 32 bits (VNNI or AMX-INT8): full-range int8 is exact
    bf16_units: bool  # bf16 matmuls run on bf16 units (AVX512-BF16 or AMX-BF16), not converted to fp32
    amx: bool  # AMX tiles (int8 or bf16)
    capped_by: str = ""  # the environment that caps the ISA, where set ("ONEDNN_MAX_CPU_ISA=AVX2"), else ""

    @property
    def int8_saturates(self) -> bool:
        """True where oneDNN's int8 matmul adds pairs of products in 16 bits (no VNNI, no AMX): full-range
        int8 activations overflow there, and only 7-bit ("reduced range") ones are exact (lesson 04)."""
        return not self.int8_dot

    def describe(self) -> str:
        """One phrase: "AVX512; AVX512-VNNI (int8), AVX512-BF16" (and what caps it, where something does)."""
        extras = ", ".join(self.extensions) or "no VNNI, BF16 or AMX instructions reported"
        return f"{self.capability}; {extras}" + (f" (capped: {self.capped_by})" if self.capped_by else "")


def _cpu_flags() -> set[str]:
    try:
        with open("/proc/cpuinfo") as f:
            return set(next((line.split(":", 1)[1].split() for line in f if line.startswith("flags")), []))
    except OSError:  # macOS, Windows: torch's capability alone
        return set()


def cpu_features(flags: set[str] | None = None, capability: str | None = None,
                 onednn_max: str | None = None) -> CpuFeatures:
    """The CPU's ISA as the kernels use it: /proc/cpuinfo's flags, capped by ``ONEDNN_MAX_CPU_ISA`` where set.
    The arguments stand in for the machine in tests. Introduced in lesson 00; lessons 01, 04, 06 and 08 choose
    sizes, paths and explanations from it."""
    import torch

    flags = _cpu_flags() if flags is None else set(flags)
    capability = torch.backends.cpu.get_cpu_capability() if capability is None else capability
    onednn_max = os.environ.get("ONEDNN_MAX_CPU_ISA", "") if onednn_max is None else onednn_max
    cap = onednn_max.upper()
    allowed = {flag for flag in _ISA_FLAGS if flag in flags}
    if cap in ONEDNN_CAP_ALLOWS:  # anything else ("", "ALL", a newer name): no cap
        allowed &= ONEDNN_CAP_ALLOWS[cap]
    if capability.upper() in ("DEFAULT", "AVX2"):  # torch's AVX2 kernels cannot use AVX-512 extensions either
        allowed &= {"avx_vnni"}
    capped = [f"ONEDNN_MAX_CPU_ISA={onednn_max}"] if cap in ONEDNN_CAP_ALLOWS else []
    if os.environ.get("ATEN_CPU_CAPABILITY"):
        capped.insert(0, f"ATEN_CPU_CAPABILITY={os.environ['ATEN_CPU_CAPABILITY']}")
    return CpuFeatures(capability=capability,
                       extensions=tuple(name for flag, name in _ISA_FLAGS.items() if flag in allowed),
                       int8_dot=bool(allowed & {"avx512_vnni", "avx_vnni", "amx_int8"}),
                       bf16_units=bool(allowed & {"avx512_bf16", "amx_bf16"}),
                       amx=bool(allowed & {"amx_int8", "amx_bf16"}),
                       capped_by=", ".join(capped))


def cpu_isa() -> str:
    """The CPU's vector instruction set as torch uses it (``torch.backends.cpu.get_cpu_capability()``: DEFAULT,
    AVX2, AVX512, ...) and the int8/bf16 extensions in use, e.g. "AVX512; AVX512-VNNI (int8), AVX512-BF16".
    Introduced in lesson 00: int8 and bf16 speed-ups (lesson 04) depend on it (``cpu_features``)."""
    return cpu_features().describe()


def isa_emulations(flags: set[str] | None = None) -> dict[str, dict[str, str]]:
    """The ISAs this machine can pretend to be (``EMULATIONS``, lowest first), each with the environment that
    caps torch, inductor and oneDNN to it: an AVX512-BF16 machine can run as AVX2, AVX512, AVX512-VNNI and
    AVX512-BF16. Tests of numerics run under each (``tests/test_isa.py``)."""
    flags = _cpu_flags() if flags is None else set(flags)
    return {name: {**env, "TORCHINDUCTOR_CACHE_DIR": _inductor_cache_for(name)}
            for name, env in EMULATIONS.items() if _EMULATION_NEEDS[name] in flags}


def _inductor_cache_for(isa: str) -> str:
    """A compile cache of its own for each emulated ISA. Inductor's cache key leaves out the ATen CPU capability
    (torch 2.13): a graph compiled for AVX-512 (32 bf16 lanes a loop step) is served again under an AVX2 cap and
    compiled with -mavx2, and its output is wrong (a bf16 MLP with gradients on: inf). A real AVX2 machine never
    holds AVX-512 code in its cache, so only an emulation needs this."""
    user = os.environ.get("USER", "user")
    return str(Path(tempfile.gettempdir()) / f"torchinductor_{user}_isa_{isa}")


def cpu_caches(root: str = "/sys/devices/system/cpu/cpu0/cache") -> dict[str, int]:
    """Data and unified cache sizes of core 0 in bytes, by level: ``{"L1d": 32768, "L2": ..., "L3": ...}``.

    Read from Linux's sysfs; an empty dict where it is not readable (macOS, Windows, some containers), and
    callers then draw no cache boundary. Introduced in lesson 00 (copies that fit in a cache run faster)."""
    caches = {}
    for index in sorted(Path(root).glob("index*")):
        try:
            level = (index / "level").read_text().strip()
            kind = (index / "type").read_text().strip()
            size = (index / "size").read_text().strip()
        except OSError:
            continue
        if kind == "Instruction":
            continue
        units = {"K": 2**10, "M": 2**20, "G": 2**30}
        value = int(size[:-1]) * units[size[-1]] if size[-1] in units else int(size)
        caches[f"L{level}" + ("d" if kind == "Data" else "")] = value
    return caches


def _cache_size(n: int) -> str:
    return f"{n // 2**20} MiB" if n >= 2**20 else f"{n // 2**10} KiB"
