"""Lesson 02, the thirty-second reading (t32_02, other problems): the markdown around sections 8 and 9 no longer
tilts the link's cost toward the messages' fixed cost (the bytes grow with the crossings too, and the block
prints the two parts apart), and cell 54 places the work-scaled reference where it is printed (a column of
the measurement table). Notebook sources only."""

from pathlib import Path

import nbformat


def _cells():
    nb = nbformat.read(Path(__file__).resolve().parents[1] / "notebooks/02_model_split.ipynb", 4)
    return [" ".join(c.source.split()) for c in nb.cells]


def test_section_8_and_9_name_bytes_beside_the_fixed_cost():
    cells = _cells()
    assert "high fixed cost (loopback TCP" not in cells[53]
    assert "the block prints the two parts apart" in cells[53]
    assert "the bytes they move (each crossing sends an activation) grow with $v$" in cells[62]


def test_cell_54_places_the_work_scaled_reference_in_the_measurement_table():
    cells = _cells()
    assert "(a column of the measurement table)" in cells[54]
    assert "the table after the measurement" not in cells[54]
