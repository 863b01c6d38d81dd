"""Code review (0001), lesson 00: the fit's verdict reads its ± as the fit table prints it (whole percent, half
up), so that a worst residual printed "50%" is within the ±50% tolerance everywhere: in the verdict, in the fit
table's "not used" mark, and in whether the plot draws the line."""

from test_start_here_link import profile

from utils.lessons.start_here import bandwidth, summary


def test_a_residual_printed_at_the_tolerance_is_within_it_and_one_point_past_is_outside():
    assert summary.fit_verdict(0.5049) == ("within the tolerance, 0 points to spare: barely, so its predictions "
                                           "are rough")
    assert summary.fit_verdict(0.505).startswith("outside the tolerance by 1 point:")
    assert summary.fit_verdict(0.4951) == summary.fit_verdict(0.5)


def test_the_fit_table_the_verdict_and_the_plot_read_one_printed_figure():
    edge, past = profile(0.5039), profile(0.5061)  # residual at 4 B: prints 50% and 51%
    for link, usable in ((edge, True), (past, False)):
        table = bandwidth.fit_table({"gloo": link.fit})
        printed = max(abs(int(r[1].rstrip("%"))) for r in table.rows[2:] if r[1])
        assert (printed <= 50) == usable == summary.fit_usable(link)
        assert ("not used" in table.rows[0][1]) == (not usable)
        assert summary.fit_verdict(summary.printed_accuracy(link)).startswith("within" if usable else "outside")
    assert edge.accuracy > summary.FIT_USABLE  # unrounded past it: the raw figure would have said "outside"
    assert bandwidth.below_alpha_sentence([], edge) != "" and bandwidth.below_alpha_sentence([], past) == ""

