"""t34_0506 #4: the offload table's CPU AdamW rate reads as one sum: half the named rate, whose M/s the name
carries, = the per-rank figure. "half 2 x this machine's 1-thread AdamW rate, the 2-thread bound, 270.0" left a
newcomer to guess which of the three the 270.0 was."""
from utils.lessons.memory import offload


def _column(rates, cores):
    reference, named = offload.reference_rate(rates, cores)
    return f"each rank's share: half {named} = {reference / 2 / 1e6:.1f} M parameters/s"   # as cell 43 words it


def test_the_bound_names_the_one_thread_rate_it_doubles():
    assert _column({1: 270e6, 2: 620e6}, 2) == ("each rank's share: half the 2-thread bound (2 x this machine's "
                                                "1-thread AdamW rate, 270 M/s) = 270.0 M parameters/s")


def test_an_own_rate_names_its_figure_so_the_half_is_redone_from_the_page():
    assert _column({1: 300e6, 2: 581e6}, 2) == ("each rank's share: half this machine's 2-thread AdamW rate "
                                                "(581 M/s) = 290.5 M parameters/s")
    assert _column({1: 300e6, 2: 280e6}, 2).startswith("each rank's share: half this machine's 1-thread AdamW rate "
                                                       "(300 M/s) = 150.0")
