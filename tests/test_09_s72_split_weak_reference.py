"""Lesson 09, t33_09 #1: where lesson 02 §3's per-process reference is itself within noise of 1x, the note says
so and names the split's rounds that stay findings (as rows A10 and B5 count them), instead of leaving only
"within noise of the per-process reference"; cell 0's rule 2 says such a reference reaches no round.
Fabricated figures."""

from __future__ import annotations

import nbformat

from utils.lessons.articles_checked.split_alone import split_rounds_finding, split_rounds_reading

# median 1.00x ± 0.03; reference 1.02x with rounds reaching both sides of 1x (within noise of it)
WEAK = dict(value=1.00, bound=1.0, reference=1.02, rounds=[1.08, 1.00, 0.98, 0.99, 1.05],
            reference_rounds=[1.02, 1.06, 0.98, 0.99, 1.06])
CLEAR = WEAK | dict(reference=1.13, reference_rounds=[1.17, 1.11, 1.13, 1.09, 1.14])


def test_a_reference_within_noise_of_1x_explains_no_round_and_the_note_names_those_that_stay():
    said = split_rounds_reading(WEAK)
    assert said.endswith("; that reference is itself within noise of 1x (1.02x ± 0.04), so it explains no round: "
                         "the 1.08x and 1.05x rounds stay findings to explain, as the rows that quote the split "
                         "count them."), said
    assert split_rounds_finding(WEAK)  # the rows count them too: one reading


def test_one_round_left_none_left_and_a_clear_reference():
    one = WEAK | dict(rounds=[1.08, 1.00, 0.98, 0.99, 1.01])
    assert split_rounds_reading(one).endswith("the 1.08x round stays a finding to explain, as the rows that quote "
                                              "the split count it."), split_rounds_reading(one)
    none = WEAK | dict(rounds=[1.00, 1.00, 0.98, 0.99, 1.00])  # none above the 1x bound
    assert split_rounds_reading(none).endswith("(1.02x ± 0.04), so it explains no round.")
    assert "itself within noise of 1x" not in split_rounds_reading(CLEAR)


def test_cell_0s_rule_2_says_such_a_reference_reaches_no_round():
    nb = nbformat.read("notebooks/09_articles_checked.ipynb", as_version=4)
    assert "a\n   per-process reference itself within noise of 1x reaches none" in nb.cells[0].source


def test_cell_3_says_how_the_fixed_cost_is_read_not_that_out_of_order_gives_none():
    # t33_09 #3: the 4-byte/4 KiB pair is read whichever order it came in (figures.fixed_cost)
    source = nbformat.read("notebooks/09_articles_checked.ipynb", as_version=4).cells[3].source
    assert "read from the smaller of the 4-byte and 4 KiB" in source and "give none" not in source
