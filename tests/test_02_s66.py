"""Lesson 02, the twenty-eighth reading (t28_02): the launches of one step read pair by pair by the noise rule
before their verdicts (#1); the best's paired lead worked from the ratios it prints (#2); a median past its
work-scaled reference is not also "no cause to read" (#3). Fabricated figures, CPU only; each branch."""

from utils.claims import printed_spread
from utils.lessons.model_split import report  # loads first: naive reads its verdicts
from utils.lessons.model_split import best, naive, noise, runs, work_words


def _launch(speedups):
    return runs.Row(32, 1, "gpipe", 0.15, 0.15, [0.07, 0.07], speedups=list(speedups))


# --- #1: each pair of launches by the noise rule, then the verdicts, and where the two part --------------------

WIDE = _launch([1.05, 1.02, 0.95, 0.91, 0.92])     # 0.95x ± 0.05: within noise of 1x, no effect
NARROW = _launch([0.97, 0.94, 0.96, 0.96, 1.01])   # 0.96x ± 0.01: below 1x
HIGH = _launch([1.04, 0.996, 1.02, 1.07, 0.99])    # 1.02x ± 0.02: within noise of 1x, no effect


def test_the_figures_shape_of_fabricated_launches():
    assert [noise.printed(r) for r in (WIDE, NARROW, HIGH)] == [(0.95, 0.05), (0.96, 0.01), (1.02, 0.02)]
    assert [naive._reads(r) for r in (WIDE, NARROW, HIGH)] == ["no effect", "below 1x", "no effect"]


def test_pairs_are_named_as_the_figures_say_before_the_verdicts():
    entries = [("section 3", "a", WIDE), ("section 5", "b", NARROW), ("section 8", "c", HIGH)]
    said = naive.same_step_note(entries, (3,))
    pairs = said.index("Launch against launch, by the lesson's noise rule")
    assert pairs < said.index("Against 1x the verdicts disagree on whether there is an effect: section 5 reads "
                              "below 1x, section 3 and section 8 none")
    # agree, and their verdicts differ only through the spreads (the effect launch lies no farther from 1x)
    assert ("section 3 and section 5 agree (section 3's 0.95x ± 0.05 and section 5's 0.96x ± 0.01 each cover the "
            "other's median), yet their verdicts differ: only through their spreads (medians 0.01 apart), "
            "section 3's 0.95x ± 0.05 reaches 1x, section 5's 0.96x ± 0.01 does not") in said
    # one verdict, apart by the figures; two verdicts, apart
    assert ("section 3 and section 8 lie outside each other's noise (0.95x ± 0.05, 1.02x ± 0.02), though both read "
            "no effect") in said
    assert "section 5 and section 8 lie outside each other's noise (0.96x ± 0.01, 1.02x ± 0.02)." in said
    assert said.endswith("so no launch's verdict alone decides; read them together.")


def test_launches_that_all_agree_end_without_the_moved_figure():
    said = naive.same_step_note([("section 3", "a", WIDE), ("section 5", "b", NARROW)], (3,))
    assert "lie outside" not in said and "read them together" not in said
    assert said.endswith("section 3 none; together they range from 0.95x to 0.96x against the same 1x bound.")
    same = naive.same_step_note([("section 3", "a", WIDE), ("section 8", "c", WIDE)])
    assert "section 3 and section 8 agree (" in same and "yet" not in same
    assert same.endswith("Against 1x the verdicts agree on whether there is an effect; together they range from "
                         "0.95x to 0.95x against the same 1x bound.")


def test_a_single_launch_has_no_pairs():
    said = naive.same_step_note([("section 3", "a", WIDE)])
    assert "Launch against launch" not in said and "Against 1x" not in said and said.endswith(".")
    assert naive._pairs_claim([("section 3", "a", WIDE)]) == ""


def test_why_two_agreeing_launches_read_differently_every_branch():
    # the effect launch farther from 1x than the other: the medians differ too, so not "only" the spreads
    near = _launch([0.95, 0.97, 0.98, 1.00, 1.01])  # 0.98x ± 0.02: covers 1x, and 0.96x
    assert noise.printed(near) == (0.98, 0.02)
    said = naive._verdicts_part("section 3", near, "section 5", NARROW)
    assert said == "section 3's 0.98x ± 0.02 reaches 1x, section 5's 0.96x ± 0.01 does not"
    # every round below 1x though the ± reaches it: the rounds decide
    below = _launch([0.90, 0.93, 0.97, 0.995, 0.998])  # 0.97x ± 0.03
    other = _launch([0.97, 0.98, 0.99, 1.01, 1.02])  # 0.99x ± 0.02
    assert noise.printed(below) == (0.97, 0.03) and noise.noise_of_one(other) and not noise.noise_of_one(below)
    assert naive._verdicts_part("section 3", other, "section 5", below) == (
        "every round of section 5 lies below 1x: not noise around 1x, by the lesson's rule")
    # both an effect, on opposite sides, within each other's noise (every round on its side)
    up, down = _launch([1.001, 1.002, 1.03, 1.20, 1.25]), _launch([0.999, 0.998, 0.97, 0.80, 0.75])
    assert not naive._apart(up, down)
    assert naive._verdicts_part("section 3", up, "section 5", down) == "section 3 reads above 1x, section 5 below 1x"
    assert "yet their verdicts differ: section 3 reads above 1x" in naive.same_step_note(
        [("section 3", "a", up), ("section 5", "b", down)])


def test_the_claims_row_names_which_pairs_agree_and_which_lie_apart():
    entries = [("section 3", "a", WIDE), ("section 5", "b", NARROW), ("section 8", "c", HIGH)]
    said = naive.launches_claim("naive", entries).verdict
    assert ("by the noise rule, launch by launch: section 5 reads below 1x, section 3 and section 8 no effect; "
            "launch against launch (the noise rule): section 3 and section 5 agree; section 3 and section 8, "
            "section 5 and section 8 apart; ") in said
    assert "to explain (past the spread, reached by no reference): " in said
    assert naive._pairs_claim(entries[:2]).endswith(": section 3 and section 5 agree")
    assert naive._pairs_claim(entries[1:]).endswith(": section 5 and section 8 apart")


# --- #2: the paired lead's ± worked from the ratios as printed ---------------------------------------------


def test_the_paired_lead_is_worked_from_the_ratios_it_prints():
    # t28_02 #2: 1.87 / 1.72 = 1.087, 1.76 / 1.72 = 1.023, 1.81 / 1.72 = 1.052, 1.71 / 1.72 = 0.994, 1.78 / 1.72
    # = 1.035, printed 1.09, 1.02, 1.05, 0.99, 1.03 (half up): (1.05 - 1.02) / 2 = 0.015, printed 0.02; the
    # unrounded ratios give 0.0145, printed 0.01
    top = runs.Row(128, 8, "1f1b", 1.0, 1.0, [0.5, 0.5], speedups=[1.87, 1.76, 1.81, 1.71, 1.78])
    other = runs.Row(128, 4, "1f1b", 1.0, 1.0, [0.5, 0.5], speedups=[1.72] * 5)
    assert noise.ratios_spread(noise.paired_ratios(top, other.speedups)) == 0.01
    ratios, median, spread = best.paired_lead(top, other)
    assert ratios == [1.09, 1.02, 1.05, 0.99, 1.03] and median == 1.03 and spread == 0.02
    assert spread == printed_spread(ratios)


def test_the_best_tie_prints_the_ratios_its_spread_is_worked_from():
    rows = [runs.Row(128, 8, "1f1b", 1.0, 1.0, [0.5, 0.5], speedups=[1.71, 1.77, 1.69, 1.86, 1.78]),
            runs.Row(128, 8, "gpipe", 1.0, 1.0, [0.5, 0.5], speedups=[1.63, 1.70, 1.58, 1.77, 1.80]),
            runs.Row(128, 4, "gpipe", 1.0, 1.0, [0.5, 0.5], speedups=[1.50] * 5)]
    said = best.best_tie(runs.PipelineRun(rows, [], (3,), 1, True))
    # printed 1.05, 1.04, 1.07, 1.05, 0.99: the middle three 1.04, 1.05, 1.05 give 0.005, printed 0.01
    assert "rounds 1-5: 1.05, 1.04, 1.07, 1.05, 0.99, median 1.05 ± 0.01, above 1 beyond its spread" in said


# --- #3: one reading of a median past its work-scaled reference ---------------------------------------------


def _worked(cpu):
    return runs.Row(32, 1, "gpipe", 0.134, 0.135, [0.066, 0.069], cpu=cpu, baseline_cpu=0.134,
                    speedups=[1.04, 0.996, 1.02, 1.07, 0.99])  # 1.02x ± 0.02: within noise of the 1x bound


def test_a_median_past_its_work_scaled_reference_is_not_also_no_cause_to_read():
    # work 1.02x: reference 0.98x (0.99x at most within its whole-ms figures' rounding), passed by more than d
    past = _worked([0.067, 0.070])
    said = report.explain_row(past)
    assert ("above its work-scaled reference (0.98x, up to 0.99x within its whole-ms work figures' rounding) by "
            "more than the rounds' spread (± 0.02): a finding to explain") in said
    assert "no cause to read" not in said and report.WITHIN_SPREAD not in report.reading(past)
    # the other outcome: within the work-scaled reference plus the spread, the excess over 1x has no cause to read
    within = _worked([0.066, 0.067])  # work 0.99x: reference 1.01x
    said = report.explain_row(within)
    assert "within the work-scaled reference (1.01x) plus the rounds' spread (± 0.02)" in said
    assert said.endswith(report.WITHIN_SPREAD)
    # the verdict table says when the words are left out
    assert "not past its work-scaled reference" in report.verdict_table().to_text()


# --- other problems: "covers" only for a figure ± its spread; a reference within noise said; cell 59 ---------


def test_a_silent_work_scaled_reference_is_said_within_noise():
    near = runs.Row(32, 2, "gpipe", 0.104, 0.125, [0.065, 0.067], cpu=[0.067, 0.070], baseline_cpu=0.123,
                    speedups=[1.22, 1.18, 1.19, 1.19, 1.23])  # 1.19x ± 0.02 against 1.20x: within noise of it
    assert noise.printed(near) == (1.19, 0.02) and f"{near.work_bound:.2f}" == "1.20"
    said = report.headline_verdict(near)
    assert said.endswith("of its gain; within noise of its work-scaled reference (1.20x)")  # one share: the bound's
    # the other outcome, under it by more than the spread: the share of its gain, as before
    under = runs.Row(32, 2, "gpipe", 0.104, 0.125, [0.065, 0.067], cpu=[0.060, 0.062], baseline_cpu=0.123,
                     speedups=[1.22, 1.18, 1.19, 1.19, 1.23])
    assert "under its work-scaled reference (" in report.headline_verdict(under)


def test_the_works_rise_accounts_for_readings_and_covers_only_a_spread():
    from utils.lessons.model_split import placement
    reached, missed = ["the median extra time (+9.5 ms)", "14 ms (x)"], ["26.7 ms (y)"]
    assert work_words.covers_words(reached, missed) == "the median extra time (+9.5 ms) and 14 ms (x), not 26.7 ms (y)"
    import inspect
    source = inspect.getsource(placement)
    assert "ms, covers {covers_words" not in source and "which covers" not in source  # the outputs: s54c, s57


def test_cell_59_says_all_schedules_where_every_one_is_faster():
    import json
    from pathlib import Path
    cells = json.loads((Path(__file__).resolve().parents[1] / "notebooks/02_model_split.ipynb").read_text())["cells"]
    source = "".join(cells[59]["source"])
    assert 'f"all {len(shown)} schedules" if every else' in source and "every = len(shown) == len(chunked.rows)" in source
