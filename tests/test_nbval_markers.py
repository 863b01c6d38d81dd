"""nbval reads a marker only when the whole comment is the marker (``# NBVAL_CHECK_OUTPUT``): a reason added on
the same line silently switches the check off. Every comment that starts with a marker's name must be exactly it."""

from pathlib import Path

import nbformat
import pytest
from nbval.plugin import comment_markers

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(ROOT.glob("notebooks/*.ipynb")) + sorted(ROOT.glob("labs/*.ipynb"))


def _broken_markers(source: str) -> list[str]:
    """Comment lines that start with NBVAL_ (or PYTEST_VALIDATE_) but are not a marker nbval recognises."""
    out = []
    for line in source.splitlines():
        line = line.strip()
        if not line.startswith("#"):
            continue
        comment = line.lstrip("#").strip()
        if comment.startswith(("NBVAL_", "PYTEST_VALIDATE_")) and comment not in comment_markers:
            out.append(line)
    return out


def test_a_marker_with_text_after_it_is_caught():
    assert _broken_markers("# NBVAL_CHECK_OUTPUT: the tests compare this cell's output\nx = 1")
    assert not _broken_markers("# NBVAL_CHECK_OUTPUT\n# (the marker above: the tests compare this output)")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_nbval_marker_is_one_nbval_reads(path):
    nb = nbformat.read(path, as_version=4)
    broken = [(i, line) for i, c in enumerate(nb.cells) if c.cell_type == "code"
              for line in _broken_markers(c.source)]
    assert broken == [], f"markers nbval would ignore (put any reason on the next line): {broken}"
