"""Lesson 09, the thirty-fifth reading (t35_09 #1): a lesson 02 §9 schedule whose median passed its bound is read
against its work-scaled reference, as lesson 02 §9 reads it (and as row A19 reads §5's best pipeline): within it
(plus the rounds' spread), "explained by the reference"; past it too, or with a reference at or under the bound,
a finding to explain, with A19 saying by how much. Fabricated figures."""

from __future__ import annotations

from test_articles_checked import _figures, _recorded

from utils.lessons.articles_checked import checks, verdicts

BOUND = 16 / 9  # 2m/(m+1) at m=8: 1.78x
ROUNDS = [1.94, 1.78, 1.87, 1.87, 1.80]  # median 1.87, ± 0.04 as lesson 02 prints it


def _a19(reference: float | None, value: float = 1.87, rounds=ROUNDS, bound: float = BOUND) -> str:
    extra = {} if reference is None else {"reference": reference}
    m = _figures(interleaved_1f1b=_recorded(value, bound, rounds=rounds, **extra), ddp=_recorded(1.73))
    return " ".join(p.text for p in verdicts.a19(m) if p.text.startswith("lesson 02 §9's interleaved 1F1B"))


def _words(reference: float | None, value: float = 1.87, rounds=ROUNDS, bound: float = BOUND) -> str:
    extra = {} if reference is None else {"reference": reference}
    m = _figures(interleaved_1f1b=_recorded(value, bound, rounds=rounds, **extra))
    return checks.speedup_words(m, "interleaved_1f1b")


def test_a_median_within_its_work_scaled_reference_is_explained_as_lesson_02_9_reads_it():
    said = _words(1.93)
    assert said == ("above the bound, within its work-scaled reference 1.93x in the median: "
                    "explained by the reference, as lesson 02 §9 reads it"), said
    row = _a19(1.93)
    assert "against its bound of 1.78x: above the bound, within its work-scaled reference 1.93x" in row, row
    assert "above the bound: a finding to explain" not in row and "above its work-scaled reference" not in row
    # within the reference plus the rounds' spread: 1.87 - 0.04 = 1.83 <= 1.85
    assert _words(1.85).startswith("above the bound, within its work-scaled reference 1.85x plus the rounds' "
                                   "spread (± 0.04) in the median: explained by the reference, as lesson 02 §9")


def test_a_median_past_its_reference_too_stays_a_finding_and_says_by_how_much():
    assert _words(1.80) == "above the bound: a finding to explain"  # 1.83 > 1.80: past it beyond the spread
    row = _a19(1.80)
    assert "above the bound: a finding to explain" in row and "explained by the reference" not in row, row
    assert "above its work-scaled reference (1.80x) by more than the rounds' spread (± 0.04)" in row, row
    # no reference kept, or one at or under the bound: nothing explains it
    assert _words(None) == "above the bound: a finding to explain"
    assert _words(1.92, value=1.95, rounds=[1.95, 1.94, 1.96, 1.95, 1.95], bound=1.92).startswith(
        "above the bound: a finding to explain")
