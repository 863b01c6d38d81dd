"""Thirty-third reading (t33_0001 #3), lesson 01 section 3: a message faster than the fastest small-message time
has a latency share past 100 %; the sentence and the claims verdict say what that figure is (not a bare
"(124%)"), and that the table prints it as not measurable. Fabricated figures."""

from utils.lessons.why_slow import link_report


def test_a_share_past_the_whole_is_named():
    said = link_report.past_whole_said(85.2 / 68.8)
    assert said == "a latency share of 124%, past the whole, which the table prints as not measurable"
    assert "as the table does" not in said
