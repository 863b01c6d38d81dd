"""Lesson 02, twenty-fourth reading (t24_02): the ± is worked from the rounds as the page prints them (three
decimals near 1x and 2x), the closing of section 3 pairs each round past the spread with its own round's
per-process reference, and section 8's price ratio is carried to two decimals. Fabricated figures."""

from utils.lessons.model_split import noise, report, runs
from utils.lessons.model_split.bounds import rounds_spread


def _row(speedups, m=1, schedule="gpipe", process_bounds=()):
    return runs.Row(128, m, schedule, 0.1, 0.1, [0.05, 0.05], speedups=list(speedups),
                    process_bounds=list(process_bounds))


# --- #2: the ± from the rounds as printed ------------------------------------------------------------------


def test_the_spread_reads_the_rounds_as_printed_not_cut_to_two_decimals():
    # printed "0.97 1.10 0.95 0.94 0.998": middle three 0.95, 0.97, 0.998 -> 0.024, printed 0.02 (not 0.03)
    assert rounds_spread([0.97, 1.10, 0.95, 0.94, 0.9981]) == 0.02
    # printed "1.01 1.03 0.94 1.07 1.004": middle three 1.004, 1.01, 1.03 -> 0.013, printed 0.01 (not 0.02)
    assert rounds_spread([1.01, 1.03, 0.94, 1.07, 1.0041]) == 0.01
    # rounds away from 1x and 2x print with two decimals: the same ± as before
    assert rounds_spread([1.77, 1.75, 1.72, 1.70, 1.60]) == 0.03


def test_the_verdict_follows_the_printed_spread():
    row = _row([0.97, 1.10, 0.95, 0.94, 0.9981])
    assert noise.printed(row) == (0.97, 0.02)
    assert not noise.noise_of_one(row)  # 0.97 ± 0.02 does not reach 1x
    assert report.median_verdict(row).startswith("slower than one device")
    # a wider spread reaches 1x: within noise
    wide = _row([0.97, 1.10, 0.93, 0.94, 1.0])
    assert noise.printed(wide) == (0.97, 0.03) and noise.noise_of_one(wide)


# --- #3: a round past the spread, paired with its own round's per-process reference --------------------------

ROUNDS = (1.19, 0.98, 1.09, 0.93, 0.99)


def _naive(references):
    return runs.Row(32, 1, "naive", 0.1, 0.1, [0.05, 0.05], naive=True, speedups=list(ROUNDS),
                    process_bounds=list(references), alone=[0.054, 0.058])


def test_a_round_under_its_own_reference_is_no_finding():
    said = report.naive_closing(_naive((1.18, 1.02, 1.11, 0.98, 1.03)))
    assert said.endswith("but 2 of 5 rounds (1.19x, 1.09x) lie above the 1.00x bound and past the median + the "
                         "spread (0.99 + 0.06 = 1.05); round 3 is not past its own round's per-process reference "
                         "(1.09x / 1.11x = 0.98x): no finding; round 1: a finding to explain.")


def test_both_rounds_past_their_own_references_are_findings():
    said = report.naive_closing(_naive((1.05, 1.02, 1.00, 0.98, 1.03)))
    assert said.endswith("(0.99 + 0.06 = 1.05): findings to explain.")
    assert "not past its own" not in said


def test_every_round_within_its_own_reference_leaves_no_finding():
    said = report.naive_closing(_naive((1.19, 1.02, 1.11, 0.98, 1.03)))
    assert said.endswith("rounds 1 and 3 are not past their own rounds' per-process references (1.19x / 1.19x = "
                         "1.00x; 1.09x / 1.11x = 0.98x): no finding left.")


def test_the_claims_row_keeps_only_the_findings():
    row = _naive((1.18, 1.02, 1.11, 0.98, 1.03))
    claim = report.launches_claim("naive", [("section 3", "a", row)])
    assert claim.verdict.endswith("; rounds past the spread: section 3 1.19x (a finding to explain)")
    none = report.launches_claim("naive", [("section 3", "a", _naive((1.19, 1.02, 1.11, 0.98, 1.03)))])
    assert "rounds past the spread" not in none.verdict
