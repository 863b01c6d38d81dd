"""utils/labs/fit_the_budget (lab 06): the checks pass the solution (the cheapest plan that fits, a loss that
combines checkpointing with a chunked cross-entropy, a step for any plan), fail what a learner plausibly writes
instead (mutants, ``pytest -m mutants``), each with a message that names the mistake and never the right plan,
and report "not done yet" for stubs. A small GPT keeps each check to a second or two.
"""

from __future__ import annotations

import dataclasses
import itertools
from functools import partial

import pytest
import torch
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint, create_selective_checkpoint_contexts

from utils import bench, checks, devices, models
from utils.labs.fit_the_budget.checks import (CHECKPOINTING, HIDDEN_CASES, LOSS_CHUNKS_CHOICES, MARGIN,
                                              MICRO_BATCHES, LabSetup, check_choice, check_loss, check_step,
                                              cheapest, describe_plan, hidden_setups, lab_setup, plan_cost, plans,
                                              predicted, techniques)
from utils.lessons.memory.calculator import Shape, estimate
from utils.lessons.memory.plan import lesson_settings
from utils.lessons.memory.tricks import keep_matmuls

SHAPE = Shape(vocab=768, context=32, width=64, depth=4, heads=4)
SMALL = lab_setup(dataclasses.replace(lesson_settings(devices.plan(2, n_gpus=0), None),
                                      shape=dataclasses.replace(SHAPE, vocab=64)))
COSTS = {"selective": 0.10, "every block": 0.30, "chunked loss": 0.05, "micro-batch": 0.10}


@pytest.fixture(autouse=True)
def one_thread():
    with bench.threads(1):
        yield


# --- the solution ------------------------------------------------------------------------------------------


def choose_for(setup, margin=MARGIN, cost=plan_cost, candidates=None):
    def choose(capacity, costs):
        usable = (1 - margin) * capacity
        fits = [p for p in (candidates or plans())
                if estimate(setup.shape, setup.batch, checkpointing=p[0], micro_batches=p[1],
                            loss_chunks=p[2]).peak <= usable]
        return min(fits, key=lambda p: cost(p, costs))
    return choose


def slice_loss(h, weight, y):
    return F.cross_entropy(F.linear(h, weight).flatten(0, 1), y.flatten(), reduction="sum")


def plan_loss(model, x, y, checkpointing, loss_chunks, chunk_mean=False, selective_as_full=False, every_token=False):
    keep_some = partial(create_selective_checkpoint_contexts, keep_matmuls)
    h = model.embed(x)
    for block in model.blocks:
        if checkpointing is True or (checkpointing == "selective" and selective_as_full):
            h = checkpoint(block, h, use_reentrant=False)
        elif checkpointing == "selective":
            h = checkpoint(block, h, use_reentrant=False, context_fn=keep_some)
        else:
            h = block(h)
    if loss_chunks == 1:
        return models.cross_entropy(model.head(h), y)
    h = model.head.norm(h)
    pieces = list(zip(h.chunk(loss_chunks, dim=1), y.chunk(loss_chunks, dim=1)))
    if chunk_mean:  # mutant: the mean of each slice's mean, divided again
        return sum(checkpoint(slice_loss, hs, model.head.out.weight, ys, use_reentrant=False) / ys.numel()
                   for hs, ys in pieces)
    total = sum(checkpoint(slice_loss, hs, model.head.out.weight, ys, use_reentrant=False) for hs, ys in pieces)
    return total / (y.numel() if every_token else (y != -100).sum())


def train_step(model, optimizer, x, y, plan, loss=plan_loss, weigh="tokens", step_each=False):
    """The solution (each piece weighed by its share of the counted tokens), or a mistaken weighing."""
    checkpointing, micro_batches, loss_chunks = plan
    for xs, ys in zip(x.chunk(micro_batches), y.chunk(micro_batches)):
        piece = loss(model, xs, ys, checkpointing, loss_chunks)
        share = {"tokens": (ys != -100).sum() / (y != -100).sum(), "each": 1 / micro_batches,
                 "sequences": len(xs) / len(x), "none": 1.0}[weigh]
        (piece * share).backward()
        if step_each:
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)


def test_the_setup_leaves_only_combinations_and_the_hidden_cases_differ():
    fitting = [p for p in plans() if predicted(SMALL, p).peak <= SMALL.usable]
    assert fitting and all(techniques(p) >= 2 for p in fitting)
    answers = {tuple(cheapest(s, c)[1]) for s, c in hidden_setups(SMALL)}
    assert len(answers) == len(HIDDEN_CASES) and all(answers)  # each hidden case has its own cheapest plan
    assert "capacity" in SMALL.describe() and describe_plan((True, 2, 4)).startswith("checkpointing every block")


def test_the_solution_passes_every_check():
    choose = choose_for(SMALL)
    assert check_choice(choose, SMALL, COSTS, show=False).passed
    assert check_loss(plan_loss, SMALL, show=False).passed
    verdict = check_step(train_step, choose, SMALL, COSTS, show=False)
    assert verdict.passed, verdict


def test_stubs_report_not_done_yet():
    def stub(*args):
        raise NotImplementedError("later")

    assert check_choice(stub, SMALL, COSTS, show=False).status == checks.NOT_DONE
    assert check_loss(stub, SMALL, show=False).status == checks.NOT_DONE
    assert check_step(stub, stub, SMALL, COSTS, show=False).hint.startswith("exercise C: ")


# --- mutants: what a learner plausibly writes instead --------------------------------------------------------


def _no_expected_plan(message: str, setup: LabSetup, costs: dict) -> bool:
    """A failed choice never names the plan that was expected."""
    return not any(describe_plan(p) in message for p in cheapest(setup, costs)[1])


@pytest.mark.mutants
@pytest.mark.parametrize("wrong, says", [
    (lambda: choose_for(SMALL, margin=0.0), "less than the 10% margin"),
    (lambda: choose_for(SMALL, cost=lambda p, c: predicted(SMALL, p).peak), "another plan fits at less"),
    (lambda: choose_for(SMALL, candidates=[(c, m, 1) for c in CHECKPOINTING for m in MICRO_BATCHES]),
     "another plan fits at less"),
    (lambda: choose_for(SMALL, cost=lambda p, c: techniques(p)), "another plan fits at less"),
    (lambda: (lambda capacity, costs: (True, 4, 4)), "another plan fits at less"),
    (lambda: (lambda capacity, costs: [True, 4]), "should return (checkpointing, micro_batches, loss_chunks)"),
], ids=["margin ignored", "least memory, not least time", "chunked loss never tried", "fewest techniques",
        "every technique always", "two-element plan"])
def test_mutant_choices_fail_naming_the_mistake(wrong, says):
    verdict = check_choice(wrong(), SMALL, COSTS, show=False)
    assert verdict.status == checks.FAILED and says in verdict.message, verdict
    assert _no_expected_plan(verdict.message, SMALL, COSTS)


@pytest.mark.mutants
def test_mutant_a_choice_that_predicts_one_micro_batch_as_the_batch_fails_by_the_prediction():
    def choose(capacity, costs):  # the calculator's batch is the whole step's; this passes one micro-batch's
        fits = [p for p in plans() if estimate(SMALL.shape, SMALL.batch // p[1], checkpointing=p[0],
                                               micro_batches=p[1], loss_chunks=p[2]).peak <= (1 - MARGIN) * capacity]
        return min(fits, key=lambda p: plan_cost(p, costs))
    verdict = check_choice(choose, SMALL, COSTS, show=False)
    assert verdict.status == checks.FAILED and "is predicted at" in verdict.message, verdict
    assert "margin" in verdict.message or "over the capacity" in verdict.message


@pytest.mark.mutants
@pytest.mark.parametrize("wrong, says", [
    (partial(plan_loss, chunk_mean=True), "a sum of slices is not a mean"),
    (partial(plan_loss, every_token=True), "padded targets, -100, do not count"),
    (lambda m, x, y, c, k: models.cross_entropy(m(x), y).item(), "0-d tensor"),
    (lambda m, x, y, c, k: models.cross_entropy(m(x), y).unsqueeze(0), "0-d tensor"),
    (lambda m, x, y, c, k: plan_loss(m, x, y, c, k) * 4, "the plain loss"),
], ids=["mean of slice means", "padding counted", "a float", "shape (1,)", "scaled loss"])
def test_mutant_losses_fail_naming_the_mistake(wrong, says):
    verdict = check_loss(wrong, SMALL, show=False)
    assert verdict.status == checks.FAILED and says in verdict.message, verdict


@pytest.mark.mutants
def test_mutant_a_detached_head_weight_fails_by_the_gradients():
    def loss(model, x, y, c, k):  # the chunks read a detached weight: the head gets no gradient
        if k == 1:
            return plan_loss(model, x, y, c, k)
        h = model.head.norm(_blocks(model, x))
        w = model.head.out.weight.detach()
        return sum(slice_loss(hs, w, ys) for hs, ys in zip(h.chunk(k, 1), y.chunk(k, 1))) / (y != -100).sum()
    verdict = check_loss(loss, SMALL, show=False)
    assert verdict.status == checks.FAILED and "gradients differ" in verdict.message, verdict


def _blocks(model, x):
    h = model.embed(x)
    for block in model.blocks:
        h = block(h)
    return h


@pytest.mark.mutants
@pytest.mark.parametrize("wrong, says", [
    (partial(train_step, weigh="none"), "the update is"),
    (partial(train_step, weigh="each"), "weighed the same"),
    (partial(train_step, weigh="sequences"), "padded targets (-100) do not count"),
    (partial(train_step, step_each=True), "optimizer steps once"),
    (lambda m, o, x, y, plan: train_step(m, o, x, y, (plan[0], 1, plan[2])), "over the calculator's prediction"),
    (lambda m, o, x, y, plan: train_step(m, o, x, y, (plan[0], plan[1], 1)), "over the calculator's prediction"),
    (lambda m, o, x, y, plan: train_step(m, o, x, y, plan, loss=lambda *a: plan_loss(*a[:3], False, a[4])),
     "over the calculator's prediction"),
], ids=["loss not divided by micro-batches", "lesson 06's equal weights", "weighed by sequences",
        "a step per micro-batch", "micro-batches ignored",
        "chunks ignored", "checkpointing ignored"])
def test_mutant_steps_fail_naming_the_mistake(wrong, says):
    verdict = check_step(wrong, choose_for(SMALL), SMALL, COSTS, show=False)
    assert verdict.status == checks.FAILED and says in verdict.message, verdict


def test_the_take_aways_follow_the_learners_choice():
    from utils.labs.fit_the_budget.checks import take_aways

    def stub(capacity, costs):
        raise NotImplementedError("exercise A")

    assert "gave no plan yet" in take_aways(stub, SMALL, COSTS)
    assert "not the cheapest plan that fits" in take_aways(lambda c, k: (True, 4, 4), SMALL, COSTS)
    said = take_aways(choose_for(SMALL), SMALL, COSTS)
    assert "plans leave 10% free" in said and "apart" in said, said


def test_a_wrong_type_from_choose_is_reported_not_raised():
    verdict = check_step(train_step, lambda capacity, costs: "every block", SMALL, COSTS, show=False)
    assert verdict.status == checks.FAILED and "should return" in verdict.message


def test_the_labs_setup_in_cpu_mode_needs_a_combination():
    setup = lab_setup(lesson_settings(devices.plan(2, n_gpus=0), None))
    assert setup.device == "cpu" and setup.usable == pytest.approx((1 - MARGIN) * setup.capacity)
    fitting = [p for p in plans() if predicted(setup, p).peak <= setup.usable]
    assert len(fitting) >= 3 and all(techniques(p) >= 2 for p in fitting)
    assert set(LOSS_CHUNKS_CHOICES) == {1, 4} and len(list(itertools.product(CHECKPOINTING, MICRO_BATCHES))) == 9


def test_the_hints_name_the_concept_and_the_api_never_the_code():
    texts = checks.hint_texts("labs/fit_the_budget")
    assert sorted(texts) == ["A", "B", "C"] and all(len(levels) == 2 for levels in texts.values())
    for text in (t for levels in texts.values() for t in levels):
        for code in ("checkpointing=True", "micro_batches=", "estimate(", "use_reentrant", ".backward()",
                     "context_fn=", "zero_grad(", "min(", "/ micro_batches", "reduction=", "itertools",
                     "product(", "!= -100", "ignore_index="):
            assert code not in text, (code, text)
    assert all("lesson 06" in texts[part][0] or "Lesson 06" in texts[part][0] for part in texts)
