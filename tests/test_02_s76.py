"""Lesson 02, the thirty-seventh reading (t37_02): section 9 reads its schedules beside plain 1F1B round by
round, by the lesson's one stated rule (#2), and sets plain 1F1B beside section 5's figure of the same
configuration (#1); the summary's note names each section's reference (#3). Fabricated figures."""

import nbformat

from utils.lessons.model_split import chunks, report, runs

NOTEBOOK = "notebooks/02_model_split.ipynb"


def _row(schedule: str, speedups: list[float], baseline: float = 0.592, split=(3,)) -> runs.Row:
    """A row whose printed median and ± come from ``speedups``; the step follows from the median speedup."""
    med = sorted(speedups)[len(speedups) // 2]
    return runs.Row(128, 4, schedule, baseline / med, baseline, [0.3, 0.3], speedups=speedups, split_points=split)


PLAIN = _row("1f1b", [1.80, 1.84, 1.78, 1.85, 1.82])  # 1.82x ± 0.02


def _sweep(rows, split=(3,)) -> runs.PipelineRun:
    return runs.PipelineRun(rows=rows, raw=[], split_points=split, threads=1, simulated=True)


def test_a_row_whose_bands_overlap_is_read_round_by_round_not_called_too_small_to_read():
    # each round 1.03x plain 1F1B's: the medians' bands overlap, the paired rounds clear 1
    ahead = _row("interleaved 1F1B", [round(s * 1.03, 2) for s in PLAIN.speedups])
    said = report.bubble_answer([ahead], PLAIN, "this launch")
    assert "too small to read" not in said
    assert "interleaved 1F1B 1.87x ± 0.03 (round by round 1.03 ± 0.00 of it: faster)" in said
    assert said.endswith("faster or slower only where that clears 1.")


def test_every_branch_of_the_round_by_round_reading_beside_plain_1f1b():
    slower = _row("interleaved ZB", [1.71, 1.77, 1.74, 1.68, 1.71])
    mixed = _row("ZBV", [1.96, 1.80, 1.79, 1.81, 1.94])  # over plain: 1.09, 0.98, 1.01, 0.98, 1.07
    said = report.bubble_answer([slower, mixed], PLAIN, "this launch")
    assert "interleaved ZB 1.71x ± 0.02 (round by round 0.95 ± 0.01 of it: slower)" in said
    assert "ZBV 1.81x ± 0.07 (round by round 1.01 ± 0.05 of it: within noise of it)" in said


def test_plain_1f1b_is_set_beside_section_5s_figure_of_the_same_configuration_both_branches():
    apart = _row("1f1b", [1.56, 1.65, 1.64, 1.66, 1.84], baseline=0.543)  # 1.65x ± 0.01, another launch
    said = report.plain_in_section5(PLAIN, _sweep([apart]))
    assert said.startswith("The same configuration (batch 128, 1f1b m=4, split [3]) measured 1.65x ± 0.01")
    assert "in section 5's sweep and 1.82x ± 0.02 here: outside each other's noise" in said
    agree = _row("1f1b", [1.79, 1.81, 1.83, 1.84, 1.86])
    assert report.plain_in_section5(PLAIN, _sweep([agree])).endswith("within noise of each other.")


def test_no_comparison_where_section_5_ran_another_split_or_not_this_configuration():
    elsewhere = _row("1f1b", [1.65] * 5, split=None)
    said = report.plain_in_section5(PLAIN, _sweep([elsewhere], split=(2,)))
    assert "split [2], this section split [3]: not the same configuration" in said
    gpipe = _row("gpipe", [1.65] * 5)
    assert report.plain_in_section5(PLAIN, _sweep([gpipe])).endswith("no configuration ran in both launches.")


def _cell(words: str) -> str:
    return next(c.source for c in nbformat.read(NOTEBOOK, 4).cells if words in c.source)


def test_section_9_prints_plain_1f1b_beside_section_5_and_the_rule_is_stated_in_section_3():
    assert "report.plain_in_section5(chunked.plain, sweep)" in _cell("report.bubble_answer(chunked.rows")
    note = _cell("## 3 · Does a naive split make a step faster?")
    assert "**Two figures timed in the same rounds**" in note and "section 9's schedules beside plain 1F1B" in note


def test_the_summary_note_names_the_reference_each_section_reads_the_naive_split_against():
    note = " ".join(_cell("Where a row reads \"above the bound\"").split())
    assert "in section 3 (the per-process reference)" in note
    assert "in sections 5 and 8 (the work-scaled reference)" in note  # the launches the summary row reads above
    assert "(sections 5 and 9," in note  # ZBV's row is read against section 9's work-scaled reference
