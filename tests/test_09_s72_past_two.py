"""Lesson 09, t33_09 #2: a round past 2 devices' 2x is a finding by that alone (cell 0's rule 1), whatever the
spread and the work-scaled reference say; the note and the rows give that reason, with the sum that would
otherwise have explained the round, and name the round the reason sets apart. Fabricated figures."""

from __future__ import annotations

from utils.lessons.articles_checked import figures, reference_rounds

# the reader's shapes: §5's best pipeline and ZBV (medians at or under their bounds, rounds past 2x)
PIPELINE = dict(value=1.86, bound=16 / 9, reference=1.956, rounds=[2.03, 1.67, 1.73, 1.89, 1.86])  # ± 0.08
ZBV = dict(value=1.88, bound=1.92, reference=2.0, rounds=[2.02, 1.67, 1.88, 1.84, 1.996])  # ± 0.08


def test_the_note_gives_rule_1_as_the_reason_and_the_sum_that_would_otherwise_reach_it():
    said = reference_rounds.past_reference_clauses(PIPELINE, PIPELINE["reference"])
    assert said == ["1 of its 5 rounds past it too (2.03x), past 2 devices' 2x: a finding to explain by that alone "
                    "(rule 1), whatever the spread or the reference say (within the reference + that spread, "
                    "1.96x + 0.08 = 2.04, which would otherwise explain it)"]
    assert "neither spread nor reference" not in " ".join(said)
    # a round past the reference + the spread too: no "would otherwise" (nothing would have explained it)
    far = PIPELINE | {"rounds": [2.10, 1.67, 1.73, 1.89, 1.86]}
    assert "would otherwise" not in " ".join(reference_rounds.past_reference_clauses(far, far["reference"]))
    # a reference itself past 2x explains no round past 2x: no such sum either
    high = PIPELINE | {"reference": 2.01}
    assert "would otherwise" not in " ".join(reference_rounds.past_reference_clauses(high, 2.01))


def test_the_rows_set_the_round_past_2x_apart_from_the_one_the_reference_reaches():
    said = figures.rounds_above_words(ZBV)
    assert said == ("2 of 5 rounds above the bound (up to 2.02x, 1 of them past 2 devices' 2x): 2.02x: past 2x, so "
                    "a finding by that alone, whatever the spread or the reference; 1.996x past the rounds' "
                    "spread, but within the work-scaled reference (2.00x + 0.08 = 2.08): no finding"), said
    # the median above its bound within its spread: the count past 2x leads, then the reason, then the others
    lead = figures.rounds_above_words(PIPELINE)
    assert lead == ("1 of 5 rounds above 2 devices' 2x (2.03x): a finding to explain; 3 of 5 rounds above the "
                    "bound (up to 2.03x): 2.03x: past 2x, so a finding by that alone, whatever the spread or the "
                    "reference; the other 2: within the rounds' spread of the median (± 0.08), which explains "
                    "them"), lead
    assert "1 of them beyond the rounds' spread" not in lead  # 2.03x lies within 1.96 + 0.08: not the reason


def test_past_two_clause_both_forms_and_none():
    assert figures.past_two_clause([]) == ""
    assert figures.past_two_clause([2.03, 2.05]) == ("2.03x, 2.05x past 2 devices' 2x: findings to explain by that "
                                                     "alone, whatever the spread or the reference")
    assert figures.past_two_clause([2.03], reason="the spread") == ("2.03x past 2 devices' 2x: a finding to explain "
                                                                    "by that alone, whatever the spread")
    assert figures.past_two_clause([2.03], named=True) == ("2.03x: past 2x, so a finding by that alone, whatever "
                                                           "the spread or the reference")
    # under 2x, the spread's band reads the rounds as before
    calm = ZBV | {"rounds": [1.97, 1.67, 1.88, 1.84, 1.99]}
    assert "past 2x" not in figures.rounds_above_words(calm)
