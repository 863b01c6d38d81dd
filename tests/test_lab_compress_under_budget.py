"""Lab 04 (compress under a budget): each check fails a deliberately wrong answer and says by how much.

The solution runs under nbval (labs/04_compress_under_budget.ipynb ends in "3/3 checks passed"), and
tests/test_labs.py runs the student copy (every check "not done yet").
"""

import copy

import pytest
import torch
from torch.nn.utils import prune

from utils import checks, data, models
from utils.labs.compress_under_budget.checks import check_accuracy, check_faster, check_smaller
from utils.lessons.compression.prune import prunable, remove_masks
from utils.lessons.compression.quantize import quantize_dynamic_int8, weight_only_int8
from utils.lessons.compression.train import linear_heavy_mlp, train


@pytest.fixture(scope="module")
def trained():
    """A small Linear-heavy MLP trained for two epochs (about 90 % on the digits) and its test set."""
    train_set, test_set = data.digits_28("train"), data.digits_28("test")
    model = linear_heavy_mlp(width=512, hidden_layers=2, seed=0)
    train(model, train_set, 2, batch_size=128)
    return model, test_set


def test_size_check_fails_for_pruning_alone(trained):
    model, _ = trained
    pruned = copy.deepcopy(model)
    prune.global_unstructured(prunable(pruned), pruning_method=prune.L1Unstructured, amount=0.75)
    remove_masks(pruned)  # 75 % zeros, still 4 bytes each
    verdict = check_smaller(model, pruned, show=False)
    assert verdict.status == checks.FAILED
    assert "short of the target 3.5x" in verdict.message


def test_speed_check_fails_for_weight_only_int8(trained):
    model, test_set = trained
    small_not_fast = weight_only_int8(model)  # 4x smaller, but computes in fp32
    verdict = check_faster(model, small_not_fast, test_set.tensors[0][:256], rounds=7, show=False)
    assert verdict.status == checks.FAILED
    assert "the speedup" in verdict.message and "short of the target 1.5x" in verdict.message


def test_accuracy_check_fails_for_a_broken_model(trained):
    model, test_set = trained
    broken = copy.deepcopy(model)
    with torch.no_grad():
        broken[-1].weight.zero_()  # the last layer outputs its bias only: one class for every image
    verdict = check_accuracy(model, broken, test_set, show=False)
    assert verdict.status == checks.FAILED
    assert "the accuracy drop (a fraction of the test set)" in verdict.message
    assert "over the limit 0.01" in verdict.message


def test_checks_pass_a_right_answer_for_size_and_accuracy(trained):
    model, test_set = trained
    int8 = quantize_dynamic_int8(model)
    assert check_smaller(model, int8, show=False).passed
    assert check_accuracy(model, int8, test_set, show=False).passed


def test_an_unfinished_exercise_is_not_done_yet(trained):
    model, test_set = trained

    def stub():
        raise NotImplementedError("write your solution here")

    assert check_smaller(model, stub, show=False).status == checks.NOT_DONE
    assert check_accuracy(model, stub, test_set, show=False).status == checks.NOT_DONE


def test_a_check_says_so_when_the_answer_is_not_a_model(trained):
    model, _ = trained
    verdict = check_smaller(model, lambda: "a string", show=False)
    assert verdict.status == checks.FAILED and "expected a torch model" in verdict.message


def test_accuracy_check_compares_fractions_with_its_limit(trained):
    model, test_set = trained
    worse = copy.deepcopy(model)
    with torch.no_grad():
        worse[-1].bias[0] += 3.0  # class 0 favoured: some images change their answer
    before, after = models.accuracy(model, test_set), models.accuracy(worse, test_set)
    assert 0.5 < after < before <= 1.0  # fractions, not percentages
    drop = before - after
    assert check_accuracy(model, worse, test_set, max_drop=drop + 1e-6, show=False).passed
    verdict = check_accuracy(model, worse, test_set, max_drop=drop - 1e-6, show=False)
    assert verdict.status == checks.FAILED and f"{before:.2%} -> {after:.2%}" not in verdict.message


def test_the_speed_check_says_where_it_timed_and_its_reference(trained):
    model, test_set = trained
    verdict = check_faster(model, quantize_dynamic_int8(model), test_set.tensors[0][:256], target=0.01, rounds=3,
                           show=False)
    assert verdict.passed
    assert "faster (on the CPU)" in verdict.message  # where it was measured: x is on the CPU
    assert "reference 3.9" in verdict.message or "reference 4.0" in verdict.message  # the stored-bytes ratio


def test_hints_point_to_the_concept_not_the_answer(trained):
    # Review: the stub's hint and the speed check's hint used to name int8 outright.
    import nbformat
    from pathlib import Path

    model, test_set = trained
    verdict = check_faster(model, weight_only_int8(model), test_set.tensors[0][:64], rounds=3, show=False)
    lab = nbformat.read(Path(__file__).resolve().parents[1] / "labs/04_compress_under_budget.ipynb", as_version=4)
    hint = next(line for c in lab.cells for line in c.source.splitlines() if line.strip().startswith("# HINT:"))
    assert verdict.status == checks.FAILED
    for text in (verdict.hint, verdict.message, hint):
        assert "int8" not in text and "8-bit" not in text and "quantiz" not in text
    assert "cheaper work" in hint and "cheaper work" in verdict.hint
