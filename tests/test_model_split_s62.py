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
    # t25_02 #1: each test's reference stands clear of 1x (1.12x ± 0.01); one within noise of 1x explains no round
    said = report.naive_closing(_naive((1.18, 1.12, 1.11, 1.10, 1.13)))
    assert said.endswith("but 2 of 5 rounds (1.19x, 1.09x) lie above the 1.00x bound and past the median + the "
                         "spread (0.99 + 0.06 = 1.05); round 3 is not past its own round's per-process reference "
                         "(1.09x / 1.11x = 0.98x): no finding; round 1: a finding to explain.")


def test_both_rounds_past_their_own_references_are_findings():
    said = report.naive_closing(_naive((1.05, 1.06, 1.00, 1.07, 1.06)))  # 1.06x ± 0.01: clear of 1x
    assert said.endswith("(0.99 + 0.06 = 1.05): findings to explain.")
    assert "not past its own" not in said


def test_every_round_within_its_own_reference_leaves_no_finding():
    said = report.naive_closing(_naive((1.19, 1.12, 1.11, 1.10, 1.13)))
    assert said.endswith("rounds 1 and 3 are not past their own rounds' per-process references (1.19x / 1.19x = "
                         "1.00x; 1.09x / 1.11x = 0.98x): no finding left.")


def test_the_claims_row_keeps_only_the_findings():
    row = _naive((1.18, 1.12, 1.11, 1.10, 1.13))
    claim = report.launches_claim("naive", [("section 3", "a", row)])
    assert claim.verdict.endswith("; a round that stays a finding to explain (past the spread, reached by no "
                                  "reference): section 3 1.19x")
    none = report.launches_claim("naive", [("section 3", "a", _naive((1.19, 1.12, 1.11, 1.10, 1.13)))])
    assert "past the spread" not in none.verdict


# --- #1: the probe's price to two decimals wherever a share is read again at it -----------------------------


def test_a_share_is_read_again_at_the_price_to_two_decimals():
    from utils.lessons.model_split import link
    fit = runs.Link(1150e-6, 1e12, "a fit", 0.5, True)  # 2 messages x 1.15 ms = 2.3 ms
    row = runs.Row(32, 2, "gpipe", 0.100, 0.1250, [0.06, 0.06], speedups=[1.14, 1.15, 1.16, 1.15, 1.14],
                   messages=2, bytes_sent=0)  # 125.0 / 1.15 - 125.0 / 1.33 = 14.7 ms lost: 16%
    assert link.link_share(row, fit.alpha, fit.beta) == 0.16
    assert link.link_share(row, fit.alpha, fit.beta, 0.938) == 0.15  # 16% x 0.94, not x 0.9 (14%)
    assert link.at_price(0.042, 0.938) == 0.039  # the summary's 4.2% x 0.94 = 3.9%, not x 0.9 = 3.8%
    assert link._short_word(0.27 * 0.94) == link._short_word(0.25)  # 27% x 0.94 prints 25%: at the line


def test_the_probe_sentence_prints_the_ratio_it_multiplies_by():
    fit = runs.Link(482e-6, 1e15, "a fit", 0.74, True)  # 1 MiB: 0.482 ms, nearly all fixed cost
    below = report.probe_reading(0.452e-3, 2**20, fit, 0.042)
    assert "which took 0.452 ms here (0.94x that price, 1/1.07 of it)" in below
    above = report.probe_reading(0.964e-3, 2**20, fit, 0.042)
    assert "(2.00x that price)" in above
    assert report.planning_verdict(0.042, 0.938) == "under the planning figure at both prices (3.9% at the probe's)"
