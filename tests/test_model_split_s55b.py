"""Lesson 02, seventeenth reading (t17_02, new contradiction 1): section 5 promises (cell 33) that a median past
its work-scaled reference says by how much, and that a median above the bound but at most that reference plus d
reads "within the work-scaled reference". Every verdict but "above the bound" now prints those words."""

from utils.lessons.model_split import report, runs


def _row(m, speedups, cpu_ms, one_ms, batch=128, schedule="1f1b") -> runs.Row:
    """A section 5 row on CPU workers: the stages' CPU ms and one device's, as the table prints them."""
    return runs.Row(batch, m, schedule, 0.5, 0.817, [c / 1e3 for c in cpu_ms], cpu=[c / 1e3 for c in cpu_ms],
                    baseline_cpu=one_ms / 1e3, speedups=list(speedups))


# the rows the reader saw (batch 128): median ± spread, bound, work-scaled reference
PASSED = _row(4, [1.55, 1.65, 1.70, 1.69, 1.36], [408, 423], 814)  # 1.65x ± 0.07, bound 1.60x, reference 1.57x
M8 = _row(8, [1.83, 1.83, 1.92, 1.73, 1.56], [378, 411], 814)  # 1.83x ± 0.05, bound 1.78x, reference 1.84x
M1 = _row(1, [1.06, 0.84, 1.22, 1.13, 0.99], [372, 377], 814, schedule="gpipe")  # 1.06x, bound 1x, ref 1.09x


def test_the_figures_are_the_readers():
    assert (f"{PASSED.work_bound:.2f}", f"{M8.work_bound:.2f}", f"{M1.work_bound:.2f}") == ("1.57", "1.84", "1.09")
    assert report.median_verdict(PASSED).startswith("at the bound (within noise)")
    assert report.median_verdict(M1).startswith("within noise: no effect shown")


def test_a_median_past_its_reference_by_more_than_d_says_so_under_an_at_the_bound_verdict():
    said = report.headline_verdict(PASSED)  # 1.65 - 0.07 = 1.58 > 1.57
    assert said.startswith("at the bound (within noise)")
    assert said.endswith("; above its work-scaled reference (1.57x) by more than the rounds' spread (± 0.07): "
                         "a finding to explain")
    assert report.reading(PASSED).count("work-scaled reference (1.57x)") == 1  # said once
    # the other outcome: passed by less than d reads "within the work-scaled reference ... plus d"
    near = _row(4, [1.55, 1.60, 1.62, 1.61, 1.36], [408, 423], 814)  # 1.60x ± 0.03 over 1.57x: not above the bound
    assert report.headline_verdict(near).endswith("above its work-scaled reference (1.57x), within the rounds' "
                                                  "spread (± 0.03)")
    close = _row(4, [1.55, 1.62, 1.66, 1.64, 1.36], [408, 423], 814)  # 1.62x ± 0.05: above 1.60x, 1.57 + 0.05
    assert report.headline_verdict(close).endswith("; within the work-scaled reference (1.57x) plus the rounds' "
                                                   "spread (± 0.05)")


def test_a_median_above_the_bound_within_its_reference_says_so_whatever_the_verdict():
    assert report.headline_verdict(M8).endswith("; within the work-scaled reference (1.84x)")  # at the bound
    assert report.headline_verdict(M1).endswith("; within the work-scaled reference (1.09x)")  # within noise
    assert "what the measured work predicts" not in report.reading(M1)  # m=1: the same figure, read once
    # the other outcome: at or under the bound, under the reference by more than d: the share of its gain
    # (cell 15's rule, t26_02 #3); 1.73x ± 0.02 under 1.84x: 0.73 / 0.84 = 87%
    under = _row(8, [1.70, 1.74, 1.75, 1.73, 1.56], [378, 411], 814)
    assert report.headline_verdict(under).endswith("; under its work-scaled reference (1.84x): 87% of its gain")


def test_an_above_the_bound_verdict_reads_the_reference_once_itself():
    far = _row(4, [1.80, 1.85, 1.86, 1.84, 1.83], [408, 423], 814)  # 1.84x ± 0.01, far past 1.60x and 1.57x
    said = report.headline_verdict(far)
    assert said.startswith("above the bound: a finding to explain") and "work-scaled reference" not in said
    assert report.past_work_reference(far) == ""


def test_the_verdict_table_says_the_rule():
    first = report.verdict_table().rows[0][1]
    assert "under any verdict but 'above the bound'" in first and "'within the work-scaled reference'" in first


# --- other problem 1: the probe's price, re-reading sections 5 and 9, says what it stands on ----------------

from utils.lessons.model_split import placement  # noqa: E402


def _placements(extra_rounds, placed_s=0.229):
    """t17_02's section 8: +7.3 ± 2.4 ms (rounds -0.1 to +34.6 ms), the table's 229 and 214 ms, 12 more
    messages at the probe's 0.076 ms each and 1.83 ms an activation (0.9 + 21.0 = 21.9 ms)."""
    def row(seconds):
        return runs.Row(32, 1, "x", seconds, 0.22, [0.1, 0.1], naive=True, speedups=[1.0])
    return {"layers": {"row": row(0.214), "crossings": 1}, "attn/ffn": {"row": row(placed_s), "crossings": 7},
            "extra_rounds": [x / 1e3 for x in extra_rounds],
            "message": {"tiny": 7.6e-5, "activation": 1.83e-3, "activation_bytes": 2**20}}


def test_the_probes_price_says_it_stands_on_one_round():
    got = _placements([-0.1, 4.9, 7.3, 9.7, 34.6])
    assert not placement.overpriced(got)  # the price is kept, and sections 5 and 9 are read again at it
    said = placement.price_support(got)
    assert said == ("The probe's price is not ruled out while some reading of the extra time is as large as what "
                    "the extra messages would cost at that price: section 8's 12 extra messages would cost 0.9 + "
                    "21.0 = 21.9 ms at it; the extra time read 7.3 ms (the paired median), 9.7 ms (the paired median plus its "
                    "spread), 15 ms (the table's median steps' difference), 34.6 ms (the highest of 5 rounds): "
                    "only the highest of 5 rounds reaches that cost, so the price rests on one round")
    # the other outcomes: two readings allow it; the price refuted (nothing to say); every reading allows it
    two = placement.price_support(_placements([-0.1, 4.9, 7.3, 9.7, 34.6], placed_s=0.238))  # medians 24 ms apart
    assert two.endswith("2 of 4 reach that cost (the table's median steps' difference and the highest of 5 rounds)")
    assert placement.price_support(_placements([-0.1, 4.9, 7.3, 9.7, 12.0])) == ""  # overpriced: refuted
    assert placement.overpriced(_placements([-0.1, 4.9, 7.3, 9.7, 12.0]))
    every = placement.price_support(_placements([20.0, 22.0, 24.0, 26.0, 30.0], placed_s=0.24))
    assert every.endswith("every one of them reaches that cost")
    assert placement.price_support(_placements([-5.0, -1.0, 1.0, 3.0, 30.0])) == ""  # within noise of 0
