"""Thirtieth reading (t30_0001 #1), lesson 01 section 5: torch.compile's payback is worked from the speed-up the
lesson stands by (the rounds' median) on the op-by-op's printed time, not from the two fastest times' difference
(whose ratio section 5 rejects as a speed-up), and is printed across the rounds' middle half (t32_0001 #1: not
median ± spread, which can reach below every round). Fabricated figures."""

from utils.lessons.why_slow import algorithms_report, report
from utils.lessons.why_slow.algorithms import Comparison


def compiled(slow_ms, fast_ms, rounds):
    return Comparison("GELU", "gelu_op_by_op", "compiled GELU", slow_ms * 1e-3, fast_ms * 1e-3, 2e-7, "20 of 22",
                      round_ratios=rounds, ceiling=11.0)


# rounds as printed 1.34, 2.41, 2.84, 3.00, 5.58: median 2.84x, middle half 2.41x-3.00x; the compiled fastest
# 2.88 ms (8.98 / 2.88 = 3.12x, within 10% of the median: the rounds agree, t34_0001 #1) leaves room for every
# saving below (8.98 - 2.88 = 6.1 ms; t31_0001 #1 caps a saving past it, test_0001_s70_payback_cap)
WIDE = compiled(8.98, 2.88, (1.34, 2.41, 2.84, 3.00, 5.58))


def test_the_saving_is_the_median_speed_up_on_the_printed_slow_time():
    assert algorithms_report.saved_ms(8.98, 2.84) == 5.8  # 8.98 - 8.98 / 2.84 = 5.818
    assert algorithms_report.saved_ms(10.0, 4.0) == 7.5   # a tie rounds half up
    first, saved, calls = report.payback(1.74, WIDE)
    assert (first, saved, calls) == (1.7, 5.8, 294)  # 1.7 s / 5.8 ms = 293.1: after 294, not 321 (from 5.3 ms)


def test_the_sentence_shows_its_working_and_its_range_across_the_plus_minus():
    said = report.payback_sentence(1.74, WIDE)
    assert said.startswith("torch.compile's first call took 1.7 s; at its median speed-up, 2.84x, on the "
                           "op-by-op's 8.98 ms, it saves 8.98 - 8.98 / 2.84 = 5.8 ms a call and pays back after "
                           "294 calls; across the rounds' middle half (2.41x to 3.00x): ")
    # 8.98 (1 - 1/2.41) = 5.25 -> 5.3 ms, 1.7 / 5.3 = 320.8 -> 321; 8.98 (1 - 1/3.00) = 5.99 -> 6.0, 283.3 -> 284
    assert said.endswith("5.3 to 6.0 ms saved, after 284 to 321 calls.")
    assert "6.1 ms" not in said  # 8.98 - 2.88, the fastest times' difference, a ceiling not reached here


def test_the_claims_row_carries_the_same_range():
    row = report.payback_claim(1.74, WIDE)
    assert row.against == "5.8 ms saved a call (5.3 to 6.0 across the rounds' middle half)"
    assert row.verdict == "not run here (a few rounds timed): worked from the times, it pays back after 294 calls (284 to 321 across the rounds' middle half)"


def test_a_plus_minus_that_moves_no_printed_saving_prints_no_range():
    narrow = compiled(10.5, 1.5, (6.9, 6.95, 7.0, 7.05, 7.1))  # 8.9 ms at 6.95x and at 7.05x alike
    assert algorithms_report.payback_range(1.84, narrow) is None
    assert "across" not in report.payback_sentence(1.84, narrow)
    steady = compiled(10.5, 1.5, (7.0,) * 5)  # no ± measured
    assert algorithms_report.payback_range(1.84, steady) is None
    assert report.payback_claim(1.84, steady).verdict == "not run here (a few rounds timed): worked from the times, it pays back after 200 calls"


def test_a_low_end_that_saves_under_a_tenth_of_a_ms_leaves_the_most_calls_open():
    # median 1.20x ± 0.19 (rounds 1.0, 1.01, 1.2, 1.39, 1.4): faster, and its low end 1.01x on 1.00 ms saves 0.0
    barely = compiled(1.0, 0.8, (1.0, 1.01, 1.2, 1.39, 1.4))
    assert barely.faster
    least, most, fewest, longest = algorithms_report.payback_range(1.74, barely)
    assert (least, longest) == (0.0, None)
    said = report.payback_sentence(1.74, barely)
    assert "calls or more (at its low end it saves under 0.1 ms a call: no payback counted)" in said
    assert report.payback_claim(1.74, barely).verdict.endswith("or more across the rounds' middle half)")


def test_no_payback_where_not_faster_or_saving_under_a_tenth():
    noisy = compiled(1.02, 1.0, (0.9, 1.0, 1.02, 1.1, 1.2))
    assert report.payback(1.74, noisy)[2] is None and "no payback is shown" in report.payback_sentence(1.74, noisy)
    tiny = compiled(1.04, 1.0, (1.04,) * 5)  # 1.04 - 1.04 / 1.04 = 0.04: prints 0.0
    assert report.payback(1.94, tiny)[2] is None and "under 0.1 ms" in report.payback_sentence(1.94, tiny)
    assert report.payback_claim(1.94, tiny).verdict == "does not hold: its saving a call prints as 0.0 ms"
