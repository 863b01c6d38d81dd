"""Thirty-fourth reading (t34_labs48 #1, lab 06 cell 7): "by less than the noise" printed beside a gap equal to
the noise (0.02 against ± 0.02). The verdict "within" holds, a bound being a ceiling; the words now say "at the
edge of the noise" where the printed gap equals it, and "less than" only where it is less. Fabricated figures."""

import pytest

from utils.labs.fit_the_budget.checks import cost_noise, selective_against_every_block


def _rounds(selective: float, every: float) -> dict:
    plain = [1.0] * 5   # the table's noise 0.05: the micro-batch's spread below
    return {"plain": plain, "selective": [selective] * 5, "every block": [every] * 5, "chunked loss": plain,
            "micro-batch": [0.95, 0.97, 1.0, 1.07, 1.1]}


@pytest.mark.parametrize("selective, every, side", [
    (1.28, 1.18, "Selective measured dearer, not cheaper, at the edge of the noise"),
    (1.18, 1.28, "Selective measured cheaper, but at the edge of the noise"),
])
def test_a_gap_equal_to_the_noise_is_at_its_edge_not_less(selective, every, side):
    rounds = _rounds(selective, every)
    assert cost_noise(rounds) == 0.05
    said = selective_against_every_block(rounds)
    assert "= 0.10 against ± 0.10, the ± 0.05 for each cost" in said, said
    assert said.startswith("selective checkpointing against every block here: no effect shown, within the cost "
                           "table's noise ("), said   # within: the bound is a ceiling
    assert f"{side}: keeping the matmuls' outputs" in said, said
    assert said.endswith("here the two together came to no more than the noise"), said
    assert "less than the noise" not in said


@pytest.mark.parametrize("selective, every", [(1.27, 1.18), (1.18, 1.27), (1.2, 1.2)])
def test_a_gap_under_the_noise_is_less_than_it(selective, every):
    said = selective_against_every_block(_rounds(selective, every))   # 0.09 or 0 against ± 0.10
    assert said.endswith("here the two together came to less than the noise"), said
    assert "edge" not in said and "no more than" not in said


def test_a_gap_past_the_noise_is_beyond_it():
    said = selective_against_every_block(_rounds(1.29, 1.18))   # 0.11 against ± 0.10
    assert said.startswith("selective checkpointing cost more than every block here, beyond"), said
    assert "edge" not in said and "no more than" not in said
