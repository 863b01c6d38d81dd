"""The thirty-second reading of labs 04-08 (t32_labs48) and the lead's note on it: lab 08's short take-away
chooses its words on the profiler's overhead in a plain if/elif that learners can read, on every branch."""

import ast
import inspect


def _diagnosis(threads):
    from utils.labs.make_it_fast import checks as lab

    reading = {"step": 1728.0, "load": 87.5, "forward and backward": 1180.52, "optimizer": 181.8,
               "evaluate": 242.0, "checkpoint": 34.8, lab.ALL_REDUCES: 7.67}
    return lab.Diagnosis(3, reading, [], threads)


def _threads(ratios, slow_ms):
    return {"slow": 2, "launcher": 1, "ratios": ratios, "slow_ms": slow_ms, "launcher_ms": []}


def test_lab08_overhead_words_every_branch():
    from utils.labs.make_it_fast.prediction import _overhead_words

    # rounds that gather, slower under the profiler: 1180.52 - 4 x 91.5 = 814.52, printed 815
    gathered = _overhead_words(_diagnosis(_threads([2.0, 2.1, 2.2], [91.5, 91.4, 91.6])))
    assert gathered == ": under the profiler, forward and backward took 815 ms a step more than timed alone"
    # rounds in two groups (t32_labs48 #1): no figure, whatever their ms
    two_groups = _diagnosis(_threads([1.76, 1.91, 3.10, 28.49, 34.36], [91.5, 91.4, 91.6]))
    assert _overhead_words(two_groups) == ", not measured apart"
    # rounds that gather but were slower alone (4 x 400 > 1180.52): no overhead shown as a figure
    assert _overhead_words(_diagnosis(_threads([2.0, 2.1, 2.2], [400.0]))) == ", not measured apart"
    assert _overhead_words(_diagnosis(None)) == ""  # no rounds timed: nothing to name
    assert _overhead_words(_diagnosis(_threads([], []))) == ""


def test_lab08_prediction_short_has_no_nested_conditional_expression():
    """The lead's note: learners read this code; a conditional expression inside another is hard to follow."""
    from utils.labs.make_it_fast import prediction

    for function in (prediction.prediction_short, prediction._overhead_words):
        tree = ast.parse(inspect.getsource(function))
        for node in ast.walk(tree):
            if isinstance(node, ast.IfExp):
                inner = [n for n in ast.walk(node) if isinstance(n, ast.IfExp) and n is not node]
                assert not inner, f"{function.__name__} nests a conditional expression"


# --- lab 06 cell 7 (t32_labs48 other #3): the within-noise reason names what selective spares -----------------

def test_lab06_selective_why_names_what_backward_no_longer_recomputes():
    from utils.labs.fit_the_budget.checks import _selective_within_noise

    for selective, every in ((1.21, 1.18), (1.18, 1.21), (1.2, 1.2)):  # every side the printed cost fell on
        said = _selective_within_noise(selective, every, 0.03, 0.05)   # a gap within the noise
        assert ": keeping the matmuls' outputs spares backward recomputing them, which pays off only" in said, said
        assert "what it saves, recomputing" not in said  # read as though selective recomputes the matmuls


# --- lab 04 cell 16 (t32_labs48 other #5): the Speed line's verdict first, its reference on a line of its own ---

def _lab04(monkeypatch, kind, speed):
    from utils.labs.compress_under_budget import checks as lab04

    widths = {"yours": [276] * 4, "trained": [768] * 4, "whole": [768] * 4}
    kinds = {"yours": kind, "trained": "float", "whole": "int8_dynamic"}
    monkeypatch.setattr(lab04, "hidden_widths", lambda m: widths[m])
    monkeypatch.setattr(lab04, "quantization_of", lambda m: kinds[m])
    monkeypatch.setattr(lab04, "MEASURED_SPEED", [([276] * 4, kind, speed)])
    return lab04._speed_line("yours", "trained", "whole")


def test_lab04_speed_line_puts_the_verdict_before_the_reference(monkeypatch):
    from utils.labs.compress_under_budget.checks import PairedSpeed

    said = _lab04(monkeypatch, "int8_dynamic", PairedSpeed(6.56, 1.95, 0.08, 3.36, 21, 5.31))
    verdict, reference = said.split("\n")
    assert verdict == ("Speed: whole-model int8 ran 3.36x the trained model's speed, yours 6.56x it. With int8 in "
                       "both, your narrower widths made the difference: 1.95x ± 0.08 whole-model int8's speed."), said
    assert reference.startswith("Were time in proportion to the work") and "5.31 x 3.36 = 17.84x" in reference
    # the bar the trained model, float in both: the same order
    said = _lab04(monkeypatch, "float", PairedSpeed(2.10, 2.10, 0.10, 0.95, 21, 5.31))
    assert said.split("\n")[0].endswith("float in both: your narrower widths made the difference."), said
    assert said.split("\n")[1].startswith("Were time in proportion to the work"), said
    # no weights counted: no reference, no line break
    said = _lab04(monkeypatch, "int8_dynamic", PairedSpeed(6.56, 1.95, 0.08, 3.36, 21))
    assert "\n" not in said and "in proportion" not in said, said
    # a type the lab times no whole-width model of: the no-reference words, on their own line
    said = _lab04(monkeypatch, "int8_weight_only", PairedSpeed(2.10, 0.64, 0.05, 3.26, 21, 5.31))
    assert said.split("\n")[1].startswith("No reference beside these speed-ups"), said


def test_lab04_wrapped_starts_a_paragraph_at_a_lines_own_break():
    from utils.labs.compress_under_budget.plan import wrapped

    said = wrapped(["Bytes: short.", "Speed: a verdict.\nWere time in proportion, " + "word " * 30 + "end."])
    lines = said.split("\n")
    assert lines[:2] == ["Bytes: short.", "Speed: a verdict."] and len(lines) == 4, said
    assert lines[2].startswith("  Were time in proportion, word") and lines[3].startswith("  word"), said
    assert all(len(line) <= 110 for line in lines), said
