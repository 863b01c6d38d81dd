"""Lesson 09, session 51's fifth reading (t5_09): the spread explains rounds above a bound only where the bound
lies within it (``claims.within_noise`` on the figures as printed); the note under §1's counts says what lesson
02 §9 found and which of its medians it named; B8's parts' sum and B22's rounds are worked as printed."""

from __future__ import annotations

import dataclasses

from test_articles_checked import _figures, _recorded
from test_articles_checked_as_printed import _compressed

from utils import machine
from utils.lessons.articles_checked import checks, claims, evidence, report, timed_rows, verdicts

BOUND_8, BOUND_4 = 16 / 9, 16 / 9  # 2m/(m+1): 1.78x; interleaved 1F1B at m=4 has the same bound in the ledger
# the reader's run (lesson 02's ledger): interleaved 1F1B 1.88x ± 0.07 against 1.78x, ZBV 1.95x against 1.92x
INTERLEAVED = dict(value=1.8802, bound=BOUND_4, reference=1.956,
                   rounds=[1.9297, 1.7563, 1.7685, 1.9012, 1.8802])
ZBV = dict(value=1.9496, bound=1.92, reference=2.0426, rounds=[2.0581, 1.9258, 1.8296, 2.0660, 1.9496])
# ± 0.05: each round above 1.92x within 1.88 + 0.05 = 1.93 (a round past that band: a finding, t13_09 #2)
ZB = dict(value=1.88, bound=1.92, reference=2.04, rounds=[1.80, 1.84, 1.88, 1.93, 1.93])


def test_rounds_above_a_median_above_its_bound_beyond_the_spread_are_only_counted():
    # 1.88 - 0.07 = 1.81 > 1.78: the bound is outside the spread, so the spread explains nothing (t5_09 #1)
    said = checks.rounds_above_words(INTERLEAVED)
    assert said == "3 of 5 rounds above the bound (up to 1.93x)", said
    assert checks.rounds_finding(INTERLEAVED)
    # the other branch: a median above the bound within its spread (1.80 - 0.04 <= 1.78): the spread explains them
    within = {"value": 1.80, "bound": BOUND_8, "rounds": [1.70, 1.76, 1.80, 1.84, 1.90]}
    assert checks.rounds_above_words(within | {"rounds": [1.70, 1.76, 1.80, 1.84, 1.84]}) == (
        "3 of 5 rounds above the bound (up to 1.84x): within the rounds' spread of the median (± 0.04), which "
        "explains them")
    assert not checks.rounds_finding(within | {"rounds": [1.70, 1.76, 1.80, 1.84, 1.84]})
    # a round past that band is a finding to explain, even beside a median at its bound (t13_09 #2)
    assert checks.rounds_above_words(within) == (
        "3 of 5 rounds above the bound (up to 1.90x): 1 of them beyond the rounds' spread of the median (± 0.04): "
        "a finding to explain; 2 within it, which explains them")
    assert checks.rounds_finding(within)
    # rounds past 2x beside a median above its bound within its spread: a finding, then the rounds above the
    # bound read round by round, as every schedule's are (t20_09 (b))
    # (t33_09 #2: the rounds past 2x get that reason alone; the spread explains the other two)
    assert checks.rounds_above_words(ZBV) == ("2 of 5 rounds above 2 devices' 2x (2.06x, 2.07x): a finding to "
                                              "explain; 4 of 5 rounds above the bound (up to 2.07x): 2.06x, "
                                              "2.07x: past 2x, so a finding by that alone, whatever the spread "
                                              "or the reference; the other 2: within the rounds' spread of the "
                                              "median (± 0.07), which explains them")


def _section_9(**records):
    return _figures(pipeline=_recorded(1.6, BOUND_8), ddp=_recorded(1.34),
                    **{name: _recorded(**r) for name, r in records.items()})


def test_a19_never_says_the_spread_explains_rounds_beside_a_finding():
    m = _section_9(interleaved_1f1b=INTERLEAVED, zbv=ZBV, zb=ZB)
    row = verdicts.judge(claims.BY_ID["A19"], m, {})
    # t35_09 #1: 1.88x within its work-scaled reference 1.96x, as lesson 02 §9 reads it
    assert ("above the bound, within its work-scaled reference 1.96x in the median: explained by the reference, as "
            "lesson 02 §9 reads it; see the note under §1's counts; 3 of 5 rounds above the bound (up to 1.93x) ["
            ) in row.evidence, row.evidence
    # interleaved 1F1B's rounds (beside its median past the bound) are only counted, never explained by the spread
    interleaved = row.evidence.split("(up to 1.93x) [")[0].rsplit(";", 1)[-1]
    assert "which explains" not in interleaved and row.check == verdicts.ABOVE


def test_the_note_says_what_lesson_02_found_and_which_section_9_medians_it_named():
    m = _section_9(interleaved_1f1b=INTERLEAVED, zbv=ZBV, zb=ZB)
    note = report.above_bound_note(m, [verdicts.judge(claims.BY_ID["A19"], m, {})])
    assert "lesson 02 §9's interleaved 1F1B, 1.88x ± 0.07 against a bound of 1.78x" in note  # named: past its bound
    assert "lesson 02 §9's ZBV, 1.95x ± 0.07 against a bound of 1.92x, by its single rounds" in note  # its rounds
    assert ("Lesson 02 §9 reads interleaved 1F1B, 1.88x, within its work-scaled reference (1.96x: the bound "
            "scaled by the stages' work, measured in the pipeline's own run, against one device's): explained by "
            "the reference.") in note
    assert "reads the figure in its own section" not in note  # the circular pointer is gone
    assert ("interleaved 1F1B and ZBV are among the figures named above; interleaved ZB is not (row A19 reads "
            "them against their bounds; lesson 02 §9 prints their rounds).") in note
    assert "none of them is among" not in note
    # the other outcomes: past the work-scaled reference too (beyond the spread), and past 2x itself
    past = report.lesson_02_two_stages_reading(INTERLEAVED | {"reference": 1.79}, "interleaved 1F1B")
    assert past.endswith("past its work-scaled reference too (1.79x, ± 0.07): a finding to explain.")
    near = report.lesson_02_two_stages_reading(INTERLEAVED | {"reference": 1.84}, "interleaved 1F1B")
    assert near.endswith("within its work-scaled reference (1.84x) plus the rounds' spread (± 0.07): explained "
                         "by the reference.")  # 1.88 - 0.07 = 1.81 <= 1.84
    over = report.lesson_02_two_stages_reading(ZBV | {"value": 2.03}, "ZBV")
    # rule 4 (t34_09 #1): 2.03x ± 0.07 covers 2x, so at 2x within noise; no reference is said to explain it
    assert over.endswith("above its bound: a finding to explain, the median at 2 devices' 2x (within noise: 2.03x "
                         "± 0.07 covers 2x), which no reference is said to explain: a reference past 2x explains "
                         "nothing past 2x (rule 4)."), over
    beyond = report.lesson_02_two_stages_reading(ZBV | {"value": 2.13}, "ZBV")  # 2.13 - 0.07 = 2.06 > 2
    assert beyond.endswith("the median itself past 2 devices' 2x beyond its rounds' spread (2.13x - 0.07 = 2.06x), "
                           "which no reference explains (rule 4)."), beyond


def test_the_tail_counts_section_9_only_from_the_list_the_note_printed():
    assert report.two_stages_named(_section_9(zbv=ZBV), False, []) == (
        "; none of them is among the figures named above (row A19 reads them against their bounds; lesson 02 §9 "
        "prints their rounds).")
    assert report.two_stages_named(_section_9(zbv=ZBV), False, ["zbv"]) == (
        "; ZBV is among the figures named above (row A19 reads them against their bounds; lesson 02 §9 prints "
        "their rounds).")
    assert report.two_stages_named(_section_9(zbv=ZBV), True, []) == (
        "; those it reads are among the medians counted above.")


def test_b8_sums_its_parts_as_printed():
    # the reader's medians: 500.4 µs and 1707.4 µs print 500 and 1707; their sum on the page is 2207, not 2208
    c = _compressed(2700, 1707.4) | {"bytes": [500.4e-6] * 9}
    link = machine.link_fit("gloo", evidence.LINK_SIZES, [2e-5 + n / 5e9 for n in evidence.LINK_SIZES])
    said = verdicts.judge(claims.BY_ID["B8"], _figures() | {"compressed": c, "link": link}, {}).evidence
    assert "1 MiB of uint8 500 µs" in said and "unpacking 1707 µs" in said
    assert "its parts' sum, 2207 µs" in said and "2700 µs, 22% above its parts' sum" in said, said


def test_b22_works_its_rounds_from_the_printed_ms_and_prints_each_ratio():
    # 26.16 / 16.54 ms = 1.58x unrounded, but the page prints 26.2 and 16.5: 1.59x (t5_09 #4)
    cnn = {"one": [26.16e-3, 24.4e-3, 29.8e-3, 29.0e-3, 29.4e-3], "two": [16.54e-3, 18.8e-3, 19.9e-3, 26.4e-3, 20.5e-3]}
    row = verdicts.judge(claims.BY_ID["B22"], _figures() | {"cnn_ddp": cnn}, {})
    assert "1.43x ± 0.10 (median of 5 paired rounds, range 1.10-1.59x)" in row.evidence, row.evidence
    line = timed_rows.cnn_rounds_line(cnn)
    assert "one worker 26.2, 24.4, 29.8, 29.0, 29.4; two DDP workers 16.5, 18.8, 19.9, 26.4, 20.5" in line
    assert line.endswith("(row B22 quotes their median): 1.59x, 1.30x, 1.50x, 1.10x, 1.43x")
    assert timed_rows.cnn_rounds_line(RuntimeError("x")).startswith("Article 2's CNN: the run failed")
    # row B8's rounds: from the whole µs printed beside them
    line = timed_rows.compression_rounds_line({"plain": [2004.4e-6], "packed": [3733.6e-6]})
    assert "plain 2004; packed 3734;" in line and line.endswith("median): 0.54x")  # 2004 / 3734


def test_a_summary_row_carries_a_finding_before_another_rows_noise():
    # B18 sums up B5 (above its bound) and B8 (inconclusive): its check reads the finding, its evidence both
    earlier = {i: verdicts.Row(i, "", "", "", "", (), verdicts.AGREES) for i in verdicts.SUMMED["B18"]}
    earlier["B5"] = dataclasses.replace(earlier["B5"], check=verdicts.ABOVE)
    earlier["B8"] = dataclasses.replace(earlier["B8"], check=verdicts.NOISY)
    assert checks.run_check("B18", {}, earlier) == verdicts.ABOVE
    named = verdicts.summed_rows_named("B18", verdicts.ABOVE, earlier)[0].render()
    assert f"B5 ({verdicts.ABOVE}), B8 ({verdicts.NOISY})" in named
    # the other outcome: noise alone stays inconclusive
    earlier["B5"] = dataclasses.replace(earlier["B5"], check=verdicts.AGREES)
    assert checks.run_check("B18", {}, earlier) == verdicts.NOISY


def test_a19_prints_the_spread_that_decides_at_the_bound_and_a1_names_its_operands():
    row = verdicts.judge(claims.BY_ID["A19"], _section_9(zbv=ZBV), {})
    # 1.95 - 0.07 = 1.88 <= 1.92: at the bound within noise, from the figures printed beside it
    assert ("1.95x one, 98% each (speed-up / 2; the median of 5 paired rounds, ± 0.07), against its bound of "
            "1.92x: at the bound (within noise); 2 of 5 rounds above 2 devices' 2x") in row.evidence, row.evidence
    a1 = verdicts.EVIDENCE["A1"](_figures() | {"sizes": {"BERT-base": 1.09e8, "BERT-large": 3.344e8,
                                                          "GPT-3": 1.7456e11}})[2].text
    assert "counted GPT-3 / 1e10 = 17.5" in a1 and "counted BERT-large / 1e9 = 0.33" in a1  # 3.34e8 as printed
    assert "GPT-3 over BERT, as published: 1.75e11 / 3.4e8 = 515x" in a1


def test_the_pipelines_share_past_its_bound_is_worked_from_the_printed_figures():
    # 1.8049 / 1.7778 = 1.5% unrounded, but the page prints 1.80x and 1.78x: 1.80 / 1.78 - 1 = 1.1%, so 1%
    m = _figures(pipeline=_recorded(1.8049, BOUND_8, reference=1.9, rounds=[1.80, 1.803, 1.8049, 1.806, 1.81]))
    said = report.pipeline_explained(m)
    assert "1.80x ± 0.01, passed its 2m/(m+1) bound of 1.78x by 1%, within its work-scaled reference" in said, said
