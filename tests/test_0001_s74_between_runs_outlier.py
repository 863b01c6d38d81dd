"""Thirty-fifth reading (t35_0001 #1), lesson 01: a size the line check sets apart as an outlier among its
neighbours is set apart from the two runs' range too (not the measure of how far the link moved), and the move
is read from the two runs' own ratios past the edge, not from one run's grade against the profile's line.
Fabricated figures (the fixtures of test_0001_s64_between_runs)."""

from tests.test_0001_s64_between_runs import MINE, NAME, SIZES, THEIRS, _kept, _link, _record
from utils import machine
from utils.lessons.start_here import line_check
from utils.lessons.why_slow import link_report

KIB, MIB = 2**10, 2**20


def _mine(**at):
    """MINE with some sizes' µs replaced (``at``: "kib64" style names are awkward, so sizes by index)."""
    us = list(MINE)
    for i, t in at.items():
        us[int(i[1:])] = t
    return us


OUTLIER = _mine(i8=1500.0)  # 1 MiB: 1,500.0 µs against its neighbours' 164.7 and 1,941.4 µs: far off both lines


def test_the_line_check_names_the_outlier_it_sets_apart():
    check = line_check.check_line(_kept(), _link(OUTLIER))
    assert check.grade == "one size" and check.outlier == MIB
    assert line_check.check_line(_kept(), _link()).outlier is None  # no size past the edge: nothing set apart
    assert line_check.check_line(_kept(accuracy=0.05), _link(OUTLIER)).outlier is None  # "beyond": no lone size


def test_an_outlier_is_set_apart_from_the_runs_range_and_the_move_is_read_from_the_rest():
    said = link_report.between_runs_sentence(_link(OUTLIER), _record(), _kept())
    # 1 MiB: 1,500.0 / 322.2 = 4.66x, set apart; the rest: 0.68x (64 KiB) to 1.61x (4 MiB)
    assert ("The same size took 0.68x to 1.61x lesson 00's time (1 MiB set apart, 4.66x: an outlier among this "
            "run's neighbours), past the") in said
    assert "64 KiB (0.68x) and 4 MiB (1.61x) lie past it, so the link itself moved between the two runs" in said
    assert "this run at 1 MiB" in said and "so that line sets no bound on how far apart the two runs may be" in said
    assert said.endswith("These two runs differed by 0.68x to 1.61x at the same size: a time measured or fitted "
                         "in one run is no better a guide to another than that.")
    assert "4.66x lesson 00's" not in said and "to 4.66x" not in said


def test_with_the_outlier_set_apart_the_rest_may_hold_still():
    theirs = {n: t for n, t in zip(SIZES, MINE) if n in THEIRS}  # lesson 00's run: this run's times exactly
    said = link_report.between_runs_sentence(_link(OUTLIER), _record(theirs), _kept())
    assert ("Every pair but the one set apart agrees within the ±10% one noisy median may miss by: the link held "
            "still between the two lessons' runs (1 MiB set apart, ") in said
    assert "moved" not in said


def test_an_outlier_in_both_runs_and_an_outlier_alone():
    theirs = dict(THEIRS)
    theirs[MIB] = 1000.0  # lesson 00's 1 MiB, off the line between 131.6 and 1,203.7 µs too
    said = link_report.between_runs_sentence(_link(OUTLIER), _record(theirs), _kept())
    assert "(1 MiB set apart, 1.50x: an outlier among both runs' neighbours)" in said
    three = machine.link_fit(NAME, [512 * KIB, MIB, 4 * MIB], [t * 1e-6 for t in (150.0, 1500.0, 1000.0)])
    only = link_report.between_runs_sentence(three, _record({MIB: 300.0}), _kept())
    assert "Every size both timed is set apart (1 MiB set apart, 5.00x" in only


def test_a_run_off_the_line_moved_since_the_profile_not_since_the_other_run():
    """The move between the runs is their ratios past the edge; one such ratio alone is one median, not shown."""
    said = link_report.between_runs_sentence(_link(), _record(), _kept(accuracy=0.05))
    assert "lie past it, so the link itself moved between the two runs; lesson 00's run and this run do not lie" in said
    near = {n: t for n, t in zip(SIZES, MINE) if n in THEIRS}
    near[4 * MIB] = 1000.0  # only 4 MiB past the edge (1.94x); every other pair 1.00x
    one = link_report.between_runs_sentence(_link(), _record(near), _kept(accuracy=0.05))
    assert ("only 4 MiB (1.94x) lies past it, one size's median alone, which a one-off busy moment can make, so "
            "whether the link itself moved between the two runs is not shown") in one
    assert "so the link itself moved" not in one
