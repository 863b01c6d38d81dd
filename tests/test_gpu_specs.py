"""The datasheet table (utils.gpu_specs): names as NVML reports them find the right entry, by the whole name."""

import pytest

from machines import MACHINES
from utils.gpu_specs import KNOWN_GPUS, LINKS, normal_name, spec_for


@pytest.mark.parametrize("nvml_name, expected", [
    ("Tesla T4", "T4"), ("NVIDIA L4", "L4"), ("NVIDIA L40S", None), ("NVIDIA A10", "A10"),
    ("NVIDIA A10G", None),  # AWS's variant: no NVIDIA datasheet, so no datasheet row (not the A10's)
    ("Tesla P100-PCIE-16GB", "P100 PCIe 16GB"), ("Tesla V100-SXM2-32GB", "V100 SXM2 32GB"),
    ("Tesla V100-PCIE-32GB", None),  # not the SXM2 card's figures
    ("NVIDIA A100-SXM4-40GB", "A100 SXM 40GB"), ("A100-SXM4-40GB", "A100 SXM 40GB"),  # older drivers: no prefix
    ("NVIDIA A100-SXM4-80GB", "A100 SXM 80GB"), ("NVIDIA A100-PCIE-40GB", "A100 PCIe 40GB"),
    ("NVIDIA A100 80GB PCIe", "A100 PCIe 80GB"), ("NVIDIA H100 80GB HBM3", "H100 SXM 80GB"),
    ("NVIDIA H100 PCIe", "H100 PCIe"), ("NVIDIA H100 NVL", "H100 NVL"), ("NVIDIA H200", "H200 SXM 141GB"),
    ("NVIDIA H200 NVL", None), ("NVIDIA GH200 480GB", None), (None, None), ("", None),
])
def test_nvml_names_find_their_datasheet_by_the_whole_name(nvml_name, expected):
    spec = spec_for(nvml_name)
    assert (spec.name if spec else None) == expected


def test_names_are_compared_in_one_spelling():
    assert normal_name("NVIDIA A100-SXM4-40GB") == normal_name("a100-sxm4-40gb") == "A100 SXM4 40GB"
    assert normal_name("Tesla T4") == "T4" and normal_name("NVIDIA H100 PCIe") == "H100 PCIE"


@pytest.mark.parametrize("name, memory_bw, bf16, fp32, link", [
    ("H100 PCIe", 2.0e12, 756e12, 51e12, "PCIe 5.0 x16"),
    ("H100 NVL", 3.9e12, 835.5e12, 60e12, "NVLink 4 bridge (H100 NVL pair, 12 links)"),
    ("H100 SXM 80GB", 3.35e12, 989e12, 67e12, "NVLink 4 (H100/H200, 18 links)"),
    ("A100 PCIe 40GB", 1.555e12, 312e12, 19.5e12, "PCIe 4.0 x16"),
    ("A100 PCIe 80GB", 1.935e12, 312e12, 19.5e12, "PCIe 4.0 x16"),
    ("A100 SXM 80GB", 2.039e12, 312e12, 19.5e12, "NVLink 3 (A100, 12 links)"),
])
def test_each_card_of_one_chip_has_its_own_datasheet_row(name, memory_bw, bf16, fp32, link):
    spec = KNOWN_GPUS[name]
    assert spec.memory_bandwidth == pytest.approx(memory_bw, rel=0.005)
    assert spec.peak_flops["bf16"] == pytest.approx(bf16) and spec.peak_flops["fp32"] == pytest.approx(fp32)
    assert spec.link == link and "datasheet" in spec.source


def test_every_entry_is_complete_names_its_source_and_its_link_is_known():
    for spec in KNOWN_GPUS.values():
        assert spec.memory_bytes > 1e9 and spec.memory_bandwidth > 1e11 and spec.peak_flops["fp32"] > 1e12
        assert spec.link in LINKS and spec.source.startswith("NVIDIA") and spec.nvml_names
        assert all(n == normal_name(n) for n in spec.nvml_names)
    names = [n for spec in KNOWN_GPUS.values() for n in spec.nvml_names]
    assert len(names) == len(set(names))  # one name, one card
    assert KNOWN_GPUS["H100 SXM 80GB"].ridge_point("bf16") == pytest.approx(989 / 3.35, rel=0.01)
    assert LINKS["PCIe 4.0 x16"] == pytest.approx(31.5e9, rel=0.01)


def test_every_fake_gpu_of_the_mode_matrix_has_its_own_datasheet_row():
    """The fake machines' cards, as their driver names them, each find the entry of that very card."""
    expected = {"Tesla T4": "T4", "NVIDIA A100-PCIE-40GB": "A100 PCIe 40GB", "NVIDIA H100 PCIe": "H100 PCIe",
                "NVIDIA H200": "H200 SXM 141GB", "NVIDIA H100 NVL": "H100 NVL",
                "NVIDIA A100-SXM4-80GB": "A100 SXM 80GB", "NVIDIA H100 80GB HBM3": "H100 SXM 80GB"}
    seen = {gpu["name"] for _, gpus, _ in MACHINES.values() for gpu in gpus}
    assert seen == set(expected)
    for nvml_name, entry in expected.items():
        assert spec_for(nvml_name).name == entry
