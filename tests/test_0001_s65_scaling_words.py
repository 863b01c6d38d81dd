"""Twenty-seventh reading (t27_0001, other problems), lesson 01: the closing row's second condition (a fixed cost
d not below zero) is said in words, and an axis that misses by more than ±10% with a d below zero beyond its ±
says both."""

from test_0001_s63_fixed_costs import axis

from utils.lessons.why_slow import report, scaling


def test_an_axis_off_with_a_negative_fixed_cost_says_both_and_one_with_d_in_noise_says_only_the_miss():
    off_negative = {"depth": axis("depth", -5e-3, 1.2e-3, first=0.7e9)}  # d = -5.0 ± 1.2 ms, off 20%
    assert scaling.fixed_cost_is_negative(off_negative["depth"])
    assert report.scaling_holds(off_negative, scaling.fit) == {"depth": "off"}
    said = report.scaling_verdict(off_negative, scaling.fit, 2)
    assert "depth does not hold: misses by" in said and "(2 repeats a point: noisy), and its fixed cost is below " \
        "zero beyond its ± (d = -5.0 ± 1.2 ms)" in said
    off_positive = {"depth": axis("depth", 5e-3, 4e-3, first=0.7e9)}
    assert report.scaling_holds(off_positive, scaling.fit) == {"depth": "off"}
    assert "below zero" not in report.scaling_verdict(off_positive, scaling.fit, 2)


def test_the_closing_rows_conditions_are_words_a_learner_reads():
    import nbformat

    nb = nbformat.read("notebooks/01_why_slow.ipynb", as_version=4)
    source = "".join(c.source for c in nb.cells)
    assert "d ≥ 0" not in source
    assert "a fixed cost d not below zero" in source
    assert "its fixed cost d is not below zero beyond" in source
