"""Reading 31's items for lessons 03 and 04 (t31_0304): unit tests on fabricated figures; the notebook tests
read cell sources, never a run's outputs."""
import re
from pathlib import Path

import nbformat

from utils.lessons.compression.roofline import Reference


def test_int8_slower_than_compile_names_no_unmeasured_cause():
    """t31_0304 #1: the run does not time quantize, the int8 matmul and rescale apart, so the slower branch
    says so and never claims the steps 'take more than the bytes save'."""
    from utils.lessons.compression.quantruns import over_compile
    ref = Reference("memory-bound", 3.97, 0.5, 3.1, "bytes moved", "L3")
    slower = over_compile(0.98, 0.01, "beyond noise", ref)
    assert slower.startswith("quantizing costs time beyond compile's")
    assert "does not time its steps" in slower and "int8 matmul" in slower
    assert "bytes save" not in slower
    assert "adds no time beyond compile's" in over_compile(0.99, 0.05, "within noise", ref)
    assert over_compile(2.0, 0.02, "beyond noise", ref).startswith("quantizing gains over compile alone")


def _markdown(name: str, marker: str) -> str:
    nb = nbformat.read(Path(__file__).resolve().parents[1] / "notebooks" / name, as_version=4)
    return next(c.source for c in nb.cells if c.cell_type == "markdown" and marker in c.source)


def test_04_claims_intro_excludes_what_the_bullets_mark_and_only_that():
    """t31_0304 #2: every table row was measured in an earlier section, so that phrase excluded nothing; the
    intro names the marks the bullets carry ('not in the table below', theory, not measured/tested here)."""
    cell = _markdown("04_compression.ipynb", "The measured statements above")
    intro = " ".join(cell[cell.index("The measured statements above"):].split())
    assert "measured in an earlier section" not in intro
    assert "not in the table below" in intro and "theory" in intro
    bullets = " ".join(cell[:cell.index("The measured statements above")].split())
    assert len(re.findall(r"not in the table below", bullets)) == 2  # the mask bytes and the int8 emulation
    assert "not the table below" not in bullets  # one wording, the one the intro names
