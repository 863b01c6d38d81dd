"""Lesson 02, the thirtieth reading (t30_02): section 3 sets a round beside its own round's per-process
reference only where the rounds' spread does not already explain it (#1); the summary's first row names no
round a work-scaled reference reaches (#2); section 8's work rise is held to every reading alike (#3); the ±
of the paired differences rounds half up to the digit printed (#4); the medians' ratio is worked from the
figures the rounds table prints (#5). Fabricated figures, CPU only; each branch."""

import statistics

from utils.lessons.model_split import report  # noqa: I001 (report loads first: naive reads it)
from utils.lessons.model_split import naive, noise, runs
from utils.lessons.model_split.reference import findings_past, past_indices


def _naive(speedups, references, alone=(0.0534, 0.0584), one=0.1135):
    return runs.Row(32, 1, "naive", 0.112, one, [0.055, 0.058], naive=True, speedups=list(speedups),
                    process_bounds=list(references), cpu=[0.05, 0.05], baseline_cpu=0.11, alone=list(alone))


# --- #1: a round within the rounds' spread needs no reference -----------------------------------------------

# within noise of 1x (1.02x ± 0.04); rounds 1-2 (1.09x, 1.08x) past 1.02 + 0.04 = 1.06 and reached by their own
# references; round 3 (1.02x) lies past its own low reference (1.02 / 0.93 = 1.10) but within the spread
LOW_OWN = _naive([1.09, 1.08, 1.02, 0.98, 0.9999], [1.05, 1.07, 0.93, 1.02, 1.03])


def test_a_round_within_the_spread_is_not_set_beside_its_own_reference():
    assert noise.printed(LOW_OWN) == (1.02, 0.04) and past_indices(LOW_OWN) == [1, 2]
    assert noise.rounds_past_reference(LOW_OWN, LOW_OWN.process_bounds) == []
    assert noise.past_reference_words(LOW_OWN, LOW_OWN.process_bounds) == ""
    block, closing = report.naive_process_reading(LOW_OWN), report.naive_closing(LOW_OWN)
    for said in (block, closing):
        assert "round 3" not in said and "a finding to explain" not in said, said
    # t31_02 #3: rounds 1-2, past the spread, are named as their own references explain them
    assert block.endswith("2 of 5 rounds under it): rounds 1 and 2: explained by their own rounds' references; the "
                          "median and rounds 3, 4 and 5: no cause to read."), block
    assert closing.startswith("In short, this run's naive split: 1.02x ± 0.04 against its 1x bound; within noise "
                              "of it, as theory says, and nothing left to explain: 2 of 5 rounds (1.09x, 1.08x)")
    assert closing.endswith("no finding left."), closing


def test_a_round_past_the_spread_and_past_its_own_reference_is_still_named():
    # the other branch: round 1 (1.14x) past 1.02 + 0.04 and past its own reference (1.14 / 1.02 = 1.12)
    row = _naive([1.14, 1.08, 1.02, 0.98, 0.9999], [1.02, 1.07, 0.93, 1.02, 1.03])
    assert noise.rounds_past_reference(row, row.process_bounds) == [1]
    assert findings_past(row) == [1.14]
    closing = report.naive_closing(row)
    assert "within noise of it, as theory says; but 2 of 5 rounds (1.14x, 1.08x)" in closing, closing
    assert closing.endswith("round 1: a finding to explain."), closing
    assert "round 1 lies past its own round's reference" in report.naive_process_reading(row)


def test_cell_15_says_the_per_process_rule_reads_only_rounds_past_the_spread():
    import nbformat
    from pathlib import Path
    nb = nbformat.read(Path(__file__).resolve().parents[1] / "notebooks/02_model_split.ipynb", 4)
    text = " ".join(nb.cells[15].source.split())
    assert "Only a round the rounds' spread does not already explain" in text


# --- #2: the summary's first row names no round the work-scaled reference reaches ------------------------------

def _gpipe(speedups, cpu=(0.048, 0.050), one=0.100):
    return runs.Row(32, 1, "gpipe", 0.1, 0.1, [0.05, 0.05], speedups=list(speedups), cpu=list(cpu),
                    baseline_cpu=one)


def _launches(section_5):
    plain = _naive([1.0, 1.01, 0.99, 1.0, 1.0], [1.03, 1.03, 1.03, 1.03, 1.03])
    return [("section 3", "hand-written", plain), ("section 5", "ScheduleGPipe, m=1", section_5)]


def test_a_round_within_the_work_scaled_reference_is_no_finding_in_the_summary():
    # 0.98x ± 0.01; w = 98 / 100 = 0.98, so the reference 1.00 / 0.98 = 1.02x; 1.03x past 0.98 + 0.01 but at
    # most 1.02 + 0.01 = 1.03: section 5's table says "no finding", and so does the summary's row
    reached = _gpipe([0.98, 1.03, 0.97, 0.98, 0.99])
    assert noise.printed(reached) == (0.98, 0.01) and round(reached.work_bound, 2) == 1.02
    assert "within the work-scaled reference (1.02x + 0.01 = 1.03): no finding" in report.rounds_above_bound(reached)
    verdict = report.launches_claim("naive split vs one device", _launches(reached)).verdict
    assert "past the spread" not in verdict and "to explain" not in verdict, verdict


def test_a_round_past_the_work_scaled_reference_is_still_named_in_the_summary():
    # the other branch: 1.05x lies past 1.02 + 0.01 = 1.03 as well: a finding, named in the row
    past = _gpipe([0.98, 1.05, 0.97, 0.98, 0.99])
    verdict = report.launches_claim("naive split vs one device", _launches(past)).verdict
    assert verdict.endswith("; a round that stays a finding to explain (past the spread, reached by no "
                            "reference): section 5 1.05x"), verdict
    # no work measured: no reference, and the round past the spread stays a finding
    bare = _gpipe([0.98, 1.03, 0.97, 0.98, 0.99], cpu=(), one=0.0)
    assert report.launches_claim("x", _launches(bare)).verdict.endswith(
        "a finding to explain (past the spread, reached by no reference): section 5 1.03x")


# --- #3 and #4: section 8's extra time, its ± half up, and one test for every reading ------------------------

def _placed(seconds, cpu):
    return runs.Row(32, 1, "x", seconds, 0.110, [0.05, 0.05], naive=True, speedups=[1.0], cpu=list(cpu),
                    baseline_cpu=0.110)


def _placements(extra_ms, placed_cpu):
    """Rounds printed +16.1, +16.8, +13.1, +18.8, +14.5 ms: median 16.1, middle three 14.5-16.8, so ± 1.15,
    1.2 half up; the table's medians 146 and 128 ms (18 ms apart); the layers' work 60 + 62 ms."""
    return {"layers": {"row": _placed(0.128, [0.060, 0.062]), "crossings": 1},
            "attn/ffn": {"row": _placed(0.146, list(placed_cpu)), "crossings": 7},
            "extra_rounds": [x / 1e3 for x in extra_ms],
            "message": {"tiny": 0.05e-3, "activation": 0.5e-3, "activation_bytes": 2**20}}


ROUNDS_MS = [16.1, 16.8, 13.1, 18.8, 14.5]


def test_the_extra_times_spread_rounds_half_up_to_the_digit_printed():
    from utils.lessons.model_split import placement

    got = _placements(ROUNDS_MS, (0.070, 0.069))
    assert placement.extra_time(got)[:2] == (16.1, 1.2)  # (16.8 - 14.5) / 2 = 1.15 -> 1.2, not 1.1
    assert placement.median_plus_spread(got) == 16.1 + 1.2
    assert placement.extra_readings(got)[0][0] == 17.3


def test_a_work_rise_accounts_for_the_readings_in_order():
    from utils.lessons.model_split import placement

    got = _placements(ROUNDS_MS, (0.070, 0.069))
    # +17 ms, summed from four whole-ms figures (± 2 ms): the median (16.1) reached; 17.3, 18 and 18.8 all lie
    # within 17 + 2, so the rise's rounding leaves them undecided (the t39_02 rule, tests/test_02_s78.py)
    reached, missed, unsure = placement.work_reach(got, 17.0, 16.1, 1.2, 1)
    assert reached == ["the median extra time (+16.1 ms)"] and missed == []
    assert unsure == ["17.3 ms (the paired median plus its spread)", "18 ms (the table's median steps' difference)",
                      "18.8 ms (the highest of 5 rounds)"]
    # +21 ms reaches every reading even at its low end (19); +15 ms the median within its spread only
    assert placement.work_reach(got, 21.0, 16.1, 1.2, 1)[1:] == ([], [])
    reached, missed, unsure = placement.work_reach(got, 15.0, 16.1, 1.2, 1)
    assert reached == ["the median extra time within its spread (+16.1 ± 1.2 ms covers +15)"] and len(missed) == 3
    # short of the median by more than its spread: nothing accounted for
    assert placement.work_reach(got, 14.0, 16.1, 1.2, 1) == ([], ["the median extra time within its spread "
                                                                  "(+16.1 ± 1.2 ms covers +14)"], [])


# --- #5: the medians' ratio from the figures the rounds table prints (0.1 ms) --------------------------------

def test_the_medians_ratio_is_worked_from_the_tables_tenth_ms():
    # one device 113.5 ms, stages 53.4 + 58.4 = 111.8 ms: 1.0152 -> 1.02x, not 114 / (53 + 58) = 1.03x
    row = _naive([1.02, 1.01, 1.03, 1.02, 1.0], [1.05, 1.03, 1.02, 1.03, 1.04], alone=(0.0534, 0.0584),
                 one=0.11354)
    assert row.process_bound == 1.03
    said = report.naive_process_reading(row)
    assert "Each stage alone in its own process: 53.4 + 58.4 ms (medians), against one device's 113.5 ms" in said
    assert "the medians' own ratio, 113.5 / 111.8 = 1.02x, pairs figures from different rounds" in said, said
    # the other branch: the same figures divide to the reference printed beside them
    same = _naive([1.02, 1.01, 1.03, 1.02, 1.0], [1.05, 1.02, 1.02, 1.02, 1.04], alone=(0.0534, 0.0584),
                  one=0.11354)
    assert same.process_bound == 1.02
    assert "the same as the medians' ratio, 113.5 / 111.8)" in report.naive_process_reading(same)
