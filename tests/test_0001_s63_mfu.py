"""Twenty-fifth reading (t25_0001 #4), lesson 01: every MFU on the page is the median of per-round ratios; the
re-timed probe is the rounds' median, and the MFU against it is the median of each round's step GFLOP/s over
that round's matmul GFLOP/s, as the rounds table prints them."""

from utils.lessons.why_slow import report, utilisation

# the reader's run: re-timed 148.8, 158.0, 152.8, 159.9, 163.0 GFLOP/s; the step's 72.8, 72.8, 73.0, 76.9, 76.0
STEP_GFLOPS = (72.8, 72.8, 73.0, 76.9, 76.0)
MATMUL = (148.8, 158.0, 152.8, 159.9, 163.0)
FLOPS = 5.309e9


def run():
    steps = [FLOPS / (g * 1e9) for g in STEP_GFLOPS]
    return utilisation.StepUtilisation(FLOPS, steps, [m * 1e9 for m in MATMUL], "fp32", 1,
                                       "fp32 matmul peak, 1 thread, 1024³", 180e9)


def test_the_re_timed_mfu_is_the_median_of_the_rounds_ratios_not_a_median_over_the_fastest():
    u = run()
    ratios = report.retimed_ratios(u)
    rows = report.mfu_rounds_table(u).rows
    # each round's ratio is worked from the two figures the row prints, and printed beside them
    for row, r in zip(rows, ratios):
        assert r == round(float(row[2]) / float(row[3]) + 1e-12, 2) and row[5] == f"{r:.0%}"
    assert report.retimed_mfu(u) == sorted(ratios)[2]
    assert f"{report.retimed_mfu(u):.0%}" == "48%"  # the fastest matmul would give 73.0 / 163.0 = 45%
    said = report.mfu_sentence(u)
    assert "ran at 158.0 GFLOP/s (median, -12%)" in said.replace("−", "-")
    assert "MFU would read 48% (the median of the 5 rounds' ratios, as MFU itself)" in said
    table = dict((r[0], r[1]) for r in report.mfu_table(u).rows)
    assert table["MFU against the re-timed probe (median of 5 rounds' ratios)"] == "48%"


def test_without_a_profile_the_rounds_table_has_no_re_timed_column():
    u = utilisation.StepUtilisation(FLOPS, [0.07] * 2, [150e9, 160e9], "fp32", 1)
    assert len(report.mfu_rounds_table(u).rows[0]) == 5
    assert "would read" not in report.mfu_sentence(u)


def test_the_probe_beside_the_profile_is_said_in_one_plain_clause():
    """Reader t25_0001 (hard to parse): "Both set beside the profile's 180.0 GFLOP/s show this moment against the
    profile's"; now: both measure this moment, not the profile's, so their gap is no finding."""
    from types import SimpleNamespace as NS

    stored = NS(size="1024³", spread=0.26, best=180e9)
    op = NS(op=NS(flops=2 * 1024**3), fraction=0.89, achieved=160.5e9)
    said = report.largest_matmul_reading(op, stored, True, NS(best=162e9))
    # reader t27_0001: "both measure this moment, not the profile's" needed a second reading
    assert ("The roof's 180.0 GFLOP/s was timed at another moment, when the profile was made (its probe spread "
            "26% there): how far these two sit from it is how the two moments differ, not a finding.") in said
