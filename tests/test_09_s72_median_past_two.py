"""Lesson 09, t34_09 #1 (cell 0's rule 4): lesson 02 §5's best pipeline at a median printed past 2 devices' 2x.
Where its rounds' spread covers 2x (2.01x ± 0.07: 1.94 <= 2) it reads at 2x within noise; only beyond the spread
(median - spread > 2.00) is it past 2x, a finding. Either way no reference is said to explain it (a reference
past 2x explains nothing past 2x). Fabricated ledger records."""

from types import SimpleNamespace

from utils.lessons.articles_checked import checks, report

ROUNDS = [1.93, 2.08, 2.01, 1.94, 2.11]      # middle half 1.94..2.08: ± 0.07 (as printed)
FAR = [2.21, 2.25, 2.30, 2.22, 2.28]        # ± 0.03 around 2.25: 2.22 > 2


def _record(value, reference, rounds=ROUNDS):
    return {"value": value, "bound": 1.78, "reference": reference, "rounds": rounds}


def test_a_median_printed_past_2x_is_never_explained_by_its_reference():
    assert not checks.explained_by_reference(_record(2.01, 2.05))
    assert not checks.explained_by_reference(_record(2.25, 2.30, FAR))
    assert checks.explained_by_reference(_record(1.87, 1.93))     # under 2x, within its reference: explained
    assert checks.explained_by_reference(_record(2.004, 2.05))    # printed 2.00: not past 2x


def test_within_its_spread_of_2x_the_median_reads_at_2x_within_noise():
    said = checks.median_two_words(_record(2.01, 2.05))
    assert said.startswith("the median at 2 devices' 2x (within noise: 2.01x ± 0.07 covers 2x)"), said
    assert "which no reference is said to explain" in said and "past 2x beyond" not in said
    assert not checks.median_two_words(_record(2.004, 2.05))      # at most 2x as printed: rule 4 says nothing


def test_beyond_its_spread_the_median_is_past_2x_a_finding():
    said = checks.median_two_words(_record(2.25, 2.30, FAR))
    assert said == ("the median itself past 2 devices' 2x beyond its rounds' spread (2.25x - 0.03 = 2.22x), "
                    "which no reference explains (rule 4)")
    kept_none = {"value": 2.01, "bound": 1.78}                    # no rounds: no spread to read it with
    assert "with no rounds' spread kept" in checks.median_two_words(kept_none)


def test_the_row_words(monkeypatch):
    monkeypatch.setattr(checks, "recorded", lambda m, name: SimpleNamespace(record=m[name]))
    said = checks.speedup_words({"pipeline": _record(2.01, 2.05)}, "pipeline")
    assert said.startswith("above the bound") and "explained by the reference" not in said
    assert "the median at 2 devices' 2x (within noise" in said and "median itself past" not in said
    said = checks.speedup_words({"pipeline": _record(2.25, 2.30, FAR)}, "pipeline")
    assert said.startswith("above the bound") and "the median itself past 2 devices' 2x beyond" in said
    said = checks.speedup_words({"pipeline": _record(1.87, 1.93)}, "pipeline")
    assert "explained by the reference" in said and "median itself past" not in said and "median at" not in said


def test_the_note_gives_the_reason_the_reference_does_not_explain_the_median():
    at_two = report.pipeline_above_words(_record(2.01, 2.05))
    assert "This median is at 2 devices' 2x (within noise: 2.01x ± 0.07 covers 2x)" in at_two
    assert "(rule 1)" not in at_two and "past that reference too" not in at_two
    past = report.pipeline_above_words(_record(2.25, 2.30, FAR))
    assert "This median is itself past 2 devices' 2x beyond its rounds' spread (2.25x - 0.03 = 2.22x)" in past
    assert "This figure is past that reference too" in report.pipeline_above_words(_record(1.99, 1.90))
    kept_none = {"value": 1.95, "bound": 1.78, "rounds": ROUNDS}
    assert "The ledger keeps no reference for this figure" in report.pipeline_above_words(kept_none)


def test_cell_0_states_rule_4():
    import nbformat
    nb = nbformat.read("notebooks/09_articles_checked.ipynb", as_version=4)
    assert "4. a median printed past two devices' 2x is a finding to explain only where its rounds' spread" \
        in nb.cells[0].source
