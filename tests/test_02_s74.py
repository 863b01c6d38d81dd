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
