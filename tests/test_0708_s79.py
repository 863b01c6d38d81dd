"""Reader t40_0708 and the items left from t39_0708, lesson 07: "they differ beyond their noise" only where the
two ranges do not touch (the lesson's one rule, as section 5 reads it); the 5 % margin asked of a "slower"
verdict's upper edge as of a "faster" one's lower edge; section 4's crossover answered in one visible sentence,
the rest collapsed."""

import json
from pathlib import Path
from types import SimpleNamespace

from utils.lessons.tensor_parallel import model_claims, pass_step

NB_07 = Path(__file__).parents[1] / "notebooks" / "07_tensor_parallel.ipynb"
BLOCKS = SimpleNamespace(depth=2, width=512)
STEP = {"width": 512, "speedup": 1.34, "spread": 0.15, "one": 21.41e-3}   # the t40 run's width 512


def _rows(figures):
    return [{"width": w, "speedup": x, "spread": s} for w, x, s in figures]


def test_ranges_that_touch_do_not_differ_beyond_their_noise():
    # t40: 1.05 + 0.14 = 1.19 and 1.34 - 0.15 = 1.19: neither covers the other's median, the ranges touch
    said = pass_step.pass_beside_step(1.05, 0.14, 3.3e-3, BLOCKS, STEP)
    assert "differ beyond their noise" not in said and "less compute" not in said
    assert "their ranges touch (the lower reaches up to 1.19x, the higher down to 1.19x)" in said
    assert "no difference beyond their noise shown" in said
    # the other branches: apart by 0.01 differs and is explained; one median covered agrees
    apart = pass_step.pass_beside_step(1.05, 0.13, 3.3e-3, BLOCKS, STEP)
    assert "they differ beyond their noise, section 1's pass the lower" in apart and "a candidate" in apart
    assert "agree within their noise" in pass_step.pass_beside_step(1.20, 0.14, 3.3e-3, BLOCKS, STEP)


def test_ranges_apart_is_the_rule_section_5_reads():
    from utils.lessons.tensor_parallel.inference import rose_apart
    assert not pass_step.ranges_apart(1.05, 0.14, 1.34, 0.15) and pass_step.ranges_apart(1.34, 0.15, 1.05, 0.13)
    # section 5's rose_apart on the same ranges (its ± a share of the speed-up: 0.14 / 1.05 rounds to 13%)
    assert not rose_apart(1.05, 0.14 / 1.05, 1.34, 0.15 / 1.34)


def test_the_margin_is_asked_of_slower_verdicts_as_of_faster_ones():
    # t39: width 128 at 0.72x ± 0.25 reads slower, its upper edge 0.97x within 0.05 of 1x
    rows = _rows([(64, .38, .06), (128, .72, .25), (256, 1.15, .22), (512, 1.34, .15)])
    said = model_claims.margin_sentence(rows)
    assert "width 128 (slower, its upper edge 0.97x)" in said and "width 512" not in said
    near = model_claims.margin_sentence(_rows([(256, 1.06, .03)]))   # lower edge 1.03x
    assert "width 256 (faster, its lower edge 1.03x)" in near and "another run may read" in near
    clear = model_claims.margin_sentence(_rows([(64, .38, .06), (512, 1.34, .15)]))
    assert clear.startswith("Every faster or slower verdict has its edge 0.05 or more from 1x")
    assert clear in model_claims.crossover_sentences(_rows([(64, .38, .06), (512, 1.34, .15)]), 512, "54")


def test_the_crossover_answer_is_one_sentence_with_every_branch():
    rows = _rows([(128, .72, .11), (256, 1.15, .22), (512, 1.34, .15)])
    later = model_claims.crossover_answer(rows, 512, (54, 43, 65), "54")
    assert "lies between width 256 and 512 here, and at width 54 in the model: the split won later" in later
    assert "earlier than the model" in model_claims.crossover_answer(rows, 512, (900, 700, 1100), "900")
    assert "agree within" in model_claims.crossover_answer(rows, 512, (300, 200, 400), "300")
    never = model_claims.crossover_answer(rows, None, (54, 43, 65), "54")
    assert "beyond the largest width swept (512)" in never and "later than the model allows" in never
    # the model never wins either, even with its residual: the two agree, not "later"
    assert "agree within" in model_claims.crossover_answer(rows, None, (None, 400, None), "never")


def test_section_4_shows_its_answer_and_collapses_the_rest():
    cells = ["".join(c["source"]) for c in json.loads(NB_07.read_text())["cells"]]
    cell = next(c for c in cells if "crossover_answer" in c)
    assert "say(model_claims.crossover_answer(" in cell
    for detail in ("crossover_sentences", "Measured / predicted", "pass_beside_step"):
        assert f"say({detail}" not in cell and f"say(model_claims.{detail}" not in cell
    assert "how_measured(" in cell and "DETAIL" in cell
