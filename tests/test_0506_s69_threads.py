"""Lesson 06 cell 43, thirtieth reading (t30_0506, other problems): where every round passed the threads'
bound, a round only just past it (2.01x against 2.00x, inside the lesson's 2 % floor) is named, not counted as
one that passed it beyond noise. Fabricated figures."""

import pytest

from utils.lessons.memory import summary
from utils.lessons.memory.threads_rounds import every_round_past


@pytest.mark.parametrize("paired, said", [
    ([2.17, 2.25, 2.53], "every round passed it"),
    ([2.01, 2.18, 2.29], "every round passed it as printed, all but 1 beyond the lesson's 2% floor (round 1's "
                         "2.01x within it)"),
    ([2.18, 2.03, 2.04, 2.29], "every round passed it as printed, all but 2 beyond the lesson's 2% floor (round "
                               "2's 2.03x and round 3's 2.04x within it)"),   # 2.04x is 2 %, not beyond it
    ([2.01, 2.02, 2.03], "every round passed it as printed, but none beyond the lesson's 2% floor"),
])
def test_every_outcome(paired, said):
    assert every_round_past(paired, 2) == said


def test_the_threads_reading_names_the_round_inside_the_floor():
    said = summary.threads_reading([2.18, 2.01, 2.29], 2, 1.0)
    assert ("and every round passed it as printed, all but 1 beyond the lesson's 2% floor (round 2's 2.01x within "
            "it), though each pair was timed back to back") in said
    assert "above the bound: a finding to explain" in said
