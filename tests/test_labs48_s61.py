"""Twenty-third reading (t23_labs48): labs 04 to 08, on fabricated figures. Lab 04: "weight" means a matrix
entry wherever the plan's lines use it (the Bytes line counted the biases as weights, the next sentence as
stored beyond one byte a weight)."""

from __future__ import annotations

import torch
from torch import nn

from utils.labs.compress_under_budget import checks as lab04


def test_lab04_weights_are_the_matrices_entries_and_the_biases_are_stored_beyond_them(monkeypatch):
    model = nn.Sequential(nn.Flatten(), nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
    assert lab04._weights(model) == 4 * 3 + 3 * 2  # the biases' 3 + 2 not counted
    monkeypatch.setattr(lab04, "model_bytes", lambda m: 24)  # 18 weights at one byte, 6 bytes beyond them
    assert lab04._beyond_a_byte(model) == 0.25


def test_lab04_the_float_twin_is_named_with_what_it_is():
    assert lab04.TWIN == "the same int8-rounded weights multiplied in float"
    twin = lab04.float_twin(nn.Linear(2, 2))
    assert isinstance(twin, nn.Linear) and torch.equal(twin.weight, twin.weight.float())
