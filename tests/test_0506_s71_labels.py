"""Lessons 05 and 06, thirty-second reading (t32_0506 #4): cell 0 promises that every figure standing in for a
GPU's is labelled; the claims tables and the Summary's checkpointing line carry the label too. Fabricated
figures only, and the notebooks' sources."""

import json
from pathlib import Path

from utils.lessons.memory import summary

MS = 1e-3
NOTEBOOKS = Path(__file__).parents[1] / "notebooks"
TIMES = {"step": 70.0 * MS, "checkpointed step": 84.0 * MS, "blocks' forward": 20.0 * MS, "forward": 22.0 * MS}


def _code(name: str) -> str:
    cells = json.loads((NOTEBOOKS / name).read_text())["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")


def test_the_checkpointing_line_ends_with_the_label_and_without_it_as_before():
    labelled = summary.checkpointing_summary(TIMES, (1.20, 0.02, [1.20]), " (simulated on CPU)")
    assert labelled.endswith("less than the predicted forward (simulated on CPU).")
    assert summary.checkpointing_summary(TIMES, (1.20, 0.02, [1.20])).endswith("less than the predicted forward.")


def test_both_claims_tables_and_the_summary_line_carry_the_label():
    for name in ("05_data_prefetch.ipynb", "06_memory.ipynb"):
        code = _code(name)
        assert "show_claims(" not in code, name
        assert "table.title += S.label" in code and "show(table)" in code, name
    assert "checkpointing_summary(CKPT_TIMES, FULL_TIME, S.label, CKPT_ROUNDS)" in _code("06_memory.ipynb")


def test_lesson_06_defines_the_middle_half_before_it_uses_it():
    cells = json.loads((NOTEBOOKS / "06_memory.ipynb").read_text())["cells"]
    sources = ["".join(c["source"]) for c in cells]
    first_use = next(i for i, s in enumerate(sources) if "middle half" in s)
    assert cells[first_use]["cell_type"] == "markdown"
    assert "the middle half: the rounds between the quartiles" in sources[first_use]
