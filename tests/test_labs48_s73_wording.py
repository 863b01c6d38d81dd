"""Thirty-fourth reading (t34_labs48 weak point 3, lab 08 cell 21): the checks' preface said the page states two
of exercise B's four habits, while exercise B's brief (cell 16) states a third, a training process that "does
only the work the specification asks for". The count now matches what the page above states. Sources only."""

from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]


def _markdown(nb, upto: int) -> str:
    return " ".join(" ".join(c.source.split()) for c in nb.cells[:upto] if c.cell_type == "markdown")


def test_the_checks_preface_counts_the_habits_the_page_states():
    nb = nbformat.read(ROOT / "labs" / "08_make_it_fast.ipynb", as_version=4)
    index = next(i for i, c in enumerate(nb.cells) if c.source.startswith("## Checks"))
    preface = " ".join(nb.cells[index].source.split())
    assert ("The page above already states three (the thread budget a worker, reading batches in loader "
            "processes, and doing only the work the specification asks for); the list would give away the "
            "fourth.") in preface, preface
    above = _markdown(nb, index)
    for stated in ("the budget is one core a worker", "batches are read by loader processes",
                   "does only the work the specification asks for"):
        assert stated in above, stated
