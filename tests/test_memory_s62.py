"""Lesson 06, the twenty-fourth reading (t24_0506): the autocast step's cause read beside pure bf16's, no threads
verdict from the minority of rounds, every round outside both bands counted."""

import pytest

from utils.lessons.memory import summary
from utils.lessons.memory.report import autocast_time_reading

UNITS = "this CPU's bf16 instructions (AVX512-BF16)"


@pytest.mark.parametrize("pure, said", [
    ("faster than fp32 beyond noise", "pure bf16, with no weight copies, was faster: what autocast adds, the "
                                      "casts most likely, outweighed the kernels' saving"),
    ("slower than fp32 beyond noise; round 2's 1.11x lies ...", "pure bf16, with no weight copies, was slower too"),
    ("within noise: no effect shown", "pure bf16, with no weight copies, was no faster beyond noise either"),
    ("", "the step was slower (the casts and the 16-bit kernels not timed apart)"),
])
def test_a_slower_autocast_step_names_the_casts_only_where_pure_bf16_was_faster(pure, said):
    # item 1: "the casts outweighed what the 16-bit path saved" beside pure bf16 slower too (1.07x ± 0.02)
    reading = autocast_time_reading("slower than fp32 beyond noise", 128, UNITS, pure=pure)
    assert "at this model's width (128) the 16-bit path did not pay: the step was slower" in reading
    assert said in reading and "not timed apart" in reading
    assert ("casts most likely" in reading) == pure.startswith("faster")


def test_the_faster_and_within_noise_autocast_readings_are_unchanged_by_pure_bf16():
    for pure in ("faster than fp32 beyond noise", "slower than fp32 beyond noise", ""):
        assert "what the 16-bit path saved outweighed the casts" in autocast_time_reading(
            "faster than fp32 beyond noise", 128, UNITS, pure=pure)
        assert "neither outweighed the other beyond noise" in autocast_time_reading(
            "within noise: no effect shown", 128, UNITS, pure=pure)


def test_most_rounds_past_the_bound_give_no_verdict_and_no_share():
    # item 2: 2.40x and 2.26x of 1.98-2.40x passed 2x; the verdict read round 2 alone: "98% of its gain"
    said = summary.threads_reading([2.40, 1.98, 2.26], 2, 1.3)
    assert ("2 threads ran at 2.26x one thread's rate (the median of each round's own ratio, 1.98-2.40x), against "
            "the bound 2.00x (the same work on 2 threads): 2 of 3 rounds (round 1's 2.40x and round 3's 2.26x) "
            "pass the 2x") in said
    assert said.endswith("the rounds disagree, no verdict from this run (load 1.3)")
    assert "of its gain" not in said and "under the bound" not in said and "verdict reads" not in said
    half = summary.threads_reading([2.3, 1.5, 2.4, 1.6], 2, 0.5)   # half the rounds past it: no verdict either
    assert "2 of 4 rounds" in half and "no verdict from this run" in half
    # the fewer past the bound: left out, the others judged with their median ± spread, as before
    fewer = summary.threads_reading([1.44, 3.70, 1.46], 2, 1.0)
    assert "the verdict reads the other rounds (1.44x, 1.46x: 1.45x ± 0.01): faster, under the bound" in fewer


def test_every_round_outside_both_bands_is_counted_the_one_across_1x_too():
    # item 4: round 2's 0.98x (across 1x) and round 5's 1.10x both lie more than 0.02 outside 1.02-1.07x and
    # 1.01-1.07x: "1 of 7 rounds" counted only round 5
    said = summary.accumulation_verdict(1.04, 0.03, [1.03, 0.98, 1.04, 1.05, 1.10, 1.02, 1.07])
    assert said.startswith("slower beyond noise; round 2's 0.98x was faster than one batch, past the ± (1.04 - "
                           "0.03 = 1.01x): not slower in every round, so the verdict holds for the rounds' median, "
                           "not for each round (no cause timed apart here)")
    assert said.endswith("round 5's 1.10x lies more than 0.02 outside both the rounds' middle half (1.02-1.07x) "
                         "and the ± (1.04 ± 0.03: 1.01-1.07x): an outlying moment of this run; with round 2's "
                         "0.98x named above, 2 of 7 rounds lie that far outside both")
    assert "a finding to explain" not in said and "1 of 7" not in said
    # the round across 1x within 0.02 of the bands (0.99x beside 1.01x): named above, not in the count
    near = summary.accumulation_verdict(1.04, 0.03, [1.03, 0.99, 1.04, 1.05, 1.10, 1.02, 1.07])
    assert "round 2's 0.99x was faster" in near and ": 1 of 7 rounds, an outlying moment" in near
    assert "named above" not in near
    # no round across 1x: the count as before, at its usual place
    alone = summary.accumulation_verdict(1.04, 0.03, [1.03, 1.02, 1.04, 1.05, 1.10, 1.02, 1.07])
    assert "1.10x lies more than 0.02 outside both" in alone and ": 1 of 7 rounds, an outlying moment of this run" in alone
    assert "named above" not in alone
    # 1.08x lies 0.01 past 1.07x: the highest of 7, not named
    assert "outlying" not in summary.accumulation_verdict(1.04, 0.03, [1.03, 1.02, 1.04, 1.05, 1.08, 1.02, 1.07])
    # a round across 1x alone, no other outlying round: named once, no count
    across = summary.accumulation_verdict(1.04, 0.03, [1.03, 0.99, 1.04, 1.05, 1.06, 1.02, 1.07])
    assert "round 2's 0.99x was faster than one batch" in across and "of 7 rounds" not in across
    # the threads verdict keeps its own words for a round across 1x (its load follows)
    threads = summary.threads_reading([1.29, 1.30, 0.79], 2, 0.4)
    assert "not faster in every round, a finding to explain" in threads and "load average was 0.4 on 2 cores" in threads
