"""Thirty-sixth reading (t36_0001 #3), lessons 00 and 01: where several sizes miss the profile's line ("beyond"),
the verdict prints the worst size's measured and line µs, so its miss can be redone from the page. Fabricated."""

from tests.test_0001_s64_between_runs import _kept, _link
from utils.lessons.start_here import line_check


def test_the_beyond_verdict_prints_the_worst_sizes_two_times():
    check = line_check.check_line(_kept(accuracy=0.05), _link())
    assert check.grade == "beyond"
    said = check.sentence()
    n, t, line, _ = check.worst
    assert f"its worst at {line_check._size(n)}: {t * 1e6:,.1f} µs measured, {line * 1e6:,.1f} µs on the line" in said
    assert said.endswith("for this run, use its measured times, not the line.")
