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
        said = _selective_within_noise(selective, every)
        assert ": keeping the matmuls' outputs spares backward recomputing them, which pays off only" in said, said
        assert "what it saves, recomputing" not in said  # read as though selective recomputes the matmuls
