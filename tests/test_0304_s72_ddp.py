"""Lesson 03, thirty-third reading (t33_0304, other problems): the trap's line ends as a sentence in every
outcome (fabricated outcomes)."""
import pytest

from utils.lessons.ddp import hooks


@pytest.mark.parametrize("outcomes", [["ran"] * 3, ["aborted", "hung", "ran"], ["hung"]])
def test_the_trap_line_ends_with_a_period(outcomes):
    assert hooks.trap_outcomes(outcomes).endswith("and the comparison below uses one.")
