"""The lead's rule for a pipeline median past 2 devices' 2x (t34_02, other; lesson 09 applies the same): a
finding only where its rounds' spread does not cover 2x (median - spread > 2.00, as printed); where it does, "at
2 devices' 2x (within noise)", and no reference read as explaining it. Rounds past 2x stay findings (rule 1).
Fabricated rounds; no timing."""
from utils.lessons.model_split import chunks, report, runs
from utils.lessons.model_split.verdicts import AT_DEVICES, PAST_DEVICES


def _row(speedups, m=8, schedule="1F1B"):  # two stages' work 0.92x one device's: work-scaled reference 1.93x
    return runs.Row(32, m, schedule, 0.1, 0.2, [0.05, 0.05], cpu=[0.046, 0.046], baseline_cpu=0.100,
                    speedups=list(speedups))


AT_TWO = [1.94, 1.99, 2.01, 2.04, 2.08]  # 2.01x ± 0.03 (covers 2.00): at 2x within noise
PAST_TWO = [2.06, 2.08, 2.10, 2.12, 2.20]  # 2.10x ± 0.02: 2.08 > 2.00, a finding


def test_a_median_whose_spread_covers_two_reads_at_two_within_noise():
    r = _row(AT_TWO)
    said = report.headline_verdict(r)
    assert said.startswith("above the bound, at 2 devices' 2x (within noise: 2.01x ± 0.03 covers 2x), no reference "
                           "read as explaining it; 3 of 5 rounds above 2 devices' 2x (2.01x, 2.04x, 2.08x): a finding")
    assert "the median itself past" not in said and "explained by" not in said
    assert report.row_verdict(r) == AT_DEVICES
    assert report.speedup_claim("c", r).verdict == said


def test_a_median_past_two_beyond_its_spread_stays_a_finding():
    r = _row(PAST_TWO)
    assert report.headline_verdict(r).startswith("above the bound, the median itself past 2 devices' 2x: a finding")
    assert report.row_verdict(r) == PAST_DEVICES


def test_the_reference_row_beside_says_the_same_relation():
    at, past = _row(AT_TWO), _row(PAST_TWO)
    said = report.reference_claim("c", at, at.work_bound, "work-scaled reference").verdict
    assert said.endswith("; and at 2 devices' 2x within noise (as its row against the bound reads): not read as "
                         "explained by it")
    said = report.reference_claim("c", past, past.work_bound, "work-scaled reference").verdict
    assert said.endswith("; yet past 2 devices' 2x beyond its spread: a finding it does not explain")
    under = _row([1.60, 1.62, 1.63, 1.64, 1.66])
    assert "2 devices" not in report.reference_claim("c", under, under.work_bound, "work-scaled reference").verdict


def test_zbv_at_p_within_noise_is_no_finding():
    r = runs.Row(32, 8, "ZBV", 0.1, 0.2, [0.05, 0.05], speedups=AT_TWO, bound_override=1.88)
    assert chunks.p_at_this_m(r).endswith("within noise of p (2.01x ± 0.03 covers 2x): the median is no finding (the "
                                          "table's verdict reads each round past p).")
    r = runs.Row(32, 8, "ZBV", 0.1, 0.2, [0.05, 0.05], speedups=PAST_TWO, bound_override=1.88)
    assert "the median is past p = 2x" in chunks.p_at_this_m(r)
