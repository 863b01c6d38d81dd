"""Lesson 06, twenty-ninth reading (t29_0506, other problems): checkpointing's extra time in forwards prints its
± wherever the share is printed (section 2's line, the Summary's line, the claims row), with what set it, and the
verdict is the one those printed figures give (0.80 ± 0.21 reaches 1.01: as predicted). Fabricated figures."""

import pytest

from utils.lessons.memory import forward_bound as fb
from utils.lessons.memory import summary

STEP, FORWARD = 0.0669, 0.0227   # the plain step and the blocks' forward, seconds


@pytest.mark.parametrize("ratio, noise, start, verdict", [
    # (1.27 - 1) x 66.9 = 18.06 ms over 22.7: 0.80; ± 0.07 x 66.9 = 4.7 ms over 22.7: 0.21, and 0.80 + 0.21 = 1.01
    (1.27, 0.07, "0.80 ± 0.21 of a forward", "about one forward, as predicted"),
    # the same share with quiet rounds: the ± at its floor, 0.10, and 0.80 + 0.10 = 0.90 falls short
    (1.27, 0.01, "0.80 ± 0.10 of a forward", "less than the predicted forward"),
    # 33.45 ms over 22.7: 1.47; 1.47 - 0.10 = 1.37, past one forward
    (1.50, 0.02, "1.47 ± 0.10 of a forward", "more than the predicted forward"),
    # 22.75 ms: one forward
    (1.34, 0.02, "1.00 ± 0.10 of a forward", "about one forward, as predicted"),
])
def test_the_share_of_a_forward_prints_its_pm_on_every_outcome(ratio, noise, start, verdict):
    said = fb.ratio_in_forwards(ratio, STEP, FORWARD, FORWARD, noise * STEP, working=True)
    assert said.startswith(start) and said.endswith(verdict), said
    assert fb.ratio_meets_forward(ratio, STEP, FORWARD, FORWARD, noise * STEP) is verdict.endswith("as predicted")


def test_the_pm_names_what_set_it():
    noisy = fb.ratio_in_forwards(1.27, STEP, FORWARD, FORWARD, 0.07 * STEP, working=True)
    assert noisy == ("0.80 ± 0.21 of a forward (80% of the predicted extra time: (1.27 - 1) x 66.9 = 18.06 ms "
                     "over 22.7 ms; ± 4.7 ms, the rounds' noise): about one forward, as predicted")
    assert round(4.7 / 22.7 + 1e-9, 2) == 0.21   # the printed ms give the printed ±
    quiet = fb.ratio_in_forwards(1.27, STEP, FORWARD, FORWARD, 0.01 * STEP)
    assert quiet == ("0.80 ± 0.10 of a forward (80% of the predicted extra time; ± at its floor, a tenth of a forward: "
                     "the rounds' ± 0.7 ms over 22.7 ms is 0.03): less than the "
                     "predicted forward")


def test_a_range_carries_one_pm_read_over_the_shorter_forward():
    # 18.06 ms over 21.0-22.7 ms: 0.80-0.86; 4.7 ms over 21.0: 0.22
    said = fb.ratio_in_forwards(1.27, STEP, 0.0210, FORWARD, 0.07 * STEP)
    assert said.startswith("0.80-0.86 ± 0.22 of a forward (80%-86% of the predicted extra time; ± 4.7 ms, the "
                           "rounds' noise)")


def test_the_verdict_is_judged_on_the_printed_figures():
    # 19.9 ms over 25.0: 0.796, printed 0.80; ± 5.0 ms over 25.0: 0.20. Unrounded, 0.796 + 0.20 falls short of
    # 1; as printed, 0.80 + 0.20 = 1.00 reaches it, and the page must say what its figures give
    said = fb.forwards_cost(0.0199, 0.0250, 0.0250, 0.0050)
    assert said.startswith("0.80 ± 0.20") and said.endswith("about one forward, as predicted"), said


def test_the_summary_line_and_the_claims_row_print_the_same_pm_as_section_2():
    times = {"step": STEP, "checkpointed step": 0.0795, "blocks' forward": FORWARD}
    line = summary.checkpointing_summary(times, (1.27, 0.07, [1.27]))
    shared = fb.ratio_in_forwards(1.27, STEP, FORWARD, FORWARD, summary.noise_seconds(0.07, STEP), working=True)
    assert shared in line and "0.80 ± 0.21 of a forward" in line
