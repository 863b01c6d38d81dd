"""t32_0708 #1: lesson 07 cell 10 read a cause ("the workers' own") off a load of 0.12 of a core measured over
two recorded passes (about 37 ms), though /proc/stat counts CPU in 10 ms ticks on each core (± 0.54 of a core
over that window) and 0.12 of a core over 37 ms is more CPU than the gap it was said not to explain. Now the
load prints with its window and grain, names a busy moment only where it clears the gate by more than its
grain, never a quiet one, and the gap otherwise has no measured cause. Every branch on fabricated figures."""

import json
from pathlib import Path

from utils.lessons.tensor_parallel import pass_step

NB_07 = Path(__file__).resolve().parents[1] / "notebooks" / "07_tensor_parallel.ipynb"
ROUNDS = [20.8e-3, 26.6e-3, 42.3e-3]
SHORT = {"window": 36.8e-3, "tick": 0.01, "cpus": 2}   # the t32 run's window: 2 x 10 / 36.8 = 0.54
LONG = {"window": 2.0, "tick": 0.01, "cpus": 2}        # 0.01 of a core


def test_the_grain_is_a_tick_on_every_core_over_the_window():
    assert round(pass_step.load_grain(SHORT), 2) == 0.54
    assert round(pass_step.load_grain(LONG), 3) == 0.01
    assert pass_step.load_grain(None) == 0.0


def test_a_short_window_prints_its_grain_and_says_it_cannot_tell():
    words = pass_step.load_words(0.12, SHORT)
    assert words == ("0.12 of a core over 37 ms, ± 0.54 (the machine's CPU counters tick every 10 ms on each "
                     "of its 2 cores: too coarse to tell a quiet moment from a busy one)")
    assert "too coarse" not in pass_step.load_words(0.12, LONG) and "over 2,000 ms, ± 0.01" in \
        pass_step.load_words(0.12, LONG)
    assert pass_step.load_words(0.12, None) == "0.12 of a core"


def test_the_t32_faster_pass_names_no_cause_inside_the_workers():
    text = pass_step.drawn_against_rounds([16.6e-3, 20.2e-3], 16.6e-3, ROUNDS, 0.12, SHORT)
    assert text.startswith("was faster than every one of them: other programs used 0.12 of a core over the 2 "
                           "recorded passes together (37 ms), ± 0.54")
    assert "the workers' own" not in text and text.endswith("the gap has no measured cause")


def test_busy_only_where_the_load_clears_the_gate_by_more_than_its_grain():
    slower = [43.0e-3, 44.0e-3]
    # 1.17 - 0.54 = 0.63 > 0.2: busy; 0.6 - 0.54 = 0.06: not; 0.6 over 2 s: busy
    assert "met a busy moment" in pass_step.drawn_against_rounds(slower, 43.0e-3, ROUNDS, 1.17, SHORT)
    assert "met a busy moment" not in pass_step.drawn_against_rounds(slower, 43.0e-3, ROUNDS, 0.6, SHORT)
    assert "met a busy moment" in pass_step.drawn_against_rounds(slower, 43.0e-3, ROUNDS, 0.6, LONG)
    assert pass_step.load_busy(0.6, LONG) and not pass_step.load_busy(0.6, SHORT)
    assert not pass_step.load_busy(0.2, None)   # at the gate: not busy


def test_the_slow_calls_line_names_a_core_only_where_the_load_is_busy_beyond_its_grain():
    assert "get a core back" in pass_step.slow_calls_words(0.6, LONG, True)
    assert "get a core back" not in pass_step.slow_calls_words(0.6, SHORT, True)   # within the grain
    assert "get a core back" not in pass_step.slow_calls_words(0.6, LONG, False)   # no slow calls
    # t33_0708 other #1: the load is printed once, on the drawn pass's line, not again as this pass's calls'
    assert pass_step.slow_calls_words(0.12, SHORT, False) == "" == pass_step.slow_calls_words(0.6, LONG, False)
    assert "0.60 of a core over both recorded passes (2,000 ms), ± 0.01" in pass_step.slow_calls_words(0.6, LONG,
                                                                                                       True)


def test_the_drawn_compute_candidate_quotes_the_load_with_its_grain():
    text = pass_step.drawn_beside(4.61e-3, 2.8e-3, pass_step.drawn_moment(1.17, 30.6e-3, [24.1e-3], SHORT))
    assert "a busier moment (other programs used 1.17 of a core over its recorded passes (37 ms), ± 0.54" in text


def test_cells_10_and_27_pass_the_counters_grain():
    cells = ["".join(c["source"]) for c in json.loads(NB_07.read_text())["cells"]]
    assert 'parallel[0]["counter"])' in cells[10] and "pass_step.slow_calls_words(" in cells[10]
    assert "> 0.2" not in cells[10]
    assert 'parallel[0]["counter"])))' in cells[27]
