"""Lesson 02, the twenty-ninth reading (t29_02): launches that all read an effect, on opposite sides of 1x, are not
said to agree (#1). Fabricated figures, CPU only; each branch."""

from utils.lessons.model_split import report  # noqa: F401  (loads first: naive reads its verdicts)
from utils.lessons.model_split import naive, noise, runs


def _launch(speedups):
    return runs.Row(32, 1, "gpipe", 0.15, 0.15, [0.07, 0.07], speedups=list(speedups))


ABOVE = _launch([1.03, 1.02, 1.04, 1.03, 1.05])   # 1.03x ± 0.01: above 1x
BELOW = _launch([0.88, 0.89, 0.87, 0.88, 0.90])   # 0.88x ± 0.01: below 1x
NOISY = _launch([0.97, 1.02, 1.00, 1.03, 0.99])   # within noise of 1x


def test_the_fabricated_launches_read_as_named():
    assert [naive._reads(r) for r in (ABOVE, BELOW, NOISY)] == ["above 1x", "below 1x", "no effect"]
    assert noise.printed(ABOVE)[0] > 1 > noise.printed(BELOW)[0]


def test_effects_on_both_sides_of_1x_disagree_on_the_direction():
    said = naive.same_step_note([("section 3", "a", ABOVE), ("section 5", "b", BELOW), ("section 8", "c", ABOVE)])
    assert ("Against 1x every launch reads an effect, but the launches disagree on the direction: section 3, "
            "section 8 above 1x; section 5 below; together they range from 0.88x to 1.03x") in said
    assert "agree on whether" not in said and "the verdicts agree" not in said


def test_effects_on_one_side_agree_and_say_which():
    above = naive.same_step_note([("section 3", "a", ABOVE), ("section 8", "c", ABOVE)])
    assert "Against 1x the verdicts agree: every launch reads above 1x; together" in above
    below = naive.same_step_note([("section 5", "b", BELOW), ("section 8", "c", BELOW)])
    assert "Against 1x the verdicts agree: every launch reads below 1x; together" in below


def test_no_effect_anywhere_and_mixed_keep_their_words():
    none = naive.same_step_note([("section 5", "b", NOISY), ("section 8", "c", NOISY)])
    assert "Against 1x the verdicts agree on whether there is an effect; together" in none
    mixed = naive.same_step_note([("section 3", "a", ABOVE), ("section 5", "b", NOISY)])
    assert "disagree on whether there is an effect: section 3 reads above 1x, section 5 none" in mixed
