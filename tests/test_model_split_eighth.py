"""Lesson 02's eighth reading (session 52, round 3): each sentence follows from the figures printed beside it,
in both outcomes. Unit tests on synthetic rows, CPU only."""

from utils.lessons.model_split import report, runs


def _m1(speedups):
    return runs.Row(32, 1, "gpipe", 0.160, 0.150, [0.07, 0.08], speedups=speedups)


def test_a_round_printed_with_a_third_digit_is_counted_and_starred_as_printed():
    # session 52: rounds "0.93 1.005 0.90 0.99 1.01" counted as "1 of 5 rounds above the bound (up to 1.01x)"
    assert [report.round_text(s) for s in (1.0049, 1.9996, 2.0004, 2.0024, 0.93)] == [
        "1.005", "1.9996", "2.0004", "2.002", "0.93"]  # 2.000 never: the digits show the side
    said = report.rounds_above_bound(_m1([0.93, 1.0049, 0.90, 0.99, 1.01]))
    assert said.startswith("2 of 5 rounds above the bound (up to 1.01x)")
    # the other outcome: 0.9996 prints 0.9996, under 1x, and is not counted
    assert report.rounds_above_bound(_m1([0.93, 0.9996, 0.90, 0.99, 1.01])).startswith("1 of 5 rounds above")


def test_a_round_printed_2002_is_starred_and_listed_past_2x():
    # session 52: ZBV "2.002 2.03* 1.99 1.77 1.98" without a star on 2.002, and "1 of 5 rounds above ... (2.03x)"
    zbv = runs.Row(64, 4, "zbv", 0.1, 0.2, [0.09, 0.09], speedups=[2.0024, 2.03, 1.99, 1.77, 1.98])
    assert report.every_round(zbv) == "2.002* 2.03* 1.99 1.77 1.98"
    assert report.rounds_past_devices(zbv).startswith("2 of 5 rounds above 2 devices' 2x (2.002x, 2.03x)")
    under = runs.Row(64, 4, "zbv", 0.1, 0.2, [0.09, 0.09], speedups=[1.9996, 2.03, 1.99, 1.77, 1.98])
    assert report.every_round(under) == "1.9996 2.03* 1.99 1.77 1.98"
    assert report.rounds_past_devices(under).startswith("1 of 5 rounds above 2 devices' 2x (2.03x)")
