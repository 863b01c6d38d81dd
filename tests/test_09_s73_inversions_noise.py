"""Lesson 09, t34_09 #3: a pair of message sizes is out of order only beyond the 10% one noisy median may miss
by (lesson 00's rule, ``EDGE``), the rule row B2 applies to its 4 B/4 KiB pair. Fabricated link times."""

import nbformat

from test_articles_checked_as_printed import _link_m
from utils.lessons.articles_checked import figures, timed_rows

# 4 B, 4 KiB, 64 KiB, 256 KiB, 1 MiB, 4 MiB in µs, as in t34's run: 4 KiB 103 against 93 and 97
T34 = [90e-6, 103e-6, 93e-6, 97e-6, 400e-6, 1500e-6]


def test_a_gap_within_10_percent_is_noise_not_out_of_order():
    assert figures.inversions(_link_m(T34)) == [(4096, 65536)]     # 103/93 = +10.8%; 103/97 = +6.2%: noise
    said = timed_rows.out_of_order_words(_link_m(T34))
    assert "took longer than the 64 KiB (93 µs) one" in said and "256 KiB" not in said, said
    assert "out of order beyond the 10% one noisy median may miss by (lesson 00's rule)" in said


def test_every_gap_within_noise_reads_in_order():
    within = [90e-6, 103e-6, 96e-6, 97e-6, 400e-6, 1500e-6]        # 103/96 = +7.3%
    assert figures.inversions(_link_m(within)) == []
    assert timed_rows.out_of_order_words(_link_m(within)) == ""


def test_cell_3_says_out_of_order_beyond_that_noise():
    nb = nbformat.read("notebooks/09_articles_checked.ipynb", as_version=4)
    assert ("any other pair out of order beyond the share lesson 00 allows one noisy median to miss by gives no "
            "fixed-cost reading") in nb.cells[3].source  # t35_09 #7: not lesson 00's edge (the fit's tolerance)
