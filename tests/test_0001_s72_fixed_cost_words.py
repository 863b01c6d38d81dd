"""Thirty-third reading (t33_0001 #5), lesson 01 section 4: where one axis or none fits, the sentence says no
(second) fixed cost comes from a fit that holds (the others' d are printed beside it), not that none is shown.
Fabricated series (tests/test_why_slow_s55.py's helpers)."""

from tests.test_why_slow_s55 import OFF, axis
from utils.lessons.why_slow import report, scaling


def test_no_axis_fitting_says_no_fixed_cost_comes_from_a_fit_that_holds():
    series = {"width": axis("width", 7.1e-3, OFF), "depth": axis("depth", 0.2e-3, OFF)}
    said = report.fixed_cost_sentence(series, scaling.fit)
    assert said.startswith(" Fixed cost per step: no axis's fit holds; ")
    assert said.endswith("So no fixed cost comes from a fit that holds, and no two axes' fixed costs can be "
                         "compared here.")
    assert "+7.1 ms" in said and "is shown" not in said  # the unfit d are printed, and said to be so
