"""Lab 00 (t23_labs03 #5, #6, other 6): the one-line answer quotes each plan (their names hold commas) and
says what the block works out in plain words; a split inside the fit's band while the ping-pong of the same
bytes left it is said to land there by two gaps cancelling, not as a plain "no miss"; a drift of the link
shown by every case names the other cause it cannot be told from, the two ping-pongs' protocols. Every branch
on fabricated figures."""

from __future__ import annotations

from utils.labs.fix_the_article import rounds, split
from utils.labs.fix_the_article.answer import miss_answer
from utils.labs.fix_the_article.rounds import cancelled_words, owner_words, plans_named

BAND = (0.86, 1.22)
LONGER = [1.6, 1.5, 1.7, 1.55, 1.65, 1.58, 1.62, 1.49, 1.52]  # every round on one side of 1
EVEN = [1.1, 0.9, 1.05, 0.95, 1.2, 0.85, 1.0, 1.02, 0.98]


def _said(text):
    return " ".join(text.split())


def test_plan_names_with_commas_are_quoted_and_joined_so_they_can_be_counted():
    assert plans_named(["a, 8 MB"]) == '"a, 8 MB"'
    assert plans_named(["a, 8 MB", "b, 6 MB"]) == '"a, 8 MB" and "b, 6 MB"'
    assert plans_named(["a, 1", "b, 2", "c, 3"]) == '"a, 1", "b, 2" and "c, 3"'


def test_the_one_line_answer_quotes_the_plans_and_says_what_the_block_works_out():
    said = _said(miss_answer({"every layer learns, 6.5 MB a device": LONGER, "first layer frozen, 6 MB a device":
                              LONGER, "every layer learns, 8 MB a device": EVEN}))
    assert ('in 2 of 3 plans: "every layer learns, 6.5 MB a device" and "first layer frozen, 6 MB a device". '
            "Whether") in said
    assert "Whether the model or the split caused the gap, and the rule that reads the rounds, are in the block" in said
    assert "from both figures" not in said
    shorter = _said(miss_answer({"x, 1": [1 / r for r in LONGER], "y, 2": EVEN}))
    assert 'shorter in 1: "x, 1".' in shorter


def test_a_split_inside_the_band_beside_a_ping_pong_outside_it_is_a_coincidence():
    said = owner_words(1.16, 0.68, BAND, 1.57)
    assert said.startswith("no miss of the model, but only because two gaps cancelled: the ping-pong of the same "
                           "bytes ran faster than the fit (under its band) and the split's median took longer than "
                           "that ping-pong's: the model's agreement here is a coincidence. The split's excess"), said
    assert cancelled_words("above").startswith(", but only because two gaps cancelled: the ping-pong of "
                                                         "the same bytes ran slower than the fit (above its band) "
                                                         "and the split's median took shorter")


def test_no_coincidence_is_claimed_where_both_lie_inside_or_the_split_left_the_band():
    assert owner_words(1.16, 0.95, BAND, 1.2).startswith("no miss of the model. The split's excess")
    assert cancelled_words("inside") == ""
    assert "coincidence" not in owner_words(1.40, 0.68, BAND, 2.0)


def test_a_drift_in_every_case_names_the_two_ping_pongs_protocols_as_the_other_cause():
    said = _said(rounds.drift_sentence([0.68, 0.65, 0.70], BAND))
    assert "ran faster than the fit, outside its band: the link drifted between the fit and these rounds" in said
    assert (f"or the rounds' briefer ping-pong (a median of {split.ROUND_PINGS} after {split.ROUND_WARMUP} untimed, "
            f"right after a training step, against the fit's {split.LINK_REPEATS} after {split.LINK_WARMUP}) times "
            "it otherwise: not told apart here") in said
