"""t34_02 (other, hard to parse): section 8's work rise short of the larger readings says, in one or many, that
the rest of those readings beyond the rise is not explained by this run. Fabricated figures; no timing."""
from utils.lessons.model_split import placement
from test_model_split_s57 import _placements


def test_one_larger_reading_left_is_named_in_the_singular():
    line = placement.placement_split(_placements([0.081, 0.104]))  # +20 ms: reaches 17.4, not 26.7
    assert "not 26.7 ms (the highest of 5 rounds)" in line
    assert "the rest of the larger reading, beyond the work's rise, this run does not explain." in line


def test_several_larger_readings_left_are_named_in_the_plural():
    line = placement.placement_split(_placements([0.077, 0.103]))  # +15 ± 2 ms: short of 17.4 and 26.7
    assert "the rest of the larger readings, beyond the work's rise, this run does not explain." in line
