"""Sixteenth reading, lesson 03 (reader t16_0304, new items 1-2) and a CI failure of the printed-arithmetic scan:
each printed sentence follows from the figures printed beside it, judged as printed, on every outcome branch."""

import random

from test_printed_arithmetic import WORKED, misworked

from utils.lessons.ddp import allreduce

WHOLE = 3_303_424  # one step's gradients in lesson 03's CPU run: 3.15 MiB


def row(size: int, ms: float, low: float, high: float, ranks: int = 2) -> dict:
    """A size's row as ``all_reduce_benchmark`` returns it: rates worked from the median as the table prints it."""
    algbw = size / allreduce.printed_seconds(ms * 1e-3)
    return {"bytes": size, "seconds": ms * 1e-3, "low": low * 1e-3, "high": high * 1e-3, "algbw": algbw,
            "busbw": algbw * allreduce.busbw_factor(ranks)}


# the reader's run (cell 58's table, simulated on CPU), each time as the table printed it
RUN = [row(2**12, 0.439, 0.370, 4.17), row(2**14, 3.51, 0.335, 3.99), row(2**16, 2.87, 0.432, 3.72),
       row(2**18, 0.524, 0.490, 5.09), row(2**20, 3.19, 0.945, 3.65), row(WHOLE, 3.90, 1.83, 7.79),
       row(2**22, 6.10, 1.82, 9.27), row(2**24, 13.13, 10.00, 14.71)]


# --- new item 1: the rough sizes repeat the table's figures, not a second rounding of the seconds -------------


def test_the_rough_sizes_print_each_time_as_the_table_prints_it():
    said = allreduce.outliers(RUN)
    assert "16 KiB: median 3.51 ms, repeats 0.335-3.99 ms" in said          # not 0.33, the 0.335 rounded again
    assert "1 MiB: median 3.19 ms, repeats 0.945-3.65 ms" in said           # not 0.94
    assert "4 KiB: median 0.439 ms, repeats 0.370-4.17 ms" in said          # not 0.44 and 0.37
    assert len(said) == 7 and not any(s.startswith("16 MiB") for s in said)  # 16 MiB: 4.71 < 6.57, not rough
    for r in RUN:  # every figure is the table's own cell (cell 58 prints ms_text of each)
        for s in said:
            if s.startswith(allreduce._label(r["bytes"]) + ":"):
                assert s.endswith(f"median {allreduce.ms_text(r['seconds'])} ms, repeats "
                                  f"{allreduce.ms_text(r['low'])}-{allreduce.ms_text(r['high'])} ms")


# --- new item 2: a repeat's rate from its time as printed, printed and compared as printed ---------------------


def test_the_repeats_rates_are_worked_from_the_printed_times_and_compared_as_printed():
    said = allreduce.trend(RUN)
    # 3,303,424 B / 1.83 ms = 1.8051 GB/s prints 1.81 (the raw repeat gave 1.80); 16 MiB / 14.71 ms = 1.14
    assert "3.15 MiB's fastest repeat 1.81 GB/s, 16 MiB's slowest 1.14 GB/s" in said, said
    assert "no trend beyond the repeats' ranges" in said and "1.80 GB/s" not in said
    # 4 MiB's dip: its fastest repeat 4 MiB / 1.82 ms = 2.30 GB/s beats 3.15 MiB's slowest, 3.30 MB / 7.79 ms
    assert "with a dip at 4 MiB (0.69 GB/s), within its repeats" in said


def test_a_tie_as_printed_is_no_rise_beyond_the_repeats():
    # repeats of 1.0049 and 2.004 ms print 1.00 and 2.00 ms: 1 MiB / 1.00 ms and 2 MiB / 2.00 ms both give
    # 1.05 GB/s, a tie, not "still rising" (from the raw times, 1.04 against 1.05 GB/s read as a rise)
    tie = [row(2**20, 1.2, 1.0049, 1.3), row(2**21, 1.5, 1.4, 2.004)]
    said = allreduce.trend(tie)
    assert "1 MiB's fastest repeat 1.05 GB/s, 2 MiB's slowest 1.05 GB/s" in said, said
    assert "no trend beyond the repeats' ranges" in said and "still rising" not in said
    # the other outcome: the earlier size's fastest repeat as printed under the largest's slowest
    rising = [row(2**20, 1.2, 1.1, 1.3), row(2**24, 6.0, 5.8, 6.2)]
    assert allreduce.trend(rising).startswith("The curve is still rising at the largest size measured")
    # a fall after the peak, read on the repeats as printed: beyond, and within
    falling = [row(2**22, 2.0, 1.9, 2.1), row(2**24, 12.0, 11.9, 12.1)]
    assert "beyond the repeats' ranges" in allreduce.trend(falling)
    noisy = [row(2**22, 2.0, 1.9, 8.0), row(2**24, 12.0, 3.0, 12.1)]
    assert "within the repeats' ranges, so the fall may be noise" in allreduce.trend(noisy)


# --- CI: the bucket sum prints one operation at a time, so the arithmetic scan redoes each --------------------


def test_the_bucket_sum_reads_true_to_the_printed_arithmetic_scan():
    said = allreduce.bucket_pieces(RUN, WHOLE, 2**20, 4)
    assert "256 KiB: 3 × 3.19 ms = 9.57 ms, and 9.57 ms + 0.524 ms = 10.09 ms (3.33-16.04 ms over its repeats)" \
        in said, said
    assert "the same within the repeats' ranges" in said
    found = [m.group(0) for m in WORKED.finditer(said)]
    assert found == ["3 × 3.19 ms = 9.57 ms", "9.57 ms + 0.524 ms = 10.09 ms"]  # both read, both redone
    assert misworked(said) == []
    # the old sentence: the scan read "3.19 + 0.524 = 10.09"
    assert misworked("256 KiB: 3 x 3.19 + 0.524 = 10.09 ms") != []


def test_every_bucket_sum_outcome_reads_true_to_the_scan():
    # a product that rounds (3 x 0.945 = 2.835, printed 2.84): the sum is worked from the printed product
    cheap = [row(2**18, 0.490, 0.480, 0.500), row(2**20, 0.945, 0.940, 0.950), row(WHOLE, 1.50, 1.45, 1.55)]
    said = allreduce.bucket_pieces(cheap, WHOLE, 2**20)
    assert "3 × 0.945 ms = 2.84 ms, and 2.84 ms + 0.490 ms = 3.33 ms" in said, said
    assert "more, beyond the repeats' ranges" in said and misworked(said) == []
    # one whole message and a remainder timed at its own size: no product to write
    exact = [row(2**18, 0.30, 0.29, 0.31), row(2**20, 0.80, 0.79, 0.81), row(2**20 + 2**18, 1.5, 1.4, 1.6)]
    said = allreduce.bucket_pieces(exact, 2**20 + 2**18, 2**20)
    assert "its own size's row: 0.800 ms + 0.300 ms = 1.10 ms" in said and "less, beyond" in said
    assert [m.group(0) for m in WORKED.finditer(said)] == ["0.800 ms + 0.300 ms = 1.10 ms"]
    assert misworked(said) == []
    # no remainder: whole messages only
    said = allreduce.bucket_pieces([row(2**20, 0.5, 0.49, 0.51), row(2**22, 1.0, 0.9, 1.1)], 2**22, 2**20)
    assert "as 4 whole messages, 4 of 1 MiB at that row's 0.500 ms each: 4 × 0.500 ms = 2.00 ms" in said
    assert "more, beyond the repeats' ranges" in said and misworked(said) == []
    # many runs, every branch: each operation the scan reads redoes from its printed operands
    draw = random.Random(56)
    for _ in range(300):
        times = sorted(draw.uniform(0.05, 20.0) for _ in range(3))
        rows = [row(2**18, *[t * draw.uniform(0.3, 3.0) for t in times]),
                row(2**20, *[t * draw.uniform(0.3, 3.0) for t in times]), row(WHOLE, *times)]
        for r in rows:
            r["low"], r["seconds"], r["high"] = sorted((r["low"], r["seconds"], r["high"]))
        said = allreduce.bucket_pieces(rows, WHOLE, 2**20, 4)
        assert len(list(WORKED.finditer(said))) == 2 and misworked(said) == [], said
