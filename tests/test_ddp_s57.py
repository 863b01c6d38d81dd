"""Seventeenth reading (t17_0304), lesson 03: the all-reduce's peak busbw is picked as the table prints it
(GB/s to two decimals), and every size that ties as printed is named (cells 59 and 70)."""

from utils.lessons.ddp import allreduce

MiB = 2**20


def row(n, seconds, low=None, high=None):
    """One all-reduce row of two ranks (busbw = algbw = bytes over the median time)."""
    return {"bytes": n, "seconds": seconds, "low": low or seconds, "high": high or seconds, "busbw": n / seconds}


def reader_run():
    """The reader's run (cell 58): 3.15 MiB in 2.90 ms (1.139 GB/s) and 16 MiB in 14.67 ms (1.144): both 1.14."""
    return [row(4096, 0.425e-3, 0.411e-3, 0.515e-3), row(2**20, 2.24e-3, 0.819e-3, 7.40e-3),
            row(3_303_424, 2.90e-3, 1.56e-3, 7.18e-3), row(4 * MiB, 5.15e-3, 3.93e-3, 6.87e-3),
            row(16 * MiB, 14.67e-3, 11.28e-3, 18.09e-3)]


def test_a_peak_tied_as_printed_names_every_size_that_ties():
    rows = reader_run()
    assert [allreduce.printed_gbs(r["busbw"]) for r in rows[2::2]] == [1.14, 1.14]
    assert rows[2]["busbw"] < rows[4]["busbw"]  # unrounded, 16 MiB is higher: no winner as printed
    assert [r["bytes"] for r in allreduce.peak_rows(rows)] == [3_303_424, 16 * MiB]
    where = allreduce.peak_where(rows)
    assert where == "its peak (3.15 MiB and 16 MiB, tied as printed)"
    # the curve's shape reads the same tie: levelling off, +0% as printed
    assert allreduce.trend(rows).startswith("The curve levels off from 3.15 MiB (within 10%): busbw 1.14 GB/s at "
                                            "3.15 MiB, 1.14 GB/s at 16 MiB (0%)")
    # the figure set beside the link is the same whichever tied row is read
    assert allreduce.printed_gbs(allreduce.peak(rows)["busbw"]) == 1.14
    assert allreduce.busbw_share(allreduce.peak(rows)["busbw"], 3.98e9) == allreduce.busbw_share(
        rows[2]["busbw"], 3.98e9)


def test_a_peak_alone_as_printed_names_its_one_size():
    rows = reader_run()
    rows[4] = row(16 * MiB, 14.0e-3, 11.28e-3, 18.09e-3)  # 1.20 GB/s: above 3.15 MiB's 1.14 as printed
    assert allreduce.peak_where(rows) == "its peak (16 MiB)"
    assert allreduce.peak(rows)["bytes"] == 16 * MiB
    rows[2] = row(3_303_424, 2.50e-3)  # 1.32 GB/s: the peak before the largest size
    assert allreduce.peak_where(rows) == "its peak (3.15 MiB)"
    assert allreduce.peak(rows)["bytes"] == 3_303_424


def test_three_sizes_tied_as_printed_are_all_named():
    rows = [row(MiB, MiB / 1.141e9), row(4 * MiB, 4 * MiB / 1.138e9), row(16 * MiB, 16 * MiB / 1.144e9)]
    assert allreduce.peak_where(rows) == "its peak (1 MiB, 4 MiB and 16 MiB, tied as printed)"
    assert allreduce.peak(rows)["bytes"] == 16 * MiB  # the largest of the tie: no later size reads higher


def test_the_notebook_names_the_peak_by_peak_where_in_both_cells():
    import json
    from pathlib import Path

    nb = json.loads((Path(__file__).parent.parent / "notebooks" / "03_ddp.ipynb").read_text())
    code = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    assert sum("allreduce.peak_where(ar_rows)" in src for src in code) == 2
    assert not any("its peak ({label(top" in src for src in code)
