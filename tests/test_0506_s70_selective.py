"""Lesson 06, cell 16 (t31_0506 #1): selective's step is judged against its prediction on the prediction's own
basis, the fastest runs, as its parts are; its median is said beside it only where it reads the other way."""
from test_fix_s54b_030405 import cell_source
from utils.lessons.memory import summary

MS = 1e-3
RANGE = (80.0 * MS, 81.0 * MS)   # a fabricated prediction, read at both ends
TOL = 1.5 * MS   # the rounds' noise in ms


def test_a_fastest_run_within_and_a_median_above_say_where_the_excess_is():
    said = summary.median_elsewhere(79.0 * MS, 84.0 * MS, RANGE, TOL)
    assert said == ("its paired reading (84.0 ms) lies +3.0 ms from its high end, above it beyond that noise: the "
                    "two bases disagree (the fastest runs may come from different rounds), so this run does not "
                    "say whether selective met its prediction")


def test_a_fastest_run_below_and_a_median_within_name_the_one_round():
    said = summary.median_elsewhere(77.0 * MS, 81.5 * MS, RANGE, TOL)
    assert said == ("its paired reading (81.5 ms) lies +0.5 ms from its high end, within that noise: only its "
                    "fastest run lies below it, one round's figure")


def test_a_median_below_beside_a_fastest_run_above_is_said():
    said = summary.median_elsewhere(83.0 * MS, 77.0 * MS, RANGE, TOL)
    assert said.startswith("its paired reading (77.0 ms) lies -3.0 ms from its low end, below it beyond that noise")
    # the reading is a ratio set on one round's plain step: it names no rounds of selective's (t35_0506 #1)
    assert "faster rounds" not in said and "does not say whether selective met its prediction" in said


def test_a_single_prediction_names_no_end():
    said = summary.median_elsewhere(80.0 * MS, 84.0 * MS, 80.0 * MS, TOL)
    assert said.startswith("its paired reading (84.0 ms) lies +4.0 ms, above it")


def test_both_bases_on_the_same_side_add_nothing():
    assert summary.median_elsewhere(79.0 * MS, 80.5 * MS, RANGE, TOL) == ""   # both within
    assert summary.median_elsewhere(84.0 * MS, 86.0 * MS, RANGE, TOL) == ""   # both above


def test_cell_16_judges_the_fastest_run_and_sets_the_median_beside_it():
    code = cell_source("06_memory.ipynb", 16)
    assert "missed = prediction_miss(sel_fast, predicted" in code
    assert "median_elsewhere(sel_fast, sel_step, predicted, tolerance * plain_step," in code
    assert "prediction_miss(sel_step" not in code and "prediction_within(sel_step" not in code
