"""utils.claims' rules for figures as the page prints them: significant figures, a spread of rounds, and the
paired speed-up beside two medians. One rule each, shared by every lesson (a figure printed two ways is a
contradiction a reader finds)."""

import pytest

from utils import claims


@pytest.mark.parametrize("value, decimals", [(0.0146, 4), (0.146, 3), (3.63, 2), (12.4, 1), (123.0, 0),
                                             (1234.0, 0), (0.0, 0)])
def test_three_significant_figures_pick_the_decimals(value, decimals):
    assert claims.sig_decimals(value) == decimals


def test_significant_figures_keep_the_least_decimals_asked():
    assert claims.sig_decimals(512.0, 3, least=2) == 2       # the all-reduce table: never under 2 decimals
    assert claims.sig_text(0.5123, 3, least=2) == "0.512"


def test_a_time_as_printed_in_ms_to_three_figures():
    assert claims.as_printed_sig(0.01234, 3, 1e-3) == 12.3
    assert claims.sig_text(0.0001234, 3, 1e-3) == "0.123"
    assert claims.as_printed_sig(1.2344, 3, 1e-3) == 1234.0  # whole, never 1.23e+03
    assert claims.sig_text(1.2344, 3, 1e-3) == "1234"


def test_three_figures_round_half_up_and_print_what_they_round():
    """One rule for 3 significant figures: half up, as a reader rounds, and the text is that value."""
    assert f"{3.625:.2f}" == "3.62"                          # why: Python rounds the tie to even
    assert claims.as_printed_sig(3.625) == 3.63 and claims.sig_text(3.625) == "3.63"
    assert claims.as_printed_sig(1234, least=-3) == 1230.0   # tens, where a figure may round to tens
    assert claims.as_printed_sig(0.0) == 0.0 and claims.sig_text(0.0146) == "0.0146"
    assert claims.sig_text(1.2345e-8) == "0.0000000123"      # a tiny figure keeps its figures


def test_rounds_are_counted_past_a_mark_as_printed():
    """A round printed "1.78" is not above a bound printed "1.78x"; with more decimals shown it can be."""
    assert claims.one_side([1.7804, 1.79], 1.78) is None
    assert claims.one_side([1.79, 1.80], 1.78) == "above"
    assert claims.one_side([1.7796, 1.70], 1.78) is None     # 1.7796 prints 1.78: not below 1.78x
    assert claims.one_side([1.76, 1.70], 1.78) == "below"
    assert not claims.round_above(1.0004, 1.0)
    assert claims.round_above(1.0004, 1.0, shown=lambda x: round(x, 4))
    verdict = claims.speedup_verdict(1.78, 1.78, 0.01, rounds=[1.7804, 1.79, 1.775])
    assert verdict == "at the bound (within noise)"


def test_half_up_rounds_as_a_reader_does():
    assert round(0.045, 2) == 0.04                           # why the rule exists: 0.045 is 0.04499... in floats
    assert claims.half_up(0.045) == 0.05
    assert claims.half_up(1.49 - 1.46) == 0.03               # float error first wiped
    assert claims.half_up(0.0449) == 0.04


def test_a_spread_of_four_rounds_or_more_is_half_the_middle_half():
    assert claims.printed_spread([1.77, 1.75, 1.70, 1.68]) == 0.03   # (1.75 - 1.70) / 2 = 0.025, half up
    assert claims.printed_spread([1.774, 1.746, 1.704, 1.681]) == 0.03  # the rounds as printed, not unrounded


def test_a_spread_of_two_or_three_rounds_is_half_their_range_and_one_round_none():
    assert claims.printed_spread([1.49, 1.47, 1.46]) == 0.02
    assert claims.printed_spread([1.2]) == 0.0


def test_two_medians_that_divide_to_the_paired_figure_need_no_clause():
    assert claims.medians_divide_to(1.79, 175.0, 98.0) is None
    divided = claims.medians_divide_to(1.75, 175.0, 98.0)
    assert divided == 1.79
    assert claims.medians_clause(1.75, "175 ms", "98 ms", divided).endswith("(175 ms / 98 ms = 1.79x)")


def test_a_median_printed_as_zero_divides_by_its_rounding_step():
    assert claims.medians_divide_to(1.0, 1.0, 0.0) == pytest.approx(100.0)


def test_rounds_all_past_the_bound_are_not_at_the_bound_within_noise():
    # seventh reading: 1.80x ± 0.03 beside a 1.78x bound read "at the bound (within noise)" though every round
    # of five lay above it; the baseline's one-side rule now holds for the bound too
    above = claims.speedup_verdict(1.80, 1.78, 0.03, rounds=[1.79, 1.80, 1.80, 1.82, 1.84])
    assert above == "above the bound: a finding to explain (every round above 1.78x)"
    below = claims.speedup_verdict(1.76, 1.78, 0.03, rounds=[1.70, 1.74, 1.76, 1.77, 1.77])
    assert below == "faster, under the bound: 97% of its gain (every round below 1.78x)"
    both = claims.speedup_verdict(1.78, 1.78, 0.03, rounds=[1.74, 1.77, 1.78, 1.80, 1.81])
    assert both == "at the bound (within noise)"
    assert claims.speedup_verdict(1.80, 1.78, 0.03) == "at the bound (within noise)"   # no rounds given


def test_the_share_of_the_bounds_gain_rounds_half_up():
    assert claims.gain_share(1.77, 3.0) == "39%"        # 38.5 %: ":.0%" printed 38%
    assert claims.gain_share(1.25, 1.65) == "38%"
    assert claims.speedup_verdict(1.77, 3.0) == "faster, under the bound: 39% of its gain"


def test_a_share_of_a_bound_or_reference_rounds_half_up():
    assert claims.percent(0.385) == "39%" and claims.percent(0.384) == "38%"
    assert claims.bound_verdict(7.7, 20.0) == "39% of the bound"


def test_gain_share_range_spans_the_spread_as_printed():
    # (1.24 - 1) / (2 - 1) = 24 %, (1.56 - 1) / (2 - 1) = 56 %
    assert claims.gain_share_range(1.404, 0.158, 2.0) == " (24%-56% across its ±)"
    # 1.10 ± 0.60 under 1.50x runs from below 1x to past the bound: the low end as printed ((0.50 - 1) / 0.5),
    # said to reach below 1x; the high end clipped at 100 % (past it the verdict says "at the bound")
    assert claims.gain_share_range(1.10, 0.60, 1.50) == " (-100% to 100% across its ±, which reaches below 1x)"
    # a low end under 0 that rounds to 0 % prints 0 %: (0.99 - 1) / 3 = -0.3 %
    assert claims.gain_share_range(1.10, 0.11, 4.0) == " (0%-7% across its ±)"
    # both ends past the bound: one printed share, nothing to add
    assert claims.gain_share_range(2.60, 0.05, 1.50) == ""
    # lesson 05's three-decimal figures read as printed: (1.002 - 1) / 0.09 = 2 %, (1.042 - 1) / 0.09 = 47 %
    assert claims.gain_share_range(1.022, 0.020, 1.09, digits=3) == " (2%-47% across its ±)"
    # no spread, or one printed share at both ends: nothing to add
    assert claims.gain_share_range(1.40, 0.0, 2.0) == ""
    assert claims.gain_share_range(1.400, 0.001, 2.0) == ""
    # half up: (1.385 - 1) / 1 -> 38.5 % -> 39 %
    assert claims.gain_share_range(1.485, 0.10, 2.0) == " (39%-59% across its ±)"


def test_rounds_past_spread_are_above_the_mark_and_the_median_plus_spread_as_printed():
    rounds = [1.62, 1.70, 1.78, 1.86, 1.65]
    assert claims.rounds_past_spread(rounds, 1.70, 0.08, 1.78) == [1.86]  # 1.78 touches the band's top
    assert claims.rounds_past_spread(rounds, 1.80, 0.08, 1.78) == []      # the band reaches 1.88
    assert claims.rounds_past_spread([2.16, 2.26], 1.75, 0.45, 2.0) == [2.26]
    # as printed: 1.8649 prints 1.86, not above a top of 1.86
    assert claims.rounds_past_spread([1.8649], 1.78, 0.08, 1.78) == []
    assert claims.rounds_past_spread([], 1.0, 0.1, 1.0) == []


def test_medians_divide_to_rounds_the_worked_ratio_half_up():
    # 706 / 400 = 1.765: a reader writes 1.77x (the float division stores 1.7649999...)
    assert claims.medians_divide_to(1.76, 706, 400) == 1.77
    assert claims.medians_divide_to(1.77, 706, 400) is None
    assert "706 ms / 400 ms = 1.77x" in claims.medians_clause(1.76, "706 ms", "400 ms", 1.77)


def test_rounds_on_one_side_of_a_bound_at_the_baseline_are_said_once():
    """Lesson 07's article split (bound 1x, baseline 1x): the rounds' side was printed twice, once for the
    baseline and once for the bound, "(every round above 1.00x) (every round above 1.00x)"."""
    said = claims.speedup_verdict(1.02, 1.0, 0.03, rounds=[1.01, 1.02, 1.04])
    assert said == "above the bound: a finding to explain (every round above 1.00x)", said
    # a bound above the baseline keeps both notes: they say different things
    both = claims.speedup_verdict(1.02, 1.5, 0.03, rounds=[1.01, 1.02, 1.04])
    assert both == "faster, under the bound: 4% of its gain (every round above 1.00x)", both


def test_a_signed_share_prints_half_up_away_from_zero():
    """One rule for residuals and changes (lesson 05 prints through it): -22.5 % is -23 %, never -0 %."""
    assert claims.signed_percent((0.280 - 0.343) / 0.280) == "-23%"
    assert claims.signed_percent(0.225) == "+23%" and claims.signed_percent(-0.2249) == "-22%"
    assert claims.signed_percent(-0.004) == "0%" and claims.printed_percent(-0.225) == -23.0


def test_no_lesson_prints_a_signed_share_with_the_half_even_format():
    # ``:+.0%`` rounds the binary float half to even (-0.225 -> "-22%"); every signed share goes through
    # claims.signed_percent, which rounds half up as the reader does and never prints "-0%"
    import pathlib
    root = pathlib.Path(__file__).resolve().parents[1] / "utils"
    offenders = [str(p.relative_to(root)) for p in root.rglob("*.py")
                 if p.name != "claims.py" and ":+.0%}" in p.read_text()]
    assert offenders == [], offenders


def test_two_runs_agree_where_either_median_and_its_spread_covers_the_other():
    # t25 (one rule for two launches, two lessons): a wide band may cover a narrow one that does not reach back
    assert claims.runs_agree(0.97, 0.10, 0.99, 0.01)       # 0.87-1.07 covers 0.99; 0.98-1.00 misses 0.97
    assert claims.runs_agree(0.99, 0.01, 0.97, 0.10)       # either order
    assert claims.runs_agree(1.08, 0.09, 0.99, 0.0)        # the edge as printed (0.99 exactly): within noise
    assert not claims.runs_agree(1.20, 0.05, 1.00, 0.05)   # 1.15-1.25 and 0.95-1.05: apart


def test_a_speedups_spread_is_printed_half_up():
    # t26_0506 #3: 1.80 x 2.5% = 0.045 prints 0.05 (round() gives 0.04: 0.045 is stored as 0.04499...)
    assert claims.against_speedup("x", 1.80, 1.82, spread=1.80 * 0.025).measured == "1.80x ± 0.05"
    assert claims.against_speedup("x", 1.80, 1.82, spread=0.044).measured == "1.80x ± 0.04"
