"""Lab 06, exercise B: checkpoint only the blocks a budget needs. Checkpointing every block saves more than a
budget may ask, and each checkpointed block costs one more forward of it in backward. The learner writes
``fewest_checkpoints(shape, batch, usable)``: the indices of the blocks to checkpoint, as few as possible, so
that one AdamW step (the chunked cross-entropy, one micro-batch) peaks at most ``usable`` bytes. The
calculator has no line for some blocks checkpointed and the others not: the learner predicts it from the
calculator's lines, and learns where in backward a recompute falls.

    CASE = blocks_case(SETUP)                  # this machine's: the lab's GPT and a budget set between peaks
    check_blocks(fewest_checkpoints, CASE)     # measured here and on hidden shapes and budgets
    show_blocks_take_away(fewest_checkpoints, CASE, COSTS, cost_rounds=COST_ROUNDS)   # the cost table's

Every peak is measured with lesson 06's ``measure_peak`` (``MemTracker`` on the CPU,
``torch.cuda.max_memory_allocated`` on a GPU) of a step with the lab's ``plan_loss``. Each case's budget sits
half-way between measured peaks, so that the fewest blocks that fit, where they fit, are one count.
"""

from __future__ import annotations

import dataclasses
import operator
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, partial

import torch

from utils import checks, claims
from utils.details import how_measured
from utils.labs.fit_the_budget.checks import NOISE_FLOOR, cost_noise, noise_side
from utils.labs.fit_the_budget.losses import plan_loss
from utils.lessons.memory.calculator import Shape, estimate
from utils.lessons.memory.measure import (batch_of, interleaved_rounds, measure_peak, new_model, step_ratio,
                                          training_step)
from utils.lessons.memory.tricks import LOSS_CHUNKS

BANK = "labs/fit_the_budget"
MB = 1e6
# The hidden cases: the lab's shape changed (blocks added, width and context scaled, vocabulary multiplied) and
# how many blocks the budget needs. One needs none; in one the cross-entropy's temporaries are the larger.
HIDDEN = (
    dict(depth=2, width=0.75, context=0.5, vocab=1, needs=3),
    dict(depth=1, width=1, context=0.5, vocab=3, needs=1),
    dict(depth=0, width=1, context=1, vocab=1, needs=0),
)


@dataclass(frozen=True)
class BlocksCase:
    """A GPT, its batch and a device's usable bytes (the margin already taken off) for exercise B."""

    name: str
    shape: Shape
    batch: int
    device: str
    usable: float
    label: str = ""

    def describe(self) -> str:
        plain = estimate(self.shape, self.batch, loss_chunks=LOSS_CHUNKS).peak
        every = estimate(self.shape, self.batch, checkpointing=True, loss_chunks=LOSS_CHUNKS).peak
        return (f"{self.usable / MB:.1f} MB usable for the lab's GPT ({self.shape.depth} blocks) on {self.batch} "
                f"sequences, chunked cross-entropy ({LOSS_CHUNKS});\nthe calculator: {plain / MB:.1f} MB without "
                f"checkpointing, {every / MB:.1f} MB checkpointing every block")


@lru_cache(maxsize=256)
def _peak(shape: Shape, batch: int, device: str, blocks: tuple[int, ...]) -> float:
    """The measured peak of one AdamW step checkpointing ``blocks`` (chunked cross-entropy, one micro-batch)."""
    model, optimizer = new_model(shape, device)
    x, y = batch_of(shape, batch, device)
    step = training_step(model, optimizer, x, y, loss_fn=_loss(blocks))
    return measure_peak(step, model, optimizer, device).peak


def _loss(blocks) -> Callable:
    return partial(plan_loss, checkpointing=tuple(blocks), loss_chunks=LOSS_CHUNKS)


def peak_of(case: BlocksCase, blocks) -> float:
    """The measured peak of ``case``'s step checkpointing ``blocks`` (each measurement made once). Lab 06."""
    return _peak(case.shape, case.batch, case.device, tuple(sorted(blocks)))


def _first(k: int) -> tuple[int, ...]:
    return tuple(range(k))


def _last(case: BlocksCase, k: int) -> tuple[int, ...]:
    return tuple(range(case.shape.depth - k, case.shape.depth))


def _case(name: str, shape: Shape, batch: int, device: str, needs: int, label: str = "") -> BlocksCase:
    """A case whose budget needs ``needs`` checkpointed blocks: half-way between the least that many reach
    (measured) and the least of fewer blocks, or of as many nearest the loss, where that is higher."""
    case = BlocksCase(name, shape, batch, device, usable=0.0, label=label)
    least = peak_of(case, _first(needs))
    if needs == 0:
        return dataclasses.replace(case, usable=1.05 * least)
    above = [peak_of(case, _first(needs - 1)), peak_of(case, _last(case, needs))]
    clear = [p for p in above if p > 1.02 * least]  # a clear step up (as many blocks nearest the loss may tie)
    return dataclasses.replace(case, usable=(least + (min(clear) if clear else max(above))) / 2)


def blocks_case(setup) -> BlocksCase:
    """Exercise B's case on this machine: the lab's GPT and batch, a budget that needs half its blocks
    checkpointed (measured here). Lab 06."""
    return _case("this machine", setup.shape, setup.batch, setup.device, setup.shape.depth // 2, setup.label)


def hidden_block_cases(case: BlocksCase) -> list[BlocksCase]:
    """The cases ``fewest_checkpoints`` is checked on besides this machine's (other shapes and budgets)."""
    out = []
    for i, h in enumerate(HIDDEN):
        s = case.shape
        shape = dataclasses.replace(s, depth=s.depth + h["depth"], vocab=s.vocab * h["vocab"],
                                    width=int(s.width * h["width"]) // s.heads * s.heads,
                                    context=int(s.context * h["context"]))
        out.append(_case(f"hidden case {i + 1}", shape, case.batch, case.device, h["needs"], case.label))
    return out


def _as_blocks(blocks, case: BlocksCase, where: str) -> tuple[int, ...]:
    """The learner's blocks as a sorted tuple, or a failed check saying what is wrong with them."""
    depth = case.shape.depth
    shape_of = f"the indices of the blocks to checkpoint (whole numbers from 0 to {depth - 1}, each once)"
    try:
        items = list(blocks)
        indices = [operator.index(i) for i in items if not isinstance(i, bool)]
        ok = len(indices) == len(items) == len(set(indices)) and all(0 <= i < depth for i in indices)
    except TypeError:  # not a collection, or not whole numbers
        ok = False
    checks.expect(ok, f"{where} should return {shape_of}, got {blocks!r}")
    return tuple(sorted(indices))


def _judge(blocks: tuple[int, ...], case: BlocksCase) -> float:
    """Fails naming the mistake in the learner's blocks for one case (never the blocks expected); the peak."""
    peak, k = peak_of(case, blocks), len(blocks)
    said = (f"{case.name} ({case.shape.depth} blocks): checkpointing blocks {blocks or '(none)'} measured "
            f"{peak / MB:.1f} MB")
    if peak > case.usable:
        elsewhere = peak_of(case, _first(k)) <= case.usable
        checks.expect(False, f"{said}, over the {case.usable / MB:.1f} MB usable{case.label}: " + (
            "as many blocks placed elsewhere fit. Backward recomputes a checkpointed block when it reaches it: "
            "what is still held at that moment?" if elsewhere else
            f"{k} checkpointed blocks are too few wherever they sit. What does one take off the peak, by the "
            "calculator's lines?"))
    if k:
        checks.expect(peak_of(case, _first(k - 1)) > case.usable,
                      f"{said}, under the {case.usable / MB:.1f} MB usable, but fewer checkpointed blocks fit "
                      "too (measured), and each one costs another forward of its block. What does one take off "
                      "the peak, by the calculator's lines?")
    return peak


def _fewer_over(case: BlocksCase, k: int) -> str:
    """The figure behind "the fewest": one block fewer, the first ones (backward reaches them last), measured
    over the budget (``_judge`` measured it); empty for no block. At two decimals where one would print equal."""
    if not k:
        return ""
    fewer, usable = peak_of(case, _first(k - 1)) / MB, case.usable / MB
    which = "no block" if k == 1 else "block 0 alone" if k == 2 else f"blocks 0 to {k - 2}"
    places = 1 if claims.as_printed(fewer, 1) > claims.as_printed(usable, 1) else 2
    return f"; checkpointing {which} measured {fewer:.{places}f} MB, over the {usable:.{places}f} MB"


class ModuleCalls:
    """Counts every ``nn.Module`` forward run while it is active (a global forward pre-hook): a plan predicted
    with the calculator runs none."""

    def __enter__(self) -> "ModuleCalls":
        self.calls = 0
        self._handle = torch.nn.modules.module.register_module_forward_pre_hook(self._count)
        return self

    def _count(self, *_) -> None:
        self.calls += 1

    def __exit__(self, *exc) -> None:
        self._handle.remove()


def _predicted_blocks(fewest: Callable, c: BlocksCase, where: str) -> tuple[int, ...]:
    """The learner's blocks for case ``c``; fails if ``fewest`` ran a model to find them (it plans for a device
    the learner does not have: the calculator predicts, the check measures)."""
    with ModuleCalls() as ran:
        chosen = fewest(c.shape, c.batch, c.usable)
    checks.expect(not ran.calls, f"{where} ran a model ({ran.calls} module calls) to find its blocks: it plans "
                                 "for a device you do not have yet, so its answer must come from a prediction, "
                                 "not from a run")
    return _as_blocks(chosen, c, where)


def check_blocks(fewest: Callable, case: BlocksCase, show: bool = True) -> checks.Verdict:
    """Lab 06: ``fewest(shape, batch, usable)`` names blocks whose step, measured, fits ``usable``, and no fewer
    blocks fit; on this machine's case and on hidden ones (other depths, widths, vocabularies, budgets); and
    it predicts them, running no model (``ModuleCalls``)."""

    def body():
        cases = [case] + hidden_block_cases(case)
        for c in cases:
            blocks = _predicted_blocks(fewest, c, f"fewest_checkpoints() for {c.name}")
            _judge(blocks, c)
        blocks = _as_blocks(fewest(case.shape, case.batch, case.usable), case, "fewest_checkpoints()")
        return (f"{len(cases)} cases, each the fewest checkpointed blocks that fit, measured. Here: "
                f"{len(blocks)} of {case.shape.depth} blocks, measured {peak_of(case, blocks) / MB:.1f} MB of "
                f"{case.usable / MB:.1f} MB usable{case.label}{_fewer_over(case, len(blocks))}")

    return checks.run_check("blocks", body, show=show, hint=checks.stub_message(BANK, "B"))


def show_blocks_take_away(fewest: Callable, case: BlocksCase, costs: dict, rounds: int = 5,
                          cost_rounds: dict[str, list[float]] | None = None) -> None:
    """Prints exercise B's answer (``blocks_take_away``'s first part); how the step was timed and the cost
    model's prediction beside it go into the collapsed block, one click away (t39: 150 visible words)."""
    answer, worked = blocks_take_away(fewest, case, costs, rounds, cost_rounds)
    print(answer)
    if worked:
        how_measured("your blocks' step against every block's, and the cost model's prediction", worked)


def blocks_take_away(fewest: Callable, case: BlocksCase, costs: dict, rounds: int = 5,
                     cost_rounds: dict[str, list[float]] | None = None) -> tuple[str, str]:
    """What exercise B showed, printed from the run once ``fewest`` gives the fewest blocks that fit: where
    they sit against the same number nearest the loss (measured), and the step's time against every block's
    (paired rounds), beside the cost model's prediction from the one figure the lab measured for every block
    (``costs["every block"]``), allowed the cost table's printed noise (``cost_noise`` of ``cost_rounds``; the
    course's floor where not given). Returns (the answer, the worked detail: how the step was timed and the
    cost model beside it; "" where there is no fitting plan yet). Never raises on a wrong or unfinished
    answer."""
    try:
        blocks = _as_blocks(fewest(case.shape, case.batch, case.usable), case, "fewest_checkpoints()")
        _judge(blocks, case)
    except BaseException as exc:  # noqa: BLE001 - a stub, or a wrong answer: the check says why
        return f"fewest_checkpoints() gave no fitting plan yet ({type(exc).__name__}): its check says why.", ""
    k, depth, usable = len(blocks), case.shape.depth, case.usable / MB
    lines = [f"Your blocks for exercise B's budget: {k} of {depth} checkpointed, measured "
             f"{peak_of(case, blocks) / MB:.1f} MB of {usable:.1f} MB usable{case.label}."]
    late = peak_of(case, _last(case, k)) / MB
    if k and _last(case, k) != blocks:
        lines.append(f"The same number nearest the loss measured {late:.1f} MB, " + (
            "over the budget: backward reaches them first and recomputes each while every block before it "
            "still holds its activations." if late > usable else
            "under the budget too: where they sit did not decide the peak here (the cross-entropy's "
            "temporaries at the start of backward did)."))
    named = "the cost table's ± {:.2f}, printed with the costs"   # in the cost table's lines, with each cost
    table = (claims.as_printed(cost_noise(cost_rounds), 2), named) \
        if cost_rounds else (NOISE_FLOOR, "the course's {:.2f} timing floor, the cost table's noise not given")
    answer, worked = _timing(blocks, case, costs["every block"], rounds, costs.get("chunked loss", 0.0), table)
    return _wrapped(lines + [answer]), _wrapped([worked])


def _wrapped(lines: list[str]) -> str:
    return "\n".join(textwrap.fill(line, 110, subsequent_indent="  ") for line in lines)


def _timing(blocks: tuple[int, ...], case: BlocksCase, every: float, rounds: int, loss: float = 0.0,
            table: tuple[float, str] = (NOISE_FLOOR, "the course's {:.2f} timing floor")) -> tuple[str, str]:
    """The step checkpointing ``blocks`` against the step checkpointing every block, paired in interleaved
    rounds (both with the chunked loss); ``every``: every block's extra share over the plain step, the one
    figure the lab's cost table measured for it, and ``loss`` the chunked loss's, from which the cost model
    (the lab's: 1 + c + l) predicts the ratio; ``table``: the cost table's noise and the words naming it.
    Returns (the measured ratio and its verdict, one sentence; how it was timed and the cost model beside it)."""
    calls = {}
    for name, chosen in (("yours", blocks), ("every block", _first(case.shape.depth))):
        model, optimizer = new_model(case.shape, case.device)
        x, y = batch_of(case.shape, case.batch, case.device)
        calls[name] = training_step(model, optimizer, x, y, loss_fn=_loss(chosen))
    times = interleaved_rounds(calls, case.device, repeats=rounds)
    # the median of the paired rounds' ratios and their spread, at least the course's 2 % floor (as the cost
    # table's): never the fastest round of each divided, two best cases from different rounds
    ratio, spread, paired = step_ratio(times, "yours", "every block", floor=NOISE_FLOOR)
    k, depth = len(blocks), case.shape.depth
    predicted, none, model = _cost_model(every, loss, k, depth)
    side, note = noise_side(ratio, spread, paired)
    said = _side_words(side, claims.within_noise(ratio, spread))
    answer = (f"Its step took {ratio:.2f}x ± {spread:.2f} the time of the step checkpointing every block, "
              f"{said}{case.label}.")
    worked = (f"Both steps timed with the chunked loss in {rounds} interleaved rounds: the ratio is the median "
              f"of the rounds' own ratios, the ± their spread (at least {NOISE_FLOOR:.2f}){note}. "
              f"The cost model, with every block's {_cost(every)} and the chunked loss's {_cost(loss)} from "
              f"the cost table, predicts {model} for {k} of {depth} blocks: "
              + _model_gap(ratio, predicted, spread, *table, reaches_none=ratio <= none)
              + _under_no_recompute(ratio, none, spread, table[0], blocks=k))
    return answer, worked


def _side_words(side: str | None, covered: bool) -> str:
    """The step against every block's, from ``noise_side``'s ``side``. ``covered``: the printed ± reaches
    1.00x, so that a side rests on every round lying on it (the course's ``one_side`` rule), not on the ±:
    the words say so, so that a reader who reads the interval is not told "beyond the noise"."""
    if side is None:
        return "within the rounds' noise of every block's: the recompute saved is too small to show here"
    faster = side == "below"
    how = ("in every round (the ± reaches 1.00x, but no round did)" if covered else "beyond the rounds' noise")
    return (f"faster than every block's {how}: fewer recomputed blocks saved time" if faster else
            f"slower than every block's {how}: no time saved shown here")


def _cost_model(every: float, loss: float, k: int, depth: int) -> tuple[float, float, str]:
    """The lab's cost model for ``k`` of ``depth`` blocks checkpointed, x every block's step: each block an
    equal share of every block's cost, the chunked loss's cost in both steps. Worked from the two costs as the
    cost table prints them (+24% and +5%: 0.24 and 0.05), so that a reader who redoes the division finds the
    printed figure: (the ratio, the ratio with no block checkpointed, the division written out)."""
    every, loss = claims.as_printed(every, 2), claims.as_printed(loss, 2)
    predicted = claims.as_printed((1 + every * k / depth + loss) / (1 + every + loss), 2)
    none = claims.as_printed((1 + loss) / (1 + every + loss), 2)   # no block checkpointed, by the same model
    said = f"(1 + {k}/{depth} × {every:.2f} + {loss:.2f}) / (1 + {every:.2f} + {loss:.2f}) = {predicted:.2f}x"
    return predicted, none, said


def _cost(share: float) -> str:
    """A cost of the cost table as the cost model uses it: "+11%", or "0 (none measured)" where it is 0."""
    return f"+{share:.0%}" if claims.as_printed(share, 2) else "0 (none measured)"


def _model_gap(ratio: float, predicted: float, spread: float, table: float = NOISE_FLOOR,
               named: str = "the course's {:.2f} timing floor", reaches_none: bool = False) -> str:
    """The measured ratio against the cost model's, compared as printed (two decimals each), with one noise
    figure: what is allowed, the rounds' spread (printed in the sentence before) plus ``table``, the noise of
    the cost table the model's figures come from, as printed (``named`` says where it is printed).
    ``reaches_none``: the ratio is at or under the no-recompute figure, which unequal shares of identical
    blocks cannot reach, so that reason is not offered (thirty-fourth reading)."""
    table = claims.as_printed(table, 2)
    gap, allowed = claims.as_printed(abs(ratio - predicted), 2), claims.as_printed(spread + table, 2)
    where = f"the rounds' spread above, plus {named.format(table)}"
    if gap < allowed:
        return f"off by {gap:.2f}, within the {spread:.2f} + {table:.2f} = {allowed:.2f} allowed ({where})."
    if gap == allowed:  # a bound is a ceiling: the gap at it still holds, and the words say it is the edge
        return (f"off by {gap:.2f}, at the edge of the {spread:.2f} + {table:.2f} = {allowed:.2f} allowed "
                f"({where}), so still within it.")
    # a sentence of its own (thirty-fourth reading: four colons in one sentence)
    why = ("Likely the cost table's rounds and these met the machine differently." if reaches_none else
           "Either the cost table's rounds and these met the machine differently, or the blocks' recomputes are "
           "not equal shares; this run does not separate the two.")
    return f"off by {gap:.2f}, more than the {spread:.2f} + {table:.2f} = {allowed:.2f} allowed ({where}). {why}"


def _under_no_recompute(ratio: float, none: float, spread: float, table: float = NOISE_FLOOR,
                        blocks: int = 0) -> str:
    """Where the measured ratio lies under what no checkpointing at all takes by the cost table (every
    recompute saved): a saving larger than recomputation can cost only where it lies under that figure by more
    than ``_model_gap``'s allowance (the rounds' spread plus ``table``, the cost table's noise, as printed), for
    the figure comes from the same cost table as the prediction (twenty-eighth reading: judged with the
    rounds' spread alone, 0.04 under it was called a finding while 0.06 off the prediction was within). Where
    the ratio equals that figure as printed, says so: the ``blocks`` checkpointed cost nothing that showed
    (thirty-fourth reading: 0.90x measured beside a no-recompute 0.90x, unsaid)."""
    if ratio == none:
        which = f"the {blocks} checkpointed blocks'" if blocks else "the checkpointed blocks'"
        return (f" It equalled the {none:.2f}x the cost table gives a step with no block checkpointed (chunked loss "
                f"only): {which} recompute did not show in these rounds.")
    if ratio > none:
        return ""
    table = claims.as_printed(table, 2)
    gap, allowed = claims.as_printed(none - ratio, 2), claims.as_printed(spread + table, 2)
    inside = "within" if gap < allowed else "at the edge of"   # thirty-third reading: "within" 0.05 of 0.05
    where = (f"by {gap:.2f}, more than the same {allowed:.2f} allowed: it saved more than all recomputation "
             "costs by the cost table, a finding to explain (the cost table's rounds and these met the machine "
             "differently)" if gap > allowed else
             f"by {gap:.2f}, {inside} the same {allowed:.2f} allowed, so this run shows no saving beyond what "
             "removing all the recompute would give")
    return (f" It came under even the {none:.2f}x the cost table gives a step with no block checkpointed "
            f"(chunked loss only), {where}.")
