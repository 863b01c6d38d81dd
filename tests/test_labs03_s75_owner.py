"""Lab 00's whose-miss lines (t36_labs03 other 1): the split's ratio to the prediction and its excess over the
ping-pong, round by round, are each named, so two equal figures (2.35x and 2.35x) do not read as one."""

from utils.labs.fix_the_article import rounds


def test_equal_ratios_are_each_named_by_what_they_divide():
    said = " ".join(rounds.owner_words(2.35, 0.94, (0.81, 1.23), 2.35, None, (298e-6, 120e-6), 9).split())
    assert "(round by round, the median of the 9 rounds' ratios, not a ratio of the two medians, is 2.35x)" in said
    assert "; the split over the prediction: 2.35x, above the fit's band 0.81-1.23x" in said
    assert "it took" not in said
