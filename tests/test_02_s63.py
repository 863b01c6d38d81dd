"""Lesson 02, the twenty-fifth reading (t25_02): a round past the rounds' spread under a per-process reference
that is itself within noise of 1x stays a finding in every place that reads it (section 3's sentence, the
same-step note's verdict, the claims row), and the reference's own ± is printed. Fabricated figures."""

from utils.lessons.model_split import report  # loads first: it re-exports naive, which reads it
from utils.lessons.model_split import naive, reference, rounds_above, runs


def _naive(speedups, references):
    return runs.Row(32, 1, "naive", 0.1, 0.1, [0.05, 0.05], naive=True, speedups=list(speedups),
                    process_bounds=list(references), alone=[0.07, 0.074])


# a split within noise of 1x (0.92x ± 0.10), one round (1.12x) past 0.92 + 0.10; its own round's reference
# 1.20x reaches it, but the reference 1.06x ± 0.12 covers 1x (its rounds on both sides)
WEAK = _naive([1.12, 0.92, 0.77, 0.79, 0.98], [1.20, 0.96, 0.97, 1.21, 1.06])
# the same split under a reference clear of 1x (1.20x ± 0.01): its own round's reference reaches round 1
STRONG = _naive([1.12, 0.92, 0.77, 0.79, 0.98], [1.20, 1.19, 1.21, 1.20, 1.20])


def test_weak_reference_explains_no_round_whatever_the_median():
    assert reference.process_reference_noise(WEAK) and reference.own_reference_explains(WEAK) == []
    assert reference.findings_past(WEAK) == [1.12]
    said = naive.rounds_past_words(WEAK)
    assert said.endswith("; the per-process reference (1.06x ± 0.12) is itself within noise of 1x: it explains "
                         "no round: a finding to explain")
    assert "no finding left" not in naive.naive_closing(WEAK)


def test_strong_reference_explains_its_own_round_everywhere():
    assert not reference.process_reference_noise(STRONG)
    assert reference.own_reference_explains(STRONG) == [1] and reference.findings_past(STRONG) == []
    assert naive.rounds_past_words(STRONG).endswith(": no finding left")
    words = rounds_above.rounds_above_bound(STRONG)  # the verdict the same-step note and tables print
    assert words.endswith("1.12x past the rounds' spread, but not past its own round's per-process reference: "
                          "no finding") and "a finding to explain" not in words
    weak = rounds_above.rounds_above_bound(WEAK)
    assert "a finding to explain" in weak and "per-process" not in weak


def test_claims_row_and_same_step_note_agree_with_section_3():
    for row, finding in ((WEAK, True), (STRONG, False)):
        entries = [("section 3", "hand-written", row)]
        claim = naive.launches_claim("naive", entries)
        note = naive.same_step_note(entries)
        assert ("rounds past the spread: section 3 1.12x" in claim.verdict) == finding
        assert ("a finding to explain" in note) == finding
        assert ("a finding to explain" in report.headline_verdict(row)) == finding


def test_process_reading_prints_the_references_spread():
    said = naive.naive_process_reading(WEAK)
    assert "gives the per-process reference: 1.06x ± 0.12, the median of those ratios ± their spread" in said
    assert "its ± 0.12 covers 1x, so the reference is itself within noise of 1x" in said
    assert "covers 1x" not in naive.naive_process_reading(STRONG)
