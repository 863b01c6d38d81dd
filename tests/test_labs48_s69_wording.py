"""Thirtieth reading (t30_labs48, other problems): wordings a newcomer could misread, in lab 08's source."""

from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent


def test_lab_08_s_checks_list_does_not_deny_the_marks_it_states():
    """Items 1, 2 and 4 state their marks (a hundredth, 1e-4, 80 %): the list says how a check is met is not
    given, not that what a script must do to pass is not."""
    nb = nbformat.read(ROOT / "labs" / "08_make_it_fast.ipynb", as_version=4)
    text = " ".join(next(c.source for c in nb.cells if c.source.startswith("## Checks")).split())
    assert "not what your script must do to pass it" not in text
    assert "each check counts and the mark it sets, not how your script should meet it." in text
    assert "within a hundredth" in text and "within 1e-4" in text and "at least 80 %" in text
