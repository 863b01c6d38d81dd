"""Thirty-first reading (t31_0001 #3), lesson 01: lesson 00's run missing the profile's line at one size alone is
lesson 00's "not shown", not "off the line"; the between-runs sentence says so and does not infer that the link
moved. Fabricated figures (the fixtures of test_0001_s64_between_runs)."""

import pytest

from tests.test_0001_s64_between_runs import THEIRS, _kept, _link, _record
from utils.lessons.why_slow import between_runs


@pytest.fixture(autouse=True)
def _no_size_off_its_neighbours(monkeypatch):
    """These tests are of the move and the profile's line: the neighbour test (t36_0001 #1, every size against
    its two neighbours' line) is tested on its own in test_0001_s75_neighbours, so here it sets nothing apart."""
    monkeypatch.setattr(between_runs, "off_neighbours", lambda us_by_size: [])

KIB = 2**10


def test_one_size_alone_off_the_line_leaves_the_move_not_shown():
    theirs = dict(THEIRS)
    theirs[256 * KIB] = 60.0  # 151.1 µs on the line: one size alone far past ±45% plus the edge
    said = between_runs.between_runs_sentence(_link(), _record(theirs), _kept())
    assert ("lesson 00's run at 256 KiB (-151.8%) misses the profile's line at one size alone, which lesson 00's "
            "test leaves not shown") in said
    # t35_0001 #1: the line then bounds nothing, and the move is read from the two runs' own ratios past the edge
    assert "so that line sets no bound on how far apart the two runs may be" in said
    # (the neighbour test that would set 256 KiB apart is switched off here: test_0001_s75_neighbours)
    assert ("4 KiB (0.78x), 64 KiB (0.68x), 256 KiB (2.24x) and 4 MiB (1.61x) lie past the ±10%" in said
            and "4 sizes past it, so the link itself moved between the two runs" in said)
    assert "does not lie on the profile's line" not in said
    assert "noise can make" not in said  # a one-off busy moment, not the ±10% of noise (t31_0001 #4)


def test_two_sizes_off_the_line_still_mean_the_link_moved():
    said = between_runs.between_runs_sentence(_link(), _record(), _kept(accuracy=0.05))
    assert "does not lie on the profile's line" in said or "do not lie on the profile's line" in said
    assert "so the link itself moved between the two runs" in said
