"""Thirty-first reading (t31_labs48), other problems 1, 2, 3 and 5: lab 08's threads verdict states the side of
1x every round lies on where the rounds fall in two groups; the ± beside two groups is worked; lab 08's check
list says the training check compares norms; lab 06's within-noise positive cost says the cost model counts it.
Figures here are fabricated, not one run's."""
import re
from pathlib import Path

import nbformat
import pytest

from utils import claims
from utils.labs.fit_the_budget.checks import _signed
from utils.labs.make_it_fast import threads_cost
from utils.labs.make_it_fast.threads_groups import groups_verdict, spread_working
from utils.labs.make_it_fast.threads_short import threads_verdict

ROOT = Path(__file__).resolve().parent.parent


def _timed(*ratios, launcher=1):
    return {"slow": 2, "launcher": launcher, "ratios": list(ratios), "slow_ms": [], "launcher_ms": []}


# --- item 1: the one-line verdict says the direction where every round agrees on it ---------------------------

@pytest.mark.parametrize("ratios, launcher, says", [
    ((1.80, 2.10, 3.40, 25.00, 31.20), 1,
     "the slow script's forward and backward ran faster with the launcher's 1 thread a worker than with its own 2 "
     "in every round (1.80x to 31.20x as fast), but the rounds fall in two groups, so how much that saves is not "
     "measured here"),
    ((0.01, 0.02, 0.50, 0.51, 0.52), 2,
     "the slow script's forward and backward ran slower with the launcher's 2 threads a worker than with its own 2 "
     "in every round (0.01x to 0.52x as fast), but the rounds fall in two groups, so how much that costs is not "
     "measured here"),
    ((0.50, 0.60, 0.70, 30.0, 40.0), 1,
     "the slow script's forward and backward with the launcher's 1 thread a worker against its own 2 gave rounds "
     "in two groups, on both sides of 1.00x, so what the thread count saves is not measured here"),
])
def test_two_groups_verdict_names_the_side_every_round_lies_on(ratios, launcher, says):
    timed = _timed(*ratios, launcher=launcher)
    assert not threads_cost.gathered(timed["ratios"])
    assert groups_verdict(timed) == says
    assert threads_verdict(timed, 1000.0, 900.0, None) == f"Timed without the profiler, {says}"


def test_a_round_printed_at_1x_is_on_neither_side():
    # 1.004 prints 1.00x: not above 1.00x, so not "faster in every round"
    assert groups_verdict(_timed(1.004, 1.5, 2.0, 40.0, 50.0)).endswith("gave rounds in two groups, on both sides of "
                                                                  "1.00x, so what the thread count saves is not "
                                                                  "measured here")


# --- item 2: the ± beside two groups is worked, to the digit printed ------------------------------------------

@pytest.mark.parametrize("ratios", [
    (1.80, 2.10, 3.40, 25.00, 31.20), (2.46, 2.615, 8.49, 22.445, 30.54), (0.1, 0.5, 2.4, 2.45, 2.5, 2.55, 2.6, 2.7),
    (1.0, 2.0, 30.0),
])
def test_the_spread_working_comes_out_to_the_printed_spread(ratios):
    shown = sorted(claims.as_printed(r, 2) for r in ratios)
    said = spread_working(shown)
    high, low = (float(x) for x in re.search(r"\(([\d.]+) - ([\d.]+)\) / 2", said).groups())
    assert f"{claims.half_up((high - low) / 2, 2):.2f}" == f"{claims.printed_spread(list(ratios)):.2f}", said
    assert said.startswith("half the middle half's range" if len(ratios) >= 4 else "half their range"), said


def test_the_groups_take_away_prints_the_working_beside_the_spread():
    said = threads_cost.threads_sentence(_timed(1.80, 2.10, 3.40, 25.00, 31.20), 1000.0, 900.0)
    assert "3.40x ± 11.45 (half the middle half's range, (25.00 - 2.10) / 2), reaches" in said, said


# --- item 3: lab 08's check list says the training check compares norms -----------------------------------------

def test_lab_08_check_list_says_the_training_check_compares_norms():
    nb = nbformat.read(ROOT / "labs" / "08_make_it_fast.ipynb", as_version=4)
    text = " ".join(next(c.source for c in nb.cells if "**the same training**" in c.source).split())
    assert "the norms of the gradient each step applies and of the weights after it" in text, text


# --- item 5: a within-noise positive cost says the cost model still counts it --------------------------------

@pytest.mark.parametrize("share, noise, says", [
    (0.05, 0.06, " +5% (within the noise: no effect shown; the cost model still counts it)"),
    (-0.02, 0.06, " -2% (within the noise: no effect shown; the cost model counts 0)"),
    (0.14, 0.06, " +14%"),
    (0.002, 0.06, " 0% (no gap)"),
])
def test_a_cost_within_the_noise_says_what_the_cost_model_counts(share, noise, says):
    assert _signed(share, noise) == says
