"""Lab 07 (utils.labs.row_parallel.checks): the solution passes every check, and each plausible wrong answer
(a mutant, ``pytest -m mutants``) fails the check that measures its skill, with a message that says what is
wrong. Every launch is bounded by a timeout and leaves no process behind.
"""

from __future__ import annotations

import pytest
import torch
import torch.distributed as dist
from torch import nn

from utils import checks
from utils.labs.row_parallel import checks as lab


@pytest.fixture(autouse=True)
def _in_cpu_mode_leaving_nothing(cpu_mode_and_no_leftovers):
    yield


def row_layer(mistake: str | None = None):
    """The lab's solution, with at most one mistake switched on; a new class each time (one launch each)."""

    class Sum(torch.autograd.Function):
        @staticmethod
        def forward(ctx, partial):
            total = partial.clone()
            if mistake != "no all-reduce":
                dist.all_reduce(total)
            return total

        @staticmethod
        def backward(ctx, grad):
            if mistake == "all-reduce in backward too":
                grad = grad.clone()
                dist.all_reduce(grad)
            return grad

    class Row(nn.Module):
        def __init__(self, full, rank, world):
            super().__init__()
            if mistake == "full weight on each rank":
                self.weight = nn.Parameter(full.weight.data.clone())
                self.rank, self.world = rank, world
            else:
                dim = 0 if mistake == "rows instead of columns" else 1
                self.weight = nn.Parameter(full.weight.data.chunk(world, dim=dim)[rank].clone())
            self.bias = nn.Parameter(full.bias.data.clone())

        def forward(self, x_slice):
            w = self.weight
            if mistake == "full weight on each rank":  # the right answer, from the whole weight on every rank
                w = w.chunk(self.world, dim=1)[self.rank]
            if mistake == "bias on every rank":
                return Sum.apply(nn.functional.linear(x_slice, w, self.bias))
            return Sum.apply(nn.functional.linear(x_slice, w)) + self.bias

    return Row


CHECKS = [lab.check_shards, lab.check_forward, lab.check_backward, lab.check_communication]


@pytest.mark.timeout(120)
def test_the_solution_passes_every_check():
    verdicts = [check(row_layer()) for check in CHECKS]
    assert all(v.passed for v in verdicts), [str(v) for v in verdicts]


# (mistake, the check that must catch it, what its message must say)
MUTANTS = [
    ("no all-reduce", lab.check_forward, "ran no all-reduce in the forward pass"),
    ("no all-reduce", lab.check_communication, "0 all-reduce(s) in the forward pass"),
    ("all-reduce in backward too", lab.check_backward, "2x one device's"),
    ("all-reduce in backward too", lab.check_communication, "2 all-reduce(s) in the backward pass"),
    ("full weight on each rank", lab.check_shards, "the whole layer's"),
    ("bias on every rank", lab.check_forward, "plus one more bias"),
    ("rows instead of columns", lab.check_shards, "raised"),
]


@pytest.mark.mutants
@pytest.mark.timeout(120)
@pytest.mark.parametrize("mistake, check, says", MUTANTS, ids=[f"{m[0]}-{m[1].__name__}" for m in MUTANTS])
def test_a_mutant_fails_the_check_of_its_skill_saying_what_is_wrong(mistake, check, says):
    verdict = check(row_layer(mistake))
    assert verdict.status == checks.FAILED and says in verdict.message, str(verdict)


def test_the_full_weight_mutant_still_computes_the_right_answer():
    """So that only the shard check can catch it: outputs and gradients are right."""
    row = row_layer("full weight on each rank")
    assert lab.check_forward(row).passed and lab.check_communication(row).passed
