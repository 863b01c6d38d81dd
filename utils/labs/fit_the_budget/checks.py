"""Lab 06 (``labs/06_fit_the_budget.ipynb``), fit the budget: the checks of the learner's prediction and step.

As given, one AdamW step of lesson 06's GPT on the lab's batch takes more memory than the budget. The learner
writes ``predict()`` (the calculator's ``Budget`` for the plan they choose: checkpointing, accumulation, ...)
and ``train_step(model, optimizer, x, y)`` (one optimizer step on the whole batch, within the budget). Both
are called inside the checks, so an unfinished exercise reports "not done yet" instead of stopping the notebook.

    SETUP = lab_setup()                                    # this machine's model, batch, budget
    check_prediction(predict, SETUP)    # fits the budget, and within 10% of the peak measured for that plan
    check_fits(train_step, SETUP)       # the peak measured under the budget, the loss after 3 steps the baseline's
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch

from utils import checks
from utils.lessons.memory.calculator import Budget, Shape, estimate
from utils.lessons.memory.measure import (batch_of, checkpointed_loss, measure_peak, new_model, plain_loss,
                                          training_step)
from utils.lessons.memory.plan import Settings, current_settings

BANK = "labs/fit_the_budget"  # the lab's hints: utils/labs/fit_the_budget/hints.toml
hint = checks.hints_for(BANK)  # in the notebook: hint("B", 2)
MB = 1e6


@dataclass(frozen=True)
class LabSetup:
    """The lab's model, batch and budget; ``lab_setup(settings)`` makes them from lesson 06's settings."""

    shape: Shape
    batch: int
    device: str
    budget: float  # bytes: the step's measured peak must stay under it
    steps: int = 3  # optimizer steps whose loss is compared with the baseline's
    loss_tolerance: float = 1e-3  # relative: the same maths up to rounding, not a different training
    prediction_tolerance: float = 0.10  # the prediction within 10% of the measured peak
    label: str = ""

    def describe(self) -> str:
        return (f"a GPT of {self.shape.describe()}; {self.batch} sequences a step on {self.device}; "
                f"budget {self.budget / MB:.1f} MB")


def lab_setup(settings: Settings | None = None, share: float = 0.6) -> LabSetup:
    """Lab 06's sizes from lesson 06's settings (by default this machine's): the budget is ``share`` of the
    calculator's peak for the step as given (fp32, AdamW, one batch): it does not fit. Lab 06."""
    s = settings if settings is not None else current_settings()
    baseline = estimate(s.shape, s.batch)
    return LabSetup(s.shape, s.batch, s.device, budget=share * baseline.peak, label=s.label)


def batches(setup: LabSetup) -> list[tuple[torch.Tensor, torch.Tensor]]:
    """The lab's batches, one per step: the same in every check (lab 06)."""
    return [batch_of(setup.shape, setup.batch, setup.device, seed=k) for k in range(setup.steps)]


def _reference_step(model, optimizer, x, y, config: dict) -> Callable:
    loss_fn = checkpointed_loss if config.get("checkpointing") else plain_loss
    return training_step(model, optimizer, x, y, micro_batches=config.get("micro_batches", 1), loss_fn=loss_fn)


def measured_peak(make_step: Callable, setup: LabSetup, dtype=torch.float32) -> float:
    """The measured peak of one step made by ``make_step(model, optimizer, x, y)`` (a function that runs it).
    Lab 06."""
    model, optimizer = new_model(setup.shape, setup.device, dtype=dtype)
    x, y = batches(setup)[0]
    return measure_peak(make_step(model, optimizer, x, y), model, optimizer, setup.device).peak


def final_loss(train_step: Callable, setup: LabSetup) -> float:
    """The whole first batch's loss after ``setup.steps`` calls of ``train_step``, one per batch (lab 06)."""
    model, optimizer = new_model(setup.shape, setup.device)
    for x, y in batches(setup):
        train_step(model, optimizer, x, y)
    x, y = batches(setup)[0]
    with torch.no_grad():
        return plain_loss(model, x, y).item()


def baseline_loss(setup: LabSetup) -> float:
    """The loss the step as given reaches: the target the learner's step must match (lab 06)."""
    return final_loss(lambda m, o, x, y: training_step(m, o, x, y)(), setup)


def check_prediction(predict: Callable[[], Budget], setup: LabSetup | None = None,
                     show: bool = True) -> checks.Verdict:
    """Lab 06: the learner's predicted ``Budget`` is for the lab's model and batch, fits the budget, and is
    within 10% of the peak measured for the plan it describes (the lesson's code running that plan)."""
    setup = setup if setup is not None else lab_setup()

    def body():
        predicted = predict()
        checks.expect(isinstance(predicted, Budget), f"predict() should return the calculator's Budget (from "
                                                     f"estimate), got {type(predicted).__name__}")
        config = predicted.config
        checks.expect(config["shape"] == setup.shape and config["batch"] == setup.batch,
                      f"the prediction is for another model or batch ({config['batch']} sequences of "
                      f"{config['shape'].describe()}); predict the lab's: {setup.batch} sequences of "
                      f"{setup.shape.describe()}")
        checks.expect(config["strategy"] == "one device" and config["precision"] == "fp32",
                      "this lab's plan runs on one device in fp32 (another precision changes the loss): "
                      "predict a plan of checkpointing and accumulation")
        checks.expect(predicted.peak <= setup.budget,
                      f"by your own prediction the plan needs {predicted.peak / MB:.1f} MB, over the budget of "
                      f"{setup.budget / MB:.1f} MB: choose a plan that fits before writing it")
        measured = measured_peak(lambda m, o, x, y: _reference_step(m, o, x, y, config), setup)
        error = (predicted.peak - measured) / measured
        checks.expect(abs(error) <= setup.prediction_tolerance,
                      f"you predicted {predicted.peak / MB:.1f} MB; the plan measured {measured / MB:.1f} MB "
                      f"({error:+.0%}, more than {setup.prediction_tolerance:.0%} off){setup.label}: does your "
                      f"prediction count every line (activations too), for the plan you chose?")
        plan = ", ".join(f"{k}={config[k]}" for k in ("checkpointing", "micro_batches"))
        return (f"your plan ({plan}): predicted {predicted.peak / MB:.1f} MB, measured {measured / MB:.1f} MB "
                f"({error:+.1%}){setup.label}; budget {setup.budget / MB:.1f} MB")

    return checks.run_check("prediction", body, show=show, hint=checks.stub_message(BANK, "A"))


def check_fits(train_step: Callable, setup: LabSetup | None = None, show: bool = True) -> checks.Verdict:
    """Lab 06: the peak of the learner's step, measured, under the budget, and the loss after ``steps`` steps
    equal to the baseline's (the same training, in less memory)."""
    setup = setup if setup is not None else lab_setup()

    def body():
        peak = measured_peak(lambda m, o, x, y: (lambda: train_step(m, o, x, y)), setup)
        mine, target = final_loss(train_step, setup), baseline_loss(setup)
        gap = abs(mine - target) / target
        checks.expect(peak <= setup.budget,
                      f"your step's peak measured {peak / MB:.1f} MB, over the budget of {setup.budget / MB:.1f} MB "
                      f"by {(peak - setup.budget) / MB:.1f} MB{setup.label}")
        checks.expect(gap <= setup.loss_tolerance,
                      f"after {setup.steps} steps your loss is {mine:.4f}, the step as given reaches {target:.4f} "
                      f"({gap:.2%} apart; at most {setup.loss_tolerance:.1%}): the step must train on the whole "
                      f"batch with one optimizer step, as the original does")
        return (f"peak {peak / MB:.1f} MB against a budget of {setup.budget / MB:.1f} MB{setup.label}; loss after "
                f"{setup.steps} steps {mine:.4f}, the baseline's {target:.4f} ({gap:.1e} apart)")

    return checks.run_check("fits the budget, same training", body, show=show,
                            hint=checks.stub_message(BANK, "B"))
