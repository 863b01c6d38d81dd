"""Thirty-fifth reading (t35_labs48, other 2): lab 06's take-aways say a gap equal to the cost table's noise
is "at the edge of" it, as cell 7's ``_against_noise`` does, and "within" it only where the gap is less; a
tie still counts as not apart (cell 8). Fabricated costs on the table's 0.02 floor."""

from __future__ import annotations

from utils.labs.fit_the_budget.checks import cost_noise
from utils.labs.fit_the_budget.takeaways import _beyond_noise, _choice_matters, _runner_up

QUIET = {name: [1.0, 1.0, 1.01, 1.0, 1.0] for name in ("plain", "selective", "every block", "chunked loss",
                                                        "micro-batch")}   # the table's floor: ± 0.02
BEST, EVERY, SELECTIVE = (False, 4, 4), (True, 4, 4), ("selective", 4, 1)


def test_the_noise_is_the_table_s_floor():
    assert cost_noise(QUIET) == 0.02


def test_a_gap_equal_to_the_noise_is_at_its_edge_and_less_is_within():
    edge = {"selective": 0.30, "every block": 0.02, "chunked loss": 0.02, "micro-batch": 0.0}   # 1.04 - 1.02
    assert _beyond_noise(BEST, EVERY, edge, QUIET)[2:] == (False, "at the edge of")
    said = _runner_up(BEST, EVERY, edge, QUIET)
    assert "0.02 apart, at the edge of the cost table's noise (± 0.02, printed with the costs): the cost model " \
           "ranks them, the cost table's rounds do not tell them apart." in said, said
    close = {"selective": 0.30, "every block": 0.01, "chunked loss": 0.02, "micro-batch": 0.0}   # 1.03 - 1.02
    assert _beyond_noise(BEST, EVERY, close, QUIET)[2:] == (False, "within")
    assert "0.01 apart, within the cost table's noise (± 0.02" in _runner_up(BEST, EVERY, close, QUIET)
    apart = {"selective": 0.30, "every block": 0.03, "chunked loss": 0.02, "micro-batch": 0.0}   # 1.05 - 1.02
    assert _beyond_noise(BEST, EVERY, apart, QUIET)[2] is True
    assert "0.03 apart, more than the cost table's noise" in _runner_up(BEST, EVERY, apart, QUIET)


def test_whether_the_choice_matters_says_at_the_edge_on_a_tie():
    edge = {"selective": 0.30, "every block": 0.02, "chunked loss": 0.02, "micro-batch": 0.0}
    said = _choice_matters([BEST, EVERY], edge, QUIET)
    assert "1.04 - 1.02 = 0.02 above the cheapest, at the edge of the cost table's noise (± 0.02, printed with " \
           "the costs): the cost model ranks them, the rounds do not separate them" in said, said
    close = {"selective": 0.30, "every block": 0.01, "chunked loss": 0.02, "micro-batch": 0.0}
    assert "0.01 above the cheapest, within the cost table's noise" in _choice_matters([BEST, EVERY], close, QUIET)


def test_a_tied_plan_at_the_edge_of_its_own_noise_is_said_so():
    # 1.02x, then 1.06x twice: every block differs in 1 technique (0.04 beyond ± 0.02), selective in 2 (0.04 at
    # the edge of ± 0.04)
    costs = {"selective": 0.06, "every block": 0.04, "chunked loss": 0.02, "micro-batch": 0.0}
    said = _runner_up(BEST, EVERY, costs, QUIET, [BEST, EVERY, SELECTIVE])
    assert said.endswith("Against selective checkpointing, 4 micro-batches, plain cross-entropy, the same gap is at "
                         "the edge of the cost table's noise (± 0.04: its ± 0.02, printed with the costs, for each "
                         "of the 2 costs they differ in)."), said
