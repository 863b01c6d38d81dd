"""Thirty-first round, labs 00-03 (t30_labs03): lab 00's ratios print half up (#2), the take-aways read an order
of two medians only beyond their rounds' noise (#3), and the answer's rule says what it needs of the rounds left
where a ping-pong jump sets some aside (other problems). Fabricated figures, not one run's."""

from __future__ import annotations

import pytest

from utils.labs.fix_the_article import checks as lab
from utils.labs.fix_the_article import rounds, verdict


def _timed(split_us: list[float], pp_us: list[float], sizes: tuple[int, ...] = (1000,)) -> lab.SplitRun:
    """A timed cut: each round's messages (their time shared among ``sizes``) and its ping-pong, µs."""
    run = lab.SplitRun(lab.CASES[0])
    run.steps = [[lab.split.Message(n, 0, t * 1e-6 / len(sizes)) for n in sizes] for t in split_us]
    run.ping_pong = [[t * 1e-6] for t in pp_us]
    return run


# --- #2: a ratio of the lab rounds half up, as a reader divides the printed µs ---------------------------------

def test_a_ratio_on_a_half_rounds_up_in_the_rounds_table():
    """252 µs over 96 µs is 2.625 exactly: printed 2.63 (half up), not :.2f's half-to-even 2.62."""
    assert f"{252 / 96:.2f}" == "2.62"  # the slip: Python's format rounds the exact half to even
    assert lab.us_ratio(252e-6, 96e-6) == 2.63
    table = lab.rounds_table({"plan": _timed([252.0, 300.4], [96.0, 100.0])}).to_text()
    assert "2.63" in table and "2.62" not in table
    assert "3.00" in table  # 300 / 100: a ratio off the half is unchanged


def test_a_round_on_the_half_above_1_is_counted_above_as_printed():
    """201 µs over 200 µs is 1.005, printed 1.01: above 1 for the rule, as the reader counts it."""
    assert verdict.side_of(lab.us_ratio(201e-6, 200e-6)) == "above"
    assert verdict.side_of(lab.us_ratio(200e-6, 200e-6)) == "at"


def test_a_median_between_two_printed_ratios_rounds_half_up():
    """An even count of rounds: the median of 2.62 and 2.63 is 2.625, printed 2.63 in the plan's line and in
    whose miss it is."""
    said = verdict.rounds_words("p", [2.62, 2.63, 2.62, 2.63], "longer")
    assert "median 2.63x" in said, said
    assert rounds._median_shown([2.62, 2.63]) == 2.63


# --- #3: two medians taken at different moments: an order only beyond their rounds' noise ---------------------

ONE, TWO = [262_144], [16_384, 16_384]
CLOSE_FAST = [105, 98, 146, 110, 101, 120, 104, 99, 130]   # median 105 µs, rounds 98-146
CLOSE_SLOW = [103, 94, 112, 100, 108, 96, 105, 102, 110]   # median 103 µs, rounds 94-112


def _order(fast_pp: list[float], slow_pp: list[float], fast_split=None, slow_split=None) -> str:
    fast = _timed(fast_split or [300.0] * len(fast_pp), fast_pp, tuple(ONE))
    slow = _timed(slow_split or [400.0] * len(slow_pp), slow_pp, tuple(TWO))
    said = lab._measured_order({1: _timed([0.0], [0.0], tuple(ONE)), 3: _timed([0.0], [0.0], tuple(TWO))},
                               {"frozen": fast, "learns": slow})
    return " ".join(said.split())


def test_two_medians_within_their_rounds_noise_are_too_close_to_order():
    """The reader's case: 105 µs and 103 µs, 2 µs apart, from rounds spanning 98-146 and 94-112 µs."""
    said = _order(CLOSE_FAST, CLOSE_SLOW)
    assert "the ping-pong of the same sizes 105 µs and 103 µs, no order shown" in said, said
    assert "opposite" not in said.split("ping-pong")[1], said
    # the ± printed is the one the rule reads: half the range of the middle half of each one's rounds
    assert "(105 ± 10 µs and 103 ± 4 µs)" in said, said   # the split's words, ordered, said what ± is
    assert said.count("± is half the range of the middle half") == 1, said


@pytest.mark.parametrize("fast, slow, says", [
    ([100, 101, 99, 100, 102, 98, 100, 101, 99], [150, 151, 149, 150, 152, 148, 150, 151, 149], "the model's order"),
    ([150, 151, 149, 150, 152, 148, 150, 151, 149], [100, 101, 99, 100, 102, 98, 100, 101, 99],
     "the opposite of the model's order"),
    ([100] * 9, [100.2] * 9, "a tie as printed"),
])
def test_two_medians_apart_beyond_their_noise_keep_or_reverse_the_order(fast, slow, says):
    said = _order(fast, slow)
    assert f"ping-pong of the same sizes {_med(fast)} µs and {_med(slow)} µs, {says}" in said, said
    assert said.rstrip(".").endswith(says) == (says == "a tie as printed"), said  # an order prints its ±


def test_the_splits_own_medians_are_read_by_the_same_rule():
    """The split's messages of the two cuts, also timed at different moments: the same noise rule."""
    said = _order([100.0] * 9, [150.0] * 9, CLOSE_FAST, CLOSE_SLOW)
    assert "the split's took 105 µs for cut 1's and 103 µs for cut 3's, no order shown" in said, said
    said = _order([100.0] * 9, [150.0] * 9, [200.0] * 9, [300.0] * 9)
    assert "the split's took 200 µs for cut 1's and 300 µs for cut 3's, the model's order" in said, said


def _med(us: list[float]) -> str:
    return f"{sorted(us)[len(us) // 2]:,.0f}"
