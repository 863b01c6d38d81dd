"""Thirtieth round, lab 02 (t26-t29_labs03: cell 24 is heavy): the take-away says the bubble alone cannot make
the fewest m's gap and points to the block, which reads what the learner's model says of the rest
(``fewer.fewer_detail``). Every branch on fabricated figures, not one run's."""

from __future__ import annotations

from utils.labs.balance_the_pipeline import checks as lab
from utils.labs.balance_the_pipeline.fewer import fewer_detail, fewest_pair
from utils.lessons.model_split import runs


def _p(low_rounds, predicted_low, priced=True):
    row = lambda m, sp, split: runs.Row(4096, m, "1f1b", 1.0, 1.0, [0.5, 0.5], split_points=split,  # noqa: E731
                                        speedups=sp)
    rows = [row(8, low_rounds, (9,)), row(16, [1.55, 1.58, 1.59, 1.60, 1.63], (10,))]
    predicted = {rows[0].key: predicted_low, rows[1].key: 1.55} if priced else {rows[1].key: 1.55}  # not m=8
    return lab.Pipelined(rows[1], rows, rows[1], 1.0, lab.MIN_MARGIN, predicted, False, "", cap=7.41e6)


def _said(text):
    return " ".join(text.split())


def test_past_the_bubble_the_take_away_points_to_the_block_which_reads_the_model():
    p = _p([1.21] * 5, 1.40)  # 1.31x apart, the bubble worth 1.06x
    shown, detail = _said(lab.take_away(p)), _said(lab.take_away_detail(p))
    assert ("worth only 1.06x by itself: the bubble alone cannot make that gap; what your model says of the rest "
            "follows below.") in detail and "the bubble" not in shown  # the visible answer: did it pay
    assert "also prices" not in shown and "ruled out" not in shown
    assert detail.index("worth only") < detail.index("The best split that fits the cap") < detail.index(
        "Beyond the bubble")  # which m won first, then each m's split, then the pair
    assert ("Beyond the bubble, m=8 against m=16: your model, bubble counted, also prices each m's best split "
            "that fits the cap (m=8 [9], m=16 [10]) and each micro-batch's size: it predicted 1.40x against "
            "1.55x, 1.11x apart, less than the 1.31x measured") in detail


def test_a_model_that_did_not_price_the_fewest_m_says_so_in_the_take_away_and_adds_nothing_to_the_block():
    p = _p([1.21] * 5, 1.40, priced=False)
    assert "the bubble alone cannot make that gap. What else made it is not measured here." in _said(
        lab.take_away_detail(p))
    assert fewer_detail(p) == ""


def test_a_gap_the_bubble_can_make_adds_nothing_to_the_block():
    p = _p([1.51] * 5, 1.50)  # 1.05x apart: within the bubble's 1.06x
    assert "the bubble alone can make that gap" in _said(lab.take_away_detail(p))
    assert fewer_detail(p) == "" and "Beyond the bubble" not in lab.take_away_detail(p)


def test_no_m_below_the_fastest_timed_has_no_pair():
    p = _p([1.21] * 5, 1.40)
    assert [r.m for r in fewest_pair(p)] == [8, 16]
    alone = lab.Pipelined(p.rows[1], p.rows[1:], p.rows[1], 1.0, lab.MIN_MARGIN, p.predicted, False, "", cap=7.41e6)
    assert fewest_pair(alone) is None and fewer_detail(alone) == ""
