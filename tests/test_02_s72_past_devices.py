"""Lesson 02, the thirty-third reading (t33_02 #3): a round past 2 devices' 2x is a finding by that alone (cell 15's
rule 1), said with that reason, not "beyond the rounds' spread", which the work-scaled reference + the spread may
reach (a round as far under 2x reads "no finding"). Fabricated rows, CPU only; each branch."""

from utils.lessons.model_split import report, runs
from utils.lessons.model_split.rounds_above import past_devices_clause

# 1.86x ± 0.08 against a 1.78x bound (within noise of it); w = 0.91, so the work-scaled reference is 1.96x
ROUNDS = [1.86, 2.03, 1.70, 1.94, 1.78]
WORK = dict(cpu=[0.0455, 0.0453], baseline_cpu=0.1)


def _row(speedups=ROUNDS, **work):
    return runs.Row(64, 8, "1f1b", 0.1, 0.186, [0.05, 0.05], speedups=list(speedups), **work)


def test_a_round_past_2x_within_the_reference_reach_is_a_finding_by_rule_1():
    said = report.headline_verdict(_row(**WORK))
    assert ("2.03x past 2 devices' 2x: a finding to explain by that alone (cheaper work, or a disturbed one-device "
            "step), even though the work-scaled reference + the spread (1.96x + 0.08 = 2.04) reaches it") in said
    assert "beyond the rounds' spread of the median (± 0.08): a finding to explain" not in said, said
    assert "the other 2: within the rounds' spread of the median (± 0.08), which explains them" in said


def test_a_round_past_2x_and_past_the_reference_reach():
    said = report.headline_verdict(_row([1.86, 2.13, 1.70, 1.94, 1.78], **WORK))
    assert ("2.13x past 2 devices' 2x: a finding to explain by that alone (cheaper work, or a disturbed one-device "
            "step), which neither the spread nor the work-scaled reference explains") in said
    assert "even though" not in said


def test_a_round_past_2x_without_a_work_scaled_reference():
    row = _row()
    assert row.work_bound is None
    assert past_devices_clause(row, [2.03], 0.08).endswith("which neither the spread nor a reference explains")
    assert past_devices_clause(row, [], 0.08) == ""


def test_two_rounds_past_2x_within_reach_read_them():
    said = past_devices_clause(_row(**WORK), [2.01, 2.03], 0.08)
    assert said.startswith("2.01x, 2.03x past 2 devices' 2x") and said.endswith("reaches them"), said


def test_a_round_under_2x_past_the_spread_within_the_reach_is_still_no_finding():
    said = report.headline_verdict(_row([1.86, 1.99, 1.70, 1.94, 1.78], **WORK))
    assert "1.99x past the rounds' spread, but within the work-scaled reference (1.96x + 0.08 = 2.04): no finding" \
        in said, said
    assert "past 2 devices'" not in said
