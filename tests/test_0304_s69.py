"""Thirtieth reading (t30_0304): lesson 03's lab pointer, lesson 04's trade-off table named for what it holds,
lesson 03's all-reduce curve read where its rate falls before the peak, and the smaller items. Fabricated
figures only; the notebook tests read cell sources, never a run's outputs."""
import re
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]


def _sources(name: str, kind: str = "markdown") -> str:
    nb = nbformat.read(ROOT / "notebooks" / name, as_version=4)
    return "\n".join(c.source for c in nb.cells if c.cell_type == kind)


def test_the_lessons_point_to_the_learners_copy_of_their_lab_not_the_one_with_solutions():
    # t30_0304 #1: labs/03_ddp_from_scratch.ipynb holds "### BEGIN SOLUTION"; make student builds the copy
    for name in ("03_ddp.ipynb", "04_compression.ipynb"):
        text = _sources(name)
        pointed = re.findall(r"labs/(?:student/)?\d\d_\w+\.ipynb", text)
        assert pointed, name
        assert all(p.startswith("labs/student/") for p in pointed), (name, pointed)
        assert "built by `make student`" in text
