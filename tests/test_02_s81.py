"""Lesson 02, the forty-second reading (t42_02): cell 62 cites no section for launches lying apart (which ones do
is the run's to say), cell 53 says the work's reading of the extra time is in the block, cell 15 states both
conditions of a round's decimals, cells 53 and 62 keep their answer visible and the rest collapsed, and section
9's block prints plain 1F1B, the yardstick, with its rounds. Notebook sources and synthetic figures; no timing."""

from pathlib import Path

import nbformat

from utils.lessons.model_split import bounds, report
from utils.lessons.model_split.runs import PipelineRun, Row


def _cells():
    nb = nbformat.read(Path(__file__).resolve().parents[1] / "notebooks/02_model_split.ipynb", 4)
    return [" ".join(c.source.split()) for c in nb.cells]


def _visible(text: str) -> str:
    return text.split("<details>")[0]


def test_cell_62_cites_no_section_for_launches_lying_apart():
    cell = _cells()[62]
    assert "± shows (section 7)" not in cell
    assert "a figure can move between launches by more than one launch's ± shows (section 5's notes" in cell


def test_cell_53_says_the_works_reading_of_the_extra_time_is_in_the_block_not_the_line():
    cell = _cells()[53]
    assert "The line above gives the extra time and" not in cell and "The line splits it" not in cell
    assert ("the block under it says, only where that time clears the noise, what the stages' measured work "
            "says of it") in cell


def test_cells_53_and_62_keep_under_150_words_visible_and_the_rest_collapsed():
    for i in (53, 62):
        cell = _cells()[i]
        assert "<details>" in cell and len(_visible(cell).split()) < 150, (i, len(_visible(cell).split()))


def test_cell_15_states_the_read_back_condition_of_a_rounds_decimals():
    cell = _cells()[15]
    assert bounds.round_as_printed(1.00452) == 1.0045  # 1.005 would read back half up as 1.01, not 1.00
    assert "a round of 1.00452 prints 1.0045, not 1.005" in cell


def _row(schedule, speedups, seconds=0.36, m=4):
    return Row(128, m, schedule, seconds, 0.633, [0.29, 0.33], speedups=speedups)


def test_section_9s_block_table_prints_plain_1f1b_with_every_round_last():
    rows = [_row("interleaved 1F1B", [1.79, 1.71, 1.93, 1.80, 1.75])]
    plain = _row("1f1b", [1.74, 1.72, 1.78, 1.70, 1.75], seconds=0.364)
    run = PipelineRun(rows, [], (2, 3, 4), 1, True, plain=plain)
    table = report.rows_table(report.with_plain(run))
    last = [str(x) for x in table.rows[-1]]
    assert len(table.rows) == 2 and "364" in last and "633" in last
    assert last[-1] == report.every_round(plain) == "1.74 1.72 1.78 1.70 1.75"
    assert run.rows == rows  # the answer's rows stay the schedules alone
    assert report.with_plain(PipelineRun(rows, [], (2, 3, 4), 1, True)).rows == rows
