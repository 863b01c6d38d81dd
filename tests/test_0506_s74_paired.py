"""Thirty-fifth reading, lesson 06 cell 16 (t35_0506 #1): a step's median ratio x the plain step's fastest run is
named its *paired reading*, never a median (it may lie below every round of its own step), and where it reads
the other way from the fastest run, the two bases are said to disagree, with no claim about which of
selective's rounds were fast or slow."""
import pytest

from test_fix_s54b_030405 import cell_source
from utils.lessons.memory import forward_bound as fb
from utils.lessons.memory import summary

MS = 1e-3
RANGE = (78.9 * MS, 79.9 * MS)   # a fabricated prediction, read at both ends
TOL = 1.9 * MS


def test_the_paired_reading_below_the_prediction_says_the_bases_disagree_with_its_working():
    said = summary.median_elsewhere(78.4 * MS, 76.5 * MS, RANGE, TOL, working="1.19 x 64.3")
    assert said == ("its paired reading (1.19 x 64.3 = 76.5 ms) lies -2.4 ms from its low end, below it beyond "
                    "that noise: the two bases disagree (the fastest runs may come from different rounds), so "
                    "this run does not say whether selective met its prediction")
    assert "median" not in said


def test_the_paired_reading_above_the_prediction_says_the_same():
    said = summary.median_elsewhere(79.0 * MS, 83.0 * MS, RANGE, TOL, working="1.29 x 64.3")
    assert "(1.29 x 64.3 = 83.0 ms) lies +3.1 ms from its high end, above it beyond that noise: the two bases" in said
    assert "slower rounds" not in said


def test_a_paired_reading_within_beside_a_fastest_run_beyond_names_the_one_round():
    said = summary.median_elsewhere(76.0 * MS, 80.5 * MS, RANGE, TOL, working="1.25 x 64.4")
    assert said == ("its paired reading (1.25 x 64.4 = 80.5 ms) lies +0.6 ms from its high end, within that "
                    "noise: only its fastest run lies below it, one round's figure")


def test_step_from_ratio_is_documented_as_no_median_of_the_rounds():
    doc = fb.step_from_ratio.__doc__
    assert "paired reading" in doc and "not the step's own rounds' median" in doc
    assert fb.step_from_ratio(1.22, 0.0643) == pytest.approx(0.0784)   # 1.22 x 64.3 = 78.446


def test_the_parts_agreeing_name_the_fastest_run_they_share_a_basis_with():
    plain = {"forward": 22.5 * MS, "step": 64.3 * MS}
    sel = {"forward": 26.5 * MS, "step": 78.4 * MS}
    said = summary.step_parts("Selective", plain, sel, {"forward": 3.6 * MS, "rest": (11.0 * MS, 12.0 * MS)},
                              1.9 * MS, step_off=False)
    assert said.endswith("the parts agree with the prediction, as the whole step's fastest run does.")


def test_cell_16_names_the_paired_reading_not_a_median():
    code = cell_source("06_memory.ipynb", 16)
    assert "its paired reading, the headline's median ratio x the" in code
    assert "its median: {full_x" not in code
    assert "working=read_as" in code
