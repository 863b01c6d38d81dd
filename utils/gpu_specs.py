"""Datasheet figures of the GPUs the course names: memory, memory bandwidth, dense peak FLOP/s per dtype and
the link between two of them. Introduced in ``notebooks/01_why_slow.ipynb`` (peaks, ridge points), used by
lesson 06's memory calculator (does it fit?) and lesson 07's crossover (which link).

These are *vendor peaks* (NVIDIA datasheets, boost clock, dense: without the 2:4-sparsity doubling, so half
of a datasheet's "with sparsity" figure), not measurements: a lesson shows them beside what it measured,
labelled as datasheet figures. Memory is the datasheet's decimal GB; the driver reports slightly less as
usable (ECC, reserved memory). Each entry names the datasheet it comes from.

One chip name covers cards with different figures: an H100 PCIe has 2.0 TB/s and 756 TFLOP/s bf16, an H100
SXM 3.35 TB/s and 989. So a GPU is found by the *whole* name the driver reports, never by a part of it
(``spec_for``); a name the table does not hold gets no datasheet row, and the lesson shows only what it
measured.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from utils.devices import PCIE_LANE_GBPS

T, G = 1e12, 1e9

# Link peaks, bytes per second per direction: PCIe x16 from the per-lane table (after encoding);
# NVLink as NVIDIA quotes it per GPU (total bidirectional / 2): A100 600 GB/s, H100/H200 SXM 900 GB/s, an
# NVLink bridge between two PCIe cards (A100 PCIe, H100 PCIe, H100 NVL) 600 GB/s.
LINKS = {
    "PCIe 3.0 x16": PCIE_LANE_GBPS[3] * 16 * G,
    "PCIe 4.0 x16": PCIE_LANE_GBPS[4] * 16 * G,
    "PCIe 5.0 x16": PCIE_LANE_GBPS[5] * 16 * G,
    "NVLink 2 (V100, 6 links)": 150 * G,
    "NVLink 3 (A100, 12 links)": 300 * G,
    "NVLink 4 bridge (H100 NVL pair, 12 links)": 300 * G,
    "NVLink 4 (H100/H200, 18 links)": 450 * G,
}

# The datasheets (NVIDIA's own PDFs, as titled on nvidia.com): where every figure below comes from.
T4_SHEET = "NVIDIA T4 Tensor Core GPU datasheet"
P100_SHEET = "NVIDIA Tesla P100 datasheet (PCIe column)"
V100_SHEET = "NVIDIA V100 Tensor Core GPU datasheet (SXM2 column)"
L4_SHEET = "NVIDIA L4 Tensor Core GPU datasheet"
A10_SHEET = "NVIDIA A10 Tensor Core GPU datasheet"
A100_SHEET = "NVIDIA A100 Tensor Core GPU datasheet (2021: 40GB/80GB PCIe and SXM columns)"
H100_SHEET = "NVIDIA H100 Tensor Core GPU datasheet (SXM and NVL columns; PCIe column of the 2022 edition)"
H200_SHEET = "NVIDIA H200 Tensor Core GPU datasheet (SXM column)"


@dataclass(frozen=True)
class GpuSpec:
    name: str
    memory_bytes: float  # datasheet capacity
    memory_bandwidth: float  # bytes/s, HBM or GDDR peak
    peak_flops: dict = field(default_factory=dict)  # dtype name -> dense FLOP/s (int8: ops/s)
    link: str = "PCIe 4.0 x16"  # a key of LINKS: how two of these talk in the usual server
    nvml_names: tuple[str, ...] = ()  # the whole names NVML reports for this card (see ``normal_name``)
    source: str = ""  # the datasheet the figures come from

    @property
    def link_bandwidth(self) -> float:
        return LINKS[self.link]

    def ridge_point(self, dtype: str = "bf16") -> float | None:
        """FLOPs per byte at which a kernel stops being memory-bound: peak FLOP/s / memory bandwidth."""
        peak = self.peak_flops.get(dtype)
        return peak / self.memory_bandwidth if peak else None


def _ampere(fp32: float) -> dict:
    """A100's dense peaks (the same on every A100 card): fp32, TF32, bf16/fp16, int8."""
    return {"fp32": fp32 * T, "tf32": 156 * T, "bf16": 312 * T, "fp16": 312 * T, "int8": 624 * T}


def _hopper(fp32: float, bf16: float) -> dict:
    """Hopper's dense peaks from its fp32 and bf16 figures: TF32 is half of bf16, fp8 and int8 twice it."""
    return {"fp32": fp32 * T, "tf32": bf16 / 2 * T, "bf16": bf16 * T, "fp16": bf16 * T, "fp8": 2 * bf16 * T,
            "int8": 2 * bf16 * T}


KNOWN_GPUS = {s.name: s for s in [
    GpuSpec("T4", 16 * G, 320 * G, {"fp32": 8.1 * T, "fp16": 65 * T, "int8": 130 * T},
            "PCIe 3.0 x16", ("T4",), T4_SHEET),
    GpuSpec("P100 PCIe 16GB", 16 * G, 732 * G, {"fp32": 9.3 * T, "fp16": 18.7 * T}, "PCIe 3.0 x16",
            ("P100 PCIE 16GB",), P100_SHEET),
    GpuSpec("V100 SXM2 32GB", 32 * G, 900 * G, {"fp32": 15.7 * T, "fp16": 125 * T},
            "NVLink 2 (V100, 6 links)", ("V100 SXM2 32GB",), V100_SHEET),
    GpuSpec("L4", 24 * G, 300 * G, {"fp32": 30.3 * T, "tf32": 60 * T, "bf16": 121 * T, "fp16": 121 * T,
                                    "fp8": 242 * T, "int8": 242 * T}, "PCIe 4.0 x16", ("L4",), L4_SHEET),
    GpuSpec("A10", 24 * G, 600 * G, {"fp32": 31.2 * T, "tf32": 62.5 * T, "bf16": 125 * T, "fp16": 125 * T,
                                     "int8": 250 * T}, "PCIe 4.0 x16", ("A10",), A10_SHEET),
    # A100 PCIe cards talk over PCIe 4.0 in the usual server (an NVLink bridge pairs two, as NVLink 3 x12);
    # A100 SXM cards over NVLink 3 (12 links) through the HGX board's NVSwitches.
    GpuSpec("A100 PCIe 40GB", 40 * G, 1555 * G, _ampere(19.5), "PCIe 4.0 x16", ("A100 PCIE 40GB",), A100_SHEET),
    GpuSpec("A100 PCIe 80GB", 80 * G, 1935 * G, _ampere(19.5), "PCIe 4.0 x16", ("A100 80GB PCIE",), A100_SHEET),
    GpuSpec("A100 SXM 40GB", 40 * G, 1555 * G, _ampere(19.5), "NVLink 3 (A100, 12 links)", ("A100 SXM4 40GB",),
            A100_SHEET),
    GpuSpec("A100 SXM 80GB", 80 * G, 2039 * G, _ampere(19.5), "NVLink 3 (A100, 12 links)", ("A100 SXM4 80GB",),
            A100_SHEET),
    GpuSpec("H100 PCIe", 80 * G, 2000 * G, _hopper(51, 756), "PCIe 5.0 x16", ("H100 PCIE",), H100_SHEET),
    GpuSpec("H100 NVL", 94 * G, 3900 * G, _hopper(60, 835.5), "NVLink 4 bridge (H100 NVL pair, 12 links)",
            ("H100 NVL",), H100_SHEET),
    GpuSpec("H100 SXM 80GB", 80 * G, 3350 * G, _hopper(67, 989), "NVLink 4 (H100/H200, 18 links)",
            ("H100 80GB HBM3",), H100_SHEET),
    GpuSpec("H200 SXM 141GB", 141 * G, 4800 * G, _hopper(67, 989), "NVLink 4 (H100/H200, 18 links)", ("H200",),
            H200_SHEET),
]}


def normal_name(nvml_name: str) -> str:
    """A driver's name in one spelling: upper case, words split at spaces and dashes, without the vendor's
    prefix. "NVIDIA A100-SXM4-40GB" and "A100-SXM4-40GB" (older drivers) -> "A100 SXM4 40GB"; "Tesla T4" -> "T4"."""
    words = nvml_name.upper().replace("-", " ").split()
    while words and words[0] in ("NVIDIA", "TESLA"):
        words = words[1:]
    return " ".join(words)


def spec_for(nvml_name: str | None) -> GpuSpec | None:
    """The datasheet entry for a GPU as NVML names it ("Tesla T4", "NVIDIA H100 80GB HBM3", ...), or None
    for a GPU the table does not hold (a lesson then shows only what it measured).

    The whole name must match: "NVIDIA H100 PCIe" is not "NVIDIA H100 80GB HBM3" (SXM), "NVIDIA L40S" is not
    "NVIDIA L4", and "NVIDIA A100-PCIE-40GB" does not get the SXM card's NVLink."""
    if not nvml_name:
        return None
    name = normal_name(nvml_name)
    return next((spec for spec in KNOWN_GPUS.values() if name in spec.nvml_names), None)
