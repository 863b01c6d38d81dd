"""Every lesson sends the learner to its lab's student copy (labs/student/, built by `make lab` and `make
student`), never to the source in labs/ that holds the solutions (t30_0304 #1: lessons 00-03 did)."""
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((ROOT / "notebooks").glob("0[0-8]_*.ipynb"))


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_a_lesson_points_to_its_labs_student_copy_only(path):
    text = "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown")
    named = re.findall(r"labs/(?:student/)?\d\d_\w+\.ipynb", text)
    assert named, f"{path.name} names no lab"
    assert all(name.startswith("labs/student/") for name in named), (path.name, named)
