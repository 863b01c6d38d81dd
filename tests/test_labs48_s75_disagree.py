"""Thirty-sixth reading (t36_labs48 #1): lab 08 reads no saving from a timing alone that disagrees with the
profile (a micro-batch alone slower, beyond the rounds' noise, than one under the profiler, which only adds
work), and says the profiler slowed the slow script only where this run saw it do so. Fabricated figures,
every branch."""

from __future__ import annotations

import pytest

from utils.labs.make_it_fast import threads_agree
from utils.labs.make_it_fast.checks import Diagnosis
from utils.labs.make_it_fast.threads_cost import threads_sentence
from utils.labs.make_it_fast.threads_short import threads_verdict

RATIOS = [2.25, 20.32, 22.72, 25.14, 26.31]
READING = {"optimizer": 253.8, "evaluate": 328.1, "checkpoint": 28.4}


def _timed(slow_ms, ratios=RATIOS):
    return {"slow": 2, "launcher": 1, "ratios": list(ratios), "slow_ms": list(slow_ms),
            "launcher_ms": [s / r for s, r in zip(slow_ms, ratios)]}


BUSY = _timed([300.0, 880.0, 919.2, 960.0, 1000.0])   # median 919.2 ± 40.0 a micro-batch; profiled 128.9
QUIET = _timed([100.0, 110.0, 115.0, 120.0, 130.0])   # median 115.0 ± 5.0: the profiled 128.9 is slower
CLOSE = _timed([150.0, 150.0, 150.0, 150.0, 150.0])   # median 150.0 ± 0.0: a tenth, 15.0, sets the edge, 135.0


@pytest.mark.parametrize("timed, fb, disagree, slowed", [
    (None, 515.5, False, False),
    (_timed([]), 515.5, False, False),
    (BUSY, 515.5, True, False),
    (QUIET, 515.5, False, True),
    (_timed([128.9] * 5), 515.5, False, False),        # equal as printed: neither slower
    # median 130.0 ± 2.0: 128.9 is faster than the median but within the rounds' noise (edge 128.0)
    (_timed([125.0, 128.0, 130.0, 132.0, 135.0]), 515.5, False, False),
])
def test_disagreement_and_slowing_are_read_from_the_run(timed, fb, disagree, slowed):
    assert threads_agree.timings_disagree(timed, fb) is disagree
    assert threads_agree.profiler_slowed(timed, fb) is slowed
    assert threads_agree.profiler_words(timed, fb) == (", which slowed it here" if slowed else "")


def test_a_profiled_micro_batch_just_below_the_rounds_noise_disagrees():
    # median 150.0, ± 0.0: the edge is 150.0 - 15.0 = 135.0; 128.9 lies below it
    assert threads_agree.timings_disagree(CLOSE, 515.5)
    # the edge itself is noise: 540.0 / 4 = 135.0 is not below 135.0
    assert not threads_agree.timings_disagree(CLOSE, 540.0)
    # median 919.2 ± 40.0: a tenth, 91.9, is wider, so the edge is 827.3


def test_the_worked_block_reads_no_saving_from_timings_that_disagree():
    said = threads_sentence(BUSY, 515.5, 645.0, READING)
    assert "919.2 - 91.9 = 827.3 ms, the larger of their ± and a tenth" in said and "515.5 / 4 = 128.9 ms a micro-batch" in said
    assert "the two timings disagree" in said
    # t39: no speed-up opens the block that then throws its own timing out
    assert said.startswith("timed alone, without the profiler, the slow script's forward and backward gave rounds' "
                           "ratios of a median") and "as fast" not in said and "oversubscribing" not in said
    assert said.endswith("how much of the prediction's 645 ms miss the threads explain is not measured here")
    for absent in ("saves", "3677", "%", "the rest"):
        assert absent not in said.split("gave, smallest first")[1]
    assert threads_sentence(BUSY, 515.5, None, READING).endswith(
        "what the thread count saves a step is not measured here")


def test_the_kept_sentence_reads_no_saving_from_timings_that_disagree():
    said = threads_verdict(BUSY, 515.5, 645.0, READING)
    assert said.startswith("Timed without the profiler, the slow script's forward and backward took a median "
                           "919.2 ms a micro-batch at its own 2 threads, against 128.9 ms under the profiler"), said
    assert said.endswith("nor what it saves of the 645 ms your step ran under the prediction is measured")
    assert threads_verdict(BUSY, 515.5, None, READING).endswith("nor what it saves a step is measured")


def test_timings_that_agree_still_scale_the_saving():
    assert "saves" in threads_sentence(QUIET, 515.5, 645.0, READING)
    assert "disagree" not in threads_verdict(QUIET, 515.5, 645.0, READING)


@pytest.mark.parametrize("timed, words", [(None, ""), (BUSY, ""), (QUIET, ", which slowed it here")])
def test_the_diagnosis_says_the_profiler_slowed_it_only_where_this_run_saw_it(timed, words):
    diagnosis = Diagnosis(3, {"step": 1222.0, "forward and backward": 515.5}, [], timed)
    assert diagnosis.profiler_words == words
    assert Diagnosis(3, {"step": 1222.0}, [], timed).profiler_words == ""   # no profiled row: nothing said
