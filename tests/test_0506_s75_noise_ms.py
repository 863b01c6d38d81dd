"""Lesson 06, cell 16 (t36_0506 #2): the rounds' noise in ms, a printed ± x a printed step, is rounded half up
as a reader rounds it (0.06 x 72.5 = 4.35 -> 4.4 ms, where ``round`` gives 4.3), and the verdicts read that
same figure."""

from utils.lessons.memory import forward_bound, summary

PLAIN = 0.0725   # the plain step's fastest run, as printed (s)
NOISE = summary.noise_seconds(0.06, PLAIN)   # 0.06 x 72.5 ms = 4.35 ms, stored as 4.3499...
NAME = "the rounds' noise, their ± 0.06 of the plain step"


def test_the_whole_steps_miss_prints_the_noise_half_up():
    assert round(NOISE * 1e3, 1) == 4.3   # the slip: round() on the stored float
    said = summary.prediction_miss(0.0875, (0.0877, 0.0883), PLAIN, NOISE, NAME, False)
    assert said == "-0.2 ms from its low end (-0.3% of the plain step): within 4.4 ms of that prediction (" + NAME + ")"


def test_a_miss_equal_to_the_printed_noise_is_within_it_and_one_past_is_not():
    # 4.4 ms off: within the 4.4 ms printed (it was judged against 4.3 before); 4.5 ms off: beyond it
    assert summary.prediction_within(0.0921, 0.0877, NOISE)
    assert not summary.prediction_within(0.0922, 0.0877, NOISE)
    beyond = summary.prediction_miss(0.0922, 0.0877, PLAIN, NOISE, NAME, True)
    assert "above it by more than 4.4 ms (" + NAME + "); the parts below say where" in beyond


def test_the_parts_print_the_same_noise_and_judge_by_it():
    plain = {"forward": 0.0241, "step": PLAIN}
    within = {"forward": 0.0243, "step": 0.0875}   # forward +0.2 ms, rest +14.8 ms
    said = summary.step_parts("Selective checkpointing", plain, within, {"forward": 0.0, "rest": 0.0126}, NOISE,
                              noise=NAME)
    assert "each part within 4.4 ms of its prediction (" + NAME + ")" in said
    # the rest 4.4 ms over its prediction: within; 4.5 ms: off, and the sentence names 4.4 ms
    assert not summary.parts_off(plain, {"forward": 0.0241, "step": 0.0769}, {"forward": 0.0, "rest": 0.0}, NOISE)
    off = summary.parts_off(plain, {"forward": 0.0241, "step": 0.0770}, {"forward": 0.0, "rest": 0.0}, NOISE)
    assert list(off) == ["backward and AdamW"]
    beyond = summary.step_parts("Selective checkpointing", plain, {"forward": 0.0241, "step": 0.0770},
                                {"forward": 0.0, "rest": 0.0}, NOISE, noise=NAME)
    assert "Off the prediction by more than 4.4 ms (" + NAME + ")" in beyond


def test_the_forwards_reading_prints_its_noise_half_up():
    # a ratio's ± in ms over the blocks' forward: 0.06 x 72.5 = 4.35 -> "± 4.4 ms, the rounds' noise"
    said = forward_bound.ratio_in_forwards(1.21, PLAIN, 0.0210, 0.0216, NOISE, working=True)
    assert "± 4.4 ms, the rounds' noise" in said
