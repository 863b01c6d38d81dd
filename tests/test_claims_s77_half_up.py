"""Lesson 07's KV-cache speed-up, worked from two printed times, is printed as a reader rounds it: half up (t38
run, c38: "1.60 ms ... against 4.12 ms ... 2.57x", where 4.12 / 1.60 = 2.575). ``claims.against_speedup`` keeps
``round`` for a measured figure (the ledger and the claims tables print the same median alike: 1.585 -> 1.58x);
the caller rounds a ratio of printed figures half up first."""

from utils import claims


def test_a_ratio_of_printed_times_on_a_tie_prints_half_up_where_the_caller_rounds_it():
    x = claims.half_up(claims.printed_ratio(4.12e-3, 1.60e-3, 2, 1e-3), 2)
    assert claims.against_speedup("KV cache", x, None).measured == "2.58x"


def test_a_measured_median_prints_as_python_prints_it_in_every_table():
    assert claims.against_speedup("x", 1.585, 2.0).measured == f"{1.585:.2f}x"
