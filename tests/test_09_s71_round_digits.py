"""Lesson 09, the thirty-second reading (t32_09 #3): a round counted above a 1x or 2x bound is printed with the
digits that show it (1.0049x, never 1.00x; nor 1.005x, which a reader rounds to 1.01x: lesson 02's
`round_digits`), in the rounds' list and in a range's ends. Fabricated figures."""

from utils.lessons.articles_checked import timed_rows, timed_words


def test_a_range_end_just_above_1x_shows_its_side():
    said = timed_words.rounds_words([0.91, 0.86, 0.91, 0.89, 1.0049, 0.90])
    assert said.endswith("(median of 6 paired rounds, range 0.86-1.0049x)"), said
    assert timed_words.rounds_words([0.71, 1.03, 1.42]).endswith("range 0.71-1.42x)")  # away from 1x: two decimals


def test_the_passes_list_prints_each_round_with_the_digits_that_show_its_side():
    passes = {"bound": 2, "article split rounds": [0.91, 1.0049, 0.999], "tensor parallel rounds": [1.27, 1.996]}
    line = timed_rows.passes_rounds_line(passes, "simulated on CPU")
    assert "the article's split (bound 1x: halves that take turns) 0.91x, 1.0049x, 0.999x;" in line, line
    assert line.endswith("tensor parallel (bound 2x) 1.27x, 1.996x")
