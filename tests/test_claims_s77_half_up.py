"""A speed-up worked from two printed times is printed as a reader rounds it: half up (t38 run, lesson 07 c38:
"1.60 ms ... against 4.12 ms ... 2.57x", where 4.12 / 1.60 = 2.575)."""

from utils import claims


def test_a_ratio_of_printed_times_on_a_tie_prints_half_up():
    row = claims.against_speedup("KV cache", claims.printed_ratio(4.12e-3, 1.60e-3, 2, 1e-3), None)
    assert row.measured == "2.58x"


def test_a_bound_on_a_tie_prints_half_up():
    assert claims.against_speedup("x", 1.5, 2.125, digits=2).against == "bound 2.13x"
