"""Thirty-fifth reading, other problems (t35_0506): lesson 05 cell 18 says its first-batch wait is one row's while
the next section takes off the median of every fresh start (213 against 211 ms); lesson 06's offload note divides
the column's time, not "it" (a rate heads the column, a time fills it)."""
from test_fix_s54b_030405 import cell_source


def test_cell_18_says_the_next_section_uses_the_median_of_every_fresh_start():
    # said in the collapsed block under the verdict since t42_0506 (the verdict's parenthesis was 55 words)
    cell = cell_source("05_data_prefetch.ipynb", 18)
    assert "which the next \"\n                      \"section times and takes off, from the median of every " in cell
    assert "fresh start, not this row's alone." in cell


def test_the_offload_note_divides_the_columns_time():
    cell = cell_source("06_memory.ipynb", 43)
    assert "divides the column's time by its speed-up over this rate" in cell
    assert "divides it by" not in cell
