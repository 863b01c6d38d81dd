"""Lesson 06, nineteenth reading (t19_0506 #1 and other problem 1): cell 43's threads verdict said "faster"
beside a round where 2 threads were slower than one (0.79x, below 1.29x - 0.26 = 1.03x). A round on the other
side of 1x past the ± is now named beside the median's verdict (``threads_rounds``, with claims' rules), and
the share of the bound's gain carries the range its ± allows (``claims.gain_share_range``)."""

from utils.lessons.memory import summary
from utils.lessons.memory.threads_rounds import across_verdict, rounds_across


def test_the_readers_rounds_name_the_slower_round_and_do_not_say_faster_for_every_round():
    said = summary.threads_reading([1.29, 1.30, 0.79], 2, 0.4)
    assert "2 threads ran at 1.29x ± 0.26 one thread's rate" in said and "0.79-1.30x" in said
    assert ("by the median, faster, under the bound: 29% of its gain (3%-55% across its ±), but round 3's "
            "0.79x was slower than one thread, past the ± (1.29 - 0.26 = 1.03x): not faster in every round, "
            "a finding to explain") in said
    # the rounds disagree: the load is said, not "more threads divide the step"
    assert said.endswith("; the load average was 0.4 on 2 cores (this notebook's own threads counted in it): "
                         "the cause is not timed apart here")
    assert ": faster, under the bound" not in said


def test_a_slower_median_names_a_faster_round_past_its_spread():
    said = summary.threads_reading([0.5, 0.5, 1.2], 2, 0.4)
    assert ("by the median, slower than one thread beyond noise: no speed-up, but round 3's 1.20x was faster than one "
            "thread, past the ± (0.50 + 0.35 = 0.85x): not slower in every round") in said


def test_rounds_within_the_spread_or_on_one_side_are_not_named():
    agree = summary.threads_reading([1.5, 1.6, 1.7], 2, 0.4)
    assert agree.endswith("faster, under the bound: 60% of its gain (50%-70% across its ±); more threads "
                          "divide the step") and "by the median" not in agree
    noise = summary.threads_reading([0.9, 1.0, 1.2], 2, 0.4)   # the ± reaches 1x: within noise already
    assert "within noise: no effect shown" in noise and "by the median" not in noise
    slower = summary.threads_reading([0.7, 0.8, 0.85], 2, 0.4)
    assert "slower than one thread beyond noise: no speed-up;" in slower and "by the median" not in slower


def test_a_round_below_1x_but_within_the_spread_is_noise_and_a_round_at_1x_as_printed_is_not_below():
    # 1.10x ± 0.10 reaches 1.00x: within noise, whatever the 0.95x round
    assert rounds_across([(1, 0.95), (2, 1.10), (3, 1.15)], 1.10, 0.10) == []
    # 1.40x ± 0.20 stops at 1.20x: a round printed 1.00x is not below 1x, one printed 0.99x is
    assert rounds_across([(1, 1.004), (2, 1.40), (3, 1.45)], 1.40, 0.20) == []
    assert rounds_across([(1, 0.994), (2, 1.40), (3, 1.45)], 1.40, 0.20) == [(1, 0.994)]
    assert across_verdict("faster", [(1, 1.3), (2, 1.4)], 1.35, 0.05) == "faster"


def test_the_rounds_left_beside_a_round_past_the_bound_are_read_the_same_way():
    said = summary.threads_reading([0.5, 1.45, 1.5, 1.55, 2.5, 0.9], 2, 0.4)
    assert "round 5's 2.50x passes the 2x" in said
    assert ("but round 1's 0.50x and round 6's 0.90x were slower than one thread, past the ± (1.45 - 0.30 = "
            "1.15x)") in said and "load average was 0.4 on 2 cores" in said
