"""Twenty-ninth reading (t29_labs48, lab 08 #1): the ± of the thread rounds is half the middle half's range,
so about half of any set of rounds lies outside it; where half or more do, they are not called outlying
moments, the rounds' whole range is named, and the shares' ends come from it. Fabricated figures only."""

from utils.labs.make_it_fast import threads_cost, threads_spread
from utils.labs.make_it_fast.threads_cost import PART, threads_sentence

MOST_OUT = [2.24, 1.83, 2.69, 1.87, 2.22]   # 2.22x ± 0.19: 1.83x, 1.87x below 2.03x, 2.69x beyond 2.41x
READING = {"optimizer": 19.6, "evaluate": 162.1, "checkpoint": 35.4}


def _timed(ratios, slow_ms=()):
    return {"slow": 2, "launcher": 1, "ratios": list(ratios), "slow_ms": list(slow_ms), "launcher_ms": []}


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_half_the_rounds_or_more_outside_the_spread_is_what_the_spread_allows():
    assert threads_spread._not_outlying(MOST_OUT)                       # 3 of 5
    assert not threads_spread._not_outlying([1.95, 2.39, 2.53, 2.67, 8.92])   # 2 of 5
    assert threads_spread._not_outlying([1.0, 1.5, 1.6, 3.0])           # 2 of 4: half
    assert not threads_spread._not_outlying([2.76, 2.76, 2.77, 2.78, 2.78])   # none


def test_most_rounds_outside_the_spread_are_not_called_outlying():
    said = threads_cost._past_spread_text(MOST_OUT)
    assert said == ("; rounds 1.83x and 1.87x lie below the median - the spread (2.22 - 0.19 = 2.03x); round 2.69x "
                    "lies beyond the median + the spread (2.22 + 0.19 = 2.41x): the ± (half the middle half's "
                    "range) leaves out 3 of the 5 rounds, 1.87x among them, which the ± is worked from "
                    "(half the middle half's range, (2.24 - 1.87) / 2), as a ± built from the middle half of the "
                    "rounds does by "
                    "design (about half of them); the rounds run 1.83x to "
                    "2.69x"), said
    assert "outlying" not in said
    one_side = threads_cost._past_spread_text([1.0, 1.5, 1.6, 3.0])
    assert "outlying" not in one_side and "leaves out 2 of the 4 rounds" in one_side, one_side
    # a few rounds outside stay outlying moments
    few = threads_cost._past_spread_text([1.95, 2.39, 2.53, 2.67, 8.92])
    assert few.endswith("the ± reaches none of them, outlying moments of this run, not timed apart here"), few


def test_the_shares_ends_span_the_rounds_where_the_spread_leaves_most_out():
    """At 1.83x: 337 - 337 / 1.83 = 153 ms, 153 / 577 = 27%; at 2.69x: 692 - 692 / 2.69 = 435, 435 / 524 = 83%."""
    said = _flat(threads_sentence(_timed(MOST_OUT, [84.3] * 5), 691.6, 577.0, READING))
    assert ("saves 32% to 73% of that part (27% to 83% across the rounds, 1.83x to 2.69x): " + PART) in said, said
    assert "across its ±" not in said and "outlying" not in said, said
    # a few rounds outside: the ends stay the ± (kept within the rounds)
    few = _flat(threads_sentence(_timed([1.95, 2.39, 2.53, 2.67, 8.92], [84.3] * 5), 691.6, 577.0, READING))
    assert "across its ±" in few and "across the rounds" not in few, few


def test_the_share_wording_names_what_its_ends_span():
    assert threads_cost._across((27.0, 83.0), (32.0, 73.0), "", "the rounds, 1.83x to 2.69x") == \
        " (27% to 83% across the rounds, 1.83x to 2.69x)"
    assert threads_cost._across((30.0, 77.0), (32.0, 73.0), "") == " (30% to 77% across its ±)"


def test_a_median_covering_the_miss_names_the_rounds_reach_where_they_set_the_ends():
    """The 'not told apart' branch says what reaches below the whole: the rounds, not the ±."""
    said = _flat(threads_sentence(_timed([1.5, 1.6, 4.0, 4.1, 6.0], [250.0] * 5), 1200.0, 500.0))
    assert "every scaling's median covers the whole miss, but the rounds reach 67%, so" in said, said
    assert "its ± reaches" not in said, said
