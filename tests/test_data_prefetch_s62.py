"""Lesson 05, the twenty-fourth reading (t24_0506): the share of the gain's range is never clipped at 0%."""

from utils import claims
from utils.lessons.data_prefetch import report


def test_a_range_reaching_below_1x_prints_its_negative_end_not_0_percent():
    # item 5: 1.09x ± 0.13 under 4.00x was printed "(0%-7% across its ±)", where (0.96 - 1) / 3 = -1%
    below = report.gain_verdict(1.09, 4.0, 0.13, "slower than float32", rounds=[1.05, 1.09, 1.20])
    assert below == ("faster, under the bound: 3% of its gain (-1% to 7% across its ±, which reaches below 1x) "
                     "(every round above 1.00x)")
    assert "0%-" not in below


def test_a_range_within_the_gain_and_one_that_rounds_to_0_percent_read_as_printed():
    # the other outcomes: a low end above 0 (13%-30%), one a hair under 0 that prints 0% with no sign
    assert claims.gain_share_range(1.13, 0.05, 1.6) == " (13%-30% across its ±)"
    assert claims.gain_share_range(1.10, 0.11, 4.0) == " (0%-7% across its ±)"   # (0.99 - 1) / 3 = -0.3%
    assert claims.gain_share_range(1.40, 0.20, 2.0) == " (20%-60% across its ±)"
    assert claims.gain_share_range(1.25, 0.05, 3.0) == " (10%-15% across its ±)"   # 0.20 / 2, 0.30 / 2
