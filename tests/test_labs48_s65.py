"""Twenty-seventh reading (t27_labs48, other problems): lab 04 names its speed bar one way and works the drop
from the counts it prints; lab 08's two groups never print a negative speed ratio, its take-aways show the few
a learner keeps with the working collapsed. Fabricated figures, every branch."""

from __future__ import annotations

import pytest


def _flat(text: str) -> str:
    return " ".join(text.split())


# --- lab 04: the drop reads from the counts before it ----------------------------------------------------------


@pytest.mark.parametrize("before, after, images, expected", [
    (612, 609, 630, "3 of 630 images: 0.48"),        # the reader's run: the percentages subtract to 0.47
    (609, 612, 630, "-3 of 630 images: -0.48"),      # a gain: a negative drop, as the paired drop prints it
    (1000, 1000, 2000, "0 of 2,000 images: 0.00"),   # the two models agree on every image
    (1999, 1990, 2000, "9 of 2,000 images: 0.45"),
])
def test_lab04_the_drop_is_worked_from_the_images_right(before, after, images, expected):
    from utils.labs.compress_under_budget.checks import drop_worked

    assert drop_worked(before / images, after / images, images) == expected


def test_lab04_the_budget_line_names_the_bar_as_the_check_does():
    from utils.labs.compress_under_budget import checks as lab04

    assert lab04.BAR == "the faster of fp32 and whole-model int8"
    source = open(lab04.__file__).read()
    assert "the faster of the trained model and" not in source  # the bar's other name is gone


def test_lab04_the_accuracy_verdict_works_the_drop_from_its_counts(monkeypatch):
    from utils.labs.compress_under_budget import checks as lab04

    monkeypatch.setattr(lab04, "_build", lambda candidate: candidate)
    monkeypatch.setattr(lab04, "_splits", lambda seed: (None, None, [0] * 630))
    monkeypatch.setattr(lab04, "paired_drop", lambda *a: (612 / 630, 609 / 630, 3 / 630, 0.00354))
    said = _flat(lab04.check_accuracy(None, object(), 0.015, show=False).message)
    assert ("97.14% -> 96.67% (612 -> 609 of 630 images right): a drop of 3 of 630 images: 0.48 ± 0.35 points (paired "
            "standard error; from the counts: the rounded percentages subtract to 0.47); at most 0.48 + 2 x 0.35 = 1.18 points at two standard errors") in said, said  # t28_labs48


# --- lab 08: the ± of two groups never prints a negative speed ratio -------------------------------------------


@pytest.mark.parametrize("value, whole, high, expected", [
    (3.71, 9.00, True, "below zero, where no speed ratio lies (3.71 - 9.00 < 0)"),   # the reader's -5.29x
    (3.10, 1.00, True, "below the smallest round (3.10 - 1.00 = 2.10x)"),
    (2.40, 0.98, False, "past the largest round (2.40 + 0.98 = 3.38x)"),
])
def test_lab08_the_groups_edge_is_a_ratio_or_said_to_be_below_zero(value, whole, high, expected):
    from utils.labs.make_it_fast.threads_cost import _edge_text

    assert _edge_text(value, whole, high) == expected


def test_lab08_the_readers_two_groups_print_no_negative_ratio():
    from utils.labs.make_it_fast.threads_cost import threads_sentence

    timed = {"slow": 2, "launcher": 1, "ratios": [2.30, 2.37, 3.71, 20.37, 24.32], "slow_ms": [], "launcher_ms": []}
    said = _flat(threads_sentence(timed, 1596.0, 1481.0))
    assert "3.71x ± 9.00 (half the middle half's range, (20.37 - 2.37) / 2), reaches below zero, where no speed " \
           "ratio lies (3.71 - 9.00 < 0) and stops short of the other group (3.71 + 9.00 = 12.71x)" in said, said
    assert "= -" not in said and " -5.29" not in said, said


# --- lab 08: the take-aways a learner keeps, the working collapsed ---------------------------------------------

READING = {"step": 2178.2, "load": 88.2, "forward and backward": 1576.0, "optimizer": 268.6, "evaluate": 215.9,
           "checkpoint": 27.5, "all-reduce calls a step": 7.67}


def _takeaways(monkeypatch):
    from types import SimpleNamespace

    from utils.labs.make_it_fast import takeaways

    monkeypatch.setattr(takeaways.checks, "HISTORY", {"speed": SimpleNamespace(passed=True)})
    watch = {"allreduce_bytes": 1.0, "optimizer_steps": 1, "gradient_bytes": 1.0}
    monkeypatch.setattr(takeaways, "launched", lambda train_fn: [{"threads": [1], "cores": 2, "watch": watch}])
    monkeypatch.setattr(takeaways, "measured_step", lambda train_fn, runs: (204.0, "the speed check's median"))
    monkeypatch.setattr(takeaways.os, "cpu_count", lambda: 2)
    return takeaways


def _diagnosis(*ratios):
    from utils.labs.make_it_fast import checks as lab

    reading = {lab.ALL_REDUCES if k == "all-reduce calls a step" else k: v for k, v in READING.items()}
    timed = {"slow": 2, "launcher": 1, "ratios": list(ratios), "slow_ms": [], "launcher_ms": []} if ratios else None
    return lab.Diagnosis(3, reading, [], timed)


@pytest.mark.parametrize("predicted, says", [
    (1887.0, "Your prediction from the profile, 1887 ms a step, against your script's 204 ms: 1683 ms under it"),
    (210.0, "against your script's 204 ms: within 10%, so what your script saved is the work the prediction"),
    (150.0, "against your script's 204 ms: more than 10% over it, so your script waits for something"),
])
def test_lab08_the_kept_take_aways_are_a_sentence_or_two_each(monkeypatch, predicted, says):
    takeaways = _takeaways(monkeypatch)
    diagnosis = _diagnosis(6.0, 6.1, 6.12, 6.2, 6.3)
    key = takeaways.key_take_aways(diagnosis, object(), predict=lambda r: predicted)
    flat = _flat(key)
    assert says in flat, key
    assert ("- Forward and backward (its all-reduces included) and the optimizer took 84.7% of the slow script's "
            "step. - The slow script's workers asked for 2 threads each") in flat, key
    assert "- Evaluating and saving took 11.2% of the slow script's step ('evaluate' 9.9%)." in flat, key
    assert ("- Loading took 4.0% of the slow step. The slow script all-reduced 4x one gradient's bytes a step "
            "(every micro-batch), yours 1x.") in flat, key  # t28_labs48 #2: one unit, never calls beside bytes
    assert "Compute and the all-reduces" not in flat and "(worked below)" not in flat, key
    assert len(key.splitlines()) <= 14 and all(len(line) <= 110 for line in key.splitlines()), key
    full = takeaways.take_aways(diagnosis, object(), predict=lambda r: predicted)
    assert len(full.splitlines()) > len(key.splitlines())  # the working is what is collapsed


def test_lab08_the_threads_one_line_follows_its_branch(monkeypatch):
    takeaways = _takeaways(monkeypatch)
    faster = _flat(takeaways.key_take_aways(_diagnosis(6.0, 6.1, 6.12, 6.2, 6.3), object(), predict=lambda r: 1887.0))
    # 6.12x ± 0.05 leaves out 3 of the 5 rounds: the kept sentence gives the median and the rounds' range
    assert ("Timed without the profiler, the slow script's forward and backward ran a median 6.12x as fast with 1 "
            "thread a worker as with its own 2 (rounds 6.00x to 6.30x): that explains part of the 1683 ms your "
            "step ran under the prediction, not all of it.") in faster, faster
    assert "The thread count:" not in faster and "± 0.05" not in faster
    untimed = _flat(takeaways.key_take_aways(_diagnosis(), object()))
    assert "This run did not time the two thread counts without the profiler." in untimed, untimed


def test_lab08_show_take_aways_prints_the_kept_ones_then_the_working_collapsed(monkeypatch, capsys):
    takeaways = _takeaways(monkeypatch)
    diagnosis = _diagnosis(6.0, 6.1, 6.12, 6.2, 6.3)
    takeaways.show_take_aways(diagnosis, object(), predict=lambda r: 1887.0)
    out = capsys.readouterr().out
    head, block = out.split("[How this was measured: the take-aways, worked from this run's figures]")
    assert head.strip() == takeaways.key_take_aways(diagnosis, object(), predict=lambda r: 1887.0)
    assert "- Timed alone, without the profiler" in _flat(block)
    # thirty-second reading: the kept sentence above carries it
    assert "The thread count" not in block and "Timed without the profiler" not in _flat(block)


def test_lab08_show_take_aways_waits_for_every_check(monkeypatch, capsys):
    takeaways = _takeaways(monkeypatch)
    monkeypatch.setattr(takeaways.checks, "HISTORY", {})
    takeaways.show_take_aways(_diagnosis(), object())
    assert capsys.readouterr().out.strip() == ("Take-aways appear once every check passes (each states what this "
                                               "run measured).")


# --- lab 06 cell 7: selective against every block in fewer words, every branch ---------------------------------


@pytest.mark.parametrize("selective, every, says", [
    (1.07, 1.15, "selective checkpointing cost less than every block here, beyond the cost table's noise (every "
                 "block 1.15 - selective 1.07 = 0.08 against ± 0.04, the ± 0.02 for each cost; each cost is 1 + its share above): keeping "
                 "its matmuls' outputs saves recomputing them"),
    (1.15, 1.07, "selective checkpointing cost more than every block here, beyond the cost table's noise "
                 "(selective 1.15 - every block 1.07 = 0.08 against ± 0.04, the ± 0.02 for each cost; each cost is 1 + its share above): it "
                 "saves recomputing the matmuls"),
    (1.14, 1.15, "selective checkpointing against every block here: no effect shown, within the cost table's "
                 "noise (every block 1.15 - selective 1.14 = 0.01 against ± 0.04, the ± 0.02 for each cost; each cost is 1 + its share "
                 "above)"),
])
def test_lab06_selective_against_every_block_in_one_short_sentence(selective, every, says):
    from utils.labs.fit_the_budget.checks import cost_noise, selective_against_every_block

    plain = [1.0] * 5  # the table's noise: its floor, 0.02
    rounds = {"plain": plain, "selective": [selective] * 5, "every block": [every] * 5,
              "chunked loss": [1.04] * 5, "micro-batch": [1.0] * 5}
    assert cost_noise(rounds) == 0.02
    said = selective_against_every_block(rounds)
    assert said.startswith(says), said
    assert "fastest of" not in said and "once, as the two differ" not in said and "1 plus each" not in said
