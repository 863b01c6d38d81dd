"""Lesson 06, twenty-eighth reading (t28_0506 #1 and #2): selective checkpointing's prediction reads the policy's
own cost from both pairs of forwards that time it (the whole loss's forward and the blocks' forward alone), at
both ends where they disagree; the selective pair's part-over-whole note is judged against the plain pair's
share, not 1x; the policy's figure is worded with one ± and its outlying round named. Fabricated figures only."""

import json
from pathlib import Path

import pytest

from utils.lessons.memory import policy_cost, report, summary

MS = 1e-3
NOTEBOOKS = Path(__file__).parents[1] / "notebooks"


def _times(sel_blocks: float = 28.7, sel_whole: float = 28.6) -> dict:
    return {"step": 68.8 * MS, "blocks' forward": 23.3 * MS, "forward": 25.7 * MS,
            "selective blocks' forward": sel_blocks * MS, "selective forward": sel_whole * MS}


def test_the_policys_cost_comes_from_both_pairs_and_the_prediction_adds_up_at_both_ends():
    times = _times()
    assert policy_cost.policy_costs(times) == pytest.approx((2.9 * MS, 5.4 * MS))
    # 68.8 + 9.1 + 2.9 + 2.9 = 83.7; 68.8 + 9.1 + 2.9 + 5.4 = 86.2: the first forward is the whole pair's
    assert policy_cost.predicted_range(68.8 * MS, 9.1 * MS, times) == pytest.approx((83.7 * MS, 86.2 * MS))
    # the blocks' pair the lower: the ends still read low first (24.9 - 23.3 = 1.6 under 2.9)
    low = _times(sel_blocks=24.9)
    assert policy_cost.recompute_costs(low) == pytest.approx((1.6 * MS, 2.9 * MS))
    assert policy_cost.predicted_range(68.8 * MS, 9.1 * MS, low) == pytest.approx((82.4 * MS, 83.7 * MS))


def test_the_prediction_names_each_pair_and_the_policys_rounds_beside_its_fastest_ratio():
    said = policy_cost.prediction_words(68.8 * MS, 9.1 * MS, _times(), "1.12x ± 0.04")
    assert said.startswith("83.7-86.2 ms: the step (68.8) + the recomputed share of the blocks' forward (9.1)")
    assert "in the first forward (+2.9: its whole forward alone, 28.6 - 25.7 ms, 1.11x the plain one; rounds: " \
           "1.12x ± 0.04)" in said
    assert "reruns the blocks' forward under it (+2.9 to +5.4: that pair, or the blocks' forwards', 28.7 - 23.3 ms;" \
           in said
    # both pairs print the same cost: one figure, said twice
    agree = policy_cost.prediction_words(68.8 * MS, 9.1 * MS, _times(sel_blocks=26.2), "1.12x ± 0.04")
    assert agree.startswith("83.7 ms:") and "twice (+2.9 each:" in agree and "the same)" in agree


def test_the_plain_pair_is_judged_against_1x():
    # the selective pair against the plain pair's share, from the rounds: tests/test_0506_s76.py (t76_0506 #1);
    # the plain pair against 1x from its rounds: tests/test_0506_s79.py (t40_0506 #1)
    rounds = {"s": [28.7 * MS, 28.0 * MS, 28.1 * MS, 28.2 * MS], "w": [28.6 * MS] * 4}
    assert "within their noise of it" in summary.part_over_whole("s", 28.7 * MS, "w", 28.6 * MS, rounds=rounds)


def test_a_step_is_judged_against_a_predicted_range_from_its_nearer_end():
    plain, tol = 68.8 * MS, 5.5 * MS
    rng = (83.7 * MS, 86.2 * MS)
    assert summary.prediction_miss(82.6 * MS, rng, plain, tol, "N", False) == (
        "-1.1 ms from its low end (-1.6% of the plain step): within 5.5 ms of that prediction (N)")
    assert summary.prediction_miss(85.0 * MS, rng, plain, tol, "N", False) == "inside that range"
    high = summary.prediction_miss(92.0 * MS, rng, plain, tol, "N", True)
    assert high.startswith("+5.8 ms from its high end") and "above it by more than 5.5 ms (N)" in high
    assert summary.prediction_within(91.7 * MS, rng, tol) and not summary.prediction_within(91.8 * MS, rng, tol)
    # a single figure reads as before, with no end named
    assert summary.prediction_miss(82.6 * MS, 83.7 * MS, plain, tol, "N", False).startswith("-1.1 ms (-1.6%")


def test_step_parts_print_and_judge_a_predicted_range():
    plain, sel = {"forward": 25.7 * MS, "step": 68.8 * MS}, {"forward": 28.6 * MS, "step": 82.5 * MS}
    predicted = {"forward": 2.9 * MS, "rest": (12.0 * MS, 14.5 * MS)}
    text = summary.step_parts("Selective", plain, sel, predicted, 5.5 * MS, step_off=False)
    assert "its backward and AdamW +10.8 ms (predicted +12.0 to +14.5)" in text and "the prediction puts +2.9" in text
    assert summary.parts_off(plain, sel, predicted, 1.0 * MS) == {"backward and AdamW": pytest.approx(-1.2 * MS)}
    assert summary.parts_off(plain, sel, {"forward": 2.9 * MS, "rest": (10.0 * MS, 11.0 * MS)}, 0.1 * MS) == {}


def test_the_policys_figure_has_one_its_and_names_an_outlying_round():
    rounds = {"forward": [x * MS for x in (26.4, 25.7, 28.3, 26.9, 28.4, 25.7, 28.3)],
              "selective forward": [x * MS for x in (29.6, 29.6, 29.9, 31.7, 45.0, 28.6, 31.1)]}
    said = report.median_rule(rounds, "selective forward", "forward", "The policy's figure")
    assert said.startswith("The policy's figure is the rounds' median, as the prediction reads it: 1.12x; its ± "
                           "is half the middle half's range")
    assert said.count("its ±") == 1
    assert ("; round 5's 1.58x lies more than 0.02 outside both the rounds' middle half (1.10-1.18x) "
            "and the ± (1.12 ± 0.04: 1.08-1.16x): 1 of 7 rounds, an outlying moment of this run. The fastest of "
            "each, 28.6 / 25.7 = 1.11x, as the ms parts use, is not the prediction's figure") in said
    calm = {**rounds, "selective forward": [round(x * 1.12, 4) for x in rounds["forward"]]}   # every round 1.12x
    assert "outlying" not in report.median_rule(calm, "selective forward", "forward", "The policy's figure")


def test_cell_16_reads_the_prediction_from_both_pairs():
    cell = next("".join(c["source"]) for c in json.loads((NOTEBOOKS / "06_memory.ipynb").read_text())["cells"]
                if "POLICY_PAIR" in "".join(c["source"]))
    assert "predicted = predicted_range(plain_step, recomputed, CKPT_TIMES, CKPT_ROUNDS)" in cell
    assert "2 * policy_cost" not in cell and "rounds=CKPT_ROUNDS, plain=(\"blocks' forward\", \"forward\")" in cell
    assert "prediction_words(plain_step, recomputed, CKPT_TIMES, policy_rounds, CKPT_ROUNDS)" in cell


def test_the_measured_lines_cell_0_promises_are_labelled_and_05_words_its_rule_once():
    cells = ["".join(c["source"]) for c in json.loads((NOTEBOOKS / "06_memory.ipynb").read_text())["cells"]]
    assert "MB of activations{S.label}" in cells[13]
    assert "lr){S.label}. Adam" in cells[18]
    assert 'print(fill(said.removesuffix(".") + f"{S.label}."))' in cells[21]
    lesson = ["".join(c["source"]) for c in json.loads((NOTEBOOKS / "05_data_prefetch.ipynb").read_text())["cells"]]
    rule = "half their middle half's range, at least 2 % of their median"
    assert rule in " ".join(lesson[37].split()) and rule in " ".join(lesson[38].split())
    assert "their own spread, at least 2 %" not in lesson[38]
