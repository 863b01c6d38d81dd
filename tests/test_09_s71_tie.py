"""Lesson 09, the thirty-second reading (t32_09, other problems): a make bench figure whose ± is 0.00 says why (the
middle rounds tie), beside its whole range. Fabricated figures."""

from utils.lessons.articles_checked import bench_lessons


def test_a_zero_spread_says_the_middle_rounds_tie():
    said = bench_lessons.figure_text(1.29, 0.0, [1.289, 1.289, 1.254, 1.394])
    # a ± under the 2% floor is read at it when two runs are compared, and the text says so (t40_09)
    assert said == ("1.29x ± 0.00 (4 rounds, 1.25x to 1.39x; the middle rounds tie; its ± read at the 2% floor, "
                    "± 0.03)")


def test_a_spread_above_zero_or_rounds_all_equal_say_nothing_more():
    assert bench_lessons.figure_text(1.29, 0.03, [1.25, 1.28, 1.30, 1.39]) == "1.29x ± 0.03 (4 rounds, 1.25x to 1.39x)"
    assert bench_lessons.figure_text(1.29, 0.0, [1.29, 1.29]) == ("1.29x ± 0.00 (2 rounds, 1.29x to 1.29x; its ± "
                                                                 "read at the 2% floor, ± 0.03)")
