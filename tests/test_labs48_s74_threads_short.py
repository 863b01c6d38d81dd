"""Thirty-fifth reading (t35_labs48): lab 08's kept sentence on the thread count parses (#1): the comparison
named in full (the slow script's forward and backward at each count), the miss named where it is used, and the
rounds' range instead of a ± that leaves out most of them; the worked block's rounds clause and kept regions in
plain words (#2), the part of the miss joined to the sentence it follows from (other 1). Fabricated figures,
every branch."""

from __future__ import annotations

import pytest

from utils.labs.make_it_fast import threads_cost, threads_short
from utils.labs.make_it_fast.threads_short import threads_verdict

KEPT = {"optimizer": 16.3, "evaluate": 194.8, "checkpoint": 30.4}   # 16.3 + 194.8 / 6 + 30.4 / 6 = 54 ms
HEAD = "Timed without the profiler, the slow script's forward and backward ran "


def _timed(*ratios, launcher=1):
    return {"slow": 2, "launcher": launcher, "ratios": list(ratios), "slow_ms": [], "launcher_ms": []}


@pytest.mark.parametrize("timed, miss, says", [
    (None, 900.0, "This run did not time the two thread counts without the profiler"),
    (_timed(), 900.0, "The launcher gives the slow script's own thread count, so there was nothing to time"),
    # 1.00x ± 0.00 with rounds on neither side: within noise
    (_timed(1.0, 1.0, 1.0, 1.0, 1.0), 900.0,
     HEAD + "1.00x ± 0.00 as fast with 1 thread a worker as with its own 2: within noise of the same speed, so the "
            "threads explain none of the 900 ms your step ran under the prediction"),
    (_timed(1.0, 1.0, 1.0, 1.0, 1.0), None,
     HEAD + "1.00x ± 0.00 as fast with 1 thread a worker as with its own 2: within noise of the same speed, so the "
            "thread count saved nothing measured here"),
    (_timed(0.5, 0.55, 0.6, 0.62, 0.65), 900.0,
     HEAD + "0.60x ± 0.04 as fast with 1 thread a worker as with its own 2: its own count ran faster, so the "
            "threads explain none of the 900 ms your step ran under the prediction"),
    # 3.10x ± 0.68 leaves out 1.90x, 1.95x and 18.00x: the median and the rounds' range, no ±
    (_timed(1.9, 1.95, 3.1, 3.3, 18.0), 700.0,
     HEAD + "a median 3.10x as fast with 1 thread a worker as with its own 2 (rounds 1.90x to 18.00x): whether "
            "that explains all of the 700 ms your step ran under the prediction is not told apart here"),
    (_timed(1.9, 1.95, 3.1, 3.3, 18.0), None,
     HEAD + "a median 3.10x as fast with 1 thread a worker as with its own 2 (rounds 1.90x to 18.00x), but your "
            "step did not show that saving: a finding to explain"),
    (_timed(2.9, 3.0, 3.0, 3.0, 3.1), 770.0,
     HEAD + "3.00x ± 0.00 as fast with 1 thread a worker as with its own 2: that explains all of the 770 ms your "
            "step ran under the prediction, within noise"),
    (_timed(2.9, 3.0, 3.0, 3.0, 3.1, launcher=2), 60.0,
     HEAD + "3.00x ± 0.00 as fast with 2 threads a worker as with its own 2: that saves more than all of the 60 ms "
            "your step ran under the prediction: a finding to explain"),
    # 50 ms missed, 54 ms kept: the other regions could hold it all
    (_timed(1.03, 1.04, 1.04, 1.04, 1.05), 50.0,
     HEAD + "1.04x ± 0.00 as fast with 1 thread a worker as with its own 2: the other regions the prediction keeps "
            "could hold all of the 50 ms your step ran under the prediction, so how much of it that explains is "
            "not told apart here"),
    (_timed(1.8, 1.85, 1.9, 1.95, 2.0), 1500.0,
     HEAD + "1.90x ± 0.05 as fast with 1 thread a worker as with its own 2: that explains part of the 1500 ms your "
            "step ran under the prediction, not all of it"),
    (_timed(1.76, 1.91, 3.10, 28.49, 34.36), 900.0,
     HEAD + "faster with the launcher's 1 thread a worker than with its own 2 in every round (1.76x to 34.36x as "
            "fast), but the rounds fall in two groups, so how much that saves is not measured here"),
])
def test_the_kept_thread_sentence_names_what_ran_against_what(timed, miss, says):
    said = threads_verdict(timed, 1153.7, miss, KEPT)
    assert said == says, said
    assert "the launcher's count ran" not in said and "The thread count:" not in said


def test_each_share_branch_has_kept_words_and_is_the_worked_sentence_s():
    assert set(threads_short._VERDICTS) == {"more than the whole miss, a finding to explain", threads_cost.PART,
                                            "the threads explain the whole miss, within noise",
                                            "how much of that part the threads explain is not told apart here",
                                            "whether the threads explain all of it is not told apart here"}
    for timed, miss in ((_timed(1.9, 1.95, 3.1, 3.3, 18.0), 700.0), (_timed(1.03, 1.04, 1.04, 1.04, 1.05), 50.0),
                        (_timed(2.9, 3.0, 3.0, 3.0, 3.1), 770.0), (_timed(2.9, 3.0, 3.0, 3.0, 3.1), 60.0),
                        (_timed(1.8, 1.85, 1.9, 1.95, 2.0), 1500.0)):
        said = threads_verdict(timed, 1153.7, miss, KEPT)
        worked = threads_cost.threads_sentence(timed, 1153.7, miss, KEPT)
        branch = [k for k, v in threads_short._VERDICTS.items()
                  if v.format(miss=threads_short._miss_words(miss)) in said]
        assert len(branch) == 1 and branch[0] in worked, (said, worked)


def test_the_same_speed_as_printed_without_noise_says_no_faster():
    said = threads_short._no_faster(_timed(1.0), "no faster than the baseline: no speed-up", ("1.00x ± 0.00", ""),
                                    900.0)
    assert said.endswith("as with its own 2: no faster, so the threads explain none of the 900 ms your step ran "
                         "under the prediction"), said


def test_the_rounds_clause_says_why_the_spread_leaves_out_most_rounds():
    said = threads_cost._past_spread_text([1.9, 1.95, 3.1, 3.3, 18.0])
    assert said.endswith("leaves out 3 of the 5 rounds, 1.95x among them, which the ± is worked from (half the "
                         "middle half's range, (3.30 - 1.95) / 2), as a ± built from the middle half of the rounds does by "
                         "design (about half of them); the rounds run 1.90x to 18.00x"), said
    assert "make-up" not in said


def test_the_kept_regions_name_the_thread_count_and_lead_to_the_part_of_the_miss():
    said, _, _ = threads_cost._share_text((300.0, 330.0), (280.0, 350.0), 400.0, (54.0, "w"), "")
    assert ("(w ms as profiled, run at the slow script's thread count too, not timed apart), at most those 54 ms, "
            "so forward and backward's part of the miss is 346 to 400 ms. On either scaling") in said, said
    assert ". So forward and backward's part" not in said
