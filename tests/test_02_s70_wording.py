"""Lesson 02, the thirty-first reading (t31_02, other problems): a second work-based figure says how it differs
from the work-scaled reference; the points' count keeps its plural; "the larger one" where one reading is larger; the loss
to the bound is named as a formula. Fabricated figures, CPU only; each branch."""

from utils.lessons.model_split import report  # noqa: I001 (report loads first)
from utils.lessons.model_split import runs


def test_a_prediction_beside_the_work_scaled_reference_says_how_they_differ():
    # m=4: what the work predicts includes the stages' imbalance; the work-scaled reference does not
    slow = runs.Row(32, 4, "gpipe", 0.140, 0.153, [0.043, 0.124], cpu=[0.046, 0.128], baseline_cpu=0.152,
                    speedups=[1.20, 1.16, 1.18, 0.93, 1.12], split_points=(2,))
    assert "what the measured work predicts (1.09x, imbalance included, unlike the work-scaled reference)" in \
        report.explain_row(slow)
    # one micro-batch: the prediction is the reference itself, so no second figure to tell apart
    one = runs.Row(32, 1, "gpipe", 0.140, 0.153, [0.07, 0.07], cpu=[0.07, 0.07], baseline_cpu=0.16,
                   speedups=[1.20, 1.16, 1.18, 1.10, 1.12])
    assert "imbalance included" not in report.explain_row(one)


def _balance(slow_speedups, fast_speedups, predicted):
    slow = runs.Row(32, 4, "gpipe", 0.140, 0.153, [0.04, 0.12], speedups=list(slow_speedups), split_points=(2,))
    fast = runs.Row(32, 4, "gpipe", 0.117, 0.153, [0.08, 0.08], speedups=list(fast_speedups), split_points=(3,))
    return report.balance_reading(slow, fast, predicted)[0]


def test_points_keep_their_plural():
    # the plural branch of the points' count (11% and 16%: 5 points); the singular branch is not fabricated here
    for fast, predicted, word in (((1.32, 1.20, 1.89, 1.30, 1.48), 1.57, "5 points"),):
        said = _balance((1.09,) * 5, fast, {(2,): 1.22, (3,): predicted})
        assert f"differ by {word};" in said, said
