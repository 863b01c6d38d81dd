"""Thirty-third reading, lesson 07 cell 10 (t33_0708 other #1): the load clause read "0.00 of a core, ± 0.33
over 61 ms (...) over the 2 recorded passes together" (two "over"s), and was printed again under the
all-reduce line as if measured over the drawn pass's calls. Now what the window covers comes first, then the ±
and its reason, and the load prints once. Every figure is fabricated."""

from utils.lessons.tensor_parallel import pass_step

ROUNDS = [17.5e-3, 24.7e-3, 28.4e-3]
COUNTER = {"window": 61e-3, "tick": 0.01, "cpus": 2}   # 2 x 10 / 61 = 0.33


def test_the_window_and_what_it_covers_come_before_the_grain():
    text = pass_step.drawn_against_rounds([31.6e-3, 29.4e-3], 29.4e-3, ROUNDS, 0.0, COUNTER)
    assert ("other programs used 0.00 of a core over the 2 recorded passes together (61 ms), ± 0.33 (the "
            "machine's CPU counters tick every 10 ms on each of its 2 cores: too coarse to tell a quiet moment "
            "from a busy one); the timed rounds' load") in text
    assert text.count(" over ") == 1


def test_the_all_reduce_line_does_not_repeat_the_load():
    assert pass_step.slow_calls_words(0.0, COUNTER, True) == ""    # slow calls, load within its grain
    assert pass_step.slow_calls_words(0.0, COUNTER, False) == ""   # no slow calls
    busy = pass_step.slow_calls_words(1.2, COUNTER, True)            # 1.2 - 0.33 > 0.2: busy
    assert busy.startswith("; other programs (the two workers' own CPU time taken out) used 1.20 of a core over "
                           "both recorded passes (61 ms), ± 0.33")
    assert busy.endswith("ranks waiting for each other to get a core back")
