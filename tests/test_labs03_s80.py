"""Reading t40/t41 (labs 00-03), fixer 80. Lab 01 cell 21: a limit that changed side since the predictions
above the exercises (the length-75 attention read "memory" after "turns compute-bound here at length 75")
carries a mark, and the line under the table gives the reason: the two ridges. Fabricated figures."""

from __future__ import annotations

from types import SimpleNamespace as NS

from utils.labs.predict_the_roofline import report
from utils.lessons.why_slow.roofline import Ceilings

BEFORE = Ceilings(139.9e9, 14.9e9)  # ridge 9.39, as cell 7 printed it
NOW = Ceilings(165.8e9, 14.0e9)  # ridge 11.84, the rounds that timed the ops


def _row(name, flops, n_bytes, bound):
    op = NS(flops=flops, bytes=n_bytes, intensity=flops / n_bytes)
    return NS(op=NS(name=name, dims={}), flops=flops, n_bytes=n_bytes, bound=bound, predicted=1e-3,
              point=NS(op=op, seconds=2e-3, spread=0.1))


ROWS = [_row("conv 3x3", 1.85e9, 1.30e7, "compute"),
        _row("causal attention, length 75, batch 93", 542_822_400, 57_139_200, "memory")]  # 9.50 FLOPs/byte


def test_a_limit_that_changed_side_is_marked_and_its_reason_printed_under_the_table():
    table = report.compared_table(ROWS, NOW, BEFORE).to_text()
    assert "memory*" in table and "compute*" not in table
    note = " ".join(report.limit_note(ROWS, NOW, BEFORE).split())
    assert note == ("* memory on the ridge these rounds measured, 11.84 FLOPs/byte; compute on the ridge measured "
                    "before the exercises, 9.39, where the predictions above placed it: an op near the ridge "
                    "changes side as the ridge moves.")


def test_no_mark_and_no_note_where_every_limit_stayed_on_its_side():
    same = [ROWS[0], _row("causal attention, length 600, batch 1", 3.69e8, 4.92e6, "compute")]
    assert "*" not in report.compared_table(same, NOW, BEFORE).to_text()
    assert report.limit_note(same, NOW, BEFORE) == "" and report.limit_note(ROWS, NOW, None) == ""


def test_a_ridge_that_fell_marks_the_other_way_with_its_own_reason():
    fell = [_row("causal attention, length 75, batch 93", 542_822_400, 57_139_200, "compute")]
    higher = Ceilings(139.9e9, 12.0e9)  # ridge 11.66 before, 9.50 now sits above the ridge measured now
    assert report.limit_marks(fell, higher) == {fell[0].op.name: "*"}
    note = " ".join(report.limit_note(fell, NOW, higher).split())
    assert note.startswith("* compute on the ridge these rounds measured") and "memory on the ridge measured" in note


def test_two_ridges_that_print_alike_at_two_decimals_print_with_the_decimals_that_tell_them_apart():
    rows = [_row("near the ridge", 1.18e9, 1.00e8, "memory")]  # 11.8 FLOPs/byte, between the two ridges
    note = report.limit_note(rows, Ceilings(11.8001e9, 1e9), Ceilings(11.7999e9, 1e9))
    assert "measured, 11.8001 FLOPs/byte" in note and "exercises, 11.7999," in note


def _visible_paragraphs(lab: str, cell: int) -> list[str]:
    """The paragraphs and list items of a lab's markdown cell that show without a click (<details> left out)."""
    import re

    import nbformat

    source = nbformat.read(f"labs/{lab}.ipynb", as_version=4).cells[cell].source
    visible = re.sub(r"<details>.*?</details>", "", source, flags=re.S)
    return [" ".join(p.split()) for p in re.split(r"\n\s*\n|\n(?=\d+\. |\*\*)", visible)]


def test_the_long_paragraphs_of_labs_00_to_03_show_their_answer_and_open_the_rest_on_a_click():
    # t40_labs03 "where a learner gets lost": nine visible paragraphs over 150 words; none stays over 140
    for lab, cell in (("00_fix_the_article", 0), ("01_predict_the_roofline", 16), ("02_balance_the_pipeline", 0),
                      ("02_balance_the_pipeline", 15), ("03_ddp_from_scratch", 0)):
        longest = max(_visible_paragraphs(lab, cell), key=lambda p: len(p.split()))
        assert len(longest.split()) <= 140, (lab, cell, longest[:80])


def test_what_left_the_visible_paragraphs_is_kept_in_a_block():
    import nbformat

    kept = {("00_fix_the_article", 0): "one where α outweighs the bytes",
            ("01_predict_the_roofline", 16): "whether the 25 % holds it",
            ("02_balance_the_pipeline", 15): "the timing judges nothing",
            ("03_ddp_from_scratch", 0): "(the quiz asks why SGD)"}
    for (lab, cell), words in kept.items():
        source = " ".join(nbformat.read(f"labs/{lab}.ipynb", as_version=4).cells[cell].source.split())
        assert words in source and words not in " ".join(_visible_paragraphs(lab, cell)), (lab, words)
