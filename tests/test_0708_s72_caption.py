"""Thirty-third reading, lesson 07 cell 10 (t33_0708 other #5): the caption said "slower than every one of 10
timed passes ... on one device. So this pass is slower than one device's fastest pass", one fact twice. The
fastest is now named only where the pass lies inside one device's range above it. Fabricated figures."""

from utils.lessons.tensor_parallel import verdicts

SPLIT, ALONE = [0.0175, 0.0247, 0.0284], [0.0248, 0.0260, 0.0270]


def test_slower_than_every_one_device_pass_is_said_once():
    said = verdicts.drawn_pass_caption(2, [0.0316, 0.0294], SPLIT, ALONE)
    assert ("slower than every one of 3 timed passes (24.8 to 27.0 ms) on one device: the chart shows who "
            "computes and who waits, in what order, not the speed-up (the timed rounds above give that; the "
            "block under the chart says more).") in said
    assert "fastest pass" not in said


def test_inside_one_device_s_range_above_its_fastest_names_the_fastest():
    said = verdicts.drawn_pass_caption(1, [0.0255], SPLIT, ALONE)
    assert ("within the range of 3 timed passes (24.8 to 27.0 ms) on one device, so slower than one device's "
            "fastest pass (24.8 ms): the chart shows") in said


def test_at_or_below_one_device_s_fastest_names_no_slower():
    for drawn in (0.0248, 0.0200):
        said = verdicts.drawn_pass_caption(1, [drawn], SPLIT, ALONE)
        assert "slower than one device's" not in said and "not the speed-up" in said
