"""Lab 06 (``labs/06_fit_the_budget.ipynb``), fit the budget: the checks of the learner's predictions, plan and
step.

As given, one AdamW step of lesson 06's GPT on the lab's batch takes far more memory than the budget, and no
single technique of lesson 06 (checkpointing every block, selective checkpointing, up to 4 micro-batches)
brings it under. The learner writes ``predict(checkpointing, micro_batches)`` (the calculator's ``Budget`` for
any candidate plan), ``choose()`` (the plan that fits at the least time cost) and ``train_step(model,
optimizer, x, y)`` (that plan, one optimizer step on the whole batch). Each is called inside the checks, so an
unfinished exercise reports "not done yet" instead of stopping the notebook.

    SETUP = lab_setup()                          # this machine's model, batch, budget, candidate plans
    check_predictions(predict, SETUP)            # every candidate predicted for the lab's model and batch
    check_fits(predict, choose, train_step, SETUP)   # predicted under the budget; measured within 10 % of it
    check_same_training(train_step, SETUP)       # the loss after 3 steps equals the step as given's
    check_least_time(choose, SETUP)              # no slower than the fastest plan that fits, by a margin
"""

from __future__ import annotations

import dataclasses

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import torch

from utils import checks
from utils.lessons.memory.calculator import Budget, Shape, estimate
from utils.lessons.memory.measure import batch_of, measure_peak, new_model, plain_loss, training_step
from utils.lessons.memory.plan import Settings, current_settings
from utils.lessons.memory.validate import loss_function

BANK = "labs/fit_the_budget"  # the lab's hints: utils/labs/fit_the_budget/hints.toml
MB = 1e6
CHECKPOINTING = (False, "selective", True)  # none, selective (lesson 06), every block
MICRO_BATCHES = (1, 2, 4)  # at most 4: smaller micro-batches leave a GPU's matmuls too small to run well
MAX_MARGIN = 0.2  # the widest a busy machine's spread may make the time margin
NAMES = {False: "no checkpointing", "selective": "selective checkpointing", True: "checkpointing every block"}


@dataclass(frozen=True)
class LabSetup:
    """The lab's model, batch, budget and candidate plans; ``lab_setup(settings)`` makes them."""

    shape: Shape
    batch: int
    device: str
    budget: float  # bytes: the step's measured peak must stay under it
    steps: int = 3  # optimizer steps whose loss is compared with the baseline's
    loss_tolerance: float = 1e-3  # relative: the same maths up to rounding, not a different training
    prediction_tolerance: float = 0.10  # the prediction within 10% of the measured peak
    time_margin: float = 0.10  # the chosen plan no more than 10% slower than the fastest plan that fits
    rounds: int = 4  # interleaved timing rounds; each plan keeps its fastest
    label: str = ""

    def describe(self) -> str:
        return (f"a GPT of {self.shape.describe()};\n{self.batch} sequences a step on {self.device}; "
                f"budget {self.budget / MB:.1f} MB")

    def plans(self) -> list[tuple]:
        """Every candidate plan: (checkpointing, micro_batches)."""
        return [(c, m) for c in CHECKPOINTING for m in MICRO_BATCHES]

    def reference(self, plan: tuple) -> Budget:
        return estimate(self.shape, self.batch, checkpointing=plan[0], micro_batches=plan[1])

    def fitting(self) -> list[tuple]:
        """The candidate plans the calculator puts under the budget."""
        return [p for p in self.plans() if self.reference(p).peak <= self.budget]


def describe_plan(plan: tuple) -> str:
    return f"{NAMES.get(plan[0], plan[0])}, {plan[1]} micro-batch{'es' if plan[1] > 1 else ''}"


def lab_setup(settings: Settings | None = None, share: float = 0.46) -> LabSetup:
    """Lab 06's sizes from lesson 06's settings (by default this machine's): the budget is ``share`` of the
    calculator's peak for the step as given (fp32, AdamW, one batch), under what any one technique reaches
    alone (checkpointing every block: about 51 %; 4 micro-batches: about 48 %). Lab 06."""
    s = settings if settings is not None else current_settings()
    baseline = estimate(s.shape, s.batch)
    setup = LabSetup(s.shape, s.batch, s.device, budget=share * baseline.peak, label=s.label)
    # On other sizes (a GPU's larger GPT) one technique alone can reach under that share: the budget then
    # sits 1 % under the lowest single technique, so that only a combination fits (the lab's premise).
    singles = [p for p in setup.plans() if (p[1] == 1) != (p[0] is False)]
    lowest = min(setup.reference(p).peak for p in singles)
    return dataclasses.replace(setup, budget=min(setup.budget, 0.99 * lowest))


def batches(setup: LabSetup) -> list[tuple[torch.Tensor, torch.Tensor]]:
    """The lab's batches, one per step: the same in every check (lab 06)."""
    return [batch_of(setup.shape, setup.batch, setup.device, seed=k) for k in range(setup.steps)]


def plan_step(plan: tuple) -> Callable:
    """Lesson 06's code running ``plan``, as a ``train_step(model, optimizer, x, y)`` (lab 06)."""
    config = {"checkpointing": plan[0], "micro_batches": plan[1]}

    def step(model, optimizer, x, y):
        training_step(model, optimizer, x, y, micro_batches=plan[1], loss_fn=loss_function(config))()
    return step


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


def time_steps(steps: dict, setup: LabSetup) -> dict:
    """Each ``train_step`` of ``steps`` timed in ``setup.rounds`` interleaved rounds (a busy moment slows them
    alike), on a model of its own after one warm-up step; ``{name: (fastest seconds, spread)}``, the spread
    being the median round over the fastest, less one. Lab 06."""
    runs = {}
    for name, step in steps.items():
        model, optimizer = new_model(setup.shape, setup.device)
        x, y = batches(setup)[0]
        step(model, optimizer, x, y)  # warm-up: the optimizer's state exists from here on
        runs[name] = (step, model, optimizer, x, y)
    seconds = {name: [] for name in steps}
    for _ in range(setup.rounds):
        for name, (step, model, optimizer, x, y) in runs.items():
            start = time.perf_counter()
            step(model, optimizer, x, y)
            if str(setup.device).startswith("cuda"):
                torch.cuda.synchronize()
            seconds[name].append(time.perf_counter() - start)
    return {name: (min(t), statistics.median(t) / min(t) - 1) for name, t in seconds.items()}


def time_plans(plans: list[tuple], setup: LabSetup | None = None) -> dict[tuple, float]:
    """Lab 06's helper for the learner: each plan run by lesson 06's code, timed in interleaved rounds;
    ``{plan: fastest seconds}``, printed."""
    setup = setup if setup is not None else lab_setup()
    timed = {plan: best for plan, (best, _) in time_steps({p: plan_step(p) for p in plans}, setup).items()}
    for plan, seconds in timed.items():
        print(f"{describe_plan(plan)}: {seconds * 1e3:.1f} ms a step{setup.label}")
    return timed


def _plan(choose: Callable, setup: LabSetup) -> tuple:
    plan = choose()
    checks.expect(isinstance(plan, (tuple, list)) and len(plan) == 2,
                  f"choose() should return (checkpointing, micro_batches), got {plan!r}")
    checkpointing, micro = plan
    checks.expect(checkpointing in CHECKPOINTING, f"checkpointing={checkpointing!r}: choose one of "
                                                  f"{CHECKPOINTING}")
    checks.expect(micro in MICRO_BATCHES, f"{micro} micro-batches: this lab allows {MICRO_BATCHES} (smaller "
                                          "micro-batches leave a GPU's matmuls too small to run well)")
    return checkpointing, micro


def check_predictions(predict: Callable, setup: LabSetup | None = None, show: bool = True) -> checks.Verdict:
    """Lab 06: ``predict(checkpointing, micro_batches)`` is the calculator's ``Budget`` of that plan for the
    lab's model and batch, for every candidate plan."""
    setup = setup if setup is not None else lab_setup()

    def body():
        for plan in setup.plans():
            predicted = predict(*plan)
            checks.expect(isinstance(predicted, Budget), f"predict{plan} should return the calculator's Budget "
                                                         f"(from estimate), got {type(predicted).__name__}")
            config = predicted.config
            checks.expect(config["shape"] == setup.shape and config["batch"] == setup.batch,
                          f"predict{plan} is for another model or batch ({config['batch']} sequences): the "
                          f"calculator's batch is the whole step's, {setup.batch} sequences; the micro-batches "
                          "are a separate argument")
            checks.expect(config["strategy"] == "one device" and config["precision"] == "fp32",
                          "this lab's plans run on one device in fp32 (another precision changes the loss)")
            said = (config["checkpointing"], config["micro_batches"])
            checks.expect(said == tuple(plan), f"predict{plan} predicted the plan {said}: pass the plan's "
                                               "checkpointing and micro-batches on to the calculator")
        fits = "; ".join(describe_plan(p) for p in setup.fitting())
        return f"{len(setup.plans())} plans predicted; under the budget by the calculator: {fits}"

    return checks.run_check("predictions", body, show=show, hint=checks.stub_message(BANK, "A"))


def check_fits(predict: Callable, choose: Callable, train_step: Callable, setup: LabSetup | None = None,
               show: bool = True) -> checks.Verdict:
    """Lab 06: the chosen plan fits the budget by its prediction, the learner's step measures within 10% of
    that prediction, and under the budget."""
    setup = setup if setup is not None else lab_setup()

    def body():
        plan = _plan(choose, setup)
        predicted = predict(*plan).peak
        alone = " (no single technique fits this budget: combine them)" if 1 in (plan[1], int(not plan[0])) else ""
        checks.expect(predicted <= setup.budget,
                      f"by your own prediction {describe_plan(plan)} needs {predicted / MB:.1f} MB, over the "
                      f"budget of {setup.budget / MB:.1f} MB{alone}")
        peak = measured_peak(lambda m, o, x, y: (lambda: train_step(m, o, x, y)), setup)
        error = (predicted - peak) / peak
        checks.expect(abs(error) <= setup.prediction_tolerance,
                      f"you predicted {predicted / MB:.1f} MB for {describe_plan(plan)}; your step measured "
                      f"{peak / MB:.1f} MB ({error:+.0%}, more than {setup.prediction_tolerance:.0%} off)"
                      f"{setup.label}: does train_step run the plan you chose?")
        checks.expect(peak <= setup.budget,
                      f"your step's peak measured {peak / MB:.1f} MB, over the budget of {setup.budget / MB:.1f} "
                      f"MB by {(peak - setup.budget) / MB:.1f} MB{setup.label}")
        return (f"{describe_plan(plan)}: predicted {predicted / MB:.1f} MB, measured {peak / MB:.1f} MB "
                f"({error:+.1%}){setup.label}; budget {setup.budget / MB:.1f} MB")

    return checks.run_check("fits the budget, as predicted", body, show=show, hint=checks.stub_message(BANK, "C"))


def check_same_training(train_step: Callable, setup: LabSetup | None = None, show: bool = True) -> checks.Verdict:
    """Lab 06: the loss after ``steps`` steps of the learner's step equals the step as given's."""
    setup = setup if setup is not None else lab_setup()

    def body():
        mine, target = final_loss(train_step, setup), baseline_loss(setup)
        gap = abs(mine - target) / target
        checks.expect(gap <= setup.loss_tolerance,
                      f"after {setup.steps} steps your loss is {mine:.4f}, the step as given reaches {target:.4f} "
                      f"({gap:.2%} apart; at most {setup.loss_tolerance:.1%}): the step must train on the whole "
                      f"batch with one optimizer step, each piece's gradient a share of the batch's mean")
        return f"loss after {setup.steps} steps {mine:.4f}, the step as given's {target:.4f} ({gap:.1e} apart)"

    return checks.run_check("same training", body, show=show, hint=checks.stub_message(BANK, "C"))


def check_least_time(choose: Callable, setup: LabSetup | None = None, show: bool = True,
                     timer: Callable = time_steps) -> checks.Verdict:
    """Lab 06: the chosen plan, timed in the same rounds as every plan that fits (each run by lesson 06's code,
    so the plans and not their code are compared), no more than ``setup.time_margin`` slower than the fastest
    of them (``timer``; tests pass a fake one)."""
    setup = setup if setup is not None else lab_setup()

    def body():
        plan = _plan(choose, setup)
        fitting = setup.fitting()
        checks.expect(plan in fitting, f"{describe_plan(plan)} does not fit the budget by the calculator: "
                                       "choose among the plans that fit")
        measured = timer({p: plan_step(p) for p in fitting}, setup)
        timed = {p: v[0] if isinstance(v, tuple) else v for p, v in measured.items()}
        fastest = min(fitting, key=lambda p: timed[p])
        ratio = timed[plan] / timed[fastest]
        # a busy machine's rounds widen the margin, up to MAX_MARGIN: a plan that much slower is slower
        spread = max((v[1] for p, v in measured.items() if p in (plan, fastest) and isinstance(v, tuple)),
                     default=0.0)
        margin = min(max(setup.time_margin, spread), MAX_MARGIN)
        others = "; ".join(f"{describe_plan(p)}: {timed[p] * 1e3:.0f} ms" for p in fitting)
        checks.expect(ratio <= 1 + margin,
                      f"your plan ({describe_plan(plan)}) took {timed[plan] * 1e3:.0f} ms a step, {ratio - 1:.0%} "
                      f"slower than the fastest plan that fits, {describe_plan(fastest)} "
                      f"({timed[fastest] * 1e3:.0f} ms; margin {margin:.0%}){setup.label}. Saving more "
                      "memory than the budget asks, or recomputing more, costs time: measure the plans that fit "
                      f"before choosing ({others})")
        return (f"your plan, {describe_plan(plan)}: {timed[plan] * 1e3:.0f} ms a step, {ratio:.2f}x the fastest "
                f"plan that fits (margin {margin:.0%}){setup.label} ({others})")

    return checks.run_check("least time cost", body, show=show, hint=checks.stub_message(BANK, "B"))
