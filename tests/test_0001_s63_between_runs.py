"""Twenty-fifth reading (t25_0001 #2), lesson 01: the link's move between lesson 00's run and this one is set
beside the fits' ± as printed (this section's and the profile's), every branch."""

from types import SimpleNamespace as NS

from utils.lessons.why_slow import link_report

NAME = "gloo loopback, 2 processes"


def link(accuracy):
    return NS(name=NAME, accuracy=accuracy)


def test_a_move_within_every_fits_spread_is_not_called_more_than_a_fit_says():
    """The reader's run: 28% against ±30% (this section) and ±45% (the profile)."""
    said = link_report._against_fits(0.28, link(0.3), link(0.45))
    assert said == ("within this section's fit ±30% and the profile's ±45%, but the link moved between the two "
                    "runs, by about that factor")


def test_a_move_past_every_fits_spread_keeps_the_clause():
    said = link_report._against_fits(0.98, link(0.3), link(0.45))
    assert said == ("the link itself moved between the two runs, more than this section's fit ±30% and the "
                    "profile's ±45% allow")


def test_a_move_between_the_two_spreads_names_both_sides():
    said = link_report._against_fits(0.36, link(0.3), link(0.45))
    assert said.endswith("more than this section's fit ±30% allow, within the profile's ±45%")


def test_the_spreads_are_read_as_printed_and_another_paths_profile_is_left_out():
    # 0.304 prints ±30%: a move of 30% is within it, as the reader checks it from the page
    assert link_report._against_fits(0.30, link(0.304), None).startswith("within this section's fit ±30%,")
    other = NS(name="GPU 0 to GPU 1", accuracy=0.1)
    assert "profile" not in link_report._against_fits(0.5, link(0.3), other)
