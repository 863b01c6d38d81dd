"""Lesson 06, section 8 (t36_0506 #1): the line under the offload table says what the threads reading in the
details found in the rounds, in that reading's own terms, for every outcome of it."""

from utils.lessons.memory import offload, summary

RATES = {1: 265e6, 2: 570e6}   # the fastest pair past the 2x bound: the column keeps to the bound


def test_rounds_that_disagree_read_no_verdict_as_the_details_do():
    paired = [2.30, 2.12, 1.01]   # 2 of 3 rounds past 2x: the threads reading gives no verdict
    said = offload.reference_doubt(paired, RATES, 2)
    assert "finding to explain" not in said
    assert said.endswith("passed it: not a rate to build on. In the threads reading (the details below), 2 of 3 "
                         "rounds' own ratios passed it too: the rounds disagree, no verdict from this run.")
    assert "the rounds disagree, no verdict from this run" in summary.threads_reading(paired, 2, 1.0)


def test_one_round_past_is_the_finding_the_details_name():
    paired = [1.80, 2.10, 1.95, 1.90]
    said = offload.reference_doubt(paired, RATES, 2)
    assert said.endswith("In the threads reading (the details below), round 2's 2.10x passed it too, a finding "
                         "to explain; the verdict there reads the other rounds.")
    assert "round 2's 2.10x passes the 2x that equal work on 2 threads allows, a finding to explain" in (
        summary.threads_reading(paired, 2, 1.0))


def test_every_round_past_and_no_round_past():
    every = offload.reference_doubt([2.05, 2.32, 2.37], RATES, 2)
    assert every.endswith("every round's own ratio passed it too; the cause is not timed apart here.")
    assert "every round passed it" in summary.threads_reading([2.05, 2.32, 2.37], 2, 1.0)
    none = offload.reference_doubt([1.80, 1.90, 1.95], RATES, 2)
    assert none.endswith("In the threads reading (the details below), no round's own ratio passed it: that "
                         "reading goes pair by pair.")


def test_under_the_bound_with_rounds_past_it_drops_the_too():
    said = offload.reference_doubt([2.30, 2.12, 1.01], {1: 300e6, 2: 580e6}, 2)   # fastest pair 1.93x
    assert said.startswith(" That column's rate is the 2-thread one, its fastest pair under the 2x bound")
    assert said.endswith("2 of 3 rounds' own ratios passed it: the rounds disagree, no verdict from this run.")
    assert offload.reference_doubt([1.80, 1.90, 1.95], {1: 300e6, 2: 580e6}, 2) == ""
