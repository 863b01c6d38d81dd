"""Datasheet figures of the GPUs the course names: memory, memory bandwidth, dense peak FLOP/s per dtype and
the link between two of them. Introduced in ``notebooks/01_why_slow.ipynb`` (peaks, ridge points), used by
lesson 06's memory calculator (does it fit?) and lesson 07's crossover (which link).

These are *vendor peaks* (NVIDIA datasheets, boost clock, dense: without the 2:4-sparsity doubling), not
measurements: a lesson shows them beside what it measured, labelled as datasheet figures. Memory is the
datasheet's decimal GB; the driver reports slightly less as usable (ECC, reserved memory).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from utils.devices import PCIE_LANE_GBPS

T, G = 1e12, 1e9

# Link peaks, bytes per second per direction: PCIe x16 from the per-lane table (after encoding);
# NVLink as NVIDIA quotes it per GPU (total bidirectional / 2): A100 600 GB/s, H100/H200 900 GB/s.
LINKS = {
    "PCIe 3.0 x16": PCIE_LANE_GBPS[3] * 16 * G,
    "PCIe 4.0 x16": PCIE_LANE_GBPS[4] * 16 * G,
    "PCIe 5.0 x16": PCIE_LANE_GBPS[5] * 16 * G,
    "NVLink 2 (V100, 6 links)": 150 * G,
    "NVLink 3 (A100, 12 links)": 300 * G,
    "NVLink 4 (H100/H200, 18 links)": 450 * G,
}


@dataclass(frozen=True)
class GpuSpec:
    name: str
    memory_bytes: float  # datasheet capacity
    memory_bandwidth: float  # bytes/s, HBM or GDDR peak
    peak_flops: dict = field(default_factory=dict)  # dtype name -> dense FLOP/s (int8: ops/s)
    link: str = "PCIe 4.0 x16"  # a key of LINKS: how two of these talk in the usual server
    nvml_names: tuple[str, ...] = ()  # substrings of the name NVML reports, most specific first

    @property
    def link_bandwidth(self) -> float:
        return LINKS[self.link]

    def ridge_point(self, dtype: str = "bf16") -> float | None:
        """FLOPs per byte at which a kernel stops being memory-bound: peak FLOP/s / memory bandwidth."""
        peak = self.peak_flops.get(dtype)
        return peak / self.memory_bandwidth if peak else None


KNOWN_GPUS = {s.name: s for s in [
    GpuSpec("T4", 16 * G, 320 * G, {"fp32": 8.1 * T, "fp16": 65 * T, "int8": 130 * T},
            "PCIe 3.0 x16", ("T4",)),
    GpuSpec("P100 PCIe 16GB", 16 * G, 732 * G, {"fp32": 9.3 * T, "fp16": 18.7 * T}, "PCIe 3.0 x16", ("P100",)),
    GpuSpec("V100 SXM2 32GB", 32 * G, 900 * G, {"fp32": 15.7 * T, "fp16": 125 * T},
            "NVLink 2 (V100, 6 links)", ("V100",)),
    GpuSpec("L4", 24 * G, 300 * G, {"fp32": 30.3 * T, "tf32": 60 * T, "bf16": 121 * T, "fp16": 121 * T,
                                    "fp8": 242 * T, "int8": 242 * T}, "PCIe 4.0 x16", ("L4",)),
    GpuSpec("A10", 24 * G, 600 * G, {"fp32": 31.2 * T, "tf32": 62.5 * T, "bf16": 125 * T, "fp16": 125 * T,
                                     "int8": 250 * T}, "PCIe 4.0 x16", ("A10G", "A10")),
    GpuSpec("A100 SXM 40GB", 40 * G, 1555 * G, {"fp32": 19.5 * T, "tf32": 156 * T, "bf16": 312 * T,
                                                "fp16": 312 * T, "int8": 624 * T},
            "NVLink 3 (A100, 12 links)", ("A100-SXM4-40GB", "A100-PCIE-40GB", "A100 40GB")),
    GpuSpec("A100 SXM 80GB", 80 * G, 2039 * G, {"fp32": 19.5 * T, "tf32": 156 * T, "bf16": 312 * T,
                                                "fp16": 312 * T, "int8": 624 * T},
            "NVLink 3 (A100, 12 links)", ("A100-SXM4-80GB", "A100 80GB", "A100")),
    GpuSpec("H100 SXM 80GB", 80 * G, 3350 * G, {"fp32": 67 * T, "tf32": 495 * T, "bf16": 989 * T,
                                                "fp16": 989 * T, "fp8": 1979 * T, "int8": 1979 * T},
            "NVLink 4 (H100/H200, 18 links)", ("H100 80GB HBM3", "H100 SXM", "H100")),
    GpuSpec("H200 SXM 141GB", 141 * G, 4800 * G, {"fp32": 67 * T, "tf32": 495 * T, "bf16": 989 * T,
                                                  "fp16": 989 * T, "fp8": 1979 * T, "int8": 1979 * T},
            "NVLink 4 (H100/H200, 18 links)", ("H200",)),
]}


def spec_for(nvml_name: str | None) -> GpuSpec | None:
    """The datasheet entry for a GPU as NVML names it ("Tesla T4", "NVIDIA H100 80GB HBM3", ...), or None
    for a GPU the table does not know (a lesson then shows only what it measured)."""
    if not nvml_name:
        return None
    name = nvml_name.upper()
    # Whole words only ("L4" is not "L40S"); the longest match wins, so "A100-SXM4-40GB" beats "A100".
    candidates = [(len(sub), spec) for spec in KNOWN_GPUS.values() for sub in spec.nvml_names
                  if re.search(rf"\b{re.escape(sub.upper())}\b", name)]
    return max(candidates, key=lambda c: c[0])[1] if candidates else None
