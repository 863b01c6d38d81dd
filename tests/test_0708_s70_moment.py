"""t31_0708 #1: lesson 07 cell 10 put the drawn pass's speed down to "a quieter moment than any round met",
though the load it printed (``others``) covers both recorded passes and the timed rounds' load is never
measured. ``pass_step.drawn_against_rounds`` now says which side the drawn pass lies on, and names a cause
only where a figure supports it: every branch, on fabricated figures."""

import json
from pathlib import Path

from utils.lessons.tensor_parallel import pass_step

NB_07 = Path(__file__).resolve().parents[1] / "notebooks" / "07_tensor_parallel.ipynb"
ROUNDS = [16.9e-3, 25.0e-3, 30.4e-3]


def test_a_faster_drawn_pass_on_a_quiet_machine_names_no_quieter_moment():
    text = pass_step.drawn_against_rounds([15.2e-3, 28.4e-3], 15.2e-3, ROUNDS, 0.0)
    assert text.startswith("was faster than every one of them: other programs used 0.00 of a core over the 2 ")
    assert "quieter" not in text and "busier" not in text
    assert "the workers' own" not in text and "the gap has no measured cause" in text   # t32_0708 #1


def test_a_faster_drawn_pass_on_a_busy_machine_has_no_measured_cause():
    text = pass_step.drawn_against_rounds([15.2e-3, 28.4e-3], 15.2e-3, ROUNDS, 0.9)
    assert "used 0.90 of a core" in text and "the gap has no measured cause" in text
    assert "quieter" not in text and "busier" not in text


def test_a_slower_drawn_pass_names_a_busier_moment_only_above_the_gate():
    busy = pass_step.drawn_against_rounds([31.0e-3, 33.0e-3], 31.0e-3, ROUNDS, 1.17)
    assert busy.startswith("was slower than every one of them") and "so the recorded passes met a busy moment" in busy
    quiet = pass_step.drawn_against_rounds([31.0e-3, 33.0e-3], 31.0e-3, ROUNDS, 0.2)   # at the gate: no cause
    assert "busy moment" not in quiet and "the gap has no measured cause" in quiet


def test_the_edges_are_judged_as_printed():
    # 16.94 ms prints 16.9, the fastest round's figure: within, not faster; 30.44 prints 30.4: within
    assert pass_step.drawn_against_rounds([16.94e-3], 16.94e-3, ROUNDS, 0.0) == "lies within their range"
    assert pass_step.drawn_against_rounds([30.44e-3], 30.44e-3, ROUNDS, 0.0) == "lies within their range"
    assert pass_step.drawn_against_rounds([16.84e-3], 16.84e-3, ROUNDS, 0.0).startswith("was faster")
    assert pass_step.drawn_against_rounds([30.46e-3], 30.46e-3, ROUNDS, 0.0).startswith("was slower")


def test_cell_10_prints_the_sentence_from_the_function():
    cells = ["".join(c["source"]) for c in json.loads(NB_07.read_text())["cells"]]
    assert "pass_step.drawn_against_rounds(recorded, drawn, rounds" in cells[10]
    assert "a quieter moment" not in cells[10]
