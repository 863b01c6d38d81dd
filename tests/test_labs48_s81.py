"""t42 reading (labs 04-08): lab 08's thread speed-up says at its verdict why it counts though its ± reaches past
1x (every round above 1x) and gives its saving across the rounds, not from the median alone; lab 05's text states
the memory allowance its check applies; lab 08's passed prediction says it is not the fixed step's time; lab 06
defines selective checkpointing where it first names it. Rounds of the t42 run; other figures fabricated."""

from __future__ import annotations

from pathlib import Path

import nbformat

from utils.labs.feed_the_gpu import memory
from utils.labs.make_it_fast import checks as lab
from utils.labs.make_it_fast import threads_cost, threads_spread
from utils.labs.make_it_fast.threads_short import threads_verdict

T42 = [1.59, 1.86, 1.88, 3.95, 30.50]       # 1.88x ± 1.05: every round above 1x, the ± down to 0.83x
CLEAR = [2.50, 2.61, 2.94, 3.27, 3.40]      # 2.94x ± 0.33: the ± stays above 1x
READING = {"optimizer": 201.0, "evaluate": 279.6, "checkpoint": 28.8}
LABS = Path(__file__).parents[1] / "labs"


def _timed(ratios, ms=83.0):
    return {"slow": 2, "launcher": 1, "ratios": ratios, "slow_ms": [ms] * len(ratios),
            "launcher_ms": [ms / r for r in ratios]}


def test_the_reach_below_one_is_worked_half_up_and_only_where_the_spread_covers_one():
    assert threads_spread.reach_below_one(1.88, 1.05) == ", though the ± reaches 0.83x"
    assert threads_spread.reach_below_one(2.94, 0.33) == ""
    assert threads_spread.reach_below_one(1.50, 2.00) == ", though the ± reaches below zero"


def test_the_worked_block_gives_the_reason_at_the_verdict():
    said = threads_cost.threads_sentence(_timed(T42), 1408.6, 1474.0, READING)
    assert "(every round above 1.00x, though the ± reaches 0.83x; both counts ran" in said, said


def test_a_saving_from_the_median_gives_its_range_across_the_rounds_where_the_spread_covers_one():
    said = threads_cost.threads_sentence(_timed(T42), 1408.6, 1474.0, READING)
    # 332 - 332 / 1.59 = 123.2, 332 - 332 / 30.50 = 321.1; 1409 - 1409 / 1.59 = 522.8, 1409 - 1409 / 30.50 = 1362.8
    assert "= 155 ms a step (123 to 321 ms across the rounds, 1.59x to 30.50x);" in said, said
    assert "= 660 ms (523 to 1363 ms across the rounds, 1.59x to 30.50x)" in said, said


def test_a_spread_clear_of_one_adds_neither_the_reach_nor_the_rounds_range():
    said = threads_cost.threads_sentence(_timed(CLEAR), 1408.6, 430.0, READING)
    assert "though the ± reaches" not in said and "across the rounds, 2.50x" not in said, said


def test_the_visible_sentence_gives_the_reason_beside_the_median():
    said = threads_verdict(_timed(T42), 1408.6, 1474.0, READING)
    assert ("ran a median 1.88x as fast with 1 thread a worker as with its own 2 (rounds 1.59x to 30.50x, every "
            "one above 1.00x, though the median's ± 1.05 reaches 0.83x)") in said, said
    assert "though" not in threads_verdict(_timed(CLEAR), 1408.6, 430.0, READING)


def test_lab_05s_text_states_the_allowance_the_check_applies():
    nb = nbformat.read(LABS / "05_feed_the_gpu.ipynb", as_version=4)
    opening, exercise = nb.cells[0].source, " ".join(nb.cells[8].source.split())
    assert "two batches' worth more at most, and less than DataLoader's defaults hold" in " ".join(opening.split())
    assert "less where two would admit DataLoader's defaults" in exercise
    assert "the check prints the allowance it applies" in exercise
    assert memory.DEPTH_SLACK == 2 and memory.TORCH_PREFETCH == 2  # the figures the text states


def test_a_passed_prediction_says_it_is_not_the_fixed_steps_time():
    reading = {"step": 1200.0, "load": 100.0, "forward and backward": 400.0, "optimizer": 350.0,
               "evaluate": 300.0, "checkpoint": 45.0, lab.ALL_REDUCES: 7.5}

    def needed(r):
        return (r["step"] - r["load"] - r["evaluate"] * (1 - 1 / lab.script.EVAL_EVERY)
                - r["checkpoint"] * (1 - 1 / lab.script.CHECKPOINT_EVERY))

    verdict = lab.check_prediction(needed, lab.Diagnosis(3, dict(reading), []), show=False)
    assert verdict.passed and "at their profiled cost: not your fixed step's time" in verdict.message, verdict


def test_lab_06_defines_selective_checkpointing_where_it_first_names_it():
    nb = nbformat.read(LABS / "06_fit_the_budget.ipynb", as_version=4)
    first = next(c for c in nb.cells if "selective" in c.source.lower())
    assert first.cell_type == "markdown" and "selective\n(lesson 06's policy: each block keeps" in first.source
