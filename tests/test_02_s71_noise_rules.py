"""Lesson 02, the thirty-second reading (t32_02 #1, #2, #3): cell 15's rules say what the code does. Within noise
is s ± d alone (rounds mostly on one side of 1x are still noise where s ± d covers it); d is worked from the
rounds as the table prints them, not from the milliseconds; "no cause to read" is said only beside a per-process
reference the split is within noise of. Fabricated rounds, CPU only; each branch."""

from pathlib import Path

import nbformat

from utils.lessons.model_split import report  # noqa: I001 (report loads first: naive reads it)
from utils.lessons.model_split import bounds, naive, noise, runs


def _cell_15() -> str:
    nb = nbformat.read(Path(__file__).resolve().parents[1] / "notebooks/02_model_split.ipynb", 4)
    return " ".join(nb.cells[15].source.split())


def _naive(speedups, references):
    return runs.Row(32, 1, "naive", 0.112, 0.1135, [0.055, 0.058], naive=True, speedups=list(speedups),
                    process_bounds=list(references), cpu=[0.05, 0.05], baseline_cpu=0.11, alone=[0.0534, 0.0584])


def test_rounds_mostly_above_1x_are_noise_where_the_spread_covers_it():
    # four rounds above 1x, one below; 1.02x ± 0.02 covers 1x: within noise, whatever the rounds' sides
    row = _naive([1.08, 0.97, 1.01, 1.05, 1.02], [1.12, 1.03, 1.04, 1.08, 1.06])
    assert noise.noise_of_one(row)
    assert "is within noise of 1x (1.02x ± 0.02 covers it): no effect shown" in naive.naive_reading(row, [])
    # every round above 1x: not noise, even where s ± d touches 1x
    clear = _naive([1.08, 1.01, 1.01, 1.05, 1.02], [1.12, 1.03, 1.04, 1.08, 1.06])
    assert not noise.noise_of_one(clear)
    text = _cell_15()
    assert "how many rounds lie on each side does not decide it" in text
    assert "mostly on one side of it" not in text


def test_the_spread_is_worked_from_the_rounds_as_printed():
    # from the milliseconds the middle rounds give (1.0566 - 1.0133) / 2 = 0.022, printed 0.02; from the rounds as
    # the table prints them (1.01, 1.06), 0.025, printed 0.03: the page's rule
    assert bounds.rounds_spread([1.104, 0.975, 1.0133, 1.0566, 1.031]) == 0.03
    # the worked example cell 15 gives comes out of the code
    assert bounds.rounds_spread([0.97, 1.02, 1.04, 1.07, 1.12]) == 0.03
    text = _cell_15()
    assert "as the rounds table prints them" in text and "(1.07 − 1.02) / 2 = 0.025, printed 0.03" in text


def test_no_cause_to_read_only_beside_a_reference_the_split_is_within_noise_of():
    # within noise of 1x, under its per-process reference in every round: no "no cause to read"; the headline
    # says there is no excess to explain, and the block reads the split under the reference
    under = _naive([1.08, 0.97, 1.01, 1.05, 1.02], [1.12, 1.03, 1.04, 1.08, 1.06])
    assert noise.reference_side(under, under.process_bounds) == "under"
    assert noise.reference_then(under, under.process_bounds) == ""
    assert "no excess over 1x for the per-process reference (" in naive.naive_reading(under, [])
    block = report.naive_process_reading(under)
    assert "under the per-process reference, round by round" in block and "no cause to read" not in block
    # within noise of 1x and of its reference: "no cause to read"
    near = _naive([1.03, 0.96, 0.99, 1.04, 1.01], [1.01, 0.99, 0.97, 1.05, 1.01])
    assert noise.reference_side(near, near.process_bounds) == "within noise"
    assert noise.reference_then(near, near.process_bounds) == noise.NO_CAUSE
    assert "no cause to read" in report.naive_process_reading(near)
    text = _cell_15()
    assert "Where it is also within noise of that reference round by round" in text
    assert '"under the per-process reference, round by round"' in text
