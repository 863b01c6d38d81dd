"""Twenty-first reading (t21_labs03, lab 00): whose miss it is, printed once (the report's block; the take-away
points to it), and the swap test's band holding every size the compared cuts send."""

from types import SimpleNamespace

from utils.labs.fix_the_article import checks as lab
from utils.labs.fix_the_article import report
from utils.labs.fix_the_article.rounds import fit_band, full_band


def _residual(ratio: float) -> float:  # measured / fitted = 1 / (1 - r)
    return 1 - 1 / ratio


# the reader's fit: every size 0.92-1.10x but 262,144 bytes, at 0.87x
SIZES = (4, 4096, 65536, 262144, 1048576)
LINK = lab.AlphaBeta(151.1e-6, 3.0e9, SIZES, tuple(_residual(x) for x in (1.02, 1.10, 0.92, 0.87, 1.01)))


def _cut(*sizes):
    return SimpleNamespace(messages=[SimpleNamespace(nbytes=n) for n in sizes])


def test_a_compared_cut_that_sends_the_left_out_size_is_judged_on_the_full_band():
    lo, hi = fit_band(LINK)
    assert (round(lo, 2), round(hi, 2)) == (0.92, 1.10)
    assert tuple(round(x, 2) for x in full_band(LINK)) == (0.87, 1.10)
    lo, hi, words = report._swap_band(LINK, [_cut(262144), _cut(16384, 16384)])  # cut 1 sends 262,144 bytes
    assert (round(lo, 2), round(hi, 2)) == (0.87, 1.10)
    assert words == "its own sizes, 262,144 bytes included (a compared cut sends it)"
    # no compared cut sends it: the band without it, as before
    lo, hi, words = report._swap_band(LINK, [_cut(65536), _cut(16384, 16384)])
    assert (round(lo, 2), round(hi, 2)) == (0.92, 1.10)
    assert words == "its own sizes except 262,144 bytes, the farthest at 0.87x"


def _timed(split_us, pp_us):
    run = SimpleNamespace()
    run.link_seconds = lambda: [t * 1e-6 for t in split_us]
    run.ping_pong_seconds = lambda: [t * 1e-6 for t in pp_us]
    return run


def test_the_take_away_points_to_the_report_s_whose_miss_line_and_does_not_repeat_it():
    said = " ".join(report._miss_owner(_timed([415.0] * 9, [166.0] * 9), 238e-6, (0.92, 1.10)).split())
    assert said == ("by the report's rule its rounds ran longer than the ping-pong of the same bytes; whose miss "
                    "it is, from both figures, is this plan's line in the report's block above.")
    assert "the miss is the split's own" not in said and "excess" not in said
    # the other branches still say where both medians lie (they are not in the block's "Whose miss" lines)
    same = " ".join(report._miss_owner(_timed([238.0] * 9, [238.0] * 9), 238e-6, (0.92, 1.10)).split())
    assert "not shown to differ" in same and "no miss of the model" in same, same
