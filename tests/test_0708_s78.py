"""Reader t39_0708, lessons 07 and 08: each verdict keeps the lesson's own 5 % margin and its ceiling's words,
in every outcome."""

from utils.lessons.putting_it_together import report as ledger
from utils.lessons.tensor_parallel import article_rounds, report, verdicts

ONE = [1.0] * 10


def _rounds_words(ratios):
    claim = report.article_claim("split", list(ratios), ONE[:len(ratios)])
    return article_rounds.rounds_words(list(ratios), ONE[:len(ratios)], claim.verdict)


def test_a_round_past_1x_by_less_than_the_5_percent_tolerance_is_noise_not_a_finding():
    """t39 #2: 1.01x beside 1.13x, both past the median + the spread; only 1.13x clears 1x by 0.05."""
    said = _rounds_words([1.13, 1.01, 0.95, 0.94, 0.93, 0.96, 0.95, 0.90, 0.92, 0.97])
    assert "round 1.13x passed the 1x this split cannot pass" in said and "a finding to explain" in said
    assert ("round 1.01x passed 1x by less than 0.05, the lesson's 5 % tolerance for timing noise: within "
            "noise of the bound, not a finding") in said
    assert "rounds 1.13x and 1.01x" not in said
    alone = _rounds_words([0.95, 0.93, 0.97, 1.01, 0.95, 0.94, 0.96, 0.95, 0.93, 0.97])
    assert "a finding to explain" not in alone and "not a finding" in alone
    assert "a finding to explain" in _rounds_words([0.95, 0.93, 0.97, 1.05, 0.95, 0.94, 0.96, 0.95, 0.93, 0.97])


def test_a_cpu_time_below_its_floor_within_noise_never_reads_holds():
    """t39 #3: 14.86 ms against a 15.49 ms floor is within noise of it, not the floor holding."""
    said = verdicts.cpu_row_verdict({"ranks": [{"thread_cpu": 14.86e-3, "compute": 15.49e-3}]})
    assert "model holds" not in said
    assert "below it by 0.63 ms, within the 5 % tolerance (0.77 ms)" in said
    assert "within noise of the model's floor, not a break of it shown" in said


def _caption(late, window=0.02113):
    return verdicts.drawn_pass_caption(2, [0.0300, 0.02111], [0.0194, 0.0453], [0.0264, 0.0281], window, 0.0,
                                       late)


def test_a_remainder_within_the_printed_figures_rounding_is_given_no_cause():
    """t39 #5: 0.02 ms after, 0.01 ms of it a late return: the 0.01 ms left is rounding, not a sub-layer."""
    said = _caption(0.00001)
    assert "its last sub-layer ended" not in said
    assert ("ended 0.02 ms after rank 0, having stayed 0.01 ms in the pass's last all-reduce after rank 0 had "
            "returned (a late return); the 0.01 ms between the two is within the rounding") in said
    said = _caption(0.00001, window=0.02116)   # 0.05 ms after, 0.01 of it late: 0.04 ms is past the rounding
    assert "and its last sub-layer ended 0.04 ms later" in said


ABOVE = {"step": "optimizer", "kept": True, "paid": True, "x_prev": 1.16, "bound": 1.12, "share": 0.16 / 0.12,
         "within": True}


def test_a_median_above_its_ceiling_gets_no_share_over_100_percent_and_says_at_its_bound():
    """t39 #4: 1.16x ± 0.05 against a 1.12x bound printed "133% of its gain" and a bare summary line."""
    said = ledger.step_verdict("at the bound (within noise)", ABOVE)
    assert "133%" not in said
    assert said == "faster beyond noise, within noise of its bound: its median above it by less than its ±; kept"
    below = ledger.step_verdict("at the bound (within noise)", {**ABOVE, "x_prev": 1.10})
    assert "83% of its gain" in below
    assert ledger.share_words(ABOVE) == "at its bound within noise"
    assert ledger.share_words({**ABOVE, "within": False}) == "past its bound beyond noise"
    assert ledger.share_words({**ABOVE, "share": 0.32}) == "32%"
    assert ledger.bound_clause(ABOVE) == "bound 1.12x; at it within noise"
    assert ledger.bound_clause({**ABOVE, "x_prev": 1.10}) == "bound 1.12x"
    assert ledger.bound_clause({**ABOVE, "bound": None}) == "no bound from theory"
