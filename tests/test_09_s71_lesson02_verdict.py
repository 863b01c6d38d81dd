"""Lesson 09, the thirty-second reading (the lead's A19 item; t32_09 #2): lesson 02 §5's best pipeline past
2m/(m+1) is quoted with lesson 02's own verdict ("above the bound, within the work-scaled reference: explained by
the reference"), never re-judged "a finding to explain"; its rounds past 2x stay findings. Fabricated figures."""

from types import SimpleNamespace

from utils.lessons.articles_checked import checks, short_evidence
from utils.lessons.articles_checked.sources import Part

BOUND = 16 / 9


def _m(**record) -> dict:
    return {"results": {"pipeline": SimpleNamespace(record={"bound": BOUND, "lesson": "02", **record})}}


def test_a_median_within_its_work_scaled_reference_is_explained_by_it_as_lesson_02_reads_it():
    said = checks.speedup_words(_m(value=1.87, reference=1.93, rounds=[1.99, 1.95, 1.87, 1.85, 1.85]), "pipeline")
    assert said == ("above the bound, within its work-scaled reference 1.93x in the median: explained by the "
                    "reference, as lesson 02 §5 reads it")
    assert checks.past_bound(said) and "a finding to explain" not in said


def test_a_median_past_its_reference_within_the_rounds_spread_says_the_spread():
    said = checks.speedup_words(_m(value=1.95, reference=1.93, rounds=[2.00, 1.97, 1.95, 1.91, 1.88]), "pipeline")
    assert said.startswith("above the bound, within its work-scaled reference 1.93x plus the rounds' spread (± ")
    assert said.endswith(checks.PIPELINE_EXPLAINED)


def test_a_median_past_its_reference_beyond_the_spread_stays_a_finding():
    said = checks.speedup_words(_m(value=1.99, reference=1.90, rounds=[1.99, 1.99, 1.99, 1.98, 2.00]), "pipeline")
    assert said.startswith("above the bound: a finding to explain") and checks.PIPELINE_EXPLAINED not in said


def test_no_reference_kept_leaves_a_small_excess_a_finding_with_the_cause_one_would_show():
    said = checks.speedup_words(_m(value=1.84, rounds=[1.84, 1.85, 1.84, 1.83, 1.84]), "pipeline")
    assert "past it by under 10%, with no work-scaled reference kept" in said and checks.PIPELINE_CAUSE in said


def test_a_row_above_its_bound_with_no_finding_shows_the_figure_its_lesson_explains():
    explained = Part("pipeline 1.87x: above the bound, within its work-scaled reference: explained", "recorded", "")
    other = Part("data parallel 1.72x: faster, under the bound", "recorded", "")
    assert short_evidence.deciding_part((other, explained), checks.ABOVE) is explained
    finding = Part("ZBV 1.81x; 1 of 5 rounds above 2 devices' 2x: a finding to explain", "recorded", "")
    assert short_evidence.deciding_part((explained, finding), checks.ABOVE) is finding
