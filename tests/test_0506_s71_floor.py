"""Lesson 06, thirty-second reading (t32_0506 #2): a share of a forward whose ± is the floor names the floor,
a tenth of a forward, and the share the rounds' own noise gives, so that a reader's 1.3 / 21.3 = 0.06 beside a
printed 0.10 is explained. Fabricated figures only."""

from utils.lessons.memory import forward_bound as fb

STEP, FORWARD = 0.0700, 0.0250   # a 70.0 ms step; a 25.0 ms forward


def test_a_pm_at_its_floor_names_the_floor_and_the_rounds_own_share():
    # (1.15 - 1) x 70.0 = 10.50 ms over 25.0 ms: 0.42; the rounds' ± 0.02 x 70.0 = 1.4 ms, 1.4 / 25.0 = 0.056
    said = fb.ratio_in_forwards(1.15, STEP, FORWARD, FORWARD, 0.02 * STEP, working=True)
    assert said == ("0.42 ± 0.10 of a forward (42% of the predicted extra time: (1.15 - 1) x 70.0 = 10.50 ms over "
                    "25.0 ms; ± at its floor, a tenth of a forward: the rounds' ± 1.4 ms over 25.0 ms is 0.06): "
                    "less than the predicted forward")


def test_no_rounds_noise_names_the_floor_alone_and_a_wider_noise_names_itself():
    assert "; ± at its floor, a tenth of a forward): " in fb.ratio_in_forwards(1.15, STEP, FORWARD, FORWARD)
    # 0.05 x 70.0 = 3.5 ms over 25.0 ms: 0.14, above the floor: the rounds' noise sets the ±
    wide = fb.ratio_in_forwards(1.15, STEP, FORWARD, FORWARD, 0.05 * STEP)
    assert "0.42 ± 0.14 of a forward" in wide and "; ± 3.5 ms, the rounds' noise)" in wide
    assert "floor" not in wide
