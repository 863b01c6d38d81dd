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


# --- lab 08 (t23_labs48 #7): the threads' speed-up said once, why no bound, the rounds smallest first -------

def _timed(*ratios):
    return {"slow": 2, "launcher": 1, "ratios": list(ratios), "slow_ms": [], "launcher_ms": []}


def test_lab08_a_faster_thread_count_is_said_once_with_why_no_bound_stands_beside_it():
    from utils.labs.make_it_fast.threads_cost import threads_sentence

    said = " ".join(threads_sentence(_timed(2.4, 2.5, 2.59, 2.7, 2.8), 441.6, 303.0).split())
    assert ("ran 2.59x ± 0.10 as fast with the launcher's 1 thread a worker (cores // workers) as with its own 2 "
            "(both counts ran on the same 2 cores: the gain is what oversubscribing them cost; there is no bound "
            "to set it against). Its 5 paired rounds") in said, said
    assert "faster than" not in said and "slowest" not in said
    assert "gave, smallest first: 2.40x, 2.50x, 2.59x, 2.70x, 2.80x" in said, said


def test_lab08_a_spread_that_covers_1x_with_every_round_above_it_says_so_inside_the_same_parenthesis():
    from utils.labs.make_it_fast.threads_cost import threads_sentence

    said = " ".join(threads_sentence(_timed(1.01, 1.02, 1.04), 441.6, 303.0).split())
    assert ("as with its own 2 (every round above 1.00x, though the ± reaches 1.00x; both counts ran on the same 2 "
            "cores: the gain is what oversubscribing them cost; there is no bound to set it against)") in said, said


def test_lab08_a_thread_count_not_shown_faster_keeps_its_verdict_against_its_own_count():
    from utils.labs.make_it_fast.threads_cost import threads_sentence

    slower = " ".join(threads_sentence(_timed(0.8, 0.8, 0.81, 0.82, 0.85), 441.6, 303.0).split())
    assert "as with its own 2: its own count ran faster: no speed-up; so the threads explain none" in slower, slower
    noise = " ".join(threads_sentence(_timed(0.97, 0.98, 1.0, 1.02, 1.05), 441.6, 303.0).split())
    assert "as with its own 2: within noise: no effect shown; so" in noise, noise
    assert "no bound to set it against" not in slower + noise


# --- lab 08 (t23_labs48 #8): the prediction's take-away says all it kept, on every branch -------------------

_READING = {"step": 2494.0, "load": 90.6, "forward and backward": 1810.9, "optimizer": 212.8, "evaluate": 346.4,
            "checkpoint": 31.3, "all-reduces": 7.67}


def test_lab08_what_the_prediction_kept_names_the_rarer_regions_at_their_share():
    from utils.labs.make_it_fast.prediction import kept_words

    assert kept_words(6, 6) == ("forward and backward and the optimizer as profiled, 'evaluate' and 'checkpoint' "
                                "at 1/6 of their profiled cost, and no 'load'")
    assert "'evaluate' at 1/5 and 'checkpoint' at 1/10 of their profiled cost" in kept_words(5, 10)


def test_lab08_the_prediction_sentence_says_it_on_each_branch():
    from utils.labs.make_it_fast import checks as lab
    from utils.labs.make_it_fast.prediction import kept_words, prediction_sentence

    diagnosis = lab.Diagnosis(3, dict(_READING), [])
    for measured, outcome in ((500.0, "ms under the prediction"), (1000.0, "within 10% of it, so the work the "
                                                                          "prediction leaves out is what your"),
                              (1500.0, "more than 10% over it")):
        said = " ".join(prediction_sentence(lambda r: 1000.0, diagnosis, measured, "x").split())
        assert f"1000 ms a step, with {kept_words()} (the slow script's step: 2494 ms" in said, said
        assert outcome in said, said
