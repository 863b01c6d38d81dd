"""The datasheet table (utils.gpu_specs): names as NVML reports them find the right entry."""

import pytest

from utils.gpu_specs import KNOWN_GPUS, LINKS, spec_for


@pytest.mark.parametrize("nvml_name, expected", [
    ("Tesla T4", "T4"), ("NVIDIA L4", "L4"), ("NVIDIA L40S", None), ("NVIDIA A100-SXM4-40GB", "A100 SXM 40GB"),
    ("NVIDIA A100-SXM4-80GB", "A100 SXM 80GB"), ("NVIDIA H100 80GB HBM3", "H100 SXM 80GB"),
    ("NVIDIA H200", "H200 SXM 141GB"), ("NVIDIA A10G", "A10"), (None, None),
])
def test_nvml_names_find_their_datasheet(nvml_name, expected):
    spec = spec_for(nvml_name)
    assert (spec.name if spec else None) == expected


def test_every_entry_is_complete_and_its_link_is_known():
    for spec in KNOWN_GPUS.values():
        assert spec.memory_bytes > 1e9 and spec.memory_bandwidth > 1e11 and spec.peak_flops["fp32"] > 1e12
        assert spec.link in LINKS
    assert KNOWN_GPUS["H100 SXM 80GB"].ridge_point("bf16") == pytest.approx(989 / 3.35, rel=0.01)
    assert LINKS["PCIe 4.0 x16"] == pytest.approx(31.5e9, rel=0.01)
