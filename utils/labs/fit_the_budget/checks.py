"""Lab 06 (``labs/06_fit_the_budget.ipynb``), fit the budget: the checks of the learner's plan search and step
(exercise B's check of the blocks to checkpoint is in ``blocks.py``).

A device of a stated capacity, a margin to keep free, and lesson 06's GPT with a vocabulary large enough that
its cross-entropy is a line of its own. No single technique fits; combinations of three (checkpointing: none,
selective, every block; 1, 2 or 4 micro-batches; a plain or a chunked cross-entropy) do, at different time
costs. The learner writes:

- ``choose(capacity, costs, predict)``: the plan ``(checkpointing, micro_batches, loss_chunks)`` whose
  predicted peak leaves the margin free, at the least time cost under an additive cost model, found with at
  most ``PREDICTIONS`` of the calculator's predictions (``predict(plan)``) for 18 plans: reasoning from what
  each technique does to the step's lines, not pricing every plan;
- ``fewest_checkpoints(shape, batch, usable)`` (exercise B, ``blocks.py``): the fewest blocks to checkpoint;
- ``train_step(model, optimizer, x, y, plan)``: one optimizer step on the whole batch in that plan, with the
  lab's ``plan_loss`` (``losses.py``), on a batch its micro-batches do not divide and that ends in padding.

    SETUP = lab_setup()                      # this machine's model, batch, capacity, margin
    COSTS = technique_costs(SETUP)           # each technique's extra time here, measured
    check_choice(choose, SETUP, COSTS)       # on this machine's case and on cases the learner never sees
    check_step(train_step, choose, SETUP, COSTS)   # parameters after an SGD step; measured peaks as predicted

Each learner function is called inside a check, so an unfinished exercise reports "not done yet" and a wrong
type or shape is reported, never raised into the notebook.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable
from dataclasses import dataclass

import torch

from utils import checks, claims
from utils.labs.fit_the_budget.losses import PAD
from utils.lessons.memory import calculator
from utils.lessons.memory.calculator import Budget, Shape, estimate
from utils.lessons.memory.measure import (batch_of, checkpointed_loss, interleaved_rounds, measure_peak,
                                          new_model, plain_loss, step_ratio, training_step)
from utils.lessons.memory.plan import Settings, current_settings
from utils.lessons.memory.tricks import LOSS_CHUNKS, chunked_loss, selective_loss

BANK = "labs/fit_the_budget"  # the lab's hints: utils/labs/fit_the_budget/hints.toml
MB = 1e6
CHECKPOINTING = (False, "selective", True)  # none, selective (lesson 06), every block
MICRO_BATCHES = (1, 2, 4)  # at most 4: smaller micro-batches leave a GPU's matmuls too small to run well
LOSS_CHUNKS_CHOICES = (1, LOSS_CHUNKS)  # the plain cross-entropy, or lesson 06's chunked one
VOCAB_FACTOR = 12  # the lab's vocabulary: lesson 06's times 12, so the cross-entropy's B·T·V line matters
MARGIN = 0.10  # the share of the capacity a plan must leave free (fragmentation, a longer batch, ...)
NAMES = {False: "no checkpointing", "selective": "selective checkpointing", True: "checkpointing every block"}
COST_KEYS = ("selective", "every block", "chunked loss", "micro-batch")
NOISE_FLOOR = 0.02   # the course's least timing noise (lessons 05, 06): rounds agreeing closer prove no more
PREDICTIONS = 7  # predictions choose() may make a case: fewer than half the 18 plans (exercise A)
# Cases the learner's choose() never sees: another model (changes to the lab's shape), a capacity near a share of
# its step as given's peak, and costs. Each makes a different plan the cheapest: where recomputation is dear,
# where micro-batches are, where both are cheap.
HIDDEN_CASES = (
    (dict(depth=6), 0.62, {"selective": 0.04, "every block": 0.30, "chunked loss": 0.05, "micro-batch": 0.20}),
    (dict(width=96), 0.50, {"selective": 0.15, "every block": 0.20, "chunked loss": 0.02, "micro-batch": 0.03}),
    (dict(vocab=2), 0.45, {"selective": 0.02, "every block": 0.35, "chunked loss": 0.25, "micro-batch": 0.08}),
    (dict(depth=3), 0.62, {"selective": 0.10, "every block": 0.12, "chunked loss": 0.40, "micro-batch": 0.30}),
)
# In cpu mode the CPU stands in for a GPU, yet its peaks (torch's MemTracker) and times are measured, not
# simulated: the lab's figures say where they were measured.
CPU_LABEL = " (on the CPU)"
GAP = 1.08  # a hidden capacity sits between two plans' peaks at least 8 % apart: no plan within 4 % of its edge


@dataclass(frozen=True)
class LabSetup:
    """The lab's model, batch, device capacity and margin; ``lab_setup(settings)`` makes them."""

    shape: Shape
    batch: int
    device: str
    capacity: float  # bytes the device holds
    margin: float = MARGIN  # the share of the capacity a plan leaves free
    rounds: int = 5  # interleaved rounds of technique_costs
    label: str = ""

    @property
    def usable(self) -> float:
        return (1 - self.margin) * self.capacity

    def describe(self) -> str:
        lowest = min(predicted(self, p).peak for p in plans() if techniques(p) <= 1)
        return (f"a GPT of {self.shape.describe()};\n{self.batch} sequences a step on {self.device}; "
                f"capacity {self.capacity / MB:.1f} MB, of which {self.margin:.0%} must stay free: "
                f"{self.usable / MB:.1f} MB usable;\nthe least a single technique needs (the calculator): "
                f"{lowest / MB:.1f} MB, {claims.printed_ratio(lowest, self.usable, 1, MB) - 1:.0%} more")


def plans() -> list[tuple]:
    """Every plan the lab allows: (checkpointing, micro_batches, loss_chunks)."""
    return list(itertools.product(CHECKPOINTING, MICRO_BATCHES, LOSS_CHUNKS_CHOICES))


def describe_plan(plan: tuple) -> str:
    c, m, k = plan
    loss = f"chunked cross-entropy ({k})" if k > 1 else "plain cross-entropy"
    return f"{NAMES.get(c, c)}, {m} micro-batch{'es' if m > 1 else ''}, {loss}"


def predicted(setup: LabSetup, plan: tuple) -> Budget:
    c, m, k = plan
    return estimate(setup.shape, setup.batch, checkpointing=c, micro_batches=m, loss_chunks=k)


def plan_cost(plan: tuple, costs: dict) -> float:
    """The lab's additive cost model: a step's time over the plain step's, each technique adding its share."""
    c, m, k = plan
    extra = {False: 0.0, "selective": costs["selective"], True: costs["every block"]}[c]
    return 1 + extra + costs["chunked loss"] * (k > 1) + costs["micro-batch"] * (m - 1)


def printed_cost(plan: tuple, costs: dict) -> float:
    """``plan_cost`` priced from the costs as the cost table prints them (whole percents, rounded half up as
    ``claims.signed_percent`` prints them: +13% is 0.13, 12.5% is +13%), so that a reader who adds the printed
    costs finds the plan's printed cost (1 + 0.13 + 0.02 = 1.15x). Every figure of a plan's cost the lab prints
    comes from here; ``plan_cost`` (unrounded) only ranks plans."""
    shown = {name: claims.printed_percent(c) / 100 for name, c in costs.items()}
    return claims.half_up(plan_cost(plan, shown), 2)


def costs_apart(plan: tuple, other: tuple) -> int:
    """How many measured costs two plans' ``plan_cost`` sums differ in (cell 8's rule: what they share cancels
    in their gap): selective against every block is two, one plan without chunking against one with it one."""
    def terms(p):
        return (p[0] == "selective", p[0] is True, p[2] > 1, p[1] - 1)   # the coefficient of each cost
    return sum(x != y for x, y in zip(terms(plan), terms(other)))


def techniques(plan: tuple) -> int:
    c, m, k = plan
    return (c is not False) + (m > 1) + (k > 1)


def lab_setup(settings: Settings | None = None) -> LabSetup:
    """Lab 06's sizes from lesson 06's settings (by default this machine's), the vocabulary larger: the usable
    memory (the capacity less the margin) sits 3 % under the least any single technique reaches, so that only
    a combination fits. Lab 06."""
    s = settings if settings is not None else current_settings()
    shape = dataclasses.replace(s.shape, vocab=VOCAB_FACTOR * s.shape.vocab)
    setup = LabSetup(shape, s.batch, s.device, capacity=0.0, label=CPU_LABEL if s.simulated else s.label)
    lowest_single = min(predicted(setup, p).peak for p in plans() if techniques(p) <= 1)
    return dataclasses.replace(setup, capacity=0.97 * lowest_single / (1 - MARGIN))


def hidden_setups(setup: LabSetup) -> list[tuple[LabSetup, dict]]:
    """The cases choose() is checked on besides this machine's: other models, capacities and costs (lab 06). A
    case's model is the lab's with some fields changed (``vocab``: a factor on the lab's vocabulary); its
    capacity leaves usable the middle of the gap between two plans' peaks (``GAP``) nearest the case's share of
    its step as given's peak, so that no plan is a rounding away from fitting."""
    cases = []
    for changes, share, costs in HIDDEN_CASES:
        changes = {k: v * setup.shape.vocab if k == "vocab" else v for k, v in changes.items()}
        model = dataclasses.replace(setup, shape=dataclasses.replace(setup.shape, **changes))
        peaks = sorted(predicted(model, p).peak for p in plans())
        gaps = [(low + high) / 2 for low, high in zip(peaks, peaks[1:]) if high >= GAP * low]
        usable = min(gaps, key=lambda middle: abs(middle - share * (1 - setup.margin) * peaks[-1]))
        cases.append((dataclasses.replace(model, capacity=usable / (1 - setup.margin)), costs))
    return cases


def predictor(setup: LabSetup) -> Callable:
    """``predict(plan) -> Budget``: lesson 06's calculator for the case's model and batch, a plan at a time,
    given to the learner's ``choose`` (lab 06). A plan of another form fails the check, saying why."""
    def predict(plan) -> Budget:
        return predicted(setup, _as_plan(plan, "predict(plan)"))
    return predict


class CountedPredictions:
    """Counts the calculator's predictions made while it is active, however they are made (through ``predict``
    or by calling ``estimate`` directly): every estimate prices its activations once (lab 06)."""

    def __init__(self):
        self.calls = 0

    def __enter__(self) -> "CountedPredictions":
        self._original = calculator.activation_bytes

        def counted(*args, **kwargs):
            self.calls += 1
            return self._original(*args, **kwargs)

        calculator.activation_bytes = counted
        return self

    def __exit__(self, *_) -> None:
        calculator.activation_bytes = self._original


def cheapest(setup: LabSetup, costs: dict) -> tuple[float, list[tuple]]:
    """The least cost of a plan that leaves the margin free, and every plan at that cost."""
    fitting = [p for p in plans() if predicted(setup, p).peak <= setup.usable]
    if not fitting:
        return float("inf"), []
    best = min(plan_cost(p, costs) for p in fitting)
    return best, [p for p in fitting if plan_cost(p, costs) <= best + 1e-9]


# --- What the lab measures for the learner -----------------------------------------------------------------


def _lesson_loss(checkpointing, loss_chunks: int) -> Callable:
    """Lesson 06's loss for one technique alone (the lab times each technique by itself)."""
    if loss_chunks > 1:
        return chunked_loss
    return {"selective": selective_loss, True: checkpointed_loss}.get(checkpointing, plain_loss)


def technique_costs(setup: LabSetup | None = None) -> dict[str, float]:
    """Each technique's extra time over the plain step, measured here with lesson 06's code: steps taking turns
    in interleaved rounds, read pair by pair (``measured_shares``).
    ``{"selective", "every block", "chunked loss", "micro-batch"}``
    (shares of the plain step; "micro-batch" is what each micro-batch beyond the first adds). Lab 06."""
    return costs_of(technique_rounds(setup))


def technique_rounds(setup: LabSetup | None = None) -> dict[str, list[float]]:
    """Seconds of each technique's step alone and of the plain step, in each of ``setup.rounds`` interleaved
    rounds (``costs_of`` makes the costs; ``selective_against_every_block`` pairs two of them). Lab 06."""
    setup = setup if setup is not None else lab_setup()
    singles = {"plain": (False, 1, 1), "selective": ("selective", 1, 1), "every block": (True, 1, 1),
               "chunked loss": (False, 1, LOSS_CHUNKS), "micro-batch": (False, 2, 1)}
    calls = {}
    for name, (c, m, k) in singles.items():
        model, optimizer = new_model(setup.shape, setup.device)
        x, y = batch_of(setup.shape, setup.batch, setup.device)
        calls[name] = training_step(model, optimizer, x, y, micro_batches=m, loss_fn=_lesson_loss(c, k))
    return interleaved_rounds(calls, setup.device, repeats=setup.rounds)


def costs_of(rounds: dict[str, list[float]]) -> dict[str, float]:
    """The costs from ``technique_rounds`` for the cost model: ``measured_shares``, a technique measured
    faster than the plain step counted as costing nothing (``measured_shares`` keeps the sign, for printing)."""
    return {name: max(0.0, share) for name, share in measured_shares(rounds).items()}


def measured_shares(rounds: dict[str, list[float]]) -> dict[str, float]:
    """Each technique's step time over the plain step's, less 1, with its sign: the median of their paired
    rounds' ratios (lesson 06's ``step_ratio``), never the fastest round of each divided, two best cases met
    at different moments of the machine's load (lesson 07 rests no verdict on such a ratio)."""
    return {name: claims.half_up(step_ratio(rounds, name, "plain")[0] - 1, 2) for name in COST_KEYS}


def selective_against_every_block(rounds: dict[str, list[float]]) -> str:
    """Selective checkpointing's cost against every block's by cell 8's rule (as ``_beyond_noise``): the gap of
    their printed costs against the table's noise (``cost_noise``) once for each of the two costs in it."""
    shares = measured_shares(rounds)
    # each cost read back from the table's own percent ("+16%": 1.16), so that the sum is the reader's
    selective, every = (1 + int(f"{claims.signed_percent(shares[k])}"[:-1]) / 100 for k in ("selective", "every block"))
    noise = cost_noise(rounds)
    # the noise twice: the gap is two separately measured costs, nothing shared cancels (t38: once was looser
    # than the take-aways' bar for the same kind of gap)
    allowed = claims.as_printed(costs_apart(("selective", 1, 1), (True, 1, 1)) * noise, 2)
    (high, dear), (low, cheap) = sorted([(selective, "selective"), (every, "every block")], reverse=True)
    gap = claims.as_printed(high - low, 2)   # the reader's subtraction of the two printed costs
    figures = (f"{dear} {high:.2f} - {cheap} {low:.2f} = {gap:.2f} against ± {allowed:.2f}, the ± {noise:.2f} "
               "for each cost; each cost is 1 + its share above")
    if claims.within_noise(gap, allowed, 0.0):  # one colon: t24_labs48 read four in one sentence
        return f"selective checkpointing against every block here: no effect shown, within the cost table's noise " \
               f"({figures}). " + _selective_within_noise(selective, every, gap, allowed)
    if selective > every:
        return (f"selective checkpointing cost more than every block here, beyond the cost table's noise ({figures}): "
                "it saves recomputing the matmuls, which pays only where they dominate a block's time, and its "
                f"policy runs at every operation (lesson 06 §2){_NOT_TIMED.format('s')}")
    return (f"selective checkpointing cost less than every block here, beyond the cost table's noise ({figures}): "
            f"keeping its matmuls' outputs saves recomputing them (lesson 06 §2){_NOT_TIMED.format('')}")


# the reasons above are lesson 06's, read onto this run's costs: the lab times whole steps, not their parts
_NOT_TIMED = ": the likely reason{}, not timed apart here"


# why selective need not be the cheaper checkpointing (lesson 06 section 2), for a gap within the noise; what it
# saves comes first, named as what backward no longer does (thirty-second reading: "what it saves, recomputing the
# matmuls" read as though selective recomputes them); {} is how the gap stood to the noise (``_against_noise``)
_SELECTIVE_WHY = ("keeping the matmuls' outputs spares backward recomputing them, which pays off only where they "
                  "take most of a block's time, and its policy costs something at every operation (lesson 06 "
                  "§2); here the two together came to {} the noise")


def _against_noise(gap: float, noise: float) -> tuple[str, str]:
    """How a printed gap within the noise stood to it: strictly less, or equal to it, a bound being a ceiling
    (thirty-fourth reading: "by less than the noise" beside 0.02 against ± 0.02). The side's words and the
    reason's, as ("by less than the noise", "less than") or ("at the edge of the noise", "no more than")."""
    if round(gap - noise, 9) < 0:   # both as printed; rounded as ``claims.within_noise`` rounds a tie
        return "by less than the noise", "less than"
    return "at the edge of the noise", "no more than"


def _selective_within_noise(selective: float, every: float, gap: float, noise: float) -> str:
    """Why selective checkpointing, the one lesson 06 keeps more outputs in, did not show cheaper than every
    block here, by the side its printed cost fell on (twenty-ninth reading: +16% beside +13% read as a
    contradiction to a learner from lesson 06), and by how the printed ``gap`` stood to the ``noise``. Called
    only where the gap is within the table's noise."""
    by, came_to = _against_noise(gap, noise)
    if selective > every:
        side = f"Selective measured dearer, not cheaper, {by}"
    elif selective < every:
        side = f"Selective measured cheaper, but {by}"
    else:
        side = "Selective measured the same as every block"
    return f"{side}: {_SELECTIVE_WHY.format(came_to)}"


def cost_noise(rounds: dict[str, list[float]]) -> float:
    """The cost table's one noise, as printed (two decimals): the largest spread of the paired rounds its
    medians come from (each technique against the plain step, and selective against every block: lesson 06's
    ``step_ratio``), at least ``NOISE_FLOOR``. Lab 06."""
    pairs = [(name, "plain") for name in COST_KEYS] + [("selective", "every block")]
    return max(step_ratio(rounds, a, b, floor=NOISE_FLOOR)[1] for a, b in pairs)


def noise_side(ratio: float, spread: float, rounds: list[float]) -> tuple[str | None, str]:
    """Which side of 1x a ratio of two steps' times lies on beyond the rounds' noise, as the course's verdict
    (``claims.speedup_verdict``, given the paired ``rounds``) reads ``ratio ± spread`` as printed: "above",
    "below", or None where it says "within noise"; and the verdict's note where every round decided it
    (e.g. "; every round below 1.00x"), else "". Lab 06."""
    verdict = claims.speedup_verdict(ratio, spread=spread, rounds=rounds)
    if verdict.startswith("within noise") or ratio == 1:
        return None, ""
    note = verdict[verdict.index("(every round") + 1:-1] if "(every round" in verdict else ""
    return ("above" if ratio > 1 else "below"), (f"; {note}" if note else "")


def describe_costs(costs: dict, rounds: dict[str, list[float]] | None = None) -> str:
    """The costs as shares of the plain step; the micro-batch's is what each one beyond the first adds. Given
    the cost table's ``rounds``, the shares as measured, signed and read against the table's noise
    (``cost_noise``, printed with where it comes from): "no effect shown" within it, and a negative one beyond
    it beside the 0 the cost model counts."""
    if not rounds:
        return ", ".join(_name(name) + _signed(costs[name]) for name in COST_KEYS)
    shares, noise = measured_shares(rounds), cost_noise(rounds)
    return (", ".join(_name(name) + _signed(shares[name], noise) for name in COST_KEYS) +
            f"; the table's noise ± {noise:.2f} of the plain step (the largest spread of its paired rounds, "
            f"a spread being half the range of their middle half; at least {NOISE_FLOOR:.2f})")


def _name(name: str) -> str:
    return {"micro-batch": "each extra micro-batch"}.get(name, name)


def _signed(share: float, noise: float = 0.0) -> str:
    """A measured share of the plain step's time, after its name: " +14%", " 0% (no gap)" (0% as printed),
    " -1% (within the noise: no effect shown; the cost model counts 0)" where the table's ``noise`` covers it
    (" +5% (...; the cost model still counts it)" above 0),
    or " -5% (measured faster ..., beyond the table's noise; the cost model counts 0: ...)" (``costs_of``)."""
    if claims.as_printed(share, 2) == 0:   # printed as a whole percent: 0.4 % reads 0%
        return " 0% (no gap)"
    if claims.as_printed(abs(share), 2) <= noise:
        # the cost model clamps negative costs, and prices a positive one as measured, noise or not (t31 #5)
        counted = "; the cost model counts 0" if share < 0 else "; the cost model still counts it"
        return f" {claims.signed_percent(share)} (within the noise: no effect shown{counted})"
    faster = (" (measured faster than the plain step, beyond the table's noise; the cost model counts 0: it never "
              "credits a technique with a saving)") if share < 0 else ""
    return f" {claims.signed_percent(share)}{faster}"


def _as_plan(plan, where: str) -> tuple:
    """The learner's plan as a tuple, or a failed check saying what is wrong with it."""
    checks.expect(isinstance(plan, (tuple, list)) and len(plan) == 3,
                  f"{where} should return (checkpointing, micro_batches, loss_chunks), got {plan!r}")
    c, m, k = plan
    checks.expect(any(c is x for x in CHECKPOINTING) or c == "selective",
                  f"{where}: checkpointing={c!r}, not one of {CHECKPOINTING}")
    checks.expect(m in MICRO_BATCHES, f"{where}: {m!r} micro-batches, this lab allows {MICRO_BATCHES}")
    checks.expect(k in LOSS_CHUNKS_CHOICES, f"{where}: loss_chunks={k!r}, this lab allows {LOSS_CHUNKS_CHOICES}")
    return (True if c is True else c, m, k)


def _judge_choice(plan: tuple, setup: LabSetup, costs: dict, case: str, lab: LabSetup | None = None) -> None:
    """Fails naming the mistake in the learner's plan for one case; never names the right plan. ``lab``: the
    lab's own model at this case's capacity, for a hidden case: where the plan is the answer for it, the
    learner priced the wrong model, and the message says so."""
    peak = predicted(setup, plan).peak
    wrong_model = lab is not None and plan in cheapest(dataclasses.replace(lab, capacity=setup.capacity), costs)[1]
    model = (" (this case's model is not the lab's: price it with the predict your function is given)"
             if wrong_model else ": was the plan predicted before it was returned?")
    checks.expect(peak <= setup.capacity,
                  f"{case}: {describe_plan(plan)} is predicted at {peak / MB:.1f} MB, over the capacity of "
                  f"{setup.capacity / MB:.1f} MB{model}" + ("" if wrong_model else
                  " And did a rule of yours take off more than the plan's techniques do together?"))
    checks.expect(peak <= setup.usable,
                  f"{case}: {describe_plan(plan)} is predicted at {peak / MB:.1f} MB, under the capacity but "
                  f"leaving {1 - claims.printed_ratio(peak, setup.capacity, 1, MB):.0%} free, less than the "
                  f"{setup.margin:.0%} margin{model}")
    best, cheapest_plans = cheapest(setup, costs)
    mine = plan_cost(plan, costs)   # ranks unrounded; the message prints the cost a reader adds up (printed_cost)
    checks.expect(mine <= best + 1e-9,
                  f"{case}: {describe_plan(plan)} fits, at {printed_cost(plan, costs):.2f}x the plain step's time "
                  f"by the cost model; a plan that costs less fits too{_less_unrounded(plan, cheapest_plans, costs)} "
                  f"(costs: {describe_costs(costs)})"
                  f"{model if wrong_model else ''}. Saving more memory than the margin asks costs time: which "
                  "plans did your reasoning rule out that would have fitted, and in what order did you consider "
                  "them?")


def _less_unrounded(plan: tuple, cheapest_plans: list[tuple], costs: dict) -> str:
    """Where the cheaper plan prints at the learner's plan's cost (both rounded to 0.01x), why it is still
    cheaper: the costs the learner's function is given are unrounded; else ""."""
    if not cheapest_plans or printed_cost(cheapest_plans[0], costs) != printed_cost(plan, costs):
        return ""
    return (" (it prints at the same cost, being cheaper by less than 0.01x: the costs your function is given "
            "are unrounded)")


def check_choice(choose: Callable, setup: LabSetup | None = None, costs: dict | None = None,
                 show: bool = True) -> checks.Verdict:
    """Lab 06: ``choose(capacity, costs, predict)`` returns a plan that leaves the margin free at the least cost,
    for this machine's case and for hidden cases (other models, capacities and costs), making no more than
    ``PREDICTIONS`` of the calculator's predictions a case (counted however they are made)."""
    setup = setup if setup is not None else lab_setup()
    costs = costs if costs is not None else HIDDEN_CASES[0][2]

    def body():
        cases = [("this machine", setup, costs)]
        cases += [(f"hidden case {i + 1} (another model; capacity {s.capacity / MB:.1f} MB)", s, c)
                  for i, (s, c) in enumerate(hidden_setups(setup))]
        used = []
        for case, s, c in cases:
            with CountedPredictions() as counted:
                answer = choose(s.capacity, dict(c), predictor(s))
            plan = _as_plan(answer, f"choose() for {case}")
            checks.expect(counted.calls <= PREDICTIONS,
                          f"choose() for {case} made {counted.calls} of the calculator's predictions; it may make "
                          f"{PREDICTIONS} of the {len(plans())} plans. Pricing plan after plan is a search, not a "
                          "plan: what does each technique do to the step's lines, and which plans does that rule "
                          "in or out before you predict them?")
            _judge_choice(plan, s, c, case, lab=setup if s is not setup else None)
            used.append(counted.calls)
        plan = _as_plan(choose(setup.capacity, dict(costs), predictor(setup)), "choose()")
        peak = predicted(setup, plan).peak
        predictions = f"{min(used)}" if min(used) == max(used) else f"{min(used)} to {max(used)}"
        return (f"{len(cases)} cases, each the least cost that leaves {setup.margin:.0%} free, with "
                f"{predictions} of the calculator's predictions a case. Here: {describe_plan(plan)}, predicted "
                f"{peak / MB:.1f} MB of {setup.usable / MB:.1f} MB usable, {printed_cost(plan, costs):.2f}x the "
                "plain step's time by the cost model")

    return checks.run_check("choice", body, show=show, hint=checks.stub_message(BANK, "A"))


def padded(y: torch.Tensor, seed: int) -> torch.Tensor:
    """``y`` with the end of each sequence marked ``PAD``: each sequence keeps between a quarter of its tokens and
    all of them, drawn by ``seed``, so that micro-batches hold different numbers of tokens that count."""
    g = torch.Generator().manual_seed(seed)
    keep = torch.randint(y.shape[1] // 4, y.shape[1] + 1, (y.shape[0],), generator=g).to(y.device)
    positions = torch.arange(y.shape[1], device=y.device)
    return torch.where(positions[None, :] < keep[:, None], y, torch.full_like(y, PAD))


def _params(model) -> torch.Tensor:
    return torch.cat([p.detach().reshape(-1).cpu() for p in model.parameters()])


def _sgd_step(setup: LabSetup, x, y, run: Callable, left: list | None = None) -> torch.Tensor:
    """The parameters after one SGD step made by ``run(model, optimizer)``: SGD, unlike AdamW, shows a gradient
    that is scaled wrong. ``left`` receives the names of the parameters whose gradient the step left non-zero
    (the next step would add to it)."""
    model, _ = new_model(setup.shape, setup.device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
    run(model, optimizer)
    if left is not None:
        left.extend(name for name, p in model.named_parameters() if p.grad is not None and p.grad.any())
    return _params(model)


def off_prediction(peak: float, predicted_peak: float) -> float:
    """How far a measured peak lies off the calculator's prediction, worked from the two MB as printed (28.1
    against 27.8: +1%) and rounded half up to whole percent, as a reader redoes it."""
    return claims.half_up(claims.printed_ratio(peak, predicted_peak, 1, MB) - 1, 2)


def check_step(train_step: Callable, choose: Callable, setup: LabSetup | None = None, costs: dict | None = None,
               show: bool = True, tolerance: float = 0.10) -> checks.Verdict:
    """Lab 06: ``train_step(model, optimizer, x, y, plan)``, for the chosen plan and two others, moves the
    parameters as one SGD step on the whole batch does, and its measured peak is at most ``tolerance`` over
    the calculator's prediction (and at most 35 % under it: a step that saves more than its plan runs another
    plan); the chosen plan's measured peak leaves the margin free."""
    setup = setup if setup is not None else lab_setup()
    costs = costs if costs is not None else HIDDEN_CASES[0][2]

    def body():
        chosen = _as_plan(choose(setup.capacity, dict(costs), predictor(setup)), "choose()")
        others = [p for p in ((True, 4, 1), ("selective", 2, LOSS_CHUNKS), (False, 2, LOSS_CHUNKS)) if p != chosen]
        # A batch the micro-batches do not divide evenly (4 micro-batches of 14 sequences: 4, 4, 4, 2), its
        # sequences ending in padding of different lengths: micro-batches hold different numbers of counted tokens
        x, y = batch_of(setup.shape, max(setup.batch - 2, 6), setup.device, seed=7)
        y = padded(y, seed=7)
        start = _params(new_model(setup.shape, setup.device)[0])
        want = _sgd_step(setup, x, y, lambda m, o: training_step(m, o, x, y)())
        lines = []
        for plan in [chosen] + others[:2]:
            where = f"train_step(..., {plan}) on {len(x)} sequences"
            left = []
            got = _sgd_step(setup, x, y, lambda m, o: train_step(m, o, x, y, plan), left)
            moved, should = (got - start).norm().item(), (want - start).norm().item()
            checks.expect(moved > 0, f"{where} left the parameters as they were: does it call optimizer.step()?")
            if not torch.allclose(got, want, rtol=1e-3, atol=1e-5):
                for weighing, mistake in _WEIGHINGS.items():
                    other = _sgd_step(setup, x, y, lambda m, o: _weighed_step(m, o, x, y, plan[1], weighing))
                    checks.expect(not torch.allclose(got, other, rtol=1e-3, atol=1e-5), f"{where}: {mistake}")
                checks.expect(False, f"{where}: after one SGD step the parameters differ from one step on the "
                                     f"whole batch (the update is {moved / should:.3g}x as large): the gradients "
                                     "added up must be the whole batch's mean over its counted tokens, and the "
                                     "optimizer steps once")
            checks.expect(not left, f"{where} left gradients in {len(left)} parameters after its step: the next "
                                    "step would add its own to them. What must happen to the gradients once the "
                                    "optimizer has used them?")
            peak = _measured(train_step, plan, setup)
            want_peak = predicted(setup, plan).peak
            error = off_prediction(peak, want_peak)
            measured = f"{where} measured {peak / MB:.1f} MB, {claims.signed_percent(error)}"
            said = f"the calculator's prediction ({want_peak / MB:.1f} MB){setup.label}"
            checks.expect(error <= tolerance,
                          f"{measured} over {said}: does the step run every technique of the plan?")
            checks.expect(error >= -0.35,
                          f"{measured} under {said}: it saves more than its plan, so it runs another plan")
            lines.append((plan, peak, error, want_peak))
        plan, peak, error, want_peak = lines[0]
        checks.expect(peak <= setup.usable,
                      f"your plan's step measured {peak / MB:.1f} MB{setup.label}, leaving less than "
                      f"{setup.margin:.0%} of the {setup.capacity / MB:.1f} MB free")
        free = 1 - claims.printed_ratio(peak, setup.capacity, 1, MB)   # from 28.1 MB and the 32.1 MB printed
        return (f"3 plans train as one step on the whole batch; yours measured {peak / MB:.1f} MB "
                f"({claims.signed_percent(error)} of its prediction, {want_peak / MB:.1f} MB){setup.label}, {free:.0%} of the "
                f"{setup.capacity / MB:.1f} MB capacity free")

    return checks.run_check("step", body, show=show, hint=checks.stub_message(BANK, "C"))


_WEIGHINGS = {
    "each": "each micro-batch's mean weighed the same, though the micro-batches hold different numbers of tokens "
            "that count (the batch does not divide evenly, and padding differs): what part of the whole batch's "
            "mean does one micro-batch's mean stand for?",
    "sequences": "each micro-batch weighed by its share of the sequences, though padded targets (-100) do not count:"
                 " over which tokens is the whole batch's mean taken?",
}


def _weighed_step(model, optimizer, x, y, micro_batches: int, weighing: str) -> None:
    """One step in ``micro_batches`` pieces, each piece's mean loss weighed the same (``"each"``, lesson 06's
    training_step) or by its share of the sequences (``"sequences"``): two ways to miss padding and a short
    last piece."""
    for xs, ys in zip(x.chunk(micro_batches), y.chunk(micro_batches)):
        weight = 1 / micro_batches if weighing == "each" else len(xs) / len(x)
        (plain_loss(model, xs, ys) * weight).backward()
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)


def _measured(train_step: Callable, plan: tuple, setup: LabSetup) -> float:
    """The measured peak of the learner's step in ``plan`` (AdamW, the lab's batch)."""
    model, optimizer = new_model(setup.shape, setup.device)
    x, y = batch_of(setup.shape, setup.batch, setup.device)
    return measure_peak(lambda: train_step(model, optimizer, x, y, plan), model, optimizer, setup.device).peak


# The lab's cells and tests call the take-aways through this module; they live in ``takeaways``, which imports
# this one, so they are looked up on first use (PEP 562) and either module can be imported first.
_ELSEWHERE = ("take_aways", "cost_range", "_choice_matters", "_beyond_noise", "_runner_up", "_spread")


def __getattr__(name: str):
    if name not in _ELSEWHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module("utils.labs.fit_the_budget.takeaways"), name)
