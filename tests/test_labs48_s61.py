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


# --- lab 08 (t23_labs48 #1, #2): the Checks list does not name exercise B's habits; the prediction's rule ----

def _lab08_cells() -> list[str]:
    import json
    from pathlib import Path

    nb = json.loads((Path(__file__).resolve().parents[1] / "labs" / "08_make_it_fast.ipynb").read_text())
    return [" ".join("".join(c["source"]).split()) for c in nb["cells"]]


def test_lab08_the_checks_list_leaves_what_the_habits_checks_count_to_the_fourth_hint():
    from utils import checks

    page = " ".join(_lab08_cells())
    counted = ("all-reduced a step", "read itself", "threads each worker computed with",
               "the held-out evaluations and the checkpoints")
    for said in counted:  # each names a habit (no_sync, loader processes, threads, how often): not on the page
        assert said not in page, said
    fourth = checks.hint("labs/make_it_fast", "B", 4).text
    assert all(said in fourth for said in counted), fourth
    assert '`checks.hint("labs/make_it_fast", "B", 4)` says what each counts' in page
    for fix in ("persisten", "prefetch", "no_sync", "set_num_threads", "DataLoader", "num_workers"):
        assert fix not in fourth, fix  # what is counted, not the line to type


def test_lab08_the_prediction_states_the_feeding_rule_it_needs_and_its_hint_points_to_it():
    from utils import checks

    spec = next(c for c in _lab08_cells() if "write `predicted_step_ms(reading)`" in c)
    assert "batches are read by loader processes ahead of the step, so the training process spends no time " \
           "reading them" in spec
    assert "(lab 05's) holds" not in spec
    first = checks.hint("labs/make_it_fast", "B-prediction", 1).text
    assert "the rule in the exercise on who does the reading" in first and "lab 05" not in first
