"""Twenty-sixth reading (t26_0001 #3), lesson 01: a share of the roof is printed half up from the two GFLOP/s as
printed, as a reader works it: 1.4 / 1.6 = 87.5% prints 88% (``:.0%`` gave 87%, from 0.8749999 in floats)."""

from types import SimpleNamespace as NS

from utils.lessons.why_slow import roofline


def _point(achieved_gflops: float, ceiling_gflops: float, spread: float = 0.13):
    op = NS(name="add", flops=achieved_gflops * 1e9, bytes=1e8, intensity=0.0833)
    return roofline.Point(op, 1.0, spread, ceiling_gflops * 1e9, "memory")


def test_the_tables_share_is_the_printed_rates_ratio_half_up():
    row = roofline.points_rows([_point(1.355, 1.558)])[0]
    assert row[5:8] == ("1.4", "1.6", "88%")  # 1.4 / 1.6 = 0.875
    assert roofline.points_rows([_point(1.3, 1.6)])[0][7] == "81%"  # 0.8125: not a half, rounds down
