"""Lesson 09's short evidence cells: a deciding clause too long to show whole beside the first keeps its verdict
words and drops its own asides (t38 run: A10's section 3 clause, 245 characters, was cut mid-word)."""

from utils.lessons.articles_checked import short_evidence
from utils.lessons.articles_checked.checks import ABOVE

FIRST = "lesson 02's split alone: 1.06x ± 0.02, 0.92x ± 0.01 and 1.00x ± 0.01 in 3 launches against a 1x bound"
DECIDING = ("section 3's 1.06x ± 0.02, above the bound round by round (each round's speedup over its own round's "
            "reference: median 1.02x ± 0.01; 1 of 5 rounds under it): a finding to explain")


def test_a_deciding_clause_too_long_beside_the_first_keeps_its_verdict_without_its_asides():
    said = short_evidence.short_text(f"{FIRST}; {DECIDING}; section 5's 0.92x ± 0.01", 160, ABOVE)
    assert "section 3's 1.06x ± 0.02, above the bound round by round: a finding to explain" in said
    assert "each round's speedup" not in said and len(said) <= 160


def test_a_deciding_clause_that_fits_keeps_its_asides():
    said = short_evidence.short_text(f"{FIRST}; {DECIDING}; section 5's 0.92x ± 0.01", 400, ABOVE)
    assert DECIDING in said


def test_a_count_of_rounds_above_the_bound_is_not_the_verdict_a_check_above_its_bound_turns_on():
    from utils.lessons.articles_checked.sources import Part
    split = Part("the article's split: 0.92x, slower than one device: no speed-up; none of its 6 rounds above the "
                 "bound", "measured in this run")
    schedule = Part("interleaved 1F1B: 1.90x against its bound of 1.78x: above the bound, within its work-scaled "
                    "reference 2.05x; 4 of 5 rounds above the bound (up to 1.97x)", "from the ledger")
    assert short_evidence.deciding_part((split, schedule), ABOVE) is schedule
    clauses = short_evidence.top_clauses(schedule.text)
    assert short_evidence.deciding_clause(clauses, ABOVE) == 0
