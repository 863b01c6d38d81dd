"""Thirty-first reading (t31_0001 #2), lesson 01 section 5: where a pair's fastest times' ratio lies outside its
median by more than the noise edge (t34_0001 #1), the rounds did not slow both versions alike; the details say so, how much slower the slow version ran
at least, and the speed-up as the range between the two (with its gain shares). Fabricated figures."""

from utils.lessons.why_slow import algorithms_report, report
from utils.lessons.why_slow.algorithms import Comparison


def pair(slow_ms, fast_ms, rounds, ceiling=None, fast="gelu_fused"):
    return Comparison("GELU", "gelu_op_by_op", fast, slow_ms * 1e-3, fast_ms * 1e-3, 2e-7, "20 of 22",
                      round_ratios=rounds, ceiling=ceiling)


# median 5.72x ± (6.68 - 4.36) / 2... middle half: 4.36..5.97 -> ± 0.81; fastest 8.66 / 3.42 = 2.53x, below 4.91x
SLOWED = pair(8.66, 3.42, (4.36, 5.72, 5.97, 6.68, 2.38), ceiling=11.0)


def test_a_fastest_ratio_below_the_plus_minus_is_said_with_the_slowed_rounds():
    # 4.36 x 3.42 / 8.66 = 1.72; 5.72 -> 2.26; 5.97 -> 2.36; 6.68 -> 2.64; 2.38 -> 0.94 (not slowed)
    assert algorithms_report.slowed_rounds(SLOWED) == [1.72, 2.26, 2.36, 2.64]
    said = algorithms_report.rounds_disagree(SLOWED)
    assert said.startswith("GELU, gelu_fused: the rounds disagree: its fastest times' ratio, 2.53x, lies below its "
                           "rounds' median (5.72x) by more than 10%; in 4 of 5 rounds gelu_op_by_op ran at least 1.72x to "
                           "2.64x its fastest time")
    # (2.53 - 1) / 10 = 15.3% -> 15%; (5.72 - 1) / 10 = 47.2% -> 47%
    assert said.endswith("the speed-up is known only as 2.53x to 5.72x (15% to 47% of its gain)")


def test_a_fastest_ratio_above_the_plus_minus_names_no_slowed_version():
    fast_slowed = pair(10.0, 1.0, (4.0, 4.1, 4.2, 4.3, 4.4))  # 10.00x above the median 4.20x
    said = algorithms_report.rounds_disagree(fast_slowed)
    assert "lies above its rounds' median (4.20x) by more than 10%, so the rounds did not slow both versions alike" in said
    assert said.endswith("known only as 4.20x to 10.00x")  # no ceiling: no gain shares


def test_a_fastest_ratio_within_the_plus_minus_says_nothing():
    steady = pair(8.66, 3.42, (2.40, 2.50, 2.53, 2.60, 2.70))
    assert algorithms_report.rounds_disagree(steady) == ""
    assert algorithms_report.disagreement_sentence([steady]) == ""
    assert "the rounds disagree:" not in report.rounds_sentence([steady])  # its header names the rule only
    assert "its rounds disagree" not in report.algorithms_sentence([steady])
    assert algorithms_report.rounds_disagree(pair(8.66, 3.42, ())) == ""  # no rounds kept: nothing to weigh


def test_the_details_and_the_block_carry_it():
    assert report.rounds_sentence([SLOWED]).endswith("(15% to 47% of its gain).")
    # the block prints the same range as the details (t33_0001 #1), not a middle half they overturn
    assert ("5.72x (known only as 2.53x to 5.72x: its rounds disagree, and the median rests on slowed rounds)"
            in report.algorithms_sentence([SLOWED]))
