"""Thirty-fifth reading (t35_0001 #1), lesson 01: a size off its neighbours' line is set apart from the two runs'
range too (not the measure of how far the link moved), and the move is read from the two runs' own ratios past
the edge, not from one run's grade against the profile's line. Since t36_0001 #1 every size between two others
is tested, in both runs. Fabricated figures: straight lines (α + n/β), so no size is off unless made so."""

from utils import machine
from utils.lessons.why_slow import between_runs
from tests.test_0001_s64_between_runs import NAME, _kept, _record

KIB, MIB = 2**10, 2**20
SIZES = [4 * KIB, 64 * KIB, 256 * KIB, MIB, 4 * MIB, 16 * MIB]


def _straight(alpha_us=70.0, per_us=3000.0) -> dict[int, float]:
    """µs by size on the straight line α + n / β (β in bytes per µs), one decimal."""
    return {n: round(alpha_us + n / per_us, 1) for n in SIZES}


def _link(us: dict[int, float]):
    return machine.link_fit(NAME, list(us), [t * 1e-6 for t in us.values()])


def test_an_outlier_is_set_apart_and_the_rest_hold_still():
    mine = _straight()
    mine[MIB] = 600.0  # the neighbours' line gives 419.5 µs: +30% of its time, off it
    said = between_runs.between_runs_sentence(_link(mine), _record(_straight()), _kept())
    assert ("Every pair but the one set apart agrees within the ±10% one noisy median may miss by: the link held "
            "still between the two lessons' runs (1 MiB set apart, 1.43x: an outlier among this run's "
            "neighbours, its 600.0 µs against 419.5 µs on the line through 256 KiB's 157.4 µs and 4 MiB's "
            "1,468.1 µs).") in said
    assert "moved" not in said


def test_two_odd_sizes_with_one_between_them_are_not_singled_out_in_that_run():
    """t40_0001 #4: in lesson 00's run 64 KiB and 1 MiB are both off, and 256 KiB between them stays off the line
    without either: neither alone bent it, so neither is set apart there; this run's lone 1 MiB still is."""
    mine, theirs = _straight(), _straight()
    mine[MIB], theirs[MIB], theirs[4 * KIB * 16] = 600.0, 300.0, 150.0
    said = between_runs.between_runs_sentence(_link(mine), _record(theirs), _kept())
    assert "1 MiB set apart, 2.00x: an outlier among this run's neighbours" in said
    assert "64 KiB set apart" not in said and "64 KiB (0.61x) lies past the ±10%" in said


def test_a_move_at_every_size_is_a_move_and_the_outliers_stay_out_of_its_range():
    mine = {n: round(t * 1.5, 1) for n, t in _straight().items()}
    mine[MIB] = 1000.0  # off its neighbours' line: 4.0x its neighbours' figure would carry the range
    said = between_runs.between_runs_sentence(_link(mine), _record(_straight()), _kept(accuracy=0.05))
    assert "(1 MiB set apart, 2.38x: an outlier among this run's neighbours, its 1,000.0 µs against" in said
    assert "so the link itself moved between the two runs" in said
    assert "Of the 5 sizes kept (1 MiB set apart" in said  # the move: outliers out
    # what a time from one run is worth covers every size (t38_0001 #3, tests/test_0001_s77.py)


def test_every_size_set_apart_cannot_be_compared():
    three = machine.link_fit(NAME, [512 * KIB, MIB, 4 * MIB], [t * 1e-6 for t in (150.0, 1500.0, 1000.0)])
    only = between_runs.between_runs_sentence(three, _record({MIB: 300.0}), _kept())
    assert "Every size both timed is set apart (1 MiB set apart, 5.00x" in only
