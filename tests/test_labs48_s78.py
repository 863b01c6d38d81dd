"""Fortieth-round fixes from the t39 reading of labs 04-08: lab 06's blocks take-away answers in one visible
sentence with the cost model collapsed, lab 06 names its cost table where it prints it, lab 05 says what its
"nominal" read costs are, and the two Exercise A specs read in short paragraphs."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest
import torch

from utils.labs.feed_the_gpu import cache
from utils.labs.fit_the_budget import blocks

ROOT = Path(__file__).resolve().parents[1]


def _fake_timing(monkeypatch, yours: list[float], every: list[float]) -> None:
    """``blocks._timing`` without a model: the interleaved rounds given, the step builders stubbed out."""
    monkeypatch.setattr(blocks, "new_model", lambda shape, device: (None, None))
    monkeypatch.setattr(blocks, "batch_of", lambda shape, batch, device: (None, None))
    monkeypatch.setattr(blocks, "training_step", lambda *args, **kwargs: None)
    monkeypatch.setattr(blocks, "_loss", lambda chosen: None)
    monkeypatch.setattr(blocks, "interleaved_rounds",
                        lambda calls, device, repeats: {"yours": yours, "every block": every})


CASE = SimpleNamespace(shape=SimpleNamespace(depth=4), batch=2, usable=1e6, device="cpu", label=" (on the CPU)")


@pytest.mark.parametrize("yours, says", [
    ([0.89, 0.89, 0.90, 0.89, 0.89], "faster than every block's beyond the rounds' noise"),
    ([1.00, 1.01, 0.99, 1.00, 1.00], "within the rounds' noise of every block's"),
])
def test_the_blocks_timing_answers_in_one_sentence_and_keeps_the_cost_model_for_the_collapsed_block(
        monkeypatch, yours, says):
    """t39: the take-away was 150 visible words (the rounds, the cost model's formula, the allowance, the
    no-recompute comparison). The answer is now the ratio and its verdict; the rest is the worked detail."""
    _fake_timing(monkeypatch, yours, [1.0] * 5)
    answer, worked = blocks._timing((0, 1), CASE, 0.11, 5, 0.03, (0.04, "the cost table's ± {:.2f}"))
    assert answer.startswith("Its step took ") and says in answer and answer.count(". ") == 0, answer
    assert "cost model" not in answer and "allowed" not in answer and "rounds each" not in answer, answer
    assert "median of the rounds' own ratios" in worked and "The cost model" in worked, worked
    assert "(1 + 2/4 × 0.11 + 0.03) / (1 + 0.11 + 0.03) = 0.95x" in worked and "allowed" in worked, worked


def test_show_blocks_take_away_prints_the_answer_and_collapses_the_worked_detail(monkeypatch, capsys):
    shown = []
    monkeypatch.setattr(blocks, "how_measured", lambda what, *parts: shown.append((what, parts)))
    monkeypatch.setattr(blocks, "blocks_take_away", lambda *args: ("the answer", "the worked detail"))
    blocks.show_blocks_take_away(None, CASE, {})
    assert capsys.readouterr().out == "the answer\n"
    assert shown == [("your blocks' step against every block's, and the cost model's prediction",
                      ("the worked detail",))]
    monkeypatch.setattr(blocks, "blocks_take_away", lambda *args: ("no fitting plan yet", ""))
    blocks.show_blocks_take_away(None, CASE, {})
    assert capsys.readouterr().out == "no fitting plan yet\n" and len(shown) == 1   # nothing to collapse


def test_the_blocks_take_away_returns_only_the_message_for_an_unfinished_answer():
    def stub(shape, batch, usable):
        raise NotImplementedError("exercise B")

    message, worked = blocks.blocks_take_away(stub, CASE, {})
    assert "gave no fitting plan yet (NotImplementedError)" in message and worked == ""


def test_lab05s_cache_take_away_says_what_its_nominal_read_costs_are(monkeypatch):
    """t39: "nominal read costs" and "nominal L" were never defined; the first use now says they are the
    draw's set read times, not timed."""
    monkeypatch.setattr(cache, "room_for", lambda setup: 2)
    monkeypatch.setattr(cache, "lab_dataset", lambda setup: list(range(10)))
    monkeypatch.setattr(cache, "_as_indices", lambda chosen, dataset, room, where: chosen)
    monkeypatch.setattr(cache, "read_seconds", lambda dataset: torch.tensor([0.2, 0.2] + [0.01] * 8))
    monkeypatch.setattr(cache, "savings", lambda chosen, dataset: (0.4, 0.4) if chosen == [0, 1] else (0.02, 0.4))
    line = " ".join(cache.cache_take_away(lambda dataset, room: [0, 1], None, 0.5).split())
    assert "nominal read costs (each item's read time as your draw sets it, not timed)" in line, line
    assert line.index("not timed") < line.index("nominal L ="), line


def _cells(lab: str) -> list:
    return nbformat.read(ROOT / "labs" / lab, as_version=4).cells


def test_lab06_names_the_cost_table_where_it_prints_it():
    """t39: "the cost table" was used in the selective line under the costs without being named; the costs'
    heading now calls them that."""
    cell = next(c for c in _cells("06_fit_the_budget.ipynb") if "describe_costs(COSTS" in c.source)
    assert "the cost table, each technique's extra time over the plain step" in cell.source


@pytest.mark.parametrize("lab", ["05_feed_the_gpu.ipynb", "06_fit_the_budget.ipynb"])
def test_exercise_a_reads_in_paragraphs_under_120_words(lab):
    """t39: lab 05's and lab 06's Exercise A were one paragraph of about 160 words; each is now a task
    sentence and short bullets (target, rules, what counts)."""
    spec = next(c.source for c in _cells(lab) if c.cell_type == "markdown" and "### Exercise A" in c.source)
    paragraphs = re.split(r"\n\s*\n|\n(?=- )", spec)
    longest = max(len(p.split()) for p in paragraphs)
    assert longest < 120, (lab, longest)
