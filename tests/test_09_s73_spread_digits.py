"""Lesson 09, t34_09 #5: a spread is worked from the rounds as the page prints them (``round_text``: 0.999, not
1.00, near 1x), so A21's ± can be redone from its printed rounds. Fabricated rounds."""

from utils.lessons.articles_checked import figures

T34 = [0.6104, 0.9991, 1.1301, 0.9702, 0.6012, 0.8801]   # printed 0.61, 0.999, 1.13, 0.97, 0.60, 0.88


def test_the_spread_is_worked_from_the_rounds_as_printed():
    assert figures.paired(T34)[1] == 0.19                   # (0.999 - 0.61) / 2 = 0.1945, not (1.00 - 0.61) / 2
    assert figures.paired([1.20, 1.30, 1.40, 1.50])[1] == 0.05   # rounds away from 1x and 2x: two decimals
