"""Ninth reading (t9_0304), lesson 03: the step noise a comparison quotes can be redone from the page."""

import re

from utils.lessons.ddp import overlap


def _way(steps_ms):
    """Two ranks of one way, rank 0 the slower (its steps as given, in ms), as ``overlap.timeline`` returns."""
    def rank(r, steps):
        return {"rank": r, "step": sorted(steps)[len(steps) // 2] / 1e3, "exposed": 0.005,
                "steps": [{"start": 0.0, "ready": 0.08, "step": t / 1e3, "calls": {}} for t in steps]}
    return [rank(0, steps_ms), rank(1, [t - 1 for t in steps_ms])]


def test_each_ways_step_range_is_printed_and_gives_the_noise_quoted():
    # the ninth reading: "noise 9% of a step" was the 25 MiB way's, whose range no cell printed
    hand = _way([157.64, 184.1, 207.81, 190.0, 170.0])
    small = _way([86.7, 90.7, 93.3, 88.0, 91.0])
    large = _way([79.4, 87.3, 95.1, 85.0, 89.0])
    line = overlap.noise_ranges({"by hand": hand, "DDP, 1 MiB buckets": small, "DDP, 25 MiB buckets": large})
    assert "by hand 157.6 to 207.8 ms around a median of 184.1 ms (14%)" in line
    assert "DDP, 1 MiB buckets 86.7 to 93.3 ms around a median of 90.7 ms (4%)" in line  # 3.6%: its own
    assert "DDP, 25 MiB buckets 79.4 to 95.1 ms around a median of 87.3 ms (9%)" in line
    assert "never under 5%" in line and "rank shown's 5 timed steps" in line
    # every way's figure is half its printed range over its printed median, rounded half up
    for low, high, median, shown in re.findall(r"([\d.]+) to ([\d.]+) ms around a median of ([\d.]+) ms \((\d+)%\)",
                                               line):
        share = (float(high) - float(low)) / 2 / float(median)
        assert overlap.noise_percent(share) == f"{shown}%"
    # the noise a comparison quotes is the larger of its two ways' printed figures
    assert overlap.noise_percent(overlap.step_noise(small, large)) == "9%"
    assert overlap.noise_percent(overlap.step_noise(hand, large)) == "14%"


def test_a_way_below_the_floor_prints_its_own_figure_and_the_floor_the_comparison_reads_with():
    quiet = _way([88.0, 88.2, 88.4])  # 0.2% of a step: the comparison reads with the 5% floor, and says so
    assert overlap.step_noise(quiet, quiet) == overlap.NOISE_FLOOR
    line = overlap.noise_ranges({"quiet": quiet})
    assert "88.0 to 88.4 ms around a median of 88.2 ms (0%)" in line and line.endswith("never under 5%.")
