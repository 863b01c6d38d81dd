"""Fifteenth reading, lessons 03, 05 and 06 (readers t15_0304 and t15_0506): each printed sentence follows from
the figures printed beside it, judged as printed, on every outcome branch."""

from test_fix_s54b_030405 import cell_source
from test_fix_s54c_0306 import WHOLE
from test_fix_s54c_0306 import row as row_without_busbw

from utils.lessons.data_prefetch import report
from utils.lessons.ddp import allreduce
from utils.lessons.memory import summary


def row(size: int, ms: float, low: float, high: float) -> dict:
    """A size's row as `allreduce` returns it, with the bus bandwidth the trend reads."""
    return {**row_without_busbw(size, ms, low, high), "busbw": size / (ms * 1e-3)}


# --- lesson 03, cell 59: one rough median is no trend -------------------------------------------------------


def test_a_rise_within_the_repeats_ranges_is_no_trend_and_a_middle_dip_is_named():
    # the reader's run: 1.29 GB/s at 1 MiB, 0.56 at 4 MiB (repeats 1.87-9.66 ms), 1.39 at 16 MiB: +8% over the
    # best earlier size (1 MiB), not +148% over the dip before it: the curve levels off, with a dip within noise
    run = [row(2**20, 0.813, 0.60, 2.0), row(WHOLE, 2.66, 1.05, 4.05), row(2**22, 7.49, 1.87, 9.66),
           row(2**24, 12.05, 10.55, 13.23)]
    said = allreduce.trend(run)
    assert said == ("The curve levels off from 1 MiB (within 10%): busbw 1.29 GB/s at 1 MiB, 1.39 GB/s at 16 MiB "
                    "(+8%), with a dip at 4 MiB (0.56 GB/s), within its repeats")
    assert "still rising" not in said and "+148%" not in said
    # a gain past 10% whose ranges overlap: the largest reads highest, but no trend beyond the repeats' ranges
    rough = [row(2**20, 1.2, 0.6, 1.3), row(2**24, 6.0, 5.8, 12.0)]
    said = allreduce.trend(rough)
    assert "no trend beyond the repeats' ranges" in said and "still rising" not in said
    assert "1 MiB's fastest repeat 1.75 GB/s, 16 MiB's slowest 1.40 GB/s" in said
    # a gain past 10% and beyond both ranges: still rising
    tight = [row(2**20, 1.2, 1.1, 1.3), row(2**24, 6.0, 5.8, 6.2)]
    said = allreduce.trend(tight)
    assert said.startswith("The curve is still rising at the largest size measured, beyond the repeats' ranges")
    # a dip beyond its repeats
    dip = [row(2**20, 1.0, 0.95, 1.05), row(2**22, 8.0, 7.9, 8.1), row(2**24, 15.5, 15.0, 16.0)]
    assert "with a dip at 4 MiB (0.52 GB/s), beyond its repeats" in allreduce.trend(dip)


# --- lesson 03, cell 61: whole messages, each paying its fixed cost -------------------------------------------


def test_the_buckets_are_priced_as_whole_messages_the_last_at_the_nearest_timed_size_above():
    # the reader's run: 3.15 MiB in 1 MiB buckets is 4 messages, not 3.15: 3 x 0.813 + the last 0.15 MiB at
    # the 256 KiB row (the nearest timed size above it), not 0.15 x 0.813
    run = [row(2**12, 0.426, 0.344, 1.0), row(2**18, 0.50, 0.54, 3.84), row(2**20, 0.813, 0.60, 2.0),
           row(WHOLE, 2.66, 1.05, 4.05)]
    said = allreduce.bucket_pieces(run, WHOLE, 2**20, 4)
    assert ("prices the 3.15 MiB as 4 whole messages (section 2 counted 4 of DDP's buckets), 3 of 1 MiB at "
            "that row's 0.813 ms each, the last 0.15 MiB at the nearest timed size above it, 256 KiB: "
            "3 × 0.813 ms = 2.44 ms, and 2.44 ms + 0.500 ms = 2.94 ms") in said
    assert "3.15 x" not in said and "the same within the repeats' ranges" in said
    # a remainder the table times at its own size
    exact = [row(2**18, 0.30, 0.29, 0.31), row(2**20, 0.80, 0.79, 0.81), row(2**20 + 2**18, 1.5, 1.4, 1.6)]
    said = allreduce.bucket_pieces(exact, 2**20 + 2**18, 2**20)
    assert "the last 0.25 MiB at its own size's row: 0.800 ms + 0.300 ms = 1.10 ms" in said
    assert "less, beyond the repeats' ranges" in said and "section 2 counted" not in said
    # no remainder: whole messages only
    said = allreduce.bucket_pieces([row(2**20, 0.5, 0.49, 0.51), row(2**22, 1.0, 0.9, 1.1)], 2**22, 2**20)
    assert "as 4 whole messages, 4 of 1 MiB at that row's 0.500 ms each: 4 × 0.500 ms = 2.00 ms" in said
    assert "more, beyond the repeats' ranges" in said
    assert 'ddp["messages"]) + LABEL' in cell_source("03_ddp.ipynb", 61)


# --- lesson 05, cell 38: the 2 % floor, from the median as printed ---------------------------------------------


def test_the_paired_floor_is_two_percent_of_the_printed_median_half_up():
    ratios = [1.020, 1.0249, 1.027]  # median 1.0249 prints 1.025: 2 % is 0.0205, so ± 0.021, never 0.020
    assert report.paired_noise(ratios) == 0.021
    # the rounds' own spread where it is wider
    assert report.paired_noise([0.90, 0.95, 1.0, 1.05, 1.10]) == 0.05  # half the middle half: (1.05 - 0.95) / 2
    code = cell_source("05_data_prefetch.ipynb", 38)
    assert "spread=paired_noise(ratios)" in code and "0.02 * statistics.median(ratios)" not in code


# --- lesson 06, cell 16: one rule, in ms, for the whole step's miss and its parts' -----------------------------


def test_the_step_miss_and_its_parts_are_judged_by_one_rule_in_ms():
    # the reader's run: predicted 93.6 ms, measured 95.8: +2.2 ms against ± 1.7 ms (0.02 x 84.3): beyond
    plain, measured, predicted, tolerance = 84.3e-3, 95.8e-3, 93.6e-3, 0.02 * 84.3e-3
    said = summary.prediction_miss(measured, predicted, plain, tolerance, "the rounds' noise", True)
    assert said == ("+2.2 ms (+2.6% of the plain step): above it by more than 1.7 ms (the rounds' noise); "
                    "the parts below say where")
    assert not summary.prediction_within(measured, predicted, tolerance)
    # the parts: forward as predicted, the backward and AdamW 2.2 ms over: the same call
    parts_plain = {"forward": 30.1e-3, "step": plain}
    parts_sel = {"forward": 30.8e-3, "step": measured}
    off = summary.parts_off(parts_plain, parts_sel, {"forward": 0.7e-3, "rest": 8.6e-3}, tolerance)
    assert list(off) == ["backward and AdamW"]
    # the other outcome: a 1.7 ms miss is within a ± printed 1.7 ms, for the step and its parts alike
    said = summary.prediction_miss(95.3e-3, predicted, plain, tolerance, "the rounds' noise", False)
    assert said == "+1.7 ms (+2.0% of the plain step): within 1.7 ms of that prediction (the rounds' noise)"
    assert summary.parts_off(parts_plain, {"forward": 30.8e-3, "step": 95.3e-3},
                             {"forward": 0.7e-3, "rest": 8.6e-3}, tolerance) == {}
    said = summary.prediction_miss(90.0e-3, predicted, plain, tolerance, "the rounds' noise", False)
    assert said.startswith("-3.6 ms (-4.3% of the plain step): below it by more than") and "cannot say where" in said
    code = cell_source("06_memory.ipynb", 16)
    assert "near = prediction_within(sel_fast, predicted, tolerance * plain_step)" in code
    assert "{off:+.0%}" not in code
