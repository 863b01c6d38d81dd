"""Twentieth reading (t20_0001), lesson 01: the profiler's move is set against section 1's rounds as a ratio
only, never as a span of ms the profiled step lies outside; where it lies outside, the sentence says so."""

from utils.lessons.why_slow import profile

READER_ROUNDS = [77.86e-3, 84.28e-3, 78.82e-3, 80.1e-3]  # section 1's rounds: 77.86 to 84.28 ms, +8.2%


def _step(profiled: float, alone: float) -> profile.StepProfile:
    return profile.StepProfile(profiled, {}, [], None, None, None, unprofiled_seconds=alone)


def test_the_readers_step_above_every_round_is_said_to_be_so_beside_the_ratio():
    said = _step(85.2e-3, 79.6e-3).overhead_sentence(READER_ROUNDS)
    assert "85.2 ms / 79.6 ms = 1.07x that (+7.0%)." in said
    assert ("That +7.0% is within the +8.2% a moment moves one step (section 1's rounds: the slowest over the "
            "fastest, 84.28 / 77.86 ms; the profiled 85.2 ms lies above every round, 84.28 ms at most): this run "
            "cannot tell what recording every op costs") in said
    assert "77.86 to 84.28 ms" not in said  # no span of ms the step is said to be "within"


def test_a_step_inside_the_rounds_gets_no_note_and_one_below_them_is_named():
    inside = _step(80.0e-3, 79.6e-3).overhead_sentence(READER_ROUNDS)  # +0.5%, 80.0 ms within 77.86-84.28
    assert "(section 1's rounds: the slowest over the fastest, 84.28 / 77.86 ms): this run cannot tell" in inside
    assert "lies above" not in inside and "lies below" not in inside
    below = _step(76.0e-3, 79.6e-3).overhead_sentence(READER_ROUNDS)  # -4.5%: within +8.2%, under every round
    assert "That -4.5% is within the +8.2%" in below
    assert "the profiled 76.0 ms lies below every round, 77.86 ms at least" in below
    faster = _step(70.0e-3, 79.6e-3).overhead_sentence(READER_ROUNDS)  # -12.1%: past the range, faster
    assert "ran faster than the unprofiled one, by more than the +8.2%" in faster and "lies below every" in faster


def test_a_step_past_the_rounds_shows_the_recordings_cost_and_where_it_lies():
    said = _step(95.0e-3, 79.6e-3).overhead_sentence(READER_ROUNDS)  # +19.3%
    assert "That +19.3% is past the +8.2% a moment moves one step" in said
    assert "the profiled 95.0 ms lies above every round, 84.28 ms at most), more than a moment moves" in said
    assert "recording every op adds time here" in said
