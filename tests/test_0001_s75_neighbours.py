"""Thirty-sixth reading (t36_0001 #1), lesson 01: lesson 00's neighbour test runs on every size between two
others, whatever the run's grade against the profile's line. Reader's case: a size off its neighbours in both
runs carried the verdict "moved" while every other pair agreed within ±10%. Fabricated figures."""

from utils.lessons.why_slow import between_runs, neighbours
from tests.test_0001_s64_between_runs import NAME, _kept, _record
from tests.test_0001_s74_between_runs_outlier import KIB, MIB, _link, _straight


def test_every_interior_size_is_tested_and_the_ends_are_not():
    us = {8: 50.0, 64 * KIB: 70.0, MIB: 500.0, 4 * MIB: 1400.0}  # 8 B and 4 MiB: ends, one neighbour
    # 1 MiB: 70.0 + 1330 x 0.2 = 336.0 µs, +33%: off; 64 KiB between 8 B and 1 MiB: 50.0 + 450 x 65528 /
    # 1048568 = 78.1 µs, -12%, a line the wild 1 MiB bent (it misses by more): not set apart
    assert neighbours.off_neighbours(us) == [MIB]
    assert neighbours.off_neighbours({MIB: 500.0, 4 * MIB: 1200.0}) == []


def test_a_miss_of_ten_percent_as_printed_is_on_the_line_and_eleven_is_off():
    # 1 MiB between 100.0 µs (0 B... 512 KiB) and 300.0 µs (1.5 MiB): the line gives 200.0 µs
    lo, hi = 512 * KIB, 3 * 512 * KIB
    assert neighbours.off_neighbours({lo: 100.0, MIB: 222.0, hi: 300.0}) == []  # +9.9%: on it
    assert neighbours.off_neighbours({lo: 100.0, MIB: 181.9, hi: 300.0}) == []  # -9.95% prints -10%: on it
    assert neighbours.off_neighbours({lo: 100.0, MIB: 225.0, hi: 300.0}) == [MIB]  # +11%: off


def test_two_sizes_off_their_neighbours_no_longer_carry_a_move():
    """The reader's pattern: 4 KiB and 1 MiB past ±10% between the runs, each off its neighbours' line."""
    theirs, mine = _straight(), _straight()
    theirs[MIB] = 300.0   # 1 MiB: lesson 00's, off its line (419.5 µs), -40%
    mine[64 * KIB] = 60.0                   # 64 KiB: this run's, off its line (between 71.4 and 157.4: 88.9 µs)
    said = between_runs.between_runs_sentence(_link(mine), _record(theirs), _kept())
    assert "1 MiB set apart, 1.40x: an outlier among lesson 00's neighbours" in said
    assert "64 KiB set apart, 0.65x: an outlier among this run's neighbours" in said
    assert "the link held still between the two lessons' runs" in said and "moved" not in said


def test_sizes_on_their_own_neighbours_line_stay_whatever_a_size_past_the_rate_fall_does():
    """t37_0001 #1: lesson 00's run, whose 64 MiB is past the size where the rate falls; tested once, 1 MiB and
    4 MiB lie on their own neighbours' lines (-1%, -2%) and only 16 MiB (-21%) is off. t40_0001 #4: 16 MiB is off
    only because its line runs to 64 MiB, where the rate falls; without 16 MiB, 4 MiB is off the line to 64 MiB
    too (-22%), so 16 MiB alone did not bend it, and no size is set apart."""
    us = {256 * KIB: 126.6, MIB: 355.4, 4 * MIB: 1296.7, 16 * MIB: 5178.8, 64 * MIB: 26000.0}
    assert neighbours.off_neighbours(us) == []
