"""Lesson 09, t34_09 #1 (row A19): a share at 100% or more is "all of it or more" only where its rounds' spread
keeps it past 100%; within that spread of 100% it is "about all of it", with the share and its spread.
Fabricated shares (speed-up / 2) and spreads (of the speed-up)."""

from utils.lessons.articles_checked import wording

PIPE = "lesson 02 §5's pipeline"


def test_a_share_within_its_spread_of_100_is_about_all_of_it():
    said = wording.kept_most_words({PIPE: 2.01 / 2, "data parallel": 1.74 / 2}, spreads={PIPE: 0.07})
    assert f"{PIPE} kept about all of it (101% ± 4: within noise of 100%)" in said, said
    assert "all of it or more" not in said


def test_a_share_past_100_beyond_its_spread_is_all_of_it_or_more():
    said = wording.kept_most_words({PIPE: 2.25 / 2, "data parallel": 1.74 / 2}, spreads={PIPE: 0.03})
    assert f"{PIPE} kept all of it or more" in said and "about all" not in said
    # no spread kept (an older ledger entry): the share as printed, as before
    said = wording.kept_most_words({PIPE: 2.01 / 2, "data parallel": 1.74 / 2})
    assert f"{PIPE} kept all of it or more" in said


def test_exactly_100_stays_all_of_it():
    said = wording.kept_most_words({PIPE: 2.00 / 2, "data parallel": 1.74 / 2}, spreads={PIPE: 0.02})
    assert f"{PIPE} kept all of it or more" in said and "about all" not in said
