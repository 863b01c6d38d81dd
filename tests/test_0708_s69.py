"""Thirtieth reading, lessons 07 and 08 (t30_0708). Every figure here is fabricated, not one run's output."""

import dataclasses

from utils.lessons.putting_it_together import allreduce_fit, ladder


def _two_devices(gain):
    from test_putting_it_together import _paired

    one = _paired("two devices", [gain] * 3)
    return ladder.Compared(dataclasses.replace(one.rung, workers=2), one.kept, one.before, one.after)


def test_the_guide_s_one_way_price_is_an_estimate_set_beside_the_fit_s_call():
    """#1: the guide's one-way price was called a floor while lesson 07's fit priced the whole all-reduce
    below it (its beta above the one-way rate). Now an estimate, and the two prices are reconciled."""
    c = _two_devices(1.30)
    below = ladder.two_devices_gap(c, 3.48e9, 3.225e6, simulated=True, fit=(200e-6, 3.81e9, 0.34))
    assert "estimate, a floor" not in below and "costs more" not in below and "an estimate, not a floor" in below
    # 0.20 + 0.0129 / 3.81 = 0.20 + 3.39 = 3.59 ms against the guide's 12.9 MB / 3.48 GB/s = 3.71 ms
    assert "0.20 + 3.39 = 3.59 ms" in below
    assert ("Beside the guide's 3.71 ms: the fit's beta is 109% of lesson 00's one-way 3.48 GB/s" in below
            and "so its 3.59 ms come out below that estimate: its rate outweighs its alpha." in below)
    above = ladder.two_devices_gap(c, 3.48e9, 3.225e6, simulated=True, fit=(164e-6, 1.77e9, 0.34))
    assert "51% of lesson 00's one-way" in above and "come out above that estimate: its rate is no higher" in above
    assert "the floor" not in ladder.two_devices_gap(c, 0.3e9, 3.225e6, simulated=False)


def test_each_side_of_the_fit_s_call_against_the_estimate():
    higher_but_slower = allreduce_fit.beside_estimate(3.60e9, 3.80, 3.71, 3.48e9)   # 103%, alpha outweighs
    assert "103%" in higher_but_slower and "its alpha outweighs its higher rate" in higher_but_slower
    same = allreduce_fit.beside_estimate(3.60e9, 3.71, 3.71, 3.48e9)
    assert "its 3.71 ms come out at that estimate, as printed" in same
    # the one-way rate as the guide prints it (3 figures): 12.34 GB/s reads 12.3, the ratio from 12.3
    big = allreduce_fit.beside_estimate(12.30e9, 1.0, 1.05, 12.34e9)
    assert "100% of lesson 00's one-way 12.3 GB/s" in big
