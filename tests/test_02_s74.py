"""Lesson 02, the thirty-fifth reading (t35_02): each fix's sentences, every branch, on fabricated figures."""

from utils.lessons.model_split import report, runs


def _sweep(best, other, far=(1.50,) * 5):
    rows = [runs.Row(128, 8, "1f1b", 1.0, 1.0, [0.5, 0.5], speedups=list(best)),
            runs.Row(128, 8, "gpipe", 1.0, 1.0, [0.5, 0.5], speedups=list(other)),
            runs.Row(128, 4, "gpipe", 1.0, 1.0, [0.5, 0.5], speedups=list(far))]
    return runs.PipelineRun(rows, [], (3,), 1, True)


# --- t35_02 #1: a tie the runner-up's own ± does not give is said with the ± that gives it, paired answer first --

def test_the_tie_prints_the_best_s_own_spread_where_only_it_covers_the_other():
    """1f1b m=8 1.89x ± 0.09, gpipe m=8 1.80x ± 0.07: 1.80 + 0.07 = 1.87 misses 1.89, 1.89 - 0.09 = 1.80 reaches
    1.80. The sentence must print the ± that ties them, and lead with the paired rounds (ahead)."""
    sweep = _sweep([1.98, 1.80, 1.89, 1.71, 2.00], [1.85, 1.72, 1.80, 1.68, 1.88])
    assert [report.printed(r) for r in sweep.rows[:2]] == [(1.89, 0.09), (1.80, 0.07)]
    said = report.best_tie(sweep)
    assert said.startswith("; batch 128 gpipe m=8, round by round: 1f1b m=8 over it in rounds 1-5: ")
    assert said.index("ahead in the paired rounds, the reading this lesson trusts") < said.index("by the medians")
    assert said.endswith("by the medians alone, within noise (1f1b m=8's 1.89x ± 0.09 covers its 1.80x ± 0.07)")
    assert "within noise of 1f1b" not in said  # the old wording that no printed ± gave


def test_the_summary_names_the_tied_row_with_the_paired_word_in_every_branch():
    ahead = _sweep([1.98, 1.80, 1.89, 1.71, 2.00], [1.85, 1.72, 1.80, 1.68, 1.88])
    assert report.best_tie_short(ahead) == (
        "; beside batch 128 gpipe m=8: medians within noise, ahead round by round (1.05 ± 0.01), section 5")
    level = _sweep([1.72, 1.76, 1.74, 1.70, 1.78], [1.74, 1.74, 1.72, 1.73, 1.76])
    assert "medians within noise, not separated round by round either (1.01 ± 0.01)" in report.best_tie_short(level)
    behind = _sweep([1.80, 1.80, 1.80, 1.60, 1.60], [1.85, 1.85, 1.70, 1.65, 1.65])
    assert "medians within noise, behind round by round (0.97 ± 0.00)" in report.best_tie_short(behind)
    alone = _sweep([1.90] * 5, [1.70] * 5)
    assert report.best_tie_short(alone) == "" and report.best_tie(alone) == ""


# --- t35_02 #2: a share of a step exactly on a half is printed half up, as a reader rounds it ------------------

def test_a_share_of_a_step_on_a_half_prints_half_up_in_the_table_and_the_largest_share():
    """3.8 ms of a 304 ms step is 1.25% exactly: a reader prints 1.3%; ``:.1%`` of the float 0.01249... gave 1.2%."""
    from utils.lessons.model_split import link
    alpha, beta = 950e-6, 1e12  # 4 messages x 0.95 ms = 3.8 ms, no bytes
    half = runs.Row(128, 8, "1f1b", 0.304, 0.55, [0.2, 0.2], speedups=[1.80] * 5, messages=4, bytes_sent=0)
    assert link.step_share(half, alpha, beta) == 0.013
    assert link.link_table([half], alpha, beta, "a fit", "t").rows[0][5:8] == ("3.8", "304", "1.3%")
    # a row printed 1.3% too (3.9 / 300) ties it as printed; one printed 1.2% (3.6 / 300) does not
    same = runs.Row(128, 8, "gpipe", 0.300, 0.55, [0.2, 0.2], speedups=[1.80] * 5, messages=4, bytes_sent=0)
    assert link.step_share(same, 975e-6, beta) == 0.013
    near = runs.Row(128, 4, "gpipe", 0.300, 0.55, [0.2, 0.2], speedups=[1.60] * 5, messages=4, bytes_sent=0)
    top, name = link.largest_share([half, near], alpha, beta)  # near: 3.8 / 300 = 1.27%, printed 1.3% too
    assert name.startswith("tied as printed")
    top, name = link.largest_share([half, runs.Row(128, 4, "gpipe", 0.330, 0.55, [0.2, 0.2], speedups=[1.6] * 5,
                                                    messages=4, bytes_sent=0)], alpha, beta)  # 3.8 / 330 = 1.2%
    assert top is half and name == "batch 128, 1f1b m=8"


def test_the_planning_figure_reads_a_share_printed_on_it_half_up():
    """9.95% of a step prints 10.0%: at the planning figure, not under it (``round`` read 0.0995 as 0.099)."""
    from utils.lessons.model_split import link
    assert link.planning_verdict(0.0995, 1.0).startswith("above the planning figure")
    assert link.planning_verdict(0.0994, 1.0).startswith("under the planning figure at both prices (9.9%")
    assert link.at_price(0.0125, 2.0) == 0.026  # 1.3% (half up) x 2.00 = 2.6%, the reader's product


# --- t35_02 #3: a chart's caption says "not the median step" only where the printed ms differ ---------------

def test_the_drawn_round_is_compared_with_the_median_step_as_printed():
    from utils.lessons.model_split.figures import drawn_round
    rounds = [1.80, 1.78, 1.60, 1.90, 1.70]  # the median speedup's round: round 2
    assert drawn_round(rounds, 319.2, 318.8) == "round 2 of 5, the median speedup's (1.78x), 319 ms, as long as the median step"
    assert drawn_round(rounds, 470.0, 432.0) == (
        "round 2 of 5, the median speedup's (1.78x), 470 ms, not the median step (432 ms)")
    # no median step to set it beside (section 3's naive split): only what may differ, never "not"
    assert drawn_round(rounds) == "round 2 of 5, the median speedup's (1.78x), which need not be the median step"
    assert drawn_round(rounds, 470.0).endswith("470 ms, which need not be the median step")
    assert drawn_round(5) == "the median round of 5"


def test_the_chart_with_a_row_says_whether_its_bars_are_the_tables_median_step():
    from utils.timeline import Span
    spans = [Span("stage 0", "forward", 0, 0.0, 0.4), Span("stage 1", "forward", 0, 0.1, 0.47)]  # 470 ms drawn
    row = runs.Row(128, 4, "1f1b", 0.432, 0.8, [0.39, 0.40], speedups=[1.6, 1.5, 1.7])
    label = report.plot_schedule(spans, simulated=True, row=row).axes[0].get_xlabel()
    assert "(1.60x), 470 ms, not the median step (432 ms);" in label


# --- t35_02 #4: cell 15 says where a round its own reference reaches is named apart, as the code does -------

def test_a_round_its_own_reference_reaches_is_named_apart_only_beside_no_cause_to_read():
    """Section 3's run: round 1 at 1.14x past 1.04 + 0.01, its own reference 1.15x. Under "explained by the
    reference" those words cover it; under "no cause to read" it is named apart; cell 15 says both."""
    import json
    from pathlib import Path
    from utils.lessons.model_split import noise
    r = runs.Row(64, 1, "naive", 0.1383, 0.1436, [0.07, 0.07], naive=True, speedups=[1.14, 1.04, 1.03, 1.04, 1.05],
                 process_bounds=[1.15, 1.07, 1.00, 1.09, 1.10])
    assert noise.reached_by_own_reference(r, r.process_bounds) == [1]
    explained = noise.reference_reading(r, r.process_bounds, "explained by the reference")
    assert explained.endswith("4 of 5 rounds under it): explained by the reference") and "round 1:" not in explained
    assert noise.reference_reading(r, r.process_bounds, noise.NO_CAUSE).endswith(
        "round 1: explained by its own round's reference; the median and rounds 2, 3, 4 and 5: no cause to read")
    notebook = Path(__file__).resolve().parents[1] / "notebooks" / "02_model_split.ipynb"
    rules = " ".join("".join(json.loads(notebook.read_text())["cells"][15]["source"]).split())
    assert ('where the median reads "explained by the reference", those words cover it' in rules
            and 'where the median reads "no cause to read", it is named apart' in rules)


# --- t35_02 #5: no fixed prose states how far this run's launches moved; the run's own rows say it ----------

def test_the_markdown_says_a_step_can_move_between_launches_and_points_to_the_run():
    import json
    from pathlib import Path
    notebook = Path(__file__).resolve().parents[1] / "notebooks" / "02_model_split.ipynb"
    cells = ["".join(c["source"]) for c in json.loads(notebook.read_text())["cells"]]
    intro, summary = (" ".join(cells[i].split()) for i in (0, 64))
    assert "that step moves between launches" not in intro and "± understates" not in summary
    assert "that step can move between launches" in intro and "which launches lie apart in this run" in intro
    assert "one launch's ± can understate" in summary and "which launches lie apart in this run" in summary
    assert "report.launches_claim(" in cells[65] and "same_step_note(" in cells[34]  # where the run says it


# --- t35_02 other (cell 60): the 5% line beside the baselines' gap says what it is for ----------------------

def test_the_baseline_note_says_what_the_5_percent_line_is():
    from utils.lessons.model_split import chunks
    near = chunks.baseline_note(0.561, 0.539, 128)  # 561 / 539 = 1.04: 4%
    assert "the two are 4% apart, not past 5% (the gap past which a slower one-device step could make the " \
           "stages' work read cheaper)" in near and "as printed)" not in near
    far = chunks.baseline_note(0.600, 0.539, 128)  # 11%: the other branch
    assert "the two differ by 11%" in far and "may be this slower one-device step" in far
