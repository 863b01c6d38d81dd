"""Lesson 01 after the twenty-fourth reading (t24_0001): the op-by-op chain beside the memory roof."""

from utils.lessons.why_slow import algorithms_report, report
from utils.lessons.why_slow.algorithms import Comparison


def _gelu(slow_ms: float) -> Comparison:
    return Comparison("GELU", "gelu_op_by_op", "gelu_fused", slow_ms * 1e-3, 3.34e-3, 2e-7, ceiling=11.0)


def test_the_op_by_op_chains_rate_is_set_beside_the_roof_and_above_it_is_a_reference_passed():
    """t24_0001 #3: 22 x 8 MiB in 8.86 ms is 20.8 GB/s, 111% of an 18.7 GB/s roof: bytes over bandwidth
    (9.87 ms) is no floor there."""
    above = report.fused_bandwidth_sentence(_gelu(8.86), 16 * 2**20, 18.7e9)
    assert "The op-by-op chain moved 22 x 8 MiB = 176 MiB in 8.86 ms: 20.8 GB/s, 111% of that roof: above it" in above
    assert "a reference for its time, not a floor" in above
    assert above.index("gelu_fused moved") < above.index("op-by-op chain") < above.index("Were every byte")
    under = report.fused_bandwidth_sentence(_gelu(12.0), 16 * 2**20, 18.7e9)  # 176 MiB / 12.0 ms = 15.4 GB/s
    assert "176 MiB in 12.0 ms: 15.4 GB/s, 82% of that roof. Were" in under and "not a floor" not in under
    # exactly at the roof as printed (100%) is not above it
    at = algorithms_report.chain_rate_sentence(_gelu(9.87), 8 * 2**20, 18.7e9, 22)
    assert at.endswith("100% of that roof.")


def test_this_machines_row_prints_its_rates_as_the_profile_so_its_ridge_is_the_sentences():
    """t24_0001 #4: 1278.6 GFLOP/s over 43.5 GB/s is 29.4 (the sentence's 29); printed 1.28 and 43, the table
    worked 29.8 (30). The measured row now keeps the profile's decimals; a datasheet row keeps its own."""
    from utils import claims
    from utils.lessons.why_slow import hardware

    mine = ("this CPU", 348.2e9, "bf16", 1278.6e9, 43.5e9)
    row = {r[0]: r for r in hardware.table_rows(mine)}["this CPU"]
    assert row[1:5] == ("0.3482", "1.2786 (bf16)", "43.5", "29")
    assert row[4] == f"{claims.printed_ratio(1278.6e9, 43.5e9, 1, 1e9):.0f}"  # the sentence's own working
    assert {r[0]: r for r in hardware.table_rows(mine)}["T4"][1:5] == ("8.10", "65.00 (fp16)", "320", "203")


def test_a_ratio_several_gpus_share_names_every_one_of_them():
    """t24_0001 other: "16x (A100 SXM 80GB)" read as the only one; four A100s print 16x."""
    ratios = sorted([(2.01, "P100"), (16.0, "A100 PCIe"), (16.0, "A100 SXM"), (14.8, "H100 PCIe"), (8.0, "T4")])
    assert report._named_at(ratios, ratios[-1][0]) == "16x (A100 PCIe, A100 SXM)"
    assert report._named_at(ratios, ratios[0][0]) == "2x (P100)"
