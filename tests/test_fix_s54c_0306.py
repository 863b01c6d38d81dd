"""Fourteenth reading, lessons 03 and 06 (readers t14_0304 and t14_0506): each printed sentence follows from
the figures printed beside it, judged as printed, on every outcome branch."""

from test_fix_s54b_030405 import cell_source

from utils.lessons.ddp import allreduce
from utils.lessons.memory import summary

WHOLE = 3_303_424  # one step's gradients in lesson 03's CPU run: 3.15 MiB


def row(size: int, ms: float, low: float, high: float) -> dict:
    return {"bytes": size, "seconds": ms * 1e-3, "low": low * 1e-3, "high": high * 1e-3}


# --- lesson 03, cell 59: an inversion prints its two medians as the table does ----------------------------


def test_an_inversion_prints_both_medians_as_the_table_prints_them():
    # the reader's run: the table printed 2.72 ms for 4 MiB; the sentence's .3f printed 2.725 (2.73 half up)
    rows = [row(WHOLE, 3.0921, 0.97, 4.36), row(2**22, 2.7249, 1.85, 5.49)]
    assert allreduce.ms_text(rows[1]["seconds"]) == "2.72"
    (line,) = allreduce.inversions(rows)
    assert line.startswith("4 MiB took less than 3.15 MiB (2.72 against 3.09 ms): their repeats' ranges overlap")
    assert "2.725" not in line and "3.092" not in line
    # another outcome: ranges apart, beyond noise
    (line,) = allreduce.inversions([row(2**18, 3.0, 2.8, 3.2), row(2**20, 1.0, 0.9, 1.1)])
    assert line.startswith("1 MiB took less than 256 KiB (1.00 against 3.00 ms)") and "regime changes" in line


def test_medians_that_print_equal_are_the_same_as_printed_and_none_is_left_out():
    # 2.7249 and 2.7201 ms both print 2.72: the larger message took the same time as printed, whichever
    # median is larger unrounded (the cell's fallback "every larger message took longer" would be false)
    for small, large in ((2.7201, 2.7249), (2.7249, 2.7201)):
        (line,) = allreduce.inversions([row(WHOLE, small, 2.0, 3.0), row(2**22, large, 2.1, 3.1)])
        assert line.startswith("4 MiB took the same time as 3.15 MiB as printed (2.72 ms each)")
    assert allreduce.inversions([row(WHOLE, 2.71, 2.0, 3.0), row(2**22, 2.72, 2.1, 3.1)]) == []


# --- lesson 03, cells 61 and 62: what the buckets' smaller size cost, priced from section 6's table ------


def test_the_buckets_pieces_are_priced_from_section_six_table_on_every_outcome():
    # the reader's run: 1 MiB 0.594 ms (0.39-1.95), the whole 3.09 ms (0.97-4.36): 3.15 x 0.594 = 1.87 ms
    run = [row(2**20, 0.594, 0.39, 1.95), row(WHOLE, 3.092, 0.97, 4.36)]
    said = allreduce.bucket_pieces(run, WHOLE, 2**20)
    # four whole messages (t15): 3 of 1 MiB, the last 0.15 MiB at the nearest timed size above it (1 MiB here)
    # one operation at a time (t16 CI): the sum from the product as printed, 1.78 + 0.594 = 2.37
    assert "3 × 0.594 ms = 1.78 ms, and 1.78 ms + 0.594 ms = 2.37 ms (1.56-7.80 ms over its repeats)" in said
    assert "against the whole's 3.09 ms (0.970-4.36 ms)" in said
    assert said.endswith("the same within the repeats' ranges, so this run does not show smaller messages "
                         "costing more")
    tight = [row(2**20, 0.594, 0.55, 0.60), row(WHOLE, 3.092, 3.0, 3.2)]
    assert "less, beyond the repeats' ranges" in allreduce.bucket_pieces(tight, WHOLE, 2**20)
    dear = [row(2**20, 1.2, 1.1, 1.3), row(WHOLE, 3.092, 3.0, 3.2)]
    said = allreduce.bucket_pieces(dear, WHOLE, 2**20)
    assert "3 × 1.20 ms = 3.60 ms, and 3.60 ms + 1.20 ms = 4.80 ms" in said
    assert "more, beyond the repeats' ranges" in said
    assert "no 1 MiB row" in allreduce.bucket_pieces([row(WHOLE, 3.0, 2.9, 3.1)], WHOLE, 2**20)
    assert "fit one 4 MiB bucket" in allreduce.bucket_pieces(run, WHOLE, 2**22)


def test_the_markdown_no_longer_states_the_smaller_messages_as_a_cause():
    markdown = cell_source("03_ddp.ipynb", 62)
    assert "each a smaller message than the whole" not in markdown
    assert "the last line\nabove prices from section 6's table" in markdown
    code = cell_source("03_ddp.ipynb", 61)
    assert code.rstrip().endswith('say(allreduce.bucket_pieces(ar_rows, full, OVERLAP_BUCKET_MB * 2**20, ddp["messages"]) + LABEL + ".")')


# --- lesson 06, cell 16: selective's shares, from the ms and the MB as printed ---------------------------


def test_selectives_share_of_full_checkpointings_extra_time_is_worked_from_the_printed_ms():
    # the reader's run: steps 82.5, 102.3 and 96.1 ms; ± 0.07 and 0.11 of the plain step (5.8 and 9.1 ms)
    plain, full, selective = 82.5, 102.3, 96.1
    part, whole, part_pm, whole_pm = selective - plain, full - plain, 0.11 * plain, 0.07 * plain
    line = summary.share_with_range(part, whole, part_pm, whole_pm, "of full checkpointing's extra time")
    # 13.6 / 19.8 = 68.7% (the ratios 1.16x and 1.24x gave 0.16 / 0.24 = 67%); 4.5 / 25.6 and 22.7 / 14.0
    assert line == ("69% of full checkpointing's extra time (13.6 / 19.8 ms; 18%-162% within both steps' "
                    "± 9.1 and 5.8 ms)")
    low, high = summary.share_range(part, whole, part_pm, whole_pm)
    assert high > 0.5   # the cell's "not shown cheap" branch, as the run printed
    # the other outcome: full's extra time within its ± of zero
    unread = summary.share_with_range(part, 3.0, part_pm, 4.1, "of full checkpointing's extra time")
    assert unread == ("an unread share of full checkpointing's extra time (that extra time, +3.0 ms, is within "
                      "its ± 4.1 ms of zero)")


def test_selectives_share_of_the_saving_is_worked_from_the_peaks_table_mb():
    mb = 1e6
    # the reader's run: 46.55, 23.67 and 39.16 MB: 7.39 / 22.88 = 32.3% (16% / 49% gave 33%)
    assert summary.saving_share(46.55 * mb, 23.67 * mb, 39.16 * mb) == "32% of its saving (7.39 / 22.88 MB)"
    # half a percent rounds up, as a reader rounds: 1.00 / 8.00 = 12.5%
    assert summary.saving_share(10.0 * mb, 2.0 * mb, 9.0 * mb) == "13% of its saving (1.00 / 8.00 MB)"
    none = summary.saving_share(46.55 * mb, 46.554 * mb, 39.16 * mb)   # full's peak prints as the plain one
    assert none.startswith("no share of its saving")
    code = cell_source("06_memory.ipynb", 16)
    assert "printed_ratio(sel_off, full_off)" not in code and "saving_share(base" in code
