"""t33_labs48 weak point 1: lab 08's prediction check could not tell "the step minus what is removed" from "the
sum of the kept regions", because every hidden reading moved the step by exactly what its regions moved. A
hidden reading whose step alone grows (the work no region names: zero_grad, each micro-batch's .item()) now
fails the sum. Fabricated readings, not a run's."""

from __future__ import annotations

import pytest

from utils import checks
from utils.labs.make_it_fast import checks as lab
from utils.labs.make_it_fast import script
from utils.labs.make_it_fast.prediction import HIDDEN_REST_SCALE, TOLERANCE, hidden_readings

# the regions add to 1195 ms of a 1200 ms step: 5 ms of the step is in no region
_READING = {"step": 1200.0, "load": 100.0, "forward and backward": 400.0, "optimizer": 350.0, "evaluate": 300.0,
            "checkpoint": 45.0, lab.ALL_REDUCES: 7.5}


def _needed(reading):
    """The right answer: the step less what the fast script no longer runs in its training process."""
    return (reading["step"] - reading["load"] - reading["evaluate"] * (1 - 1 / script.EVAL_EVERY)
            - reading["checkpoint"] * (1 - 1 / script.CHECKPOINT_EVERY))


def _sum_of_kept(reading):
    """The plausible wrong answer: the kept regions added up, the step's unnamed rest dropped."""
    return (reading["forward and backward"] + reading["optimizer"] + reading["evaluate"] / script.EVAL_EVERY
            + reading["checkpoint"] / script.CHECKPOINT_EVERY)


def test_one_hidden_reading_grows_the_step_alone():
    rest = hidden_readings(_READING)[-1]
    assert rest["step"] == pytest.approx(_READING["step"] * HIDDEN_REST_SCALE)
    assert {k: v for k, v in rest.items() if k != "step"} == {k: v for k, v in _READING.items() if k != "step"}
    assert HIDDEN_REST_SCALE - 1 > 2 * TOLERANCE  # the dropped rest is far outside the tolerance


def test_the_right_prediction_passes_on_every_reading():
    verdict = lab.check_prediction(_needed, lab.Diagnosis(3, dict(_READING), []), show=False)
    assert verdict.passed, verdict
    assert "right on 3 readings you never saw" in verdict.message


@pytest.mark.mutants
def test_summing_the_kept_regions_fails_on_the_reading_whose_step_alone_grew():
    # within the old tolerance on the slow script's reading and on the region-scaled ones: only the new one tells
    assert abs(_sum_of_kept(_READING) - _needed(_READING)) <= 0.01 * _READING["step"]
    verdict = lab.check_prediction(_sum_of_kept, lab.Diagnosis(3, dict(_READING), []), show=False)
    assert verdict.status == checks.FAILED, verdict
    assert "a reading you never saw (3), its regions as the slow script's, its step longer" in verdict.message
    assert f"{_needed(hidden_readings(_READING)[-1]):.0f}" not in verdict.message  # never the expected value


@pytest.mark.mutants
def test_a_prediction_that_ignores_its_reading_still_fails():
    fixed = lab.check_prediction(lambda reading: _needed(_READING), lab.Diagnosis(3, dict(_READING), []), show=False)
    assert fixed.status == checks.FAILED and "a reading you never saw" in fixed.message
