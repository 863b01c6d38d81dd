"""Lesson 02, t40 reader's open items (session 80): section 8's visible answer is two sentences (does the
placement help, its extra time for its extra messages); the medians and the work's reading of the extra time
move into the block (``placement_split``). Synthetic figures; no timing."""

from utils.lessons.model_split import placement
from test_model_split_s57 import _placements


def test_section_8s_visible_answer_is_two_sentences_and_the_work_reading_is_in_the_block():
    got = _placements([0.077, 0.105])  # +9.5 ± 7.9 ms paired, work +17 ms
    answer, block = placement.placement_answer(got), placement.placement_split(got)
    assert answer.count(". ") == 1 and len(answer.split()) < 50, answer
    assert "median steps" not in answer and "measured work" not in answer
    assert block.startswith("The table's two median steps, 178 and 164 ms, differ by +14 ms")
    assert "The stages' measured work rose by +17 ms" in block


def test_section_8s_block_names_no_work_where_the_medians_leave_the_split_undecided():
    got = _placements([0.077, 0.105])
    got["extra_rounds"] = [-0.010, 0.020, 0.0, 0.005, -0.004]  # within noise of 0: the answer says so
    assert placement.placement_answer(got).endswith("within noise of 0: this run does not resolve it.")
    assert "measured work" not in placement.placement_split(got)


def test_section_5s_table_shows_each_verdicts_head_and_the_block_prints_it_in_full():
    from utils.lessons.model_split import report, runs
    r = runs.Row(128, 8, "1f1b", 1.0, 1.8, [0.5, 0.5], cpu=[0.435, 0.435], baseline_cpu=1.0, speedups=[1.9, 1.95])
    full = report.headline_verdict(r)  # "above the bound, ...; 2 of 2 rounds above the bound, read with the median"
    cell = report.headline_table([r]).rows[0][5]
    assert cell == full.partition("; ")[0] + "; the rest in the block below" and len(cell.split()) < 30
    assert report.verdicts_note([("batch 128 1f1b m=8", full)]).endswith(f"batch 128 1f1b m=8: {full}")
    assert report.verdict_head("within noise: no effect shown") == "within noise: no effect shown"  # nothing cut
