"""Lesson 09 (t25 re-execution): a summary row whose check follows another row's shows, in its short cell, which
row its inconclusive or disagreeing check comes from, not a summed-up row's own "within noise"."""
from utils.lessons.articles_checked import short_evidence
from utils.lessons.articles_checked.checks import DISAGREES, NOISY
from utils.lessons.articles_checked.sources import Part

SUMMED = Part("rows B5, B6; in this run one cure showed no gain: B12's layer (within noise of the dense layer)",
              "from the rows", "")
FOLLOWS = Part("its check follows row B5 (inconclusive: noise-bound)", "from the rows", "", follows="B5")


def test_a_noise_bound_or_disagreeing_summary_shows_the_row_it_follows():
    assert short_evidence.deciding_part((SUMMED, FOLLOWS), NOISY) is FOLLOWS
    assert short_evidence.deciding_part((SUMMED, FOLLOWS), DISAGREES) is FOLLOWS


def test_an_agreeing_summary_or_a_row_without_one_keeps_its_first_part():
    assert short_evidence.deciding_part((SUMMED, FOLLOWS), "agrees") is SUMMED
    assert short_evidence.deciding_part((SUMMED,), NOISY) is SUMMED
