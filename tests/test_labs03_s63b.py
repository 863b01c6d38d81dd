"""Labs 00-03, reading t25_labs03, left-over items. Lab 02: the model redone with the work measured scales by
the slower stage, which sets the pipeline's pace, not by the stages' sum, and says which stage that is in the
run and in the profile (same stage, swapped, both alike); the misses at some m's say in plain words why one
worker's step cannot be the whole cause. Every branch on fabricated figures."""

from __future__ import annotations

from utils.labs.balance_the_pipeline import checks as lab
from utils.labs.balance_the_pipeline import reading
from utils.lessons.model_split import runs

ROUNDS = [0.60, 0.62, 0.65, 0.70, 0.80, 0.90, 1.00]  # 0.70x, far below any prediction here


def _parts(work, baseline, stages_profiled, predicted=1.50, one_profiled=0.210, speedups=ROUNDS):
    row = runs.Row(4096, 16, "1f1b", 0.15, 0.25, [0.14, 0.14], split_points=(10,), cpu=list(work),
                   baseline_cpu=baseline, speedups=list(speedups))
    profiled = {"one worker": one_profiled, "stages": list(stages_profiled)}
    p = lab.Pipelined(row, [row], row, 1.0, lab.MIN_MARGIN, {row.key: predicted}, False, "", profiled=profiled)
    return " ".join(lab.model_parts(p).split())


def test_the_slower_stage_swapped_between_profile_and_run_sets_the_pace_in_each():
    # profile: stage 0 the slower (150 > 140); run: stage 1 the slower (144 > 120). The sum would give
    # 1.50 x (205 / 210) / (264 / 290) = 1.61x; the slower stage gives 1.50 x (205 / 210) / (144 / 150):
    # 1.4643 / 0.96 = 1.5253 -> 1.53x
    said = _parts([0.120, 0.144], 0.205, [0.150, 0.140])
    assert "your stages worked 120 ms and 144 ms a step against the profile's 150 ms and 140 ms" in said
    assert "(stage 0 -20%, stage 1 +3%" in said
    assert "The slower stage sets the pace (the other waits for it): stage 1 at 144 ms in this run; in the " \
           "profile stage 0 was the slower, at 150 ms (-4%)." in said
    assert "1.50 × (205 / 210) / (144 / 150) = 1.53x" in said and "264" not in said and "1.61x" not in said
    assert "divided by the slower stage's work over the profile's slower stage's" in said
    # an over-prediction: the slower stage working less pushes the model's figure up, away from 0.70x
    assert "(one worker's -2% lowers your model's figure; the slower stage's work -4% raises it)" in said


def test_the_same_slower_stage_in_both_is_named_once():
    said = _parts([0.160, 0.130], 0.210, [0.150, 0.140])  # 1.50 x 1 / (160 / 150) = 1.40625 -> 1.41x
    assert "The slower stage sets the pace (the other waits for it): stage 0, 160 ms against 150 ms in the " \
           "profile (+7%)." in said
    assert "1.50 × (210 / 210) / (160 / 150) = 1.41x" in said
    assert "explains part of the miss (the slower stage's work +7% lowers your model's figure)" in said


def test_stages_that_print_alike_are_both_the_slower():
    said = _parts([0.150, 0.150], 0.210, [0.150, 0.140])
    assert "stage 0 at 150 ms" not in said and "stage 1 at 150 ms" not in said
    assert "both stages at 150 ms in this run; in the profile stage 0 was the slower, at 150 ms (0%)." in said
    assert "1.50 × (210 / 210) / (150 / 150) = 1.50x" in said
    assert "it leaves your model's figure where it was" in said
    tied = _parts([0.150, 0.130], 0.210, [0.140, 0.140])  # the profile's two stages alike
    assert "stage 0 at 150 ms in this run; in the profile both stages were the slower, both at 140 ms (+7%)." \
        in tied


def test_the_pace_change_rounds_half_up_from_the_whole_ms_as_printed():
    assert reading._pace_change([215.0, 100.0], [200.0, 190.0]) == 0.08   # 1.075: +8%, not round()'s +7%
    assert reading._pace_change([100.0, 196.0], [200.0, 190.0]) == -0.02  # 196 / 200 = 0.98
    assert reading._ms_list([123.0]) == "123 ms" and reading._ms_list([1.0, 2.0, 3.0]) == "1 ms, 2 ms and 3 ms"


def _misses(predicted):
    row = lambda m, s: runs.Row(64, m, "gpipe", 1.0, 1.0, [0.5, 0.5], split_points=(2,), speedups=s)  # noqa
    rows = [row(8, [1.24, 1.25, 1.26, 1.27, 1.28]), row(16, [1.65, 1.66, 1.67, 1.68, 1.69]),
            row(32, [1.50, 1.51, 1.52, 1.53, 1.54]), row(64, [0.90, 0.92, 0.93, 0.94, 0.96])]
    p = lab.Pipelined(rows[1], rows, rows[1], 1.0, lab.MIN_MARGIN, dict(zip((r.key for r in rows), predicted)),
                      False, "")
    return " ".join(reading._misses_by_m(p).split())


def test_an_under_prediction_at_some_m_says_why_one_workers_step_is_not_the_whole_cause():
    two = _misses([1.26, 1.50, 1.52, 0.80])   # met at m=8 and m=32; under at m=16 and m=64
    assert "One worker's step cannot be the whole cause: every m's speed-up is worked against that same step, " \
           "yet at m=8 and m=32 your model met the measurement. The cause is in what changes with m, the " \
           "stages' work or their waiting (an error in one worker's step can add to it)" in two
    assert "alone is not the cause" not in two and "though it can add" not in two
    three = _misses([1.26, 1.50, 1.52, 0.93])  # met at m=8, 32 and 64
    assert "yet at m=8, m=32 and m=64 your model met the measurement." in three
    other = _misses([1.40, 1.50, 1.60, 1.10])  # under at m=16; over at m=8, 32 and 64
    assert "yet at m=8, m=32 and m=64 your model missed the other way (the next sentence)." in other


# --- the labs' opening cells: what a learner needs before starting, no measured outcome ------------------------


def _opening(lab):
    import nbformat
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "labs" / lab
    return " ".join(nbformat.read(path, as_version=4).cells[0].source.split())


def test_lab_01_opening_says_how_the_checks_work_in_a_few_lines_and_points_to_the_list():
    # t25_labs03: it ran to 210 words, the allowance's write-allocate reasoning among them (now under **Checks**)
    said = _opening("01_predict_the_roofline.ipynb")
    checks_part = said[said.index("**How the checks work.**"):said.index("**Modes and time.**")]
    assert len(checks_part.split()) <= 110 and "write-allocate" not in checks_part, checks_part
    assert "under **Checks**" in checks_part and 'checks.hint("labs/predict_the_roofline", "A", 2)' in checks_part


def test_lab_03_opening_leaves_the_share_rounded_to_zero_to_the_run():
    said = _opening("03_ddp_from_scratch.ipynb")
    assert "about half" not in said and "round to 0 (the take-aways print the share, from this run)" in said
