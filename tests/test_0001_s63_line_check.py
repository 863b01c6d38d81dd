"""Twenty-fifth reading (t25_0001, other problems), lesson 00: a sign test whose misses alternate at every step
says so rather than "4 or fewer changes happen 100% of the time"; the one-line answer reads the profile's line
only below the sizes where the rate falls; ``LineCheck.grade`` has no unreachable branch."""

from test_start_here_link import GLOO, SIZES, profile

from utils.lessons.start_here import line_check, summary
from utils.machine import link_fit


def test_misses_that_alternate_at_every_step_are_said_so_not_given_a_certain_chance():
    sizes = [4, 4096, 2**16, 2**18, 2**20, 2**26]
    said = line_check.pattern_sentence(sizes, [0.36, 0.02, -0.22, 0.16, -0.17, 0.20])
    assert "change sign 4 times" in said and "at every step, the most they can: no run of one sign" in said
    assert "100% of the time" not in said and "or fewer changes happen" not in said
    # fewer changes than the most: the chance is still given (it says something)
    kept = line_check.pattern_sentence(sizes, [0.36, 0.02, 0.22, 0.16, -0.17, 0.20])
    assert "with 5 misses of random sign, 2 or fewer changes happen" in kept


def falling_run():
    """On the profile's line (5% slower) but for 64 MiB, 25% slower: its rate falls past ±10% below 16 MiB's."""
    kept = profile()
    return link_fit(GLOO, SIZES, [t * (1.25 if n == 2**26 else 1.05) for n, t in zip(SIZES, kept.seconds)])


def test_the_answer_on_the_profiles_line_stops_where_the_rate_falls():
    kept, run = profile(), falling_run()
    assert line_check.falling_rate(run.fit.sizes, run.seconds) is not None
    assert line_check.check_line(kept, run).grade == "within"
    said = summary.cost_answer(kept, run, summary.FIT_USABLE)
    assert "this run's messages lie on it (yes: within the fit's own error), for messages up to 16 MiB: above " \
           "16 MiB, where the rate falls, use the measured times." in said
    steady = link_fit(GLOO, SIZES, [t * 1.05 for t in kept.seconds])
    assert summary.cost_answer(kept, steady, summary.FIT_USABLE).endswith("(yes: within the fit's own error).")


def test_the_answer_with_this_runs_own_fit_stops_where_the_rate_falls_too():
    run = falling_run()
    said = summary.cost_answer(run, run, 1.0)
    assert "with this run's fit" in said
    assert said.endswith("above 16 MiB, where the rate falls, use the measured times.")


def test_two_sizes_past_the_edge_grade_beyond_and_one_grades_one_size():
    miss = [(n, 1.0, 1.0, 0.0) for n in SIZES]
    two = line_check.LineCheck(miss[:6] + [(SIZES[6], 1.0, 1.0, 0.6), (SIZES[7], 1.0, 1.0, -0.6)], 0.3)
    assert two.grade == "beyond"
    one = line_check.LineCheck(miss[:7] + [(SIZES[7], 1.0, 1.0, 0.6)], 0.3)
    assert one.grade == "one size"
