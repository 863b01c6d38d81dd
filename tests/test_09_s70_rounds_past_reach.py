"""Reader t31_09 #2: a median above its bound beyond the spread, within its work-scaled reference, has its rounds
read with it, except a round past both the median + spread and the reference + spread, which stays a finding as
lesson 02 §5 prints it; on fabricated figures."""

from utils.lessons.articles_checked import figures


def _pipeline(rounds, reference=1.89):
    return {"value": 1.87, "bound": 1.7777777777777777, "reference": reference, "rounds": rounds}


def test_a_round_past_the_reference_and_the_spread_stays_a_finding():
    said = figures.rounds_above_words(_pipeline([1.991, 1.731, 1.87, 1.896, 1.827]))
    assert said == ("4 of 5 rounds above the bound (up to 1.99x), read with the median, except 1.99x past the "
                    "median + spread (1.87 + 0.04 = 1.91) and the work-scaled reference + spread (1.89 + 0.04 = "
                    "1.93): a finding to explain"), said


def test_rounds_the_reference_reaches_are_only_counted():
    said = figures.rounds_above_words(_pipeline([1.92, 1.731, 1.87, 1.896, 1.827]))
    assert said == "4 of 5 rounds above the bound (up to 1.92x)", said


def test_without_a_work_scaled_reference_the_rounds_are_only_counted():
    record = _pipeline([1.991, 1.731, 1.87, 1.896, 1.827], reference=None)
    assert figures.rounds_above_words(record) == "4 of 5 rounds above the bound (up to 1.99x)"
