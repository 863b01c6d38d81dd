"""Lesson 06: selective's predicted step a little under full's in ms is not "no faster" because their ratio
prints 1.00x (t39 run: 86.1 against 86.5 ms was read "add up to no less than full's measured extra time")."""

from utils.lessons.memory import policy_cost


def test_a_predicted_step_under_fulls_in_ms_is_within_noise_not_no_faster():
    said = policy_cost.expected_gain_words(0.0865, (0.0861, 0.0880), 0.99, 0.04)
    assert "no faster than full checkpointing" not in said and "within the rounds' ± 0.04 of 1x" in said


def test_a_predicted_step_no_shorter_than_fulls_is_no_faster():
    said = policy_cost.expected_gain_words(0.0865, (0.0866, 0.0880), 0.99, 0.04)
    assert "no faster than full checkpointing" in said
