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


def test_the_trade_off_table_and_figure_are_named_for_the_variants_they_hold():
    # t30_0304 #2: "Every variant above" over a 12-row table that leaves out BN folded, int4, autocast, ...
    from utils.lessons.compression import pareto

    variants = [dict(family="CNN", mb=1.7, ms=40.0, acc=0.97, front=True),
                dict(family="MLP", mb=2.9, ms=4.5, acc=0.97, front=True)]
    title = pareto.plot_front(variants, 256, " (on the CPU)")._suptitle.get_text()
    assert "every variant" not in title.lower() and "the trade-off table's variants" in title
    nb = nbformat.read(ROOT / "notebooks/04_compression.ipynb", as_version=4)
    section7 = next(c.source for c in nb.cells if "## 7 · The trade-off" in c.source)
    assert "Every variant above" not in section7
    left_out = section7.split("Left out, each for a reason:")[1].split("They are timed again")[0]
    for name in ("folded and fused", "compiled fp32", "int8 by hand", "eager int8", "int4", "autocast",
                 "other seeds"):
        assert name in left_out, name
    table = next(c.source for c in nb.cells if c.cell_type == "code" and "pareto_front(points" in c.source)
    assert "Every variant" not in table and "The trade-off's variants" in table
