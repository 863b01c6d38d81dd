"""Eighteenth reading (t18_0001), lesson 01 cell 33: one re-timing is not how far a moment moves a step."""

from utils.lessons.why_slow import profile

ROUNDS = [81.92e-3, 87.11e-3, 79.26e-3, 93.43e-3, 78.61e-3]  # section 1's rounds as the reader saw them


def test_one_pair_of_timings_is_not_called_how_far_a_moment_moves_a_step():
    said = profile.retimed_sentence(81.92e-3, 81.7e-3, ROUNDS)
    assert "the 81.7 ms here is the fastest of this section's own steps: -0.3% from it." in said  # -0.27%
    assert ("How far a moment moves one step's time is section 1's range of rounds: 78.61 to 93.43 ms, the "
            "slowest +18.9% over the fastest; this step lies inside that range.") in said  # 93.43 / 78.61
    assert "-0%" not in said and "which is how far" not in said


def test_a_step_outside_section_1s_rounds_is_said_to_be_outside_them():
    assert "lies below that range: faster than every round" in profile.retimed_sentence(81.92e-3, 70.0e-3, ROUNDS)
    assert "lies above that range: slower than every round" in profile.retimed_sentence(81.92e-3, 95.0e-3, ROUNDS)
    alone = profile.retimed_sentence(81.92e-3, 81.7e-3)  # no rounds passed: no claim on a moment's move
    assert alone.endswith("One pair of timings: it does not say how far a moment moves one step's time.")
