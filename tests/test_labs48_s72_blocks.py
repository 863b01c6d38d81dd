"""t33_labs48 other problems 1 and 4, lab 06's blocks take-away: a gap equal to its allowance is said to be at
the allowance's edge (still within it: a bound is a ceiling), and the saving under no recompute at all closes
with a clause a newcomer can parse. Every branch, on fabricated figures."""

from utils.labs.fit_the_budget.blocks import _model_gap, _under_no_recompute


def test_the_model_gap_inside_at_the_edge_and_over_its_allowance():
    inside = _model_gap(0.92, 0.96, 0.03)                                   # off by 0.04 of 0.05
    assert "off by 0.04, within the 0.03 + 0.02 = 0.05 allowed (" in inside and "edge" not in inside
    edge = _model_gap(0.91, 0.96, 0.03)                                     # off by 0.05 of 0.05
    assert "off by 0.05, at the edge of the 0.03 + 0.02 = 0.05 allowed (" in edge
    assert edge.endswith("), so still within it.") and "more than" not in edge
    over = _model_gap(0.90, 0.96, 0.03)                                     # off by 0.06
    assert "off by 0.06, more than the 0.03 + 0.02 = 0.05 allowed" in over and "edge" not in over


def test_under_no_recompute_every_branch_in_plain_words():
    assert _under_no_recompute(0.93, 0.92, 0.03) == ""                       # not under it
    inside = _under_no_recompute(0.91, 0.92, 0.03)                           # 0.01 of 0.05
    assert inside.endswith("by 0.01, within the same 0.05 allowed, so this run shows no saving beyond what "
                           "removing all the recompute would give."), inside
    assert "no more than all the recompute saved is shown" not in inside
    edge = _under_no_recompute(0.87, 0.92, 0.03)                             # 0.05 of 0.05
    assert "by 0.05, at the edge of the same 0.05 allowed, so this run shows no saving beyond" in edge
    beyond = _under_no_recompute(0.86, 0.92, 0.03)                           # 0.06 of 0.05
    assert "by 0.06, more than the same 0.05 allowed: it saved more than all recomputation" in beyond
