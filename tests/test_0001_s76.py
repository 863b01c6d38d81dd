"""Thirty-seventh reading's items in lessons 00 and 01 (fix76_0001): a count of ops under their memory roof that
leaves out the op whose side is not shown; a headline speed-up that says it rests on slowed rounds; "of its
gain" defined where lesson 00 first prints it; the neighbours' line named by the two µs it is drawn through.
Fabricated figures."""

from types import SimpleNamespace as NS

from utils import machine
from utils.lessons.start_here import summary
from utils.lessons.why_slow import algorithms_report, between_runs, neighbours, report
from utils.lessons.why_slow.algorithms import Comparison
from tests.test_0001_s64_between_runs import _kept, _record
from tests.test_0001_s74_between_runs_outlier import KIB, MIB, _link, _straight


def _memory_roof(retimed_gbs: float):
    """A 1-thread roof of 18.7 GB/s from the profile, its probe re-timed beside the ops at ``retimed_gbs``, with
    two memory-bound ops: matrix-vector at 94% of it (8.8 of 9.35 GFLOP/s) and gelu at 24%."""
    def point(name, achieved, intensity):
        op = NS(name=name, intensity=intensity, flops=1.0, bytes=64 * MIB, written=32 * MIB)
        return NS(op=op, achieved=achieved, fraction=achieved / (intensity * 18.7e9), bound="memory", spread=0.05)

    points = [point("matrix-vector", 8.8e9, 0.5), point("gelu", 4.5e9, 1.0)]
    bw = NS(name="fp32 memory bandwidth, 1 thread, STREAM copy, 32 MiB arrays", best=18.7e9, spread=0.2)
    return NS(points=points, from_profile=True, bandwidth=bw, retimed=(None, NS(best=retimed_gbs)), threads=1,
              ceilings=NS(flops=180e9, bandwidth=18.7e9), RETIMED="the same probe timed beside the ops, this run")


def test_an_op_whose_side_of_the_memory_roof_is_not_shown_is_not_counted_under_it_and_is_named():
    roof = _memory_roof(14.5e9)  # matrix-vector: 94% against the profile's figure, 8.8 / 7.3 = 121% re-timed
    mv = roof.points[0]
    assert report.memory_grade(mv, roof) == "crosses"
    reading = report.memory_reading(mv, roof)
    assert "under it against the profile's figure, above it against the probe re-timed" in reading
    row = report.memory_claim(roof).verdict
    assert row.startswith("1 of 2 under the roof; which side is not shown for matrix-vector, at 94% against the "
                          "profile's figure and 8.8 / 7.3 GFLOP/s = 121% against the probe re-timed beside the ops")
    said = report._against_limit(roof.points, roof)
    assert said.startswith("here 1 of 2 ran under that limit; which side is not shown for matrix-vector")
    assert "at or under it" not in report.nearest_reading(mv, roof)
    assert "so which side is not shown. That roof is" in report.nearest_reading(mv, roof)


def test_an_op_on_one_side_of_both_figures_is_counted_under_its_roof():
    roof = _memory_roof(18.0e9)  # re-timed: 8.8 / 9.0 = 98%, under both
    assert report.memory_grade(roof.points[0], roof) == "under"
    assert report.memory_claim(roof).verdict == "2 of 2 under the roof"
    assert report._against_limit(roof.points, roof) == "here 2 of 2 ran under that limit"


def _pair(fast_ms: float) -> Comparison:
    return Comparison("GELU", "gelu_op_by_op", "gelu_fused", 9e-3, fast_ms * 1e-3, 2e-7, "kernels",
                      round_ratios=(2.70, 3.00, 5.20, 5.00, 5.60), ceiling=11.0)


def test_a_headline_whose_rounds_disagree_says_its_median_rests_on_slowed_rounds():
    slowed, steady = _pair(3.60), _pair(1.80)  # fastest times' ratio 2.50x against a median of 5.00x; 5.00x
    assert algorithms_report.comparison_rows([slowed])[0][2] == (
        "5.00x (known only as 2.50x to 5.00x: its rounds disagree, and the median rests on slowed rounds)")
    assert algorithms_report.speedup_text(steady) == "5.00x (middle half 3.00x-5.20x)"


def test_of_its_gain_is_worked_where_lesson_00_prints_it_and_only_there():
    def peak(threads, best):
        return machine.Ceiling("matmul peak", "fp32", threads, "1024³", best, best, 0.1, "FLOP/s")

    said = summary.threads_reading("fp32 matmul peak", peak(1, 100e9), peak(2, 193e9))
    assert "93% of its gain. 'Of its gain': how far the speed-up went from one thread's 1x toward the bound's " \
           "2x, (1.93 - 1) / (2 - 1) = 93%." in said
    slower = summary.threads_reading("fp32 matmul peak", peak(1, 100e9), peak(2, 80e9))
    assert "of its gain" not in slower.lower()


def test_a_size_set_apart_names_the_two_us_its_neighbours_line_is_drawn_through():
    mine, theirs = _straight(), _straight()
    mine[MIB], theirs[MIB] = 600.0, 300.0  # off its neighbours' line in both runs
    said = between_runs.between_runs_sentence(_link(mine), _record(theirs), _kept())
    assert ("1 MiB set apart, 2.00x: an outlier among both runs' neighbours, lesson 00's 300.0 µs against 419.5 µs "
            "on the line through 256 KiB's 157.4 µs and 4 MiB's 1,468.1 µs and this run's 600.0 µs against "
            "419.5 µs on the line through 256 KiB's 157.4 µs and 4 MiB's 1,468.1 µs") in said
    assert neighbours.off_neighbours({256 * KIB: 157.4, MIB: 600.0, 4 * MIB: 1468.1}) == [MIB]
