"""Lessons 05 and 06, twenty-seventh reading (t27_0506) and the lead's items beside it."""

import pytest

from utils import claims
from utils.lessons.data_prefetch import report


def test_the_gain_verdicts_range_uses_the_spread_the_row_prints_half_up():
    # 1.80x ± 0.045 under 2.00x: the row prints ± 0.05 (half up); round() would give 0.04 and a range 70%-90%
    row = report.speedup_claim("c", 1.80, 2.0, 0.045, "slower")
    assert "± 0.05" in row.measured
    assert row.verdict == "faster, under the bound: 80% of its gain" + claims.gain_share_range(1.80, 0.05, 2.0)
    assert row.verdict.endswith(" (75%-85% across its ±)")
    assert report.gain_verdict(1.80, 2.0, 0.045, "slower").endswith(" (75%-85% across its ±)")
