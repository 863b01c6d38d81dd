"""Thirty-eighth reading (t38_labs48): lab 06 held selective against every block to the cost table's noise once
though their gap is two separately measured costs (the take-aways' rule charges it once per cost), and lab 08
opened a bullet with a speed-up its own timings then threw out, naming an unmeasured cause. Fabricated figures."""

from __future__ import annotations

import pytest

from utils.labs.fit_the_budget.checks import cost_noise, costs_apart, selective_against_every_block
from utils.labs.fit_the_budget.takeaways import _beyond_noise
from utils.labs.make_it_fast.threads_short import threads_verdict


def _cost_rounds(selective: float, every: float) -> dict:
    plain = [1.0] * 5   # the table's noise 0.07: the micro-batch's spread, (1.07 - 0.93) / 2
    return {"plain": plain, "selective": [selective] * 5, "every block": [every] * 5, "chunked loss": plain,
            "micro-batch": [0.90, 0.93, 1.0, 1.07, 1.10]}


@pytest.mark.parametrize("plan, other, apart", [
    (("selective", 1, 1), (True, 1, 1), 2),    # selective's cost against every block's: nothing cancels
    ((False, 4, 4), (True, 4, 4), 1),          # every block's alone
    ((False, 4, 4), (True, 4, 1), 2),          # every block's and the chunked loss's
    ((False, 4, 4), (False, 4, 4), 0),
    ((False, 2, 1), (False, 4, 1), 1),         # the micro-batch's cost, counted once as cell 8 says
])
def test_plans_are_apart_by_the_measured_costs_that_do_not_cancel(plan, other, apart):
    assert costs_apart(plan, other) == apart == costs_apart(other, plan)


def test_selective_against_every_block_is_held_to_the_noise_once_per_cost_as_the_take_aways_are():
    rounds = _cost_rounds(1.25, 1.13)   # the committed run's +25% against +13%
    assert cost_noise(rounds) == 0.07
    said = selective_against_every_block(rounds)
    assert said.startswith("selective checkpointing against every block here: no effect shown, within the cost "
                           "table's noise (selective 1.25 - every block 1.13 = 0.12 against ± 0.14, the ± 0.07 "
                           "for each cost;"), said
    assert "beyond" not in said
    # the take-aways read the same two plans the same way
    costs = {"selective": 0.25, "every block": 0.13, "chunked loss": 0.0, "micro-batch": 0.0}
    assert _beyond_noise(("selective", 1, 1), (True, 1, 1), costs, rounds)[:3] == (
        -0.12, "± 0.14: its ± 0.07, printed with the costs, for each of the 2 costs they differ in", False)
    dearer = selective_against_every_block(_cost_rounds(1.28, 1.13))   # 0.15 against ± 0.14
    assert dearer.startswith("selective checkpointing cost more than every block here, beyond"), dearer


def _threads(slow_ms: list[float]) -> dict:
    ratios = [1.98, 11.50, 17.83, 22.81, 28.57]
    return {"slow": 2, "launcher": 1, "ratios": ratios, "slow_ms": slow_ms,
            "launcher_ms": [s / r for s, r in zip(slow_ms, ratios)]}


def test_timings_that_disagree_open_with_the_disagreement_not_a_speed_up_nor_an_unmeasured_cause():
    busy = _threads([300.0, 700.0, 846.2, 900.0, 1200.0])   # 846.2 ms alone against 435.9 / 4 = 109.0 profiled
    said = threads_verdict(busy, 435.9, 301.0)
    assert said.startswith("Timed without the profiler, the slow script's forward and backward took a median "
                           "846.2 ms a micro-batch at its own 2 threads, against 109.0 ms under the profiler; the "
                           "profiler only adds work, so the two timings disagree"), said
    for absent in ("17.83x", "as fast", "busier"):
        assert absent not in said, absent
    assert said.endswith("So neither the speed-up with fewer threads nor what it saves of the 301 ms your step "
                         "ran under the prediction is measured")
    agree = _threads([100.0, 105.0, 108.0, 110.0, 115.0])   # 109.0 profiled, within the rounds' noise
    assert threads_verdict(agree, 435.9, 301.0).startswith("Timed without the profiler, the slow script's forward "
                                                            "and backward ran a median 17.83x as fast")


def test_lab04_plan_prints_its_answer_and_collapses_the_worked_lines(monkeypatch, capsys):
    """Thirty-eighth reading (lab 04 cell 16): 287 visible words; the answer stays visible, the rest one click
    away in the "How this was measured" block."""
    from utils.labs.compress_under_budget import plan

    lines = ["Your plan: hidden widths [276] (the trained model's: [768]), weights int8 dynamic, 20.5x fewer "
             "bytes. It meets every budget at once.", "Bytes: 5.31x fewer weights.",
             "Speed: yours 6.15x.\nWere time in proportion to the work, 18.27x.", "Accuracy: a drop of 0.74."]
    monkeypatch.setattr(plan, "plan_lines", lambda *a, **k: lines)
    plan.show_plan(None, None, [])
    out = capsys.readouterr().out
    visible, collapsed = out.split("[How this was measured: your plan's bytes, speed and accuracy")
    assert " ".join(visible.split()).endswith("It meets every budget at once.") and "Bytes" not in visible
    for worked in ("Bytes: 5.31x", "Speed: yours 6.15x.", "  Were time in proportion", "Accuracy: a drop"):
        assert worked in collapsed, worked
    monkeypatch.setattr(plan, "plan_lines", lambda *a, **k: ["Your plan: not built yet (the checks above say why)."])
    plan.show_plan(None, None, [])
    assert "How this was measured" not in capsys.readouterr().out   # nothing worked: no empty block


def test_lab04_defines_the_spread_and_the_paired_standard_error_where_it_first_uses_them():
    import nbformat

    intro = nbformat.read("labs/04_compress_under_budget.ipynb", 4).cells[0].source
    assert "The *spread* is the ± it prints: half the range of the middle half of those ratios." in intro
    assert "That standard error is *paired*: both models answer the same images" in intro
