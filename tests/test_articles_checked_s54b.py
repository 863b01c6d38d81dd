"""Lesson 09, the thirteenth reading (t13_09): row B10 reads no few-byte time from message times out of order,
as rows B2 and B8 say; each round above a bound is read on its own (``claims.rounds_past_spread``: above the
bound and above the median + the spread, a finding to explain; within that band, explained by the spread), and
it enters row A19's check and the note under §1's counts; the note says what lesson 02 §9 found about a
schedule named by its rounds (its work-scaled reference, and the rounds past it)."""

from __future__ import annotations

from test_articles_checked import _figures, _recorded
from test_articles_checked_as_printed import _link_m

from utils.lessons.articles_checked import checks, claims, evidence, report, verdicts

# the reader's run (cell 22): 4 B 174, 4 KiB 116, 64 KiB 237, 256 KiB 145, 1 MiB 263, 4 MiB 1317 µs
READER_LINK = [174e-6, 116e-6, 237e-6, 145e-6, 263e-6, 1317e-6]
BOUND_4 = 16 / 9  # interleaved 1F1B at m=4 against 1.78x in the ledger
# lesson 02 §9 in the reader's run: interleaved 1F1B 1.70x ± 0.08 (a 1.86x round), ZB 1.59x, ZBV 1.75x ± 0.23
INTERLEAVED = dict(value=1.70, bound=BOUND_4, reference=1.84, rounds=[1.70, 1.59, 1.74, 1.86, 1.19])
ZB = dict(value=1.59, bound=1.92, reference=1.75, rounds=[1.72, 1.59, 1.59, 1.59, 1.21])
ZBV = dict(value=1.75, bound=1.92, reference=2.021, rounds=[2.26, 1.71, 1.75, 2.16, 1.34])


def test_b10_reads_no_few_byte_time_from_times_out_of_order_as_b2_and_b8_say():
    m = _link_m(READER_LINK)
    b10 = verdicts.judge(claims.BY_ID["B10"], m, {}).evidence
    assert ("each time the median of 5 one-way times (half a round trip each), this run: 4 bytes 174 µs, 4 KiB 116 µs, 1 MiB 263 µs, 4 MiB 1317 µs; no few-byte "
            "time read from them (out of order, below; the machine profile's alpha: not recorded yet") in b10, b10
    assert "read as the smaller" not in b10 and "116 µs (" not in b10
    b2 = verdicts.judge(claims.BY_ID["B2"], m, {}).evidence
    assert "no share of the fixed cost read from them" in b2
    # the other outcome: sizes in order, the few-byte time is read (the smaller of 4 bytes and 4 KiB) and quoted
    calm = _link_m([4e-5 + n / 2.5e9 for n in evidence.LINK_SIZES])
    b10 = verdicts.judge(claims.BY_ID["B10"], calm, {}).evidence
    assert "4 bytes 40 µs, 1 MiB 459 µs, 4 MiB 1718 µs; a few-byte message's time read as the smaller of a " \
           "4-byte and a 4 KiB message's, 40 µs (" in b10, b10
    assert "no few-byte time read" not in b10


def _section_9(**records):
    return _figures(pipeline=_recorded(1.6, BOUND_4), ddp=_recorded(1.34),
                    **{name: _recorded(**r) for name, r in records.items()})


def test_a_round_past_the_median_plus_spread_is_a_finding_though_the_band_reaches_the_bound():
    said = checks.rounds_above_words(INTERLEAVED | {"reference": 1.76})  # under the bound: reaches no round
    assert said == ("1 of 5 rounds above the bound (up to 1.86x): beyond the rounds' spread of the median "
                    "(± 0.08): a finding to explain"), said  # 1.70 + 0.08 = 1.78 < 1.86
    assert "which explains them" not in said
    # t30_09 #2, lesson 02's rule: a work-scaled reference + the spread that reaches the round explains it
    reached = checks.rounds_above_words(INTERLEAVED | {"reference": 1.84})
    assert reached == ("1 of 5 rounds above the bound (up to 1.86x): 1.86x past the rounds' spread, but within the "
                       "work-scaled reference (1.84x + 0.08 = 1.92): no finding"), reached
    # the other outcome: the same rounds beside a median whose band reaches 1.88: the spread explains them
    higher = INTERLEAVED | {"value": 1.80}
    assert checks.rounds_above_words(higher) == ("1 of 5 rounds above the bound (up to 1.86x): within the rounds' "
                                                 "spread of the median (± 0.08), which explains it")
    assert not checks.rounds_finding(higher)


def test_a19_counts_interleaved_1f1b_by_its_round_and_the_note_names_it():
    m = _section_9(interleaved_1f1b=INTERLEAVED, zb=ZB, zbv=ZBV)
    row = verdicts.judge(claims.BY_ID["A19"], m, {})
    assert row.check == verdicts.ABOVE
    assert ("1.70x one, 85% each (speed-up / 2; the median of 5 paired rounds, ± 0.08), against its bound of "
            "1.78x: at the bound (within noise); 1 of 5 rounds above the bound (up to 1.86x): 1.86x past the rounds' "
            "spread, but within the work-scaled reference (1.84x + 0.08 = 1.92): no finding") in row.evidence, \
        row.evidence  # t30_09 #2: lesson 02 §9's reading
    note = report.above_bound_note(m, [row])
    # t30_09 #2: its 1.86x round lies within the work-scaled reference + the spread: no finding, so not named
    assert "lesson 02 §9's interleaved 1F1B, 1.70x ± 0.08 against a bound of 1.78x" not in note, note
    assert "lesson 02 §9's ZBV, 1.75x ± 0.23 against a bound of 1.92x, by its single rounds" in note
    assert "interleaved ZB, 1.59x" not in note  # none of its rounds above its bound
    # with the 1.86x round inside the band, only ZBV is named, and A19 is still above through it
    calm = _section_9(interleaved_1f1b=INTERLEAVED | {"value": 1.80}, zb=ZB, zbv=ZBV)
    row = verdicts.judge(claims.BY_ID["A19"], calm, {})
    note = report.above_bound_note(calm, [row])
    assert "interleaved 1F1B, 1.80x" not in note and "ZBV, 1.75x ± 0.23 against" in note


def test_the_note_says_what_lesson_02_found_about_zbv_rounds_past_its_reference():
    m = _section_9(interleaved_1f1b=INTERLEAVED, zb=ZB, zbv=ZBV)
    note = report.above_bound_note(m, [verdicts.judge(claims.BY_ID["A19"], m, {})])
    assert ("Lesson 02 §9 printed ZBV's work-scaled reference, 2.02x (the bound scaled by the stages' work, "
            "measured in the pipeline's own run, against one device's): 2 of its 5 rounds past it too: 1 (2.26x), "
            "beyond the rounds' spread of the median (± 0.23) and the reference + that spread (2.02x + 0.23 = "
            "2.25): a finding to explain, which no reference explains; 1 (2.16x), past 2 devices' 2x: "
            "a finding to explain by that alone (rule 1), whatever the spread or the reference say; 2 of its 5 "
            "rounds above 2 devices' 2x (2.26x, 2.16x)") in note, note
    # t30_09 #2: interleaved 1F1B's 1.86x lies within 1.84x + 0.08 = 1.92, as lesson 02 §9 reads it: not named
    assert "interleaved 1F1B's work-scaled reference" not in note
    reached = report.lesson_02_rounds_reading(INTERLEAVED, "interleaved 1F1B")
    assert ("1 of its 5 rounds past it too (1.86x), beyond the rounds' spread of the median (± 0.08) but within "
            "the reference + that spread (1.84x + 0.08 = 1.92), which explains it.") in reached, reached
    # the other outcomes: rounds within the reference; a round past 2x within it; no reference kept
    within = report.lesson_02_rounds_reading(INTERLEAVED | {"reference": 1.90}, "interleaved 1F1B")
    assert within.endswith("against one device's): its rounds above the bound lie within it.")
    near = report.lesson_02_rounds_reading(ZBV | {"reference": 2.30}, "ZBV")
    assert ("its rounds above the bound lie within it; 2 of its 5 rounds above 2 devices' 2x (2.26x, 2.16x): a "
            "finding to explain, which no reference explains: lesson 02 §9 names") in near
    kept = report.lesson_02_rounds_reading({k: v for k, v in ZBV.items() if k != "reference"}, "ZBV")
    assert kept == ("Lesson 02 §9 printed ZBV's work-scaled reference: the ledger does not keep it, so its rounds "
                    "above the bound are a finding to explain here.")
