"""Seventeenth reading, lesson 09 (t17_09 #1-#3): a median and its rounds read against lesson 02's reference over
every round (a reference under the bound is passed below it), row A19's median against §9's reference, a tie
as printed said as a tie, and make bench's rounds past its reference read as lesson 02's are."""

from __future__ import annotations

from test_articles_checked import _figures, _recorded

from utils.lessons.articles_checked import claims, report, verdicts, wording
from utils.lessons.articles_checked.reference_rounds import median_past_reference

# lesson 02 §9's figures as the ledger kept them on 2026-12-06 (t17_09's run)
ZBV = dict(value=1.8282, bound=1.92, reference=1.6134, rounds=[1.8612, 1.8282, 1.5265, 2.3466, 1.5062])
INTERLEAVED = dict(value=1.7435, bound=16 / 9, reference=1.5893, rounds=[1.7435, 2.0451, 1.5213, 1.9429, 1.2082])
ZB = dict(value=1.6135, bound=1.92, reference=1.7143, rounds=[1.6102, 2.0407, 1.6135, 1.7707, 1.2297])
HEAD = "(the bound scaled by the stages' work, measured in the pipeline's own run, against one device's): "
BENCH = dict(value=1.8675, bound=16 / 9, work_scaled_reference=1.943,
             rounds=[2.016, 1.591, 1.873, 1.956, 1.826, 1.749, 1.889, 1.885, 1.901, 1.868, 1.452, 1.814, 1.791,
                     1.915, 1.808])


def test_zbvs_median_past_its_reference_beyond_its_spread_is_a_finding_and_every_round_past_it_counted():
    said = report.lesson_02_rounds_reading(ZBV, "ZBV")
    # 1.83 - 0.17 = 1.66 > 1.61: lesson 02's finding; three rounds past 1.61 (two under the 1.92x bound)
    assert (f"1.61x {HEAD}its median, 1.83x, above it by more than the rounds' spread (± 0.17): a finding to "
            "explain; 3 of its 5 rounds past it: 1 (2.35x), beyond the rounds' spread of the median (± 0.17) and "
            "the reference + that spread (1.61x + 0.17 = 1.78): a finding to explain, which no reference explains; 2 (1.86x, 1.83x), within the rounds' "
            "spread, around a median itself past it; the 2.35x round is past 2 devices' 2x too") in said, said
    assert "past it too" not in said  # a reference under the bound: not every round past it is above the bound


def test_a_median_past_its_reference_within_its_spread_and_one_not_past_it():
    said = report.lesson_02_rounds_reading(INTERLEAVED, "interleaved 1F1B")
    # 1.74 - 0.21 = 1.53 <= 1.59: within the spread; 1.74, 2.05 and 1.94 past 1.59, 2.05 beyond 1.95
    assert (f"1.59x {HEAD}its median, 1.74x, above it within the rounds' spread (± 0.21); 3 of its 5 rounds past "
            "it: 1 (2.05x), beyond the rounds' spread of the median (± 0.21) and the reference + that spread (1.59x "
            "+ 0.21 = 1.80): a finding to explain, which no reference explains; 2 (1.74x, 1.94x), within the rounds' spread, which explains them") in said
    zb = report.lesson_02_rounds_reading(ZB, "interleaved ZB")
    # the median 1.61x under 1.71x: no median clause; 2.04 and 1.77 past 1.71 and beyond 1.61 + 0.08 = 1.69
    # t30_09 #2: 1.77x lies within 1.71x + 0.08 = 1.79 (lesson 02's rule), 2.04x beyond it
    assert (f"1.71x {HEAD}2 of its 5 rounds past it: 1 (2.04x), beyond the rounds' spread of the median (± 0.08) and "
            "the reference + that spread (1.71x + 0.08 = 1.79): a finding to explain, which no reference explains; "
            "1 (1.77x), beyond the rounds' spread but within the reference + that spread (1.71x + 0.08 = "
            "1.79), which explains it") in zb, zb
    assert "its median" not in zb
    # a reference at or above the bound: every round past it is above the bound too, as before
    high = report.lesson_02_rounds_reading(ZBV | {"reference": 1.95}, "ZBV")
    assert f"1.95x {HEAD}1 of its 5 rounds past it too (2.35x)" in high, high
    assert "its median" not in high


def test_row_a19_reads_each_median_against_its_reference_as_lesson_02_does():
    assert wording.reference_note(ZBV) == ("; above its work-scaled reference (1.61x) by more than the rounds' "
                                           "spread (± 0.17): a finding to explain")
    assert wording.reference_note(INTERLEAVED) == ("; above its work-scaled reference (1.59x) within the rounds' "
                                                   "spread (± 0.21)")
    assert wording.reference_note(ZB) == ""
    assert wording.reference_note({k: v for k, v in ZBV.items() if k != "reference"}) == ""
    assert median_past_reference(ZBV | {"rounds": []}, 1.61) == ""
    m = _figures(pipeline=_recorded(1.6, 16 / 9), ddp=_recorded(1.34), zbv=_recorded(**ZBV))
    a19 = verdicts.judge(claims.BY_ID["A19"], m, {}).evidence
    assert ("2.35x: past 2x, so a finding by that alone, whatever the spread or the reference; above its "
            "work-scaled reference (1.61x) by more than the rounds' spread (± 0.17): a finding to explain") in a19, a19


def test_a_tie_as_printed_is_said_as_a_tie():
    # 1.82830x and 1.82815x both print 1.83x: each share is worked from the speed-up as printed, 0.915
    kept = {"lesson 02 §5's pipeline": 0.915, "ZBV (two stages per device)": 0.915,
            "data parallel": 0.91, "the article's split": 0.46}
    said = wording.kept_most_words(kept)
    assert ("none kept all of each GPU's rate (lesson 02 §5's pipeline and ZBV (two stages per device) came "
            "nearest, 92% each)") in said, said
    # the other outcomes: one name on top; a tie at all of it
    alone = wording.kept_most_words(kept | {"ZBV (two stages per device)": 0.87})
    assert "(lesson 02 §5's pipeline came nearest, 92%)" in alone, alone
    full = wording.kept_most_words({"a": 1.0, "b": 1.0, "the article's split": 0.46})
    assert "a and b kept all of it or more" in full, full


def test_make_benchs_rounds_past_its_reference_are_read_as_lesson_02s():
    said = report.bench_rounds_past_two(BENCH)
    # 1.87 + 0.06 = 1.93: 2.02x and 1.96x past 1.94x and beyond it, then the round past 2x
    # t30_09 #2, lesson 02's rule: 1.96x lies within 1.94x + 0.06 = 2.00, which explains it; 2.02x does not
    assert said == ("; 2 of its 15 rounds past that reference too: 1 (2.02x), beyond the rounds' spread of the median "
                    "(± 0.06) and the reference + that spread (1.94x + 0.06 = 2.00): a finding to explain, which no "
                    "reference explains; 1 (1.96x), beyond the rounds' spread but within the reference + "
                    "that spread (1.94x + 0.06 = 2.00), which explains it; 1 of its 15 rounds above "
                    "2 devices' 2x (2.02x): a finding to explain, which no reference explains"), said
    # the other outcomes: no reference kept (the round past 2x alone); a reference no round passes
    bare = {k: v for k, v in BENCH.items() if k != "work_scaled_reference"}
    assert report.bench_rounds_past_two(bare) == ("; 1 of its 15 rounds above 2 devices' 2x (2.02x): a finding to "
                                                  "explain, which no reference explains")
    quiet = BENCH | {"work_scaled_reference": 2.10, "rounds": [r for r in BENCH["rounds"] if r < 2]}
    assert report.bench_rounds_past_two(quiet) == ""
