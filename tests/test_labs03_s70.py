"""Labs 00-03, the thirty-first reading's fixes (t31_labs03)."""


def _fit_of(name, alpha_us, beta_gbs, sizes, measured="in this run"):
    from utils.labs.fix_the_article import checks as lab

    fit = lab.AlphaBeta(alpha_us * 1e-6, beta_gbs * 1e9, sizes, (0.0,) * len(sizes))
    return lab.split.machine.LinkFit(name, fit, tuple(fit.time(n) for n in sizes), measured)


PATH, KEPT_ON = "gloo loopback, 2 processes", "on 2026-12-05 (this machine's stored profile)"


# --- #1: lesson 00 says the lab sets its fit beside the lesson's "and says by how much" ------------------------

def test_the_link_note_says_by_how_much_the_two_fits_differ():
    from utils.labs.fix_the_article import checks as lab

    this = _fit_of(PATH, 60.7, 5.67, (4, 1024, 4194304))
    kept = _fit_of(PATH, 75.8, 3.48, (4, 4096, 67108864), KEPT_ON)
    said = lab.lesson_link_words(this, kept)
    # 60.7 / 75.8 = 0.801 -> -20%; 5.67 / 3.48 = 1.629 -> +63%
    assert "this lab's, alpha 60.7 µs (-20% from lesson 00's), beta 5.67 GB/s (+63%), is fitted" in said


def test_the_difference_is_worked_from_the_printed_figures_half_up():
    from utils.labs.fix_the_article import checks as lab

    # 20.06 µs prints 20.1: 20.1 / 20.0 = 1.005 -> +1% half up (the unrounded 1.003 would give 0%)
    this = _fit_of(PATH, 20.06, 2.004, (4, 1024))
    kept = _fit_of(PATH, 20.0, 2.0, (4, 4096), KEPT_ON)
    said = lab.lesson_link_words(this, kept)
    assert "alpha 20.1 µs (+1% from lesson 00's), beta 2.00 GB/s (0%)," in said  # 2.00 / 2.00: no sign


def test_no_difference_is_printed_without_lesson_00s_fit():
    from utils.labs.fix_the_article import checks as lab

    alone = lab.lesson_link_words(_fit_of(PATH, 60.7, 5.67, (4, 1024)), None)
    assert "from lesson 00's" not in alone and "%" not in alone
    assert "this lab's, alpha 60.7 µs, beta 5.67 GB/s, is fitted" in alone
