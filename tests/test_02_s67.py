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


# --- #2: a round past the rounds' spread that the work-scaled reference reaches is no finding ------------------

def _pipeline(speedups, cpu=(0.046, 0.046), one=0.100, m=8):
    return runs.Row(128, m, "1f1b", 0.15, 0.15, [0.07, 0.07], cpu=list(cpu), baseline_cpu=one,
                    speedups=list(speedups))


def test_the_fabricated_pipeline_reads_as_named():
    row = _pipeline([1.72, 1.78, 1.78, 1.91, 1.95])
    assert noise.printed(row) == (1.78, 0.07) and f"{row.work_inflation:.2f}" == "0.92"
    assert f"{row.bound:.2f}" == "1.78" and f"{row.work_bound:.2f}" == "1.93"


def test_rounds_within_the_work_scaled_reference_are_no_finding():
    said = report.headline_verdict(_pipeline([1.72, 1.78, 1.78, 1.91, 1.95]))
    assert ("2 of 5 rounds above the bound (up to 1.95x): 1.91x, 1.95x past the rounds' spread, but within the "
            "work-scaled reference (1.93x + 0.07 = 2.00): no finding") in said
    assert "a finding to explain" not in said


def test_a_round_past_the_work_scaled_reference_stays_a_finding():
    said = report.headline_verdict(_pipeline([1.72, 1.78, 1.78, 1.91, 2.01 - 0.02]))  # 1.99 within; then past
    assert "no finding" in said and "a finding to explain" not in said
    past = report.headline_verdict(_pipeline([1.72, 1.78, 1.78, 1.91, 2.04]))  # 2.04 past 2.00 and past 2x
    assert "1.91x past the rounds' spread, but within the work-scaled reference" in past
    # t33_02 #3: 2.04x is a finding for lying past 2x (rule 1), said first with that reason
    assert ("2 of 5 rounds above the bound (up to 2.04x, 1 of them past 2 devices' 2x): 2.04x past 2 devices' 2x: "
            "a finding to explain by that alone (cheaper work, or a disturbed one-device step), which neither the "
            "spread nor the work-scaled reference explains; 1.91x past the rounds' spread, but within the work-scaled "
            "reference (1.93x + 0.07 = 2.00): no finding") in past


def test_no_work_scaled_reference_above_the_bound_leaves_the_spread_rule():
    more_work = _pipeline([1.72, 1.78, 1.78, 1.91, 1.95], cpu=(0.052, 0.052))  # w 1.04: reference under the bound
    said = report.headline_verdict(more_work)
    assert "beyond the rounds' spread of the median (± 0.07): a finding to explain" in said
    assert "no finding" not in said
