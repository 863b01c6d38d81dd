"""Session 61: claims.middle_half (a range that never leaves the rounds) and signed_percent to one decimal."""
from utils import claims


def test_middle_half_of_skewed_rounds_stays_inside_the_rounds():
    rounds = [4.53, 2.82, 5.33, 2.73, 2.60]       # three near 2.7x, two disturbed near 5x
    low, high = claims.middle_half(rounds)
    assert (low, high) == (2.73, 4.53)
    assert min(rounds) <= low <= high <= max(rounds)
    # the symmetric ± around the median reaches below every round; the middle half's ends do not
    assert 2.82 - claims.paired_spread(rounds) < min(rounds)


def test_middle_half_of_few_rounds_is_their_range():
    assert claims.middle_half([1.2, 1.0, 1.1]) == (1.0, 1.2)
    assert claims.middle_half([1.3]) == (1.3, 1.3)


def test_paired_spread_is_half_the_middle_half():
    assert claims.paired_spread([1.0, 2.0, 3.0, 4.0]) == 0.5
    assert claims.paired_spread([1.0, 2.0, 3.0]) == 0.0


def test_signed_percent_to_one_decimal_rounds_half_up_and_drops_the_sign_of_zero():
    assert claims.signed_percent(-0.0625, 1) == "-6.3%"
    assert claims.signed_percent(0.0625, 1) == "+6.3%"
    assert claims.signed_percent(-0.0004, 1) == "0.0%"
    assert claims.printed_percent(-0.0625, 1) == -6.3
    assert claims.signed_percent(-0.225) == "-23%"   # whole percent stays the default
