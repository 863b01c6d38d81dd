"""Reader t39_0001: the line test's sign test with a few sign changes, the flattest-versus-best-fit tie rule,
and lesson 01's roofline words (no "can reach" beside a run where no matmul reaches the roof)."""

import nbformat

from utils.lessons.start_here.line_check import LineCheck, few_changes_chance
from utils.lessons.why_slow.scaling_report import flat_and_fit_sentence


def _check(percents, error=0.45):
    """A LineCheck from misses in % by size (the times do not enter the grade)."""
    return LineCheck([(2 ** (3 + i), 1e-4, 1e-4, p / 100) for i, p in enumerate(percents)], error)


# lesson 01's committed run against the profile's line: 10 misses past ±10%, 9 slower, 2 sign changes (9.0%)
T39 = [45.8, 5.0, 21.8, 17.0, 30.2, 23.1, 15.7, -15.8, 11.7, 13.8, 17.8]


def test_few_sign_changes_under_pattern_p_make_the_line_test_say_no():
    check = _check(T39)
    assert round(few_changes_chance(10, 2), 3) == 0.09
    assert check.grade == "one side"  # was "edge": "yes, at the edge"
    assert check.verdict.startswith("no: slower than the line at 9 of its 10 sizes")
    said = check.sentence()
    assert "9 are slower than the line (+11.7% to +45.8%) and 1 faster (-15.8%)" in said
    assert "2 or fewer changes happen 9% of the time" in said and "does not describe" in said


def test_all_on_one_side_still_says_every_size():
    check = _check([40.7, 13.5, 20.0, 25.0, 30.0, 15.0, 18.0, 5.0])
    assert check.verdict.startswith("no: slower than the line at every size past")
    assert "all 7 of its 8 sizes" in check.sentence() and "(+13.5% to +40.7%)" in check.sentence()


def test_signs_back_and_forth_leave_the_edge_verdict():
    check = _check([45.8, -20.0, 20.0, -20.0, 20.0, -20.0, 20.0, -20.0, 20.0, -20.0])
    assert check.grade == "edge" and check.verdict.startswith("yes, at the edge")


def test_a_gap_within_one_noisy_point_is_not_a_difference_of_readings():
    flat = {"width": 2.31, "depth": 1.07, "context": 1.20}
    near = flat_and_fit_sentence(flat, {"width": 0.181, "depth": 0.069, "context": 0.067}, negative=("depth",))
    assert "differ" not in near and "within 10 points of the best fit (6.9%, against context's 6.7%)" in near
    plain = flat_and_fit_sentence(flat, {"width": 0.181, "depth": 0.069, "context": 0.067})
    assert "do not tell these axes apart" in plain
    far = flat_and_fit_sentence(flat, {"width": 0.181, "depth": 0.189, "context": 0.067})
    assert far.startswith(" The two readings differ here")


def test_lesson_01_does_not_say_matmuls_can_reach_the_compute_roof():
    nb = nbformat.read("notebooks/01_why_slow.ipynb", 4)
    assert not any("can reach it" in c.source or "which it can reach" in c.source
                   for c in nb.cells if c.cell_type == "markdown")
