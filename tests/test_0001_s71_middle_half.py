"""Thirty-second reading (t32_0001 #1), lesson 01 section 5: a range built from a speed-up (its share of the
ceiling's gain, torch.compile's saving and payback) is worked from the ends of the rounds' middle half, never
from median ± its spread, which with skewed rounds (three near 2.5x, two disturbed near 5x) reaches below every
round measured. Fabricated figures."""

from utils.lessons.why_slow import algorithms_report, report
from utils.lessons.why_slow.algorithms import Comparison, gain_share_span


def pair(fast, slow_ms, fast_ms, rounds, ceiling=11.0):
    return Comparison("GELU", "gelu_op_by_op", fast, slow_ms * 1e-3, fast_ms * 1e-3, 2e-7, "20 of 22",
                      round_ratios=rounds, ceiling=ceiling)


# sorted 2.30, 2.50, 2.70, 4.70, 5.10: median 2.70x, ± (4.70 - 2.50) / 2 = 1.10, so median - ± = 1.60x, under
# every round; the middle half runs 2.50x to 4.70x
SKEWED = pair("gelu_fused", 9.00, 3.50, (4.70, 2.70, 5.10, 2.50, 2.30))


def test_the_middle_half_is_two_rounds_as_printed():
    assert SKEWED.middle_half == (2.5, 4.7)
    assert pair("b", 9.0, 3.5, (2.004, 2.996, 3.0, 3.1)).middle_half == (3.0, 3.0)  # 4 rounds: 2nd and 3rd
    assert pair("b", 9.0, 3.5, ()).middle_half is None


def test_the_gain_range_never_leaves_the_rounds():
    # (2.50 - 1) / 10 = 15%, (4.70 - 1) / 10 = 37%; median ± would have said (1.60 - 1) / 10 = 6%
    assert SKEWED.verdict == "faster, under the bound: 17% of its gain (15%-37% across its rounds' middle half)"
    assert "6%" not in SKEWED.verdict


def test_the_gain_span_caps_at_the_ceiling_and_says_a_low_end_under_1x():
    assert gain_share_span(2.0, 12.0, 11.0) == " (10%-100% across its rounds' middle half)"
    assert gain_share_span(0.9, 3.0, 11.0) == " (-1% to 20% across its rounds' middle half, which reaches below 1x)"
    assert gain_share_span(0.996, 3.0, 11.0) == " (0%-20% across its rounds' middle half)"   # -0.04%: 0%
    assert gain_share_span(3.0, 3.04, 11.0) == ""   # 20% at both ends: one figure, no range
    assert pair("b", 9.0, 3.0, (3.0,) * 5).verdict == "faster, under the bound: 20% of its gain"


def test_the_payback_range_is_worked_from_the_middle_half():
    # compiled: sorted 2.37, 2.39, 2.48, 4.71, 5.20 on 8.88 ms, fastest 3.75 ms: the cap 8.88 - 3.75 = 5.1 ms;
    # at 2.39x 8.88 (1 - 1/2.39) = 5.16 -> 5.2, capped 5.1, and at 4.71x capped too: one figure, no range
    capped = pair("compiled GELU", 8.88, 3.75, (5.20, 2.39, 4.71, 2.48, 2.37))
    assert algorithms_report.payback_range(1.7, capped) is None
    said = report.payback_sentence(1.7, capped)
    assert "pays back after 334 calls." in said and "across" not in said
    row = report.payback_claim(1.7, capped)
    assert row.verdict.endswith("it pays back after 334 calls") and "2.2" not in row.against
    # a wider cap (fastest 3.10 ms, 2.90x, within 10% of the median 2.70x: the rounds agree, t34_0001 #1): the low
    # end 2.50x saves 9.00 (1 - 1/2.50) = 5.4 ms, the high end 4.70x 7.1 -> the cap 9.00 - 3.10 = 5.9
    wide = pair("compiled GELU", 9.00, 3.10, (4.70, 2.70, 5.10, 2.50, 2.30))
    assert algorithms_report.payback_range(1.7, wide) == (5.4, 5.9, 289, 315)
    assert report.payback_sentence(1.7, wide).endswith(
        "; across the rounds' middle half (2.50x to 4.70x): 5.4 to 5.9 ms saved (each capped at the fastest times' "
        "difference), after 289 to 315 calls.")  # the high end capped: said, though the median is not
