"""Lesson 09, the fifteenth reading (t15_09): lesson 02's split alone has its rounds read by the per-round rule
(rows A10, B5 and the note, as lesson 02 §3 reads them, beside its per-process reference); §5's pipeline named
by its single rounds is read against its own work-scaled reference, as §9's schedules are (one treatment);
make bench's reported median prints its spread and its rounds above the bound, counted."""

from __future__ import annotations

from test_articles_checked import _figures, _recorded

from utils.lessons.articles_checked import claims, report, verdicts
from utils.lessons.articles_checked.sources import LEDGER, Recorded

# the reader's ledger (lesson 02, 2026-12-06): the split alone and §5's best pipeline
SPLIT = dict(value=0.99747, bound=1.0, reference=1.11, rounds=[1.1062, 1.0320, 0.9617, 0.9975, 0.9708])
PIPELINE = dict(value=1.75447, bound=16 / 9, reference=1.83505,
                rounds=[1.75447, 1.76265, 1.72274, 1.56987, 1.83240])
# make bench's reported run (15 rounds, 1.87x against 1.78x)
BENCH = dict(value=1.8675, bound=16 / 9, m=8, batch=128, schedule="1f1b", work_scaled_reference=1.943,
             rounds=[2.016, 1.591, 1.873, 1.956, 1.826, 1.749, 1.889, 1.885, 1.901, 1.868, 1.452, 1.814, 1.791,
                     1.915, 1.808])


def _m(split=SPLIT, pipeline=PIPELINE):
    return _figures(naive_split=_recorded(**split), pipeline=_recorded(**pipeline), ddp=_recorded(1.81))


def test_a10_and_b5_read_the_split_alones_rounds_as_lesson_02_section_3_does():
    m = _m()
    for claim_id in ("A10", "B5"):
        row = verdicts.judge(claims.BY_ID[claim_id], m, {})
        assert ("lesson 02's split alone: 1.00x ± 0.03 against a 1x bound, within noise: no effect shown; 2 of 5 rounds "
                "above the bound (up to 1.11x): 1 of them beyond the rounds' spread of the median (± 0.03): a "
                "finding to explain; 1 within it, which explains it; per-process reference 1.11x") in row.evidence, \
            row.evidence
        assert row.check == verdicts.ABOVE
    # the other outcomes: every round above within the spread; none above the bound
    calm = _m(split=SPLIT | {"rounds": [1.02, 1.03, 0.96, 1.00, 0.97]})
    row = verdicts.judge(claims.BY_ID["A10"], calm, {})
    assert ("2 of 5 rounds above the bound (up to 1.03x): within the rounds' spread of the median (± 0.03), which "
            "explains them; per-process reference") in row.evidence, row.evidence
    low = _m(split=SPLIT | {"rounds": [0.99, 0.98, 0.96, 1.00, 0.97]})
    assert "none of its 5 rounds above the bound; per-process" in verdicts.judge(claims.BY_ID["A10"], low, {}).evidence


def test_the_note_reads_the_split_alone_and_the_pipeline_against_the_references_lesson_02_printed():
    m = _m()
    rows = [verdicts.judge(claims.BY_ID[i], m, {}) for i in ("A10", "B5")]
    note = report.above_bound_note(m, rows)
    assert "lesson 02's split alone, 1.00x ± 0.03 against a bound of 1.00x, by its single rounds: 2 of 5 rounds" in note, note
    # an older entry (no reference rounds kept): the median reference, in lesson 02 §3's words for it (t24_09)
    assert ("Lesson 02 §3 printed the split alone's per-process reference, 1.11x (one device's step over the two "
            "stages' times, each stage timed alone in its own process: the median of that ratio over the rounds): "
            "its rounds above the bound lie within it.") in note, note
    # §5's 1.83x round lies within its own 1.84x + the spread: no finding, so the note does not name the pipeline
    # among the figures above a bound (t38_09 #2: one rule for the rows and the note)
    assert "best GPipe/1F1B configuration" not in note, note
    # the other outcome: a round past the reference and beyond the spread
    past = _m(pipeline=PIPELINE | {"reference": 1.80})
    note = report.above_bound_note(past, [verdicts.judge(claims.BY_ID["A10"], past, {})])
    assert ("work-scaled reference, 1.80x (the bound scaled by the stages' work, measured in the pipeline's own run, "
            "against one device's): 1 of its 5 rounds past it too (1.83x), beyond the rounds' spread of the median "
            "(± 0.02) and the reference + that spread (1.80x + 0.02 = 1.82): a finding to explain, which no "
            "reference explains.") in note, note
    split_past = _m(split=SPLIT | {"reference": 1.05})
    note = report.above_bound_note(split_past, [verdicts.judge(claims.BY_ID["A10"], split_past, {})])
    assert ("per-process reference, 1.05x (one device's step over the two stages' times, each stage timed alone in "
            "its own process: the median of that ratio over the rounds): 1 of its 5 rounds past it too "
            "(1.11x), beyond the rounds' spread of the median (± 0.03) and the reference + that spread (1.05x + 0.03 "
            "= 1.08): a finding to explain") in note, note


def test_make_bench_prints_its_spread_and_counts_its_rounds_above_the_bound():
    m = _m()
    m["results"]["pipeline_configs"] = Recorded(BENCH, LEDGER, "from make bench: pipeline")
    said = report.bench_words(m)
    assert ("a second run of the chosen configuration alone reported 1.87x ± 0.06 (12 of 15 rounds above the "
            "bound, up to 2.02x) against 1.78x (its work-scaled reference 1.94x)") in said, said
    assert "configurations past their own 2m/(m+1) beyond their rounds' spread: 1 of the 1 with rounds kept" in said
    # the other outcomes: no round above the bound; no rounds kept (no ± printed, none counted)
    low = BENCH | {"value": 1.70, "rounds": [1.70, 1.72, 1.69, 1.71, 1.68]}
    assert report.bench_rounds_counted(low) == " ± 0.01 (none of its 5 rounds above the bound)"
    assert report.bench_rounds_counted(BENCH | {"rounds": []}) == ""
