"""Thirtieth round, lab 01 (t29_labs03, the items left): check 3's line names each attention with its batch, as
the tables do; cell 21 prints the misses only, the columns' ceilings and the turning length's limit going to
the collapsed block; cell 20 says plainly which prediction the 'predicted above' column holds. Fabricated
figures (the lab's fake measurement), not one run's."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace as NS

import nbformat

from tests.test_lab_predict_the_roofline import CEILINGS, SETUP, count, fake_measure, turning_length
from utils.labs.predict_the_roofline import checks as lab
from utils.labs.predict_the_roofline import report

ROOT = Path(__file__).resolve().parents[1]
BLOCK = "[How this was measured"


def _said(text: str) -> str:
    return " ".join(text.split())


def test_check_3_names_an_attention_with_its_batch_as_the_tables_do():
    attention = lab._attention("causal attention, length 1024, 8 heads of 64, batch 1", 1, 8, 1024, 64, True)
    at = attention.with_length(94, batch=59)
    assert lab.short_name(at) == "causal attention, length 94, batch 59"
    assert lab.short_name(at) in at.name.replace(", 8 heads of 64", "")  # the table's row holds the same words
    results = []
    verdict = lab.check_measured(count, turning_length, CEILINGS, SETUP, show=False, measure=fake_measure({}),
                                 results=results)
    shown = _said(verdict.message)
    for row in results[1][len(SETUP.ops):]:  # the attentions at and beyond the turning length
        assert f"length {row.op.dims['length']}, batch {row.op.dims['batch']} {row.printed_ratio:.2f}x" in shown


def _printed(capsys, moved: bool) -> tuple[str, str]:
    results = []
    lab.check_measured(count, turning_length, CEILINGS, SETUP, show=False, measure=fake_measure({}), results=results)
    before = replace(CEILINGS, flops=CEILINGS.flops * 0.9) if moved else CEILINGS
    report.show_comparison(results, "", first=NS(ceilings=before, bandwidth=NS(name="bandwidth")), answers=True)
    out = capsys.readouterr().out
    visible, block = out.split(BLOCK)
    return _said(visible), _said(block)


def test_cell_21_prints_one_answer_and_the_block_the_misses_the_columns_and_the_limit(capsys):
    # t38_labs03 lost #2: the misses were four visible paragraphs; one sentence answers, the block reads them
    visible, block = _printed(capsys, moved=True)
    assert "The 'predicted' column" not in visible and "Your turning length" not in visible
    assert "The 'predicted' column is your counts to 3 figures" in block
    assert "The column 'predicted above' is your counts on the ceilings measured before the exercises" in block
    assert "Your turning length, " in block and "the rounds that timed it measured the ridge at" in block
    at = turning_length(SETUP.ops[2], CEILINGS)
    assert f"Causal attention at your turning length, {at}, reached " in block
    assert f"; at {8 * at}, " in block
    assert visible.startswith("op ") and "The lookup reached" in block and "The lookup reached" not in visible
    assert "of their roofs: nearest, " in visible and "What each share says is in the block below." in visible


def test_on_unmoved_ceilings_the_block_says_so_and_without_the_pair_no_limit_is_said(capsys):
    _, block = _printed(capsys, moved=False)
    assert "on the same ceilings as the predictions before the exercises" in block
    rows = NS(op=NS(dims={"length": 8}))
    assert report.turning_limit_words([rows] * 4, CEILINGS, None) == ""  # exercise B unfinished: no pair


def test_cell_20_names_the_column_that_holds_the_prediction_made_above():
    cells = nbformat.read(ROOT / "labs/01_predict_the_roofline.ipynb", as_version=4).cells
    said = _said(cells[20].source)
    assert ("Where the ceilings measured in the check's rounds differ from those printed before the exercises, "
            "your prediction on those printed ones stands in its own column, 'predicted above'.") in said
    assert "printed otherwise than above" not in said
    assert report.BEFORE_COLUMN == "predicted above"
