"""Reader t38_0304 on lessons 03 and 04: a ratio within noise names no direction, and the teacher's gap in
images is worked from the counts right, not from rounded percentages."""

import json

from utils.claims import half_up
from utils.lessons.compression.accuracy import images_above
from utils.lessons.ddp import overlap, stepread


def _source(path, index):
    return "".join(json.load(open(path))["cells"][index]["source"])


# --- lesson 03, section 2: "within noise (1.07x faster ...)" stated a direction its ± does not give ---------


def test_a_step_ratio_within_noise_prints_no_direction_word():
    # the committed run: 72.5 ms with 25 MiB buckets against 67.6 ms with 1 MiB, noise 11%: 1.07 ± 0.12
    line = stepread.answer(0.1069, 0.0725, 0.0676, 0.11, 0.05)
    assert "overlap within noise (1.07x apart, noise 11%, half the steps' range over their median: ± 0.12 on 1.07x)" in line
    assert "1.07x faster" not in line
    # the other side of 1x, still within noise: no "slower" either
    slower = stepread.answer(0.1069, 0.0676, 0.0725, 0.11, 0.05)
    assert "overlap within noise (1.07x apart," in slower and "slower, noise" not in slower


def test_a_step_ratio_beyond_noise_keeps_its_direction():
    line = stepread.answer(0.1069, 0.0725, 0.0676, 0.11, 0.05)
    assert "fewer messages paid: 1.47x faster" in line   # 106.9 / 72.5, beyond 5% noise


def test_the_tie_verdict_in_the_collapsed_block_names_no_direction():
    ratio = overlap.step_ratios(0.1069, 0.0725, 0.0676)["overlapped"]
    line = stepread.tie_verdict(1, 25, 40, ("67.6 ms", "72.5 ms", "68.3 ms"), ratio, "noise 11% of a step")
    assert "(1.07x apart, a difference no larger than the noise 11% of a step)" in line
    assert "faster" not in line and "slower" not in line
    assert not hasattr(overlap, "tie_verdict")  # one home: section 2's readings
    assert "stepread.tie_verdict(" in _source("notebooks/03_ddp.ipynb", 38)


# --- lesson 04, section 6: "+8.6 of 360 test images" was the rounded percentages' gap times 360 -------------


def test_the_teacher_gap_in_images_is_worked_from_the_counts_right():
    # the committed run: teacher 351 of 360; from scratch 344, 340 and 343 (95.6%, 94.4%, 95.3%)
    right, mean_right, gap = images_above(351 / 360, [344 / 360, 340 / 360, 343 / 360], 360)
    assert (right, mean_right, gap) == (351, 342.3, 8.7)   # (97.5 - 95.1) x 3.6 would give 8.6
    assert half_up(right - mean_right, 1) == gap   # the page's own figures redo it


def test_the_images_gap_subtracts_the_printed_mean_half_up():
    # 4 seeds' mean 342.25 prints 342.3 (half up); the gap a reader redoes is 351 - 342.3 = 8.7, not 8.75 -> 8.8
    assert images_above(351 / 360, [344 / 360, 340 / 360, 343 / 360, 342 / 360], 360) == (351, 342.3, 8.7)
    # the teacher below the mean reads negative
    assert images_above(340 / 360, [344 / 360, 343 / 360], 360) == (340, 343.5, -3.5)


def test_lesson_04_prints_the_images_gap_from_images_above():
    cell = _source("notebooks/04_compression.ipynb", 64)
    assert "images_above(test_acc[\"CNN\"], scratch_accs, len(test_set))" in cell
    assert "teacher_gap * len(test_set)" not in cell


# --- lesson 03, section 4: the knobs' 250-word "Why" line was the visible answer ----------------------------

KNOB_TIMES = {"defaults": [0.084, 0.071, 0.080], "bucket_cap_mb=1": [0.083, 0.076, 0.078],
              "static_graph=True": [0.068, 0.083, 0.076]}


def test_the_knobs_answer_in_one_sentence_where_no_setting_stands_apart():
    from utils.lessons.ddp import knobs

    line = knobs.knob_answer(KNOB_TIMES, (71, 84))
    assert line == ("Answer: no setting stood apart from the defaults in this run: each had rounds inside the "
                    "defaults' 71-84 ms range of rounds.")


def test_the_knobs_answer_names_a_setting_apart_and_its_way():
    from utils.lessons.ddp import knobs

    times = {**KNOB_TIMES, "static_graph=True": [0.060, 0.065, 0.062]}   # every round under 71 ms
    line = knobs.knob_answer(times, (71, 84))
    assert line.startswith("Answer: static_graph=True (faster) stood apart from the defaults (every round outside")
    assert line.endswith("the others had rounds inside it.")
    every = {"defaults": KNOB_TIMES["defaults"], "bucket_cap_mb=1": [0.090, 0.095, 0.092]}
    assert knobs.knob_answer(every, (71, 84)).endswith("no setting had rounds inside it.")


def test_lesson_03_collapses_the_knobs_why_under_its_answer():
    cell = _source("notebooks/03_ddp.ipynb", 49)
    assert "say(knobs.knob_answer(" in cell and 'why = (f"Why: ' in cell and 'say(f"Why: ' not in cell
    assert "textwrap.fill(why, 106))" in cell.split("how_measured(")[1]


# --- lesson 04, section 7: a 12-row table and 780 words, and no sentence that names the front ---------------


def _variant(family, name, front):
    return {"family": family, "name": name, "front": front}


def test_section_7_answers_with_the_front_by_number_and_name():
    from utils.lessons.compression.pareto import front_answer

    variants = [_variant("CNN", "fp32", False), _variant("CNN", "channels removed", True),
                _variant("CNN", "distilled half, median seed 2", True), _variant("MLP", "fp32", False),
                _variant("MLP", "torchao int8 dynamic, compiled", True)]
    assert front_answer(variants) == (
        "Answer: worth choosing, on the Pareto front: CNN: #2 (channels removed), #3 (distilled half, median "
        "seed 2); MLP: #5 (torchao int8 dynamic, compiled). The other 2 are each beaten by a variant of their "
        "family (no larger, no slower, no less accurate, and better in one).")


def test_section_7_answer_where_nothing_is_beaten():
    from utils.lessons.compression.pareto import front_answer

    line = front_answer([_variant("MLP", "fp32", True), _variant("MLP", "int8", True)])
    assert line.endswith("MLP: #1 (fp32), #2 (int8). None is beaten: every variant is on the front.")
    assert "say(front_answer(variants7))" in _source("notebooks/04_compression.ipynb", 67)
