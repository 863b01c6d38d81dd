"""Thirty-fourth reading (t34_labs48 weak point 2, lab 06 cell 25): the blocks' step measured 0.90x, the very
figure the cost table gives a step with no block checkpointed, and the page said nothing; its "more than allowed"
reason offered unequal shares of the blocks' recompute, which cannot bring identical blocks down to that figure.
Every branch, on fabricated figures."""

from utils.labs.fit_the_budget.blocks import _cost_model, _model_gap, _under_no_recompute


def test_a_ratio_equal_to_no_recompute_is_said_so():
    said = _under_no_recompute(0.90, 0.90, 0.03, 0.02, blocks=2)
    assert said == (" It equalled the 0.90x the cost table gives a step with no block checkpointed (chunked loss "
                    "only): the 2 checkpointed blocks' recompute did not show in these rounds."), said
    assert "the checkpointed blocks' recompute did not show" in _under_no_recompute(0.90, 0.90, 0.03)  # no count
    assert _under_no_recompute(0.91, 0.90, 0.03, 0.02, blocks=2) == ""          # over it: nothing to say
    assert "It came under even the 0.90x" in _under_no_recompute(0.89, 0.90, 0.03, 0.02, blocks=2)


def test_unequal_shares_are_not_offered_once_the_ratio_reaches_no_recompute():
    predicted, none, _ = _cost_model(0.12, 0.08, 2, 4)   # (1 + 2/4 × 0.12 + 0.08) / 1.20, and 1.08 / 1.20
    assert (predicted, none) == (0.95, 0.90)
    at_none = _model_gap(0.90, predicted, 0.02, 0.02, reaches_none=True)   # off by 0.05 of 0.04
    assert at_none.endswith("). Likely the cost table's rounds and these met the machine differently."), at_none
    assert "equal shares" not in at_none
    above = _model_gap(0.91, 0.96, 0.02, 0.02)                             # off by 0.05 of 0.04, above none
    assert ("allowed (the rounds' spread above, plus the course's 0.02 timing floor). Either the cost table's rounds "
            "and these met the machine differently, or the blocks' recomputes are not equal shares; this run does "
            "not separate the two.") in above, above   # its own sentence: t34 other #2, four colons in one
