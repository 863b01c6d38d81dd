"""Lesson 08's sentences on x baseline and the kept steps' product, each branch, from the figures printed."""
from utils.lessons.putting_it_together import report


def _rows(ratios_two=(1.24, 1.26, 1.30)):
    base = {"step": "baseline", "tokens_per_s": 4990.0, "x_base": 1.0, "kept": True, "ratios": [],
            "skipped": False}
    kept = {"step": "two devices", "tokens_per_s": 9369.0, "x_base": 1.97, "kept": True,
            "ratios": list(ratios_two), "skipped": False}
    return [base, kept]


def test_x_baseline_is_said_with_its_basis_beside_the_rows_tokens_ratio(monkeypatch):
    monkeypatch.setattr(report, "ran", lambda rows: rows)
    monkeypatch.setattr(report, "final", lambda rows: rows[-1])
    said = report.x_base_words(_rows())
    assert said.startswith("1.97x the baseline's speed by the product of the kept steps' paired ratios")
    assert "(1.88x as a ratio of the two rows' tokens/s)" in said


def test_the_products_verdict_gives_its_basis_in_both_outcomes(monkeypatch):
    monkeypatch.setattr(report, "ran", lambda rows: rows)
    assert "every round of every kept step was above 1x" in report.product_basis(_rows())
    said = report.product_basis(_rows((0.98, 1.26, 1.30)))
    assert "not every round did" in said and "two devices 1 of 3 (lowest 0.98x)" in said
