"""Thirty-sixth reading (t36_labs48 #2, other 2): lab 08's worked block names no part larger than its whole
(the kept regions' ms capped at the rest they may hold), gives the rest at the low end of the ± or rounds where
it leaves more, and prints no share of a miss past all of it. Fabricated figures, every branch."""

from __future__ import annotations

import pytest

from utils.labs.make_it_fast import threads_cost
from utils.labs.make_it_fast.threads_cost import _candidates, _range, _rest_text, _share


@pytest.mark.parametrize("low, high, wide, says", [
    (215.0, 215.0, None, "the other 215 ms of the miss at the median 2.90x"),
    (215.0, 573.0, None, "the other 215 to 573 ms of the miss at the median 2.90x on the two scalings"),
    (0.0, 153.0, None, "the rest of the miss, up to 153 ms at the median 2.90x"),
    (-20.0, 153.0, (359.0, "2.25x, the smallest round"), "the rest of the miss, up to 153 ms at the median 2.90x (359 ms at 2.25x, the smallest round)"),
    (215.0, 215.0, (300.0, "1.80x, the low end of its ±"), "the other 215 ms of the miss at the median 2.90x (300 ms at 1.80x, the low end of its ±)"),
    (215.0, 573.0, (573.0, "1.80x, the low end of its ±"),
     "the other 215 to 573 ms of the miss at the median 2.90x on the two scalings"),   # no more: not named
])
def test_the_rest_names_what_the_low_end_leaves_where_it_leaves_more(low, high, wide, says):
    assert _rest_text(low, high, "the median 2.90x", wide) == says


@pytest.mark.parametrize("kept, most, held", [
    (313.0, 153.0, "up to all of it"),
    (313.0, 313.0, "up to all of it"),
    (313.0, 389.0, "up to 313 ms of it"),
    (313.0, None, "up to 313 ms of it"),
])
def test_the_kept_regions_hold_no_more_than_the_rest(kept, most, held):
    said = _candidates("the rest, up to 153 ms", kept, "", most)
    assert f"the kept regions above ({held})" in said
    assert "kept regions" not in _candidates("the rest, up to 153 ms", 0.0, "", 153.0)


@pytest.mark.parametrize("low, high, says", [
    (76.0, 76.0, "76%"), (71.0, 96.0, "71% to 96%"), (71.0, 100.0, "71% to 100%"),
    (76.0, 1059.0, "76% to all"), (104.0, 1059.0, "all"),
])
def test_no_share_passes_all_of_the_miss(low, high, says):
    assert _range(low, high) == says
    assert _share(101.0) == "all" and _share(100.0) == "100%"


def test_the_worked_block_caps_shares_and_the_kept_regions():
    # 22.72x on 460 and 516 ms against 645 ms missed, 313 ms kept: 68% to 148% of the part, 40% to 155% across
    said = threads_cost._share_of_miss([460.0, 516.0], 22.72, 2.41, [2.25, 20.32, 22.72, 25.14, 26.31], 645.0,
                                       (313.0, "253.8 + 328.1 / 6 + 28.4 / 6 = 313"))
    assert "saves 68% to all of that part (down to 40% across the rounds, 2.25x to 26.31x)" in said
    # the bases 56 ms apart: a third candidate, so the rest takes a sentence of its own
    assert ("The other 152 to 205 ms of the miss at the median 22.72x on the two scalings (389 ms at 2.25x, the "
            "smallest round) is not timed apart. Its candidates: the kept regions above (up to 313 ms of it)") in said
    # one basis: 515 - 515 / 22.72 = 492 ms saved, 153 left (155 at 20.32x), less than the kept 313 ms
    small = threads_cost._share_of_miss([515.0], 22.72, 2.41, [20.32, 22.0, 22.72, 25.14, 26.31], 645.0,
                                        (313.0, "w"))
    assert ("the other 153 ms of the miss at the median 22.72x (155 ms at 20.32x, the smallest round): the kept regions above (up to all of it)"
            in small), small
    assert "148%" not in said and "155%" not in said


def test_the_rounds_clause_says_the_middle_half_leaves_out_half_by_design():
    said = threads_cost._past_spread_text([1.9, 1.95, 3.1, 3.3, 18.0])
    assert "as a ± built from the middle half of the rounds does by design (about half of them)" in said
    assert "any rounds" not in said
