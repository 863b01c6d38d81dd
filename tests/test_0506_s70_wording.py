"""Lessons 05 and 06 (t31_0506 #3, #4): the opening's claim about savings, and a sentence a newcomer can parse."""
from test_fix_s54b_030405 import cell_source


def test_lesson_06_opening_does_not_promise_a_price_every_time():
    text = " ".join(cell_source("06_memory.ipynb", 0).split())
    assert "usually at a price in time (each section measures this run's)" in text


def test_lesson_05_start_up_sentence_says_what_the_first_wait_is():
    text = " ".join(cell_source("05_data_prefetch.ipynb", 19).split())
    assert "for the restarted loader, the first wait is the median of every first batch" in text
    assert "a restarted one read from" not in text


def test_lesson_05_noise_rule_names_the_quartiles_and_the_one_side_override():
    text = " ".join(cell_source("05_data_prefetch.ipynb", 37).split())
    assert "the middle half: the rounds between the quartiles" in text
    assert "rounds all on one side of 1x are not noise, even where the ± reaches 1x" in text
