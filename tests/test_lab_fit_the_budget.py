"""utils/labs/fit_the_budget (lab 06): the checks pass the solution (every plan predicted, the plan that fits at
the least time cost, its step), fail what a learner plausibly writes instead, each with a message that names
what is wrong, and report "not done yet" for stubs. A small GPT keeps each check to a second or two; the
timing check is judged on fake times here (a busy machine cannot flip its verdicts) and runs for real once.
"""

from __future__ import annotations

import dataclasses

import pytest

from utils import bench, checks, devices
from utils.labs.fit_the_budget.checks import (LabSetup, check_fits, check_least_time, check_predictions,
                                              check_same_training, lab_setup, plan_step)
from utils.lessons.memory.calculator import Shape, estimate
from utils.lessons.memory.measure import plain_loss, training_step
from utils.lessons.memory.plan import lesson_settings

SHAPE = Shape(vocab=64, context=32, width=64, depth=4, heads=4)
SMALL = LabSetup(SHAPE, batch=16, device="cpu", budget=0.46 * estimate(SHAPE, 16).peak, rounds=2)
FASTEST = (True, 2)  # the fake timer's fastest plan that fits


@pytest.fixture(autouse=True)
def one_thread():
    with bench.threads(1):
        yield


def predict(checkpointing, micro_batches):  # the solution
    return estimate(SHAPE, 16, checkpointing=checkpointing, micro_batches=micro_batches)


def fake_timer(steps, setup):
    """Times by plan, as a machine where full checkpointing with 2 micro-batches is the fastest that fits."""
    return {p: {FASTEST: 0.20, (True, 4): 0.24, ("selective", 4): 0.27}.get(p, 0.3) for p in steps}


def test_the_solution_passes_every_check():
    assert SMALL.fitting() == [("selective", 4), (True, 2), (True, 4)]  # no single technique fits
    assert check_predictions(predict, SMALL, show=False).passed
    fits = check_fits(predict, lambda: FASTEST, plan_step(FASTEST), SMALL, show=False)
    assert fits.passed, fits
    assert check_same_training(plan_step(FASTEST), SMALL, show=False).passed
    assert check_least_time(lambda: FASTEST, SMALL, show=False, timer=fake_timer).passed


def test_the_time_check_runs_for_real_and_passes_the_fastest_plan_it_measured():
    timed = {}

    def timer(steps, setup):
        from utils.labs.fit_the_budget.checks import time_steps
        timed.update(time_steps(steps, setup))
        return timed
    verdict = check_least_time(lambda: min(timed, key=lambda p: timed[p][0]) if timed else FASTEST, SMALL,
                               show=False,
                               timer=timer)
    assert set(timed) == set(SMALL.fitting()) and all(t > 0 and s >= 0 for t, s in timed.values())
    assert verdict.status in (checks.PASSED, checks.FAILED)  # a real measurement on a shared machine


def test_stubs_report_not_done_yet():
    def stub(*args):
        raise NotImplementedError("later")

    assert check_predictions(stub, SMALL, show=False).status == checks.NOT_DONE
    assert check_fits(predict, stub, stub, SMALL, show=False).status == checks.NOT_DONE
    assert check_same_training(stub, SMALL, show=False).hint.startswith("exercise C: ")
    assert check_least_time(stub, SMALL, show=False, timer=fake_timer).status == checks.NOT_DONE


# --- mutants: what a learner plausibly writes instead --------------------------------------------------------


@pytest.mark.mutants
@pytest.mark.parametrize("wrong, says", [
    (lambda c, m: estimate(SHAPE, 16 // m, checkpointing=c, micro_batches=m), "another model or batch"),
    (lambda c, m: estimate(SHAPE, 16), "predicted the plan"),
    (lambda c, m: estimate(SHAPE, 16, checkpointing=c, micro_batches=m, precision="bf16"), "in fp32"),
    (lambda c, m: SHAPE.parameters() * 4, "should return the calculator's Budget"),
], ids=["micro-batch as the batch", "plan ignored", "bf16", "weights only"])
def test_mutant_predictions_fail_with_what_is_wrong(wrong, says):
    verdict = check_predictions(wrong, SMALL, show=False)
    assert verdict.status == checks.FAILED and says in verdict.message, verdict


@pytest.mark.mutants
@pytest.mark.parametrize("plan, says", [
    ((True, 1), "no single technique fits this budget"),  # checkpointing alone
    ((False, 4), "no single technique fits this budget"),  # accumulation alone
    (("selective", 1), "no single technique fits this budget"),
    ((True, 8), "this lab allows (1, 2, 4)"),
], ids=["checkpointing alone", "accumulation alone", "selective alone", "8 micro-batches"])
def test_mutant_a_plan_that_does_not_fit_fails_naming_it(plan, says):
    verdict = check_fits(predict, lambda: plan, plan_step(plan), SMALL, show=False)
    assert verdict.status == checks.FAILED and says in verdict.message, verdict


@pytest.mark.mutants
def test_mutant_a_step_that_does_not_run_the_chosen_plan_fails_by_the_measurement():
    verdict = check_fits(predict, lambda: FASTEST, lambda m, o, x, y: training_step(m, o, x, y)(), SMALL,
                         show=False)
    assert verdict.status == checks.FAILED and "does train_step run the plan you chose?" in verdict.message


@pytest.mark.mutants
@pytest.mark.parametrize("plan, says", [
    ((True, 4), "slower than the fastest plan that fits, checkpointing every block, 2 micro-batches"),
    (("selective", 4), "recomputing more, costs time"),
    ((True, 1), "does not fit the budget"),
], ids=["most memory saved", "selective by habit", "does not fit"])
def test_mutant_a_slower_plan_fails_naming_the_fastest(plan, says):
    verdict = check_least_time(lambda: plan, SMALL, show=False, timer=fake_timer)
    assert verdict.status == checks.FAILED and says in verdict.message, verdict


@pytest.mark.mutants
def test_mutant_an_optimizer_step_per_micro_batch_fails_by_the_loss():
    def step_each_piece(model, optimizer, x, y):  # fits, but two optimizer steps a call: another training
        for xs, ys in zip(x.chunk(2), y.chunk(2)):
            plain_loss(model, xs, ys).backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)

    verdict = check_same_training(step_each_piece, SMALL, show=False)
    assert verdict.status == checks.FAILED and "your loss is" in verdict.message


@pytest.mark.mutants
def test_mutant_training_on_part_of_the_batch_fails_by_the_loss():
    def first_quarter(model, optimizer, x, y):  # fits by dropping three quarters of the data
        plain_loss(model, x[:4], y[:4]).backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)

    verdict = check_same_training(first_quarter, SMALL, show=False)
    assert verdict.status == checks.FAILED and "whole batch" in verdict.message


def test_the_labs_setup_in_cpu_mode_leaves_no_single_technique_enough():
    setup = lab_setup(lesson_settings(devices.plan(2, n_gpus=0), None))
    assert setup.device == "cpu" and setup.budget == pytest.approx(0.46 * estimate(setup.shape, setup.batch).peak)
    assert all(c and m > 1 for c, m in setup.fitting()) and len(setup.fitting()) >= 2
    assert "budget" in setup.describe()
    assert dataclasses.replace(setup, budget=0).fitting() == []


def test_the_hints_name_the_concept_and_the_api_never_the_code():
    texts = checks.hint_texts("labs/fit_the_budget")
    assert sorted(texts) == ["A", "B", "C"] and all(len(levels) == 2 for levels in texts.values())
    for text in (t for levels in texts.values() for t in levels):
        for code in ("checkpointing=True", "micro_batches=", "estimate(", "use_reentrant", ".backward()",
                     "checkpointed_loss(", "zero_grad(", "min(", "time_plans("):
            assert code not in text, (code, text)
    assert all("lesson 06" in texts[part][0] or "Lesson 06" in texts[part][0] for part in texts)
