"""Thirty-seventh reading (t37_labs48, lab 08 #1, #2): a round the ± is worked from is never set apart as
outlying (one rule, ``threads_spread._not_outlying``), and the miss the saving leaves names the speed-up it is
read at (the median, or the low end of the ± or rounds), so that a range is never read as the rounds'.
Fabricated figures."""

from utils.labs.make_it_fast import threads_cost, threads_spread
from utils.labs.make_it_fast.threads_short import threads_verdict

OWN_END_OUT = [2.30, 2.39, 2.53, 2.60, 2.62]   # 2.53x ± 0.11 (from 2.39x and 2.60x): 2.30x and 2.39x below 2.42x
FEW_BEYOND = [1.95, 2.39, 2.53, 2.67, 8.92]    # 2.53x ± 0.14: only 1.95x and 8.92x, beyond the middle half
COMMITTED = [1.77, 2.38, 3.82, 4.89, 19.36]    # the t37 run's rounds: 3.82x ± 1.26


def test_a_round_the_spread_is_worked_from_is_not_called_outlying():
    said = threads_spread._past_spread_text(OWN_END_OUT)
    assert "outlying" not in said, said
    assert ("leaves out 2 of the 5 rounds, 2.39x among them, which the ± is worked from (half the middle half's "
            "range, (2.60 - 2.39) / 2)") in said, said
    assert said.endswith("the rounds run 2.30x to 2.62x"), said
    assert threads_spread._not_outlying(OWN_END_OUT)


def test_rounds_beyond_the_middle_half_only_stay_outlying_moments():
    assert not threads_spread._not_outlying(FEW_BEYOND)
    assert threads_spread._past_spread_text(FEW_BEYOND).endswith("outlying moments of this run, not timed apart here")


def test_the_short_sentence_gives_the_rounds_range_where_the_spread_leaves_out_its_own_round():
    # 2.55x ± 0.81 from 2.43x and 4.04x leaves out 4.04x (and 23.50x): 2 of 5, one of them its own
    timed = {"slow": 2, "launcher": 1, "ratios": [1.81, 2.43, 2.55, 4.04, 23.50], "slow_ms": [], "launcher_ms": []}
    said = threads_verdict(timed, 500.0, None)
    assert "a median 2.55x as fast" in said and "(rounds 1.81x to 23.50x)" in said and "±" not in said, said


def test_the_rest_of_the_miss_names_the_median_it_is_read_at():
    said = threads_cost._share_of_miss([655.0, 472.0], 3.82, 1.26, COMMITTED, 359.0, (64.0, "w"))
    assert ("; the rest of the miss, up to 11 ms at the median 3.82x (154 ms at 1.77x, the smallest round): "
            "the kept regions above") in said, said


def test_a_range_of_the_rest_says_it_spans_the_two_scalings_at_the_median():
    said = threads_cost._rest_text(406.0, 980.0, "the median 3.82x")
    assert said == "the other 406 to 980 ms of the miss at the median 3.82x on the two scalings"


def test_the_rest_where_the_medians_cover_the_miss_is_read_at_the_low_end():
    said = threads_cost._share_of_miss([662.0], 2.94, 0.33, [2.5, 2.61, 2.94, 3.27, 3.4], 430.0, (129.0, "w"))
    assert "the rest of the miss, up to 22 ms at 2.61x, the low end of its ±" in said, said


def test_lab_05s_visible_opening_is_at_most_200_words():
    """t37 #3: the problem, what to produce and how it is checked stay visible; the rest is collapsed."""
    import re
    from pathlib import Path

    import nbformat
    nb = nbformat.read(Path(__file__).parents[1] / "labs" / "05_feed_the_gpu.ipynb", as_version=4)
    visible = re.sub(r"<details>.*?</details>", "", nb.cells[0].source, flags=re.S)
    assert len(visible.split()) <= 200, len(visible.split())
    assert "**What to produce:**" in visible and "**How it is checked:**" in visible
