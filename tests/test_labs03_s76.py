"""t76_labs03 #1: lab 00's answer above its block and lab 01's write-allocate take-away read as one long
paragraph; each is now short sentences, one claim each, with every figure kept."""

import re

from utils.labs.fix_the_article.answer import miss_answer
from utils.labs.predict_the_roofline import report

LONGEST = 200   # characters: a sentence longer than this read as a paragraph in the committed run


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.)])\s+(?=[A-Z])", " ".join(text.split())) if s]


def test_lab_00s_answer_is_short_sentences_with_the_plans_and_where_the_rule_is():
    longer, aside = [1.5] * 9, [1.5] * 8 + [0.5]
    answer = miss_answer({"a, 8 MB": longer, "b, 6 MB": aside}, {"a, 8 MB": [1.0] * 9, "b, 6 MB": [1.0] * 8 + [9.0]})
    assert all(len(s) <= LONGEST for s in _sentences(answer)), _sentences(answer)
    assert 'in 2 of 2 plans: "a, 8 MB" and "b, 6 MB".' in answer
    assert "the rule that reads the rounds, are in the block below" in answer  # its count is the block's (t42)
    assert "rounds left" not in answer
    none = miss_answer({"a": [1.5, 0.5] * 4 + [1.0]}, None, {"a": (300e-6, 200e-6)})   # the other branch
    assert all(len(s) <= LONGEST for s in _sentences(none)), _sentences(none)
    assert "The table still prints the split's median the longer in 1 of 1" in none


def test_lab_01s_write_allocate_take_away_is_short_sentences_keeping_its_figures():
    from tests.test_labs03_s75_headroom import ADD, _rows
    said = report.headroom_sentence(_rows(), ADD)
    assert all(len(s) <= LONGEST for s in _sentences(said)), _sentences(said)
    assert re.search(r"at most \d\.\d\dx their memory roof \(", said)
    assert re.search(r"may reach up to \d\.\d\dx its memory roof here\.", said)
    assert "held to the peak as measured: write-allocate does not move it." in said


def test_two_ping_pong_medians_far_apart_but_inside_a_wide_spread_are_not_called_too_close():
    """The committed run: 109 µs beside 140 ± 760 µs was called "too close to order"; 1.28x apart is not close,
    the spread is what covers it."""
    from tests.test_labs03_s71 import WIDE_FAST, WIDE_SLOW, _order
    wide = [140, 100, 195, 105, 190, 110, 185, 150, 130]   # median 140 µs, middle half 110-185: ± 38, no jump
    said = _order(WIDE_FAST, WIDE_SLOW, [109] * 9, wide)
    assert "the ping-pong of the same sizes 109 µs and 140 µs, no order shown: one median ± its rounds' spread " \
           "covers the other" in said, said
    assert "too close" not in said
