"""Twentieth reading, lesson 06 (t20_0506): the threads verdict's share of the gain carries its range across
the ± even where a note follows it ("(every round above 1.00x)"), the weak case the range is for."""
from utils import claims
from utils.lessons.memory import summary


def test_the_range_goes_after_of_its_gain_before_the_rounds_note():
    """Cell 43's figures: 1.11x ± 0.13 against 2.00x, rounds 1.07-1.33x: 11% of its gain (0%-24%)."""
    said = summary._rounds_verdict([(1, 1.07), (2, 1.11), (3, 1.33)], 1.11, 0.13, 2)
    assert said == "faster, under the bound: 11% of its gain (0%-24% across its ±) (every round above 1.00x)"


def test_a_verdict_ending_in_of_its_gain_still_gets_its_range_at_the_end():
    said = summary.gain_range("faster, under the bound: 80% of its gain", 1.12, 0.04, 1.15)
    assert said == "faster, under the bound: 80% of its gain" + claims.gain_share_range(1.12, 0.04, 1.15)


def test_other_verdicts_come_back_unchanged():
    assert summary.gain_range("within noise: no effect shown", 1.02, 0.04, 1.15) == "within noise: no effect shown"
    said = summary._rounds_verdict([(1, 0.97), (2, 1.11), (3, 1.33)], 1.11, 0.13, 2)
    assert "across its ±" not in said


def test_a_round_across_1x_is_still_named_after_the_range():
    """The other outcome: a round below 1x past the ± is named after the verdict and its range."""
    said = summary._rounds_verdict([(1, 0.79), (2, 1.29), (3, 1.55)], 1.29, 0.26, 2)
    assert said.startswith("by the median, faster, under the bound: 29% of its gain (3%-55% across its ±), but "
                           "round 1's 0.79x was slower than one thread")
