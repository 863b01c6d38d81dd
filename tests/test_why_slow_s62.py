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
