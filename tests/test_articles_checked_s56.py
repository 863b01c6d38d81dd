"""Lesson 09 reads lesson 02's split alone with lesson 02's own words (twentieth reading, t20_09 #2): a round
past its own round's per-process reference beyond the paired ratios' spread (1.17 / 1.16 = 1.01, beyond
1.00 ± 0.00) is named a finding to explain (``claims.rounds_past_spread``), and "explained by the reference"
is said of the median and the other rounds only. Made in ``model_split.noise.reference_reading``; lesson 09
inherits it. Sentences from ledger records, each outcome; no timing."""

from utils.lessons.articles_checked import checks

ROUNDS = [1.17, 1.05, 1.07, 1.01, 1.06]  # the run both readers saw: the split's rounds
REFERENCES = [1.16, 1.05, 1.07, 1.01, 1.12]  # each round's per-process reference
SPLIT = {"value": 1.06, "bound": 1.0, "reference": 1.07, "rounds": ROUNDS, "reference_rounds": REFERENCES,
         "lesson": "02"}


def test_a_round_past_its_own_reference_is_named_and_not_explained():
    said = checks.split_alone_words(SPLIT)
    assert said.endswith("(each round's speedup over its own round's reference: median 1.00x ± 0.00; 1 of 5 "
                         "rounds under it); round 1 lies past its own round's reference, beyond the ratios' spread "
                         "(1.17x / 1.16x = 1.01x, above 1 and above 1.00 + 0.00 = 1.00): a finding to explain; the "
                         "median and the other 4 rounds: explained by the reference (lesson 02 §3)"), said
    assert "1 of 5 rounds under it): explained by the reference" not in said


def test_with_every_round_within_the_spread_the_split_is_explained_whole():
    within = SPLIT | {"reference_rounds": [1.17, 1.05, 1.07, 1.01, 1.12]}  # round 1: 1.17 / 1.17 = 1.00
    said = checks.split_alone_words(within)
    assert said.endswith("1 of 5 rounds under it): explained by the reference (lesson 02 §3)"), said
    assert "lies past" not in said and checks.split_explained(within, said)


def test_a_reference_within_noise_of_one_names_no_round_it_cannot_explain():
    # such a reference explains nothing: the whole excess is a finding, so no round is singled out
    weak = SPLIT | {"reference": 0.98, "reference_rounds": [0.98, 1.10, 1.22, 0.95, 0.95],
                    "rounds": [0.88, 1.06, 1.04, 1.02, 1.04], "value": 1.04}
    said = checks.split_alone_words(weak)
    assert "it explains nothing (lesson 02 §3)" in said and "lies past" not in said, said
