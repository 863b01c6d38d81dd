"""Reading 32's items for lessons 03 and 04 (t32_0304): unit tests on fabricated figures; the notebook tests
read cell sources, never a run's outputs."""
from pathlib import Path

import nbformat


def _cells(name: str) -> list:
    return nbformat.read(Path(__file__).resolve().parents[1] / "notebooks" / name, as_version=4).cells


def test_a_step_inside_the_defaults_rounds_is_never_called_about_their_median():
    """t32_0304 #1: 67.8 ms was "about its 75 ms median, which is printed to whole ms", a 7.2 ms gap that no
    rounding hides. Inside the rounds the step is not told apart from the median, because the rounds move."""
    from utils.lessons.ddp.knobs import step_beside_table
    far = step_beside_table(67.8, 75, 2.1, (65, 86))  # inside the rounds, 7.2 ms below the median
    assert far == (", inside this table's default rounds (65-86 ms), so not told apart from its 75 ms median: "
                   "one step moves that far from round to round (this table's steps also include an optimizer "
                   "step, which section 2's do not)")
    assert "about" not in far and "printed to whole ms" not in far
    # the same words at either edge of the rounds, and above the median
    for step in (65.0, 80.2, 86.0):
        assert step_beside_table(step, 75, 0.0, (65, 86)).startswith(", inside this table's default rounds")
    # just outside: read against the median to half a ms, as before
    assert step_beside_table(64.9, 75, 0.0, (65, 86)).startswith(", about 10 ms shorter than")
    assert step_beside_table(86.1, 75, 0.0, (65, 86)).startswith(", about 11 ms longer although")
