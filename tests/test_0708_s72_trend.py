"""Thirty-third reading, lesson 07 cell 34 (t33_0708 other #2): the pipeline's trend named its fall from batch 1
to 4 (0.83x to 0.56x) and not its rise beyond the spread from batch 4 to 16 (0.56x to 0.67x). Where a step
falls beyond the spread, every step is now named in order. Fabricated figures."""

from utils.lessons.tensor_parallel import inference


def _rows(xs, noise=0.05):
    return [{"batch": b, "one device": 1.0, "pipeline": 1.0 / x,
             "spread": {"one device": noise, "pipeline": noise}} for b, x in zip((1, 4, 16), xs)]


def test_a_fall_then_a_rise_names_both():
    said = inference.batch_trend(_rows((0.83, 0.56, 0.67)), 1, ("pipeline",))
    # 0.83 - 0.04 = 0.79 > 0.56 + 0.03 = 0.59: fell; 0.67 - 0.03 = 0.64 > 0.59: rose
    assert ("fell beyond the rounds' spread from batch 1 to 4 (0.83x to 0.56x), then rose beyond it from batch "
            "4 to 16 (0.56x to 0.67x): against the expected trend") in said


def test_a_fall_then_a_step_within_the_spread():
    said = inference.batch_trend(_rows((0.83, 0.56, 0.58)), 1, ("pipeline",))
    assert "then stayed within it from batch 4 to 16 (0.56x to 0.58x)" in said


def test_a_rise_then_a_fall():
    said = inference.batch_trend(_rows((0.56, 0.83, 0.56)), 1, ("pipeline",))
    assert said.endswith("rose beyond the rounds' spread from batch 1 to 4 (0.56x to 0.83x), then fell beyond it "
                         "from batch 4 to 16 (0.83x to 0.56x): against the expected trend; this run does not "
                         "time apart why")


def test_no_fall_beyond_the_spread_keeps_its_sentence():
    said = inference.batch_trend(_rows((0.87, 0.85, 0.92)), 1, ("pipeline",))
    assert "did not rise with every larger batch: the expected trend did not show" in said and "fell" not in said
