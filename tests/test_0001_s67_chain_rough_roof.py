"""Twenty-ninth reading (t29_0001 #1, #2), lesson 01 section 5: the op-by-op GELU chain's share of a rough memory
roof is read to the roof's own spread (section 2's rule), and a speed-up's ± is named by what it is (half the
middle half's range), not "spread", which the lesson keeps for (slowest - fastest) / median. Fabricated figures."""

from types import SimpleNamespace as NS

from utils.lessons.why_slow import algorithms_report, report
from utils.lessons.why_slow.algorithms import Comparison

MIB = 2**20
STEADY = (2.45, 2.5, 2.53, 2.6, 2.7)  # ± 0.05 on 2.53x: 2%


def _gelu(slow_ms: float, ratios=STEADY) -> Comparison:
    return Comparison("GELU", "gelu_op_by_op", "gelu_fused", slow_ms * 1e-3, 3.67e-3, 2e-7, ceiling=11.0,
                      round_ratios=tuple(ratios))


def test_a_rough_roofs_spread_is_the_yardstick_where_it_is_the_larger():
    # 176 MiB in 7.85 ms is 23.5 GB/s, 126% of 18.7 GB/s: within a roof good only to its 54%
    said = algorithms_report.chain_rate_sentence(_gelu(7.85), 8 * MIB, 18.7e9, 22, roof_spread=0.54)
    assert "23.5 GB/s, 126% of that roof: above it by no more than the roof's own 54% spread" in said
    assert "so at the roof within its noise, no excess shown" in said and "faster than" not in said


def test_past_a_rough_roofs_spread_is_still_a_finding():
    # 176 MiB in 5.0 ms is 36.9 GB/s, 197% of 18.7 GB/s: past the roof's 54% too
    said = algorithms_report.chain_rate_sentence(_gelu(5.0), 8 * MIB, 18.7e9, 22, roof_spread=0.54)
    assert "197% of that roof: above it by more than the roof's own 54% spread" in said
    assert "part of its bytes came faster than the measured bandwidth" in said


def test_a_roof_spread_within_rough_is_not_the_yardstick():
    # 40% is within lesson 00's 50%: the pair's own 2% decides, as before
    said = algorithms_report.chain_rate_sentence(_gelu(7.85), 8 * MIB, 18.7e9, 22, roof_spread=0.40)
    assert "126% of that roof: above it by more than its pair's noise, 2% (half its middle half" in said


def test_the_larger_of_the_pairs_and_the_roofs_noise_decides():
    noisy = (1.2, 1.5, 2.53, 3.74, 4.0)  # ± 1.12 on 2.53x: 44%, under the roof's 60%
    assert algorithms_report.chain_yardstick(_gelu(7.85, noisy), 0.60)[0] == 0.60
    wide = (1.0, 1.2, 2.53, 4.5, 5.0)  # ± (4.5 - 1.2) / 2 = 1.65 on 2.53x: 65%, over the roof's 54%
    noise, named = algorithms_report.chain_yardstick(_gelu(7.85, wide), 0.54)
    assert noise == 0.65 and named.startswith("its pair's noise, 65% (half its middle half, 1.20x-4.50x, over its median")
    assert algorithms_report.chain_yardstick(_gelu(7.85, ()), 0.3) == (0.0, "")


def test_the_fused_sentence_passes_the_roofs_spread_on():
    said = algorithms_report.fused_bandwidth_sentence(_gelu(7.85), 16 * MIB, 18.7e9, roof_spread=0.54)
    assert "the roof's own 54% spread" in said


def test_a_speed_ups_plus_minus_is_never_called_a_spread():
    c = _gelu(7.85)
    assert "spread" not in algorithms_report.COMPARISON_COLUMNS[2]
    assert "rounds' median (range)" in algorithms_report.COMPARISON_COLUMNS[2]  # one range (t33_0001 #1)
    assert "± their spread" not in algorithms_report.algorithms_sentence([c])
    assert "median ± spread" not in algorithms_report.rounds_sentence([c])
    note = report.plus_minus_note(_run(2), NS(matmul_shares=[0.5] * 5))
    assert "spread" not in note and "± is half the middle half's range of the 5 profiled steps" in note


def _run(rounds: int):
    """A step's MFU rounds, enough for the note (its MFU range is worked from the step and the peak)."""
    from utils.lessons.why_slow.utilisation import StepUtilisation

    return StepUtilisation(5.309e9, [0.0663] * rounds, [180e9] * rounds, "fp32", 1, "fp32 matmul peak", 180e9)
