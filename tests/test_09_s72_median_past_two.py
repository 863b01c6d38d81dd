"""Session 61 (t34 run): lesson 02 §5's best pipeline at a median past 2 devices' 2x (2.01x, its work-scaled
reference 2.05x). Lesson 02 reads such a median a finding no reference explains (rule 1); lesson 09 quoted it as
"explained by the reference". Fabricated ledger records."""

from types import SimpleNamespace

from utils.lessons.articles_checked import checks

ROUNDS = [2.01, 2.01, 2.11, 1.93, 1.96]


def _record(value, reference):
    return {"value": value, "bound": 1.78, "reference": reference, "rounds": ROUNDS}


def test_a_median_past_2x_is_never_explained_by_its_reference():
    assert not checks.explained_by_reference(_record(2.01, 2.05))
    assert checks.explained_by_reference(_record(1.87, 1.93))     # under 2x, within its reference: explained
    assert checks.explained_by_reference(_record(2.004, 2.05))


def test_the_row_words_call_a_median_past_2x_a_finding(monkeypatch):
    monkeypatch.setattr(checks, "recorded", lambda m, name: SimpleNamespace(record=m[name]))
    said = checks.speedup_words({"pipeline": _record(2.01, 2.05)}, "pipeline")
    assert said.startswith("above the bound") and "explained by the reference" not in said
    assert said.endswith("the median itself past 2 devices' 2x, which no reference explains")
    said = checks.speedup_words({"pipeline": _record(1.87, 1.93)}, "pipeline")
    assert "explained by the reference" in said and "median itself past" not in said


def test_the_note_gives_the_reason_the_reference_does_not_explain_the_median():
    from utils.lessons.articles_checked import report

    past_two = report.pipeline_above_words(_record(2.01, 2.05))
    assert "This median is past 2 devices' 2x, which no reference explains (rule 1)" in past_two
    assert "past that reference too" not in past_two
    assert "This figure is past that reference too" in report.pipeline_above_words(_record(1.99, 1.90))
    kept_none = {"value": 1.95, "bound": 1.78, "rounds": ROUNDS}
    assert "The ledger keeps no reference for this figure" in report.pipeline_above_words(kept_none)
