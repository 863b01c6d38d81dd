"""Lesson 06, thirty-second reading (t32_0506 #5): whether the rounds or the 2 % floor set a ± is read on the
spread unrounded, in the rounds' working and in the words beside the step's parts alike: (1.21 - 1.18) / 2 =
0.015 is under a 0.02 floor though it prints ± 0.02. Fabricated figures only."""

import pytest

from utils.lessons.memory import report, summary

MS = 1e-3


def _rounds(ratios):
    """Plain steps of 50.0 ms and a checkpointed step at each ``ratio``."""
    return {"step": [50.0 * MS] * len(ratios), "checkpointed step": [50.0 * r * MS for r in ratios]}


@pytest.mark.parametrize("ratios, working, name", [
    # middle half 1.18-1.21: 0.015, under the floor though it prints 0.02
    ((1.17, 1.18, 1.19, 1.20, 1.20, 1.21, 1.24), "(1.21 - 1.18) / 2 = 0.015, under the floor, so ± 0.02",
     "the noise floor, 2% of the plain step, used as it exceeds the rounds' own ± 0.015"),
    # 0.020 exactly: the rounds set it
    ((1.16, 1.18, 1.19, 1.20, 1.20, 1.22, 1.24), "(1.22 - 1.18) / 2 = 0.020, ± 0.02",
     "the rounds' noise, their ± 0.02 of the plain step"),
    # wider: the rounds set it, printed to 2 decimals
    ((1.10, 1.14, 1.19, 1.20, 1.20, 1.24, 1.30), "(1.24 - 1.14) / 2 = 0.050, ± 0.05",
     "the rounds' noise, their ± 0.05 of the plain step"),
])
def test_the_working_and_the_words_name_the_same_source(ratios, working, name):
    rounds = _rounds(ratios)
    assert working in report.rounds_rule(rounds, "checkpointed step", "step", fastest=False)
    each = [a / b for a, b in zip(rounds["checkpointed step"], rounds["step"])]
    assert summary.noise_name(report.unrounded_spread(each), floor=0.02) == name


def test_three_rounds_use_their_range():
    assert report.unrounded_spread([1.10, 1.13, 1.12]) == pytest.approx(0.015)
