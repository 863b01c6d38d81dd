"""Lesson 02, the thirty-first reading (t31_02 #1): section 3's per-process reference column follows cell 15's
rule for a round's ratio: two decimals, or more where two would put it on 1x though it lies on one side of it
(110.0 / 110.5 = 0.9955 prints 0.995x, not 1.00x); the block's count and range read the column as printed.
Fabricated rounds, CPU only; each branch."""

import statistics

from utils.lessons.model_split import report  # noqa: I001 (report loads first: naive reads it)
from utils.lessons.model_split import runs

# five rounds (s): one device, the naive split, each stage alone; round 5 is 110.0 / (52.3 + 58.2) = 0.9955
ONE = [0.1193, 0.1180, 0.1118, 0.1172, 0.1100]
SPLIT = [0.1056, 0.1113, 0.1128, 0.1106, 0.1110]
ALONE = [[0.0530, 0.0528, 0.0527, 0.0531, 0.0523], [0.0585, 0.0586, 0.0580, 0.0581, 0.0582]]


def _naive_run(one=ONE, alone=ALONE):
    probe = runs.Row(32, 1, "gpipe", 0.11, 0.115, [0.05, 0.06], naive=True)
    row = runs.Row(32, 1, "gpipe", statistics.median(SPLIT), statistics.median(one), [0.05, 0.06], naive=True,
                   speedups=[o / t for o, t in zip(one, SPLIT)], alone=[statistics.median(a) for a in alone],
                   process_bounds=[runs.process_reference(o, parts) for o, *parts in zip(one, *alone)])
    times = {"batch 32 one device": one, probe.key: SPLIT,
             **{f"{probe.key} stage {k} alone": a for k, a in enumerate(alone)}}
    return runs.PipelineRun([row], [{"times": times}, {}], (3,), 1, True), row


def test_a_reference_just_under_1x_prints_the_digits_that_show_its_side():
    assert runs.process_reference(0.1100, [0.0523, 0.0582]) == 0.995
    assert runs.process_reference(0.1591, [0.0716, 0.0764]) == 1.08  # two decimals, half up, where they suffice
    run, row = _naive_run()
    column = [r[-1] for r in report.naive_rounds_table(run, row).rows]
    assert column[-1] == "0.995x", column
    assert "1.00x" not in column


def test_the_block_counts_and_ranges_the_column_as_printed():
    _, row = _naive_run()
    said = report.naive_process_reading(row)
    assert "1 of 5 rounds is below 1x (0.995x)" in said, said
    assert "(rounds 0.995-" in said, said
    assert "at or below" not in said


def test_a_round_exactly_at_1x_is_still_at_or_below():
    # the other branch: round 5's stages sum to one device's step exactly (110.0 / 110.0)
    alone = [ALONE[0][:4] + [0.0520], ALONE[1][:4] + [0.0580]]
    _, row = _naive_run(alone=alone)
    assert row.process_bounds[-1] == 1.0
    assert "1 of 5 rounds is at or below 1x (1.00x)" in report.naive_process_reading(row)


def test_no_round_below_1x_says_every_round():
    alone = [ALONE[0][:4] + [0.0500], ALONE[1][:4] + [0.0560]]
    _, row = _naive_run(alone=alone)
    assert "in every round the two stages alone cost less" in report.naive_process_reading(row)
