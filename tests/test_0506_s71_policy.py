"""Lesson 06, thirty-second reading (t32_0506 #1): selective's prediction takes the policy's own cost from each
pair's rounds' median ratio, x the plain forward, not from the fastest of each, which may pair an outlying
round with another. Fabricated figures only."""

import json
from pathlib import Path

import pytest

from utils.lessons.memory import policy_cost

MS = 1e-3
NOTEBOOKS = Path(__file__).parents[1] / "notebooks"


def _rounds() -> dict:
    """Every round's policy ratio 1.10x but round 6's, whose plain forward ran fast (1.34x)."""
    ms = {"forward": (30.0, 30.4, 29.8, 30.2, 30.6, 25.0, 30.1),
          "selective forward": (33.0, 33.4, 32.8, 33.2, 33.7, 33.5, 33.1),
          "blocks' forward": (20.0, 20.2, 19.8, 20.1, 20.3, 19.9, 20.0),
          "selective blocks' forward": (22.0, 22.2, 21.8, 22.1, 22.3, 21.9, 22.0)}
    return {k: [x * MS for x in v] for k, v in ms.items()}


def _fastest(rounds: dict) -> dict:
    return {"step": 60.0 * MS, **{k: min(v) for k, v in rounds.items()}}


def test_the_policys_cost_is_its_rounds_median_times_the_plain_forward():
    rounds = _rounds()
    times = _fastest(rounds)
    # the fastest of each, 32.8 - 25.0 = +7.8 ms (1.31x), pairs round 3 with round 6's outlier
    assert policy_cost.policy_costs(times) == pytest.approx((7.8 * MS, 2.0 * MS))
    # the rounds: (1.10 - 1) x 25.0 = +2.5 ms; the blocks' (1.10 - 1) x 19.8 = 1.98, printed +2.0
    assert policy_cost.policy_costs(times, rounds) == pytest.approx((2.5 * MS, 2.0 * MS))
    assert policy_cost.recompute_costs(times, rounds) == pytest.approx((2.0 * MS, 2.5 * MS))
    # 60.0 + 8.0 + 2.5 + 2.0 = 72.5; + 2.5 = 73.0
    assert policy_cost.predicted_range(60.0 * MS, 8.0 * MS, times, rounds) == pytest.approx((72.5 * MS, 73.0 * MS))


def test_the_prediction_works_each_cost_from_its_rounds_and_names_the_fastest_as_not_used():
    rounds = _rounds()
    said = policy_cost.prediction_words(60.0 * MS, 8.0 * MS, _fastest(rounds), "1.10x ± 0.02", rounds)
    assert said.startswith("72.5-73.0 ms: the step (60.0) + the recomputed share of the blocks' forward (8.0)")
    assert ("in the first forward (+2.5: its whole forward alone's rounds, 1.10x ± 0.02: (1.10 - 1) x the plain "
            "forward's 25.0 ms; not the fastest of each, 32.8 / 25.0 = 1.31x (" in said)
    assert "(+2.0 to +2.5: that pair, or the blocks' forwards', their rounds' median (1.10 - 1) x the plain " \
           "blocks' 19.8 ms: the blocks' forwards' table below;" in said
    # both pairs print one cost: said once, twice paid
    same = {**rounds, "blocks' forward": rounds["forward"], "selective blocks' forward": rounds["selective forward"]}
    agree = policy_cost.prediction_words(60.0 * MS, 8.0 * MS, _fastest(same), "1.10x ± 0.02", same)
    assert agree.startswith("73.0 ms:") and "twice (+2.5 each:" in agree


def test_cell_16_reads_the_policys_cost_from_the_rounds():
    cell = next("".join(c["source"]) for c in json.loads((NOTEBOOKS / "06_memory.ipynb").read_text())["cells"]
                if "POLICY_PAIR" in "".join(c["source"]))
    assert "policy_costs(CKPT_TIMES, CKPT_ROUNDS)" in cell
    assert "predicted_range(plain_step, recomputed, CKPT_TIMES, CKPT_ROUNDS)" in cell
    assert "recompute_costs(CKPT_TIMES, CKPT_ROUNDS)" in cell
    assert "prediction_words(plain_step, recomputed, CKPT_TIMES, policy_rounds, CKPT_ROUNDS)" in cell
    assert "equal by construction" not in cell and '"forward": whole_cost' in cell
