"""utils/labs/fit_the_budget (lab 06): the checks pass the solutions (checkpointing, accumulation), fail what a
learner plausibly writes instead, each with a message that names what is wrong, and report "not done yet" for
stubs. A small GPT keeps each check to a second or two."""

from __future__ import annotations

import pytest

from utils import bench, checks, devices
from utils.labs.fit_the_budget.checks import LabSetup, check_fits, check_prediction, lab_setup
from utils.lessons.memory.calculator import Shape, estimate
from utils.lessons.memory.measure import checkpointed_loss, plain_loss, training_step
from utils.lessons.memory.plan import lesson_settings

SHAPE = Shape(vocab=64, context=32, width=64, depth=4, heads=4)
SMALL = LabSetup(SHAPE, batch=16, device="cpu", budget=0.6 * estimate(SHAPE, 16).peak)


@pytest.fixture(autouse=True)
def one_thread():
    with bench.threads(1):
        yield


def checkpointed_step(model, optimizer, x, y):
    checkpointed_loss(model, x, y).backward()
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)


def accumulated_step(model, optimizer, x, y):
    training_step(model, optimizer, x, y, micro_batches=4)()


@pytest.mark.parametrize("step,plan", [(checkpointed_step, dict(checkpointing=True)),
                                       (accumulated_step, dict(micro_batches=4))], ids=["checkpointing", "accumulation"])
def test_the_solutions_pass_both_checks(step, plan):
    predicted = check_prediction(lambda: estimate(SHAPE, 16, **plan), SMALL, show=False)
    assert predicted.passed, predicted
    fits = check_fits(step, SMALL, show=False)
    assert fits.passed, fits
    assert "against a budget of" in fits.message and "the baseline's" in fits.message


def test_stubs_report_not_done_yet():
    def stub(*args):
        raise NotImplementedError("later")

    assert check_prediction(stub, SMALL, show=False).status == checks.NOT_DONE
    assert check_fits(stub, SMALL, show=False).status == checks.NOT_DONE
    assert check_fits(stub, SMALL, show=False).hint.startswith("exercise B: ")


# --- mutants: what a learner plausibly writes instead --------------------------------------------------------


@pytest.mark.mutants
def test_mutant_the_step_as_given_fails_by_the_bytes_measured():
    verdict = check_fits(lambda m, o, x, y: training_step(m, o, x, y)(), SMALL, show=False)
    assert verdict.status == checks.FAILED and "over the budget" in verdict.message


@pytest.mark.mutants
def test_mutant_an_optimizer_step_per_micro_batch_fails_by_the_loss():
    def step_each_piece(model, optimizer, x, y):  # fits, but four optimizer steps a call: another training
        for xs, ys in zip(x.chunk(4), y.chunk(4)):
            plain_loss(model, xs, ys).backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)

    verdict = check_fits(step_each_piece, SMALL, show=False)
    assert verdict.status == checks.FAILED and "your loss is" in verdict.message


@pytest.mark.mutants
def test_mutant_training_on_part_of_the_batch_fails_by_the_loss():
    def first_quarter(model, optimizer, x, y):  # fits by dropping three quarters of the data
        plain_loss(model, x[:4], y[:4]).backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)

    verdict = check_fits(first_quarter, SMALL, show=False)
    assert verdict.status == checks.FAILED and "whole batch" in verdict.message


@pytest.mark.mutants
@pytest.mark.parametrize("predict,says", [
    (lambda: estimate(SHAPE, 16), "over the budget of"),                                 # the plan as given
    (lambda: estimate(SHAPE, 4, micro_batches=1), "another model or batch"),             # one micro-batch as the batch
    (lambda: estimate(SHAPE, 16, precision="bf16"), "in fp32"),                         # changes the training
    (lambda: SHAPE.parameters() * 4, "should return the calculator's Budget"),           # the weights only
], ids=["as given", "micro-batch as the batch", "bf16", "weights only"])
def test_mutant_predictions_fail_with_what_is_wrong(predict, says):
    verdict = check_prediction(predict, SMALL, show=False)
    assert verdict.status == checks.FAILED and says in verdict.message, verdict


@pytest.mark.mutants
def test_mutant_a_prediction_that_ignores_the_activations_fails_by_the_measurement(monkeypatch):
    b = estimate(SHAPE, 16, checkpointing=True)
    b.at_peak["activations"] = 0.0  # accelerate's estimate-memory counts no activation
    verdict = check_prediction(lambda: b, SMALL, show=False)
    assert verdict.status == checks.FAILED and "more than 10% off" in verdict.message


def test_the_labs_setup_in_cpu_mode():
    setup = lab_setup(lesson_settings(devices.plan(2, n_gpus=0), None))
    assert setup.device == "cpu" and setup.budget == pytest.approx(0.6 * estimate(setup.shape, setup.batch).peak)
    assert "budget" in setup.describe()


def test_the_hints_name_the_concept_and_the_api_never_the_code():
    texts = checks.hint_texts("labs/fit_the_budget")
    assert sorted(texts) == ["A", "B"] and all(len(levels) == 2 for levels in texts.values())
    for text in (t for levels in texts.values() for t in levels):
        for code in ("checkpointing=True", "micro_batches=", "estimate(", "use_reentrant", ".backward()",
                     "checkpointed_loss(", "zero_grad("):
            assert code not in text, (code, text)
    assert "lesson 06" in texts["A"][0] and "lesson 06" in texts["B"][0]
