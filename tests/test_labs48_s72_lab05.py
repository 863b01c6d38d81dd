"""t33_labs48 other 3 and 5, lab 05's page: the opening no longer carries what the checks measure (said once, in
the Checks section, which repeated half of it), and the data set's cell says what is not printed exactly (each
item's read time; the mean read and the opening are printed)."""

import json
from pathlib import Path

LAB = Path(__file__).resolve().parents[1] / "labs" / "05_feed_the_gpu.ipynb"


def _markdown() -> list[str]:
    cells = json.loads(LAB.read_text())["cells"]
    return [" ".join("".join(c["source"]).split()) for c in cells if c["cell_type"] == "markdown"]


def test_what_the_checks_measure_is_said_once_in_the_checks_section():
    opening, checks = _markdown()[0], next(c for c in _markdown() if c.startswith("## Checks"))
    assert "What the checks measure" not in opening and "the Checks section says what" in opening
    for said in ("records every copy made to the device", "how many batches are read ahead of the step",
                 "on your draw and on two draws you never see", "its bound can differ slightly"):
        assert said in checks and said not in opening, said


def test_the_data_sets_cell_says_which_cost_is_not_printed():
    data = next(c for c in _markdown() if c.startswith("## The data set and the model"))
    assert "(no item's own read time is printed)" in data and "the costs are printed nowhere" not in data
