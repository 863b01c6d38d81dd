"""Lab 06 (thirtieth reading, t30_labs48 #1): the choice check printed 1.14x where the take-aways and the sum
of the cost table's printed costs read 1.13x. A micro-batch cost that prints as 0% but is counted 3 times
crossed a rounding step: every plan's cost the lab prints is worked from the costs as printed
(``printed_cost``); the unrounded ``plan_cost`` only ranks plans. Fabricated costs, not one run's."""

from __future__ import annotations

import pytest

from tests.test_lab_fit_the_budget import SMALL, choose_for
from utils import bench, checks
from utils.labs.fit_the_budget.checks import (_less_unrounded, check_choice, describe_costs, plan_cost,
                                              printed_cost)

# chunked +13% (0.1334), each extra micro-batch 0% (0.0045): with 4 micro-batches the unrounded sum is
# 1 + 0.1334 + 3 x 0.0045 = 1.1469, "1.15x", where the printed costs add up to 1 + 0.13 + 3 x 0 = 1.13x
CROSSING = {"selective": 0.20, "every block": 0.30, "chunked loss": 0.1334, "micro-batch": 0.0045}
PLAN = (False, 4, 4)   # the cheapest that fits the small GPT at these costs


@pytest.fixture(autouse=True)
def one_thread():
    with bench.threads(1):
        yield


def test_a_plan_s_printed_cost_adds_the_printed_costs_even_where_the_unrounded_sum_crosses_a_step():
    assert f"{plan_cost(PLAN, CROSSING):.2f}" == "1.15"       # what the check used to print
    assert printed_cost(PLAN, CROSSING) == pytest.approx(1.13)
    table = describe_costs(CROSSING)
    assert "chunked loss +13%" in table and "each extra micro-batch 0% (no gap)" in table, table


def test_printed_cost_rounds_each_cost_half_up_as_the_table_prints_it():
    """12.5% prints +13% (claims.signed_percent, half up); round() would price it at 0.12."""
    costs = {"selective": 0.0, "every block": 0.125, "chunked loss": 0.145, "micro-batch": 0.0}
    assert "every block +13%" in describe_costs(costs) and "chunked loss +15%" in describe_costs(costs)
    assert printed_cost((True, 1, 1), costs) == pytest.approx(1.13)
    assert printed_cost((True, 1, 4), costs) == pytest.approx(1.28)


def test_the_choice_check_prints_the_cost_the_take_aways_print():
    verdict = check_choice(choose_for(), SMALL, CROSSING, show=False)
    assert verdict.passed, verdict
    assert "Here: no checkpointing, 4 micro-batches, chunked cross-entropy (4)" in verdict.message, verdict
    assert "usable, 1.13x the plain step's time by the cost model" in verdict.message, verdict


@pytest.mark.mutants
def test_a_dearer_plan_s_failure_prints_its_cost_from_the_printed_costs():
    """Every technique always: 1 + 0.30 + 0.13 + 3 x 0 = 1.43x as printed (1.4469 unrounded would read 1.45x)."""
    verdict = check_choice(lambda capacity, costs, predict: (True, 4, 4), SMALL, CROSSING, show=False)
    assert verdict.status == checks.FAILED, verdict
    assert "fits, at 1.43x the plain step's time by the cost model; a plan that costs less fits too (costs:" \
        in verdict.message, verdict


def test_a_cheaper_plan_at_the_same_printed_cost_says_why_it_is_still_cheaper():
    """Selective alone (1.1334) and the learner's plan (1.1469) both print 1.13x, the first cheaper by
    3 x 0.0045 unrounded: the message says so; apart by a printed step, it says nothing more; with no cheaper
    plan listed, nothing either."""
    costs = dict(CROSSING, **{"selective": 0.1334})
    assert plan_cost(("selective", 1, 1), costs) < plan_cost(PLAN, costs)
    assert printed_cost(("selective", 1, 1), costs) == printed_cost(PLAN, costs)
    said = _less_unrounded(PLAN, [("selective", 1, 1)], costs)
    assert said.startswith(" (it prints at the same cost, being cheaper by less than 0.01x"), said
    assert _less_unrounded((True, 4, 4), [PLAN], CROSSING) == ""
    assert _less_unrounded(PLAN, [], CROSSING) == ""


# --- lab 06 cell 7 (t30_labs48 other problems): the reason beyond the noise is marked as a reading ------------


def _rounds(selective: float, every: float) -> dict:
    plain = [1.0] * 5   # the table's noise: its floor, 0.02
    return {"plain": plain, "selective": [selective] * 5, "every block": [every] * 5, "chunked loss": plain,
            "micro-batch": plain}


@pytest.mark.parametrize("selective, every, reason", [
    (1.15, 1.07, "it saves recomputing the matmuls, which pays only where they dominate a block's time, and its "
                 "policy runs at every operation (lesson 06 §2): the likely reasons, not timed apart here"),
    (1.07, 1.15, "keeping its matmuls' outputs saves recomputing them (lesson 06 §2): the likely reason, not "
                 "timed apart here"),
])
def test_selective_beyond_the_noise_gives_lesson_06_s_reason_as_not_timed_apart(selective, every, reason):
    from utils.labs.fit_the_budget.checks import selective_against_every_block
    said = selective_against_every_block(_rounds(selective, every))
    assert "beyond the cost table's noise" in said and said.endswith(f"share above): {reason}"), said
