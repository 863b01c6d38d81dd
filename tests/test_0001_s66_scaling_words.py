"""Twenty-eighth reading (t28_0001, other problems), lesson 01 section 4: a failing axis's d is left out with
both of the claims row's reasons, and the tolerance names whose shortest step it is."""

import pytest

from tests.test_why_slow_s55 import OFF, axis, reader_run
from utils.lessons.why_slow import between_runs, report, scaling


@pytest.fixture(autouse=True)
def _no_size_off_its_neighbours(monkeypatch):
    """These tests are of the move and the profile's line: the neighbour test (t36_0001 #1, every size against
    its two neighbours' line) is tested on its own in test_0001_s75_neighbours, so here it sets nothing apart."""
    monkeypatch.setattr(between_runs, "off_neighbours", lambda us_by_size: [])


def test_a_failing_axis_whose_d_is_below_zero_says_so_beside_its_miss():
    series = reader_run()
    series["depth"] = axis("depth", -2.9e-3, OFF)
    assert report.scaling_holds(series, scaling.fit)["depth"] == "off"
    assert scaling.fixed_cost_is_negative(series["depth"])
    said = report.fixed_cost_sentence(series, scaling.fit)
    assert "depth's -2.9 ms comes from a fit that misses by " in said
    assert " and lies below zero beyond its ± (d = -2.9 ± " in said
    # the same reasons as the claims row
    assert "its fixed cost is below zero beyond its ± (d = -2.9 ± " in report.scaling_verdict(series, scaling.fit)
    plain = report.fixed_cost_sentence(reader_run(), scaling.fit)  # d +0.2 ms: only the miss
    assert "below zero" not in plain and "depth's +0.2 ms comes from a fit that misses by" in plain


def test_the_tolerance_is_of_the_shortest_step_of_the_axes_that_fit_where_one_fails():
    said = report.fixed_cost_sentence(reader_run(), scaling.fit)
    assert "they differ by 0.7 ms, no more than 10% of the shortest step of the axes that fit (" in said
    every = report.fixed_cost_sentence({"width": axis("width", 7.1e-3), "context": axis("context", 6.4e-3)},
                                       scaling.fit)
    assert "they differ by 0.7 ms, no more than 10% of the shortest step (16.2 ms)" in every


def test_the_between_runs_sentence_names_the_range_it_holds_to():
    """Other (t28_0001): "only to about that factor" named no figure; the range is named again."""
    from tests.test_0001_s64_between_runs import _kept, _link, _record

    said = between_runs.between_runs_sentence(_link(), _record(), _kept())
    # t29_0001, t30_0001 #2: two runs' move says what a time from one is worth, neither ceiling nor floor
    assert said.endswith(". These two runs differed by 0.68x to 1.61x at the same size: a time measured or "
                         "fitted in one run is no better a guide to another than that.")
    assert "within that range" not in said
    assert "that factor" not in said
