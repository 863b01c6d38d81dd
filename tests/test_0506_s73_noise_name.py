"""t34_0506 #1: the rounds' ± that ``noise_name`` prints is rounded half up, as the rounds' working prints it,
so that the tolerance's ms beside it (± x the plain step) comes out of it: 0.045 prints ± 0.05, not 0.04."""
from utils.lessons.memory import summary


def test_a_spread_of_exactly_half_a_step_prints_half_up():
    assert summary.noise_name(0.045, floor=0.02) == "the rounds' noise, their ± 0.05 of the plain step"
    assert summary.noise_name(0.035, floor=0.02) == "the rounds' noise, their ± 0.04 of the plain step"


def test_a_spread_under_half_a_step_still_rounds_down_and_the_floor_still_wins_below_it():
    assert summary.noise_name(0.044, floor=0.02) == "the rounds' noise, their ± 0.04 of the plain step"
    assert summary.noise_name(0.015, floor=0.02).startswith("the noise floor, 2% of the plain step")
