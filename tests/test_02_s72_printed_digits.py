"""Lesson 02, the thirty-third reading (t33_02 #1, #2): a figure worked from printed figures comes out of them.
#1: the per-process reference divides one device's ms as the rounds table prints it (111.99, not 112.0);
#2: a round prints digits that round half up to its own two-decimal figure (1.0049, not 1.005, beside a median
of 1.00x). Fabricated rounds, CPU only; each branch."""

import statistics

from utils.claims import half_up
from utils.lessons.model_split import report  # noqa: I001 (report loads first: naive reads it)
from utils.lessons.model_split import bounds, runs
from utils.lessons.model_split.noise import printed, round_text

# round 4 of the fabricated run: 111.994 / 112.55 = 0.99506 prints 0.995x, so its ms print to 0.01 ms
ONE = [0.1240, 0.1219, 0.1210, 0.111994, 0.1216]
SPLIT = [0.1147, 0.1213, 0.1155, 0.11255, 0.11584]
ALONE = [[0.0560, 0.0571, 0.0558, 0.0547, 0.0562], [0.0600, 0.0610, 0.0603, 0.0590, 0.0605]]


def _run():
    probe = runs.Row(32, 1, "gpipe", 0.11, 0.115, [0.05, 0.06], naive=True)
    row = runs.Row(32, 1, "gpipe", statistics.median(SPLIT), statistics.median(ONE), [0.05, 0.06], naive=True,
                   speedups=[o / t for o, t in zip(ONE, SPLIT)], alone=[statistics.median(a) for a in ALONE],
                   process_bounds=[runs.process_reference(o, parts, s) for o, s, *parts in zip(ONE, SPLIT, *ALONE)])
    times = {"batch 32 one device": ONE, probe.key: SPLIT,
             **{f"{probe.key} stage {k} alone": a for k, a in enumerate(ALONE)}}
    return runs.PipelineRun([row], [{"times": times}, {}], (3,), 1, True), row


def test_the_reference_divides_one_device_ms_as_the_table_prints_them():
    run, row = _run()
    table = report.naive_rounds_table(run, row)
    for one, _, _, stages, reference in [r[1:] for r in table.rows]:
        total = sum(float(p) for p in stages.split(" + "))
        assert round_text(float(one) / total) + "x" == reference, (one, stages, reference)
    assert table.rows[3][1:3] == ("111.99", "112.55")  # the round whose speedup needs 0.01 ms
    assert table.rows[3][-1] == "0.98x"  # 111.99 / 113.7 = 0.98496, not 112.0 / 113.7 = 0.98505


def test_without_the_split_step_the_reference_keeps_tenths():
    assert runs.process_reference(0.111994, [0.0547, 0.0590]) == 0.99  # 112.0 / 113.7
    assert runs.process_reference(0.111994, [0.0547, 0.0590], 0.11255) == 0.98  # 111.99 / 113.7
    assert bounds.paired_digits(0.1216, 0.11584) == 1  # 121.6 / 115.8 prints the round's 1.05x


def test_a_round_prints_digits_that_round_to_its_own_two_decimals():
    assert round_text(121.9 / 121.3) == "1.0049"  # 1.005 would read 1.01 beside a median of 1.00x
    assert round_text(1.0044) == "1.004"  # the side of 1x shows with three, and 1.004 reads 1.00
    assert round_text(1.08) == "1.08" and round_text(0.997) == "0.997"
    assert round_text(1.9996) == "1.9996"  # the side of 2x still decides too
    for x in (1.00495, 0.99496, 1.99951, 2.00049, 1.0049464, 0.9955):
        assert half_up(float(round_text(x)), 2) == half_up(x, 2), x


def test_the_median_prints_what_its_round_rounds_to():
    speedups = [1.08, 121.9 / 121.3, 0.985, 0.995, 1.05]
    row = runs.Row(32, 1, "gpipe", 0.1155, 0.1219, [0.05, 0.06], naive=True, speedups=speedups)
    median = statistics.median(speedups)
    assert half_up(float(round_text(median)), 2) == printed(row)[0] == 1.00


def test_the_headline_prints_the_medians_of_the_rounds_table_as_printed():
    # t33_02 #4: the split's median round is 115.46 ms; the table prints 115.5, the headline must not say 115
    split = [0.1147, 0.1213, 0.11546, 0.11255, 0.11584]
    one = [0.1240, 0.1219, 0.1210, 0.111994, 0.1216]
    row = runs.Row(32, 1, "gpipe", statistics.median(split), statistics.median(one), [0.05, 0.06], naive=True,
                   speedups=[o / t for o, t in zip(one, split)])
    run = runs.PipelineRun([row], [{"times": {"batch 32 one device": one, row.key: split}}, {}], (3,), 1, True)
    said = report.naive_headline(row, run)
    assert said.startswith("Naive split 115.5 ms per step, one device 121.6 ms (medians of 5 rounds)"), said
    assert "differs" not in said  # 121.6 / 115.5 = 1.05x, as the paired ratios' median
    apart = runs.Row(32, 1, "gpipe", 0.110, 0.121, [0.05, 0.06], naive=True,
                     speedups=[o / t for o, t in zip([0.130, 0.121, 0.111, 0.125, 0.118],
                                                     [0.100, 0.120, 0.110, 0.105, 0.115])])
    times = {"batch 32 one device": [0.130, 0.121, 0.111, 0.125, 0.118], apart.key: [0.100, 0.120, 0.110, 0.105, 0.115]}
    said = report.naive_headline(apart, runs.PipelineRun([apart], [{"times": times}, {}], (3,), 1, True))
    assert "The ratio of the two medians, 121.0 / 110.0 = 1.10x, differs" in said, said
    assert report.naive_headline(row).startswith("Naive split 115.5 ms per step, one device 121.6 ms")


def test_an_even_count_of_rounds_halves_the_two_middle_printed_figures():
    from utils.lessons.model_split.naive import _median_text
    assert _median_text(["115.5", "121.3", "115.8", "112.55"]) == "115.65"
    assert _median_text(["115.5", "121.3", "114.7"]) == "115.5"


def test_medians_that_divide_to_the_speedup_print_no_second_ratio():
    row = runs.Row(32, 1, "gpipe", 0.1000, 0.1100, [0.05, 0.06], naive=True, speedups=[1.10] * 5)
    run = runs.PipelineRun([row], [{"times": {"batch 32 one device": [0.11] * 5, row.key: [0.1] * 5}}, {}], (3,),
                           1, True)
    said = report.naive_headline(row, run)
    assert "Naive split 100.0 ms per step, one device 110.0 ms" in said and "differs" not in said, said
