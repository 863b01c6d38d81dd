"""Twenty-sixth reading (t26_0001 #2), lesson 01 section 5: the op-by-op GELU chain against the memory roof is
graded as section 2 grades an op (above by no more than its noise: no excess shown), every branch."""

from utils.lessons.why_slow import algorithms_report
from utils.lessons.why_slow.algorithms import Comparison

MIB = 2**20


def _gelu(slow_ms: float, ratios=()) -> Comparison:
    return Comparison("GELU", "gelu_op_by_op", "gelu_fused", slow_ms * 1e-3, 3.67e-3, 2e-7, ceiling=11.0,
                      round_ratios=tuple(ratios))


NOISY = (1.2, 1.5, 2.53, 3.74, 4.0)  # ± (3.74 - 1.5) / 2 = 1.12 on 2.53x: 44%


def test_the_chains_noise_is_its_pairs_spread_over_its_speed_up_as_printed():
    c = _gelu(9.28, NOISY)
    assert f"{c.speedup:.2f}" == "2.53"
    assert algorithms_report.chain_noise(c) == 0.44  # 1.12 / 2.53 = 0.443
    assert algorithms_report.chain_noise(_gelu(9.28)) == 0.0  # no rounds, no spread


def test_above_the_roof_within_the_chains_noise_is_no_excess():
    """The reader's run: 176 MiB in 9.28 ms is 19.9 GB/s, 106% of 18.7 GB/s, beside 2.53x ± 1.12."""
    c = _gelu(9.28, NOISY)
    said = algorithms_report.chain_rate_sentence(c, 8 * MIB, 18.7e9, 22)
    assert said.startswith("The op-by-op chain moved 22 x 8 MiB = 176 MiB in 9.28 ms: 19.9 GB/s, 106% of that roof")
    assert ": above it by no more than its pair's noise, 44% (half its middle half, 1.50x-3.74x, over its median 2.53x)" in said
    assert "no excess shown: bytes over bandwidth is a reference for its time." in said
    assert "cache" not in said and "faster than the measured bandwidth" not in said


def test_above_the_roof_by_more_than_its_noise_is_a_finding():
    steady = (2.45, 2.5, 2.53, 2.6, 2.7)  # ± 0.05 on 2.53x: 2%
    said = algorithms_report.chain_rate_sentence(_gelu(9.28, steady), 8 * MIB, 18.7e9, 22)
    assert "106% of that roof: above it by more than its pair's noise, 2% (half its middle half" in said
    assert "part of its bytes came faster than the measured bandwidth" in said and "not a floor" in said
    # no rounds' spread at all: above it, with no "by more than" to print
    bare = algorithms_report.chain_rate_sentence(_gelu(9.28), 8 * MIB, 18.7e9, 22)
    assert "106% of that roof: above it, so part of its bytes" in bare


def test_at_or_under_the_roof_says_only_its_share():
    assert algorithms_report.chain_rate_sentence(_gelu(9.87, NOISY), 8 * MIB, 18.7e9, 22).endswith(
        "100% of that roof.")
    assert algorithms_report.chain_rate_sentence(_gelu(12.0, NOISY), 8 * MIB, 18.7e9, 22).endswith(
        "82% of that roof.")
