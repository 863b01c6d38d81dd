"""Twenty-sixth reading (t26_labs48): lab 08's thread rounds fall in two groups only where a gap wider than
either group's range sets them apart (never on a ± that passes the far end by a hair); lab 05's verdict on the
epoch's own steps prints the 2% noise it is judged by. Fabricated figures, every branch."""

from __future__ import annotations

import pytest

from utils.labs.make_it_fast import threads_cost
from utils.labs.make_it_fast.threads_cost import threads_sentence
from utils.labs.make_it_fast.threads_short import _VERDICTS, threads_verdict

RUNS_ON = [1.81, 2.43, 2.55, 4.04, 23.50]  # 2.55x ± 0.81 reaches 1.74x, below 1.81x; 4.04x sits by 2.55x


def _flat(text: str) -> str:
    return " ".join(text.split())


def _timed(*ratios):
    return {"slow": 2, "launcher": 1, "ratios": list(ratios), "slow_ms": [], "launcher_ms": []}


@pytest.mark.parametrize("near, apart, expected", [
    ([1.76, 1.91, 3.10], [28.49, 34.36], True),     # gap 25.39 against ranges 1.34 and 5.87
    ([1.81, 2.43, 2.55], [4.04, 23.50], False),     # gap 1.49 against the far group's 19.46
    ([2.0, 2.1, 2.2], [2.5, 4.0], False),           # gap 0.30 against the far group's 1.50
    ([1.0, 3.0, 5.0], [6.0, 6.1], False),           # gap 1.00 against the near group's 4.00
    ([2.40, 2.45, 2.50], [0.10, 0.50], True),       # the far group below: gap 1.90 against 0.10 and 0.40
    ([2.0, 2.2], [2.6], True),                      # one round apart: its range is none
])
def test_groups_are_apart_only_where_the_gap_is_wider_than_either_groups_range(near, apart, expected):
    assert threads_cost.really_apart(near, apart) is expected


def test_a_spread_passing_the_smallest_round_by_a_hair_keeps_the_rounds_gathered():
    assert threads_cost.spread_apart(RUNS_ON) == (2.55, RUNS_ON, [], 0.81)
    assert threads_cost.gathered(RUNS_ON)
    said = _flat(threads_sentence(_timed(*RUNS_ON), 1153.7, None))
    assert "ran 2.55x ± 0.81 as fast" in said, said
    # 4.04x is an end of the middle half the ± is worked from: not outlying (thirty-seventh reading)
    assert "4.04x among them, which the ± is worked from" in said and "outlying" not in said, said
    assert "two groups" not in said and "neither group" not in said, said


@pytest.mark.parametrize("ratios, apart, side", [
    ((1.76, 1.91, 3.10, 28.49, 34.36), "a gap of 28.49 - 3.10 = 25.39x, wider than either group's range (3.10 - "
                                       "1.76 = 1.34x; 34.36 - 28.49 = 5.87x)",
     "reaches below zero, where no speed ratio lies (3.10 - 13.29 < 0) and stops short of the other group (3.10 + "
     "13.29 = 16.39x): one ± cannot describe two groups"),  # t27: no negative ratio printed
    ((0.10, 0.50, 2.40, 2.45, 2.50), "a gap of 2.40 - 0.50 = 1.90x, wider than either group's range (0.50 - 0.10 "
                                     "= 0.40x; 2.50 - 2.40 = 0.10x)",
     "reaches past the largest round (2.40 + 0.98 = 3.38x) and stops short of the other group (2.40 - 0.98 = "
     "1.42x): one ± cannot describe two groups"),
])
def test_two_groups_print_the_gap_that_sets_them_apart_on_either_side(ratios, apart, side):
    said = _flat(threads_sentence(_timed(*ratios), 1596.0, None))
    assert apart in said and side in said, said
    assert "describes neither group" not in said, said


def test_a_group_of_one_round_names_its_range_as_none():
    assert threads_cost._apart_text([2.0, 2.2], [2.6]) == ("a gap of 2.60 - 2.20 = 0.40x, wider than either "
                                                             "group's range (2.20 - 2.00 = 0.20x; one round, "
                                                             "2.60x: none)")


# --- lab 05 #2: the noise the steps-against-C verdict is judged by is printed --------------------------------


@pytest.mark.parametrize("seconds, waits, says", [
    (1.39, 0.09, "within the course's 2% timing noise of the 1.29 s measured alone (+1%)"),   # 1.30 / 1.29
    (1.41, 0.09, "within the course's 2% timing noise of the 1.29 s measured alone (+2%)"),   # 1.32: +2.3%
    (1.42, 0.09, "longer than the 1.29 s measured alone (+3%, past the course's 2% timing noise): a busy"),
])
def test_the_steps_against_c_print_their_percent_and_the_noise(seconds, waits, says):
    from utils.labs.feed_the_gpu.checks import _bound_uses
    from utils.lessons.data_prefetch.epoch import EpochResult

    said = _bound_uses(EpochResult(seconds, 32, waits), 1.35, load=1.08, compute=1.29, loaders=2)
    assert says in said, said


# --- lab 08's take-aways: the threads bullet opens with its conclusion in one line ---------------------------

KEPT = {"optimizer": 16.3, "evaluate": 194.8, "checkpoint": 30.4}


@pytest.mark.parametrize("timed, miss, says", [
    (None, 1040.0, "This run did not time the two thread counts without the profiler"),
    ({"slow": 1, "launcher": 1, "ratios": [], "slow_ms": [], "launcher_ms": []}, 1040.0,
     "The launcher gives the slow script's own thread count, so there was nothing to time"),
    (_timed(1.76, 1.91, 3.10, 28.49, 34.36), 1040.0,
     "ran faster with the launcher's 1 thread a worker than with its own 2 in every round (1.76x to 34.36x as "
     "fast), but the rounds fall in two groups, so how much that saves is not measured here"),
    (_timed(0.98, 0.99, 1.00, 1.01, 1.02), 1040.0, "within noise of the same speed, so the threads explain none"),
    (_timed(2.5, 2.5, 2.55, 2.6, 2.6), None, "with its own 2, but your step did not show that saving"),
    (_timed(*RUNS_ON), 1040.0, "ran a median 2.55x as fast with 1 thread a worker as with its own 2 (rounds 1.81x to "
                               "23.50x): whether that explains all of the 1040 ms"),
    (_timed(*RUNS_ON), 400.0, "ran a median 2.55x as fast with 1 thread a worker as with its own 2 (rounds 1.81x to 23.50x): that saves more "
                              "than all of the 400 ms your step ran under the prediction: a finding to explain"),
])
def test_the_threads_verdict_is_the_branch_the_sentence_takes(timed, miss, says):
    said = threads_verdict(timed, 1153.7, miss, KEPT)
    assert says in said, said
    if timed and timed["ratios"] and threads_cost.gathered(timed["ratios"]) and miss and "faster" not in says:
        sentence = threads_sentence(timed, 1153.7, miss, KEPT)
        if ", so " in says:  # no faster: the same "none" as the worked sentence
            assert says.split(", so ")[-1] in sentence
        else:  # the share of the miss: the kept words are the branch the worked sentence ends in
            assert [k for k, v in _VERDICTS.items() if v.format(miss=f"the {miss:.0f} ms your step ran under "
                                                                     "the prediction") in said][0] in sentence
