"""Lesson 01 after the twenty-third reading (t23_0001): the link beside lesson 00's run, a moment's move."""

from utils import machine
from utils.lessons.why_slow import between_runs, link_report, profile

KIB, MIB = 2**10, 2**20
NAME = "gloo loopback, 2 processes"
SIZES = [64 * KIB, MIB, 4 * MIB, 16 * MIB]


def _link(us, sizes=SIZES, name=NAME):
    return machine.link_fit(name, sizes, [t * 1e-6 for t in us])


def _record(us, sizes=SIZES, name=NAME):
    return {"what": name, "sizes": sizes, "seconds": [t * 1e-6 for t in us]}


def test_this_sections_messages_are_set_beside_lesson_00s_run_with_each_sizes_ratio():
    """t23_0001 #2: 106.6 against 172.8 µs at 64 KiB is 1.62x; 284.5 against 534.1 at 1 MiB is 1.88x."""
    said = between_runs.between_runs_sentence(_link([172.8, 534.1, 1665.8, 7251.6]),
                                             _record([106.6, 284.5, 1047.2, 4440.7]))
    assert "64 KiB 106.6 and 172.8 (1.62x); 1 MiB 284.5 and 534.1 (1.88x)" in said
    assert "16 MiB 4,440.7 and 7,251.6 (1.63x)" in said
    # lesson 00's 1 MiB and 4 MiB miss their neighbours' lines (-16%, then -12%), each line drawn through the
    # other: neither alone bent it, so neither is set apart there (t40_0001 #4); this run's 4 MiB (-13%) alone is
    assert "Of the 3 sizes kept (4 MiB set apart, 1.59x" in said and "1 MiB set apart" not in said
    assert "the link itself moved" in said


def test_runs_within_one_medians_noise_held_still_and_the_other_branches_say_why_not_compared():
    held = between_runs.between_runs_sentence(_link([110.0, 290.0, 1000.0, 4400.0]),
                                             _record([100.0, 284.5, 1047.2, 4440.7]))  # 1.10x at most
    assert "held still" in held and "moved" not in held
    assert "none recorded" in between_runs.between_runs_sentence(_link([1.0] * 4), None)
    other = between_runs.between_runs_sentence(_link([1.0] * 4), _record([1.0] * 4, name="GPU 0 to GPU 1"))
    assert "of another path (GPU 0 to GPU 1)" in other
    apart = between_runs.between_runs_sentence(_link([1.0] * 4), _record([1.0], sizes=[8]))
    assert "no size in common" in apart
    # one size only past the edge: one figure, not a range
    one = between_runs.between_runs_sentence(_link([150.0, 300.0], sizes=[MIB, 2 * MIB]),
                                            _record([100.0], sizes=[MIB]))
    assert "1 MiB (1.50x) lies past the ±10%" in one and "differed by 1.50x at the same size" in one


def test_lesson_00_keeps_its_run_for_lesson_01(tmp_path, monkeypatch):
    from types import SimpleNamespace as NS

    from utils import ledger
    from utils.lessons.start_here import summary

    monkeypatch.setenv(ledger.ENV, str(tmp_path))
    run = _link([106.6, 284.5, 1047.2, 4440.7])
    prof = NS(peak=lambda dtype: NS(best=1e11, name="fp32 matmul"))
    summary.to_ledger(prof, [], None, this_run=run)
    kept = ledger.figure(link_report.LESSON00_RUN, "cpu")
    assert kept["what"] == NAME and kept["sizes"] == SIZES
    assert "(1.00x)" in between_runs.between_runs_sentence(run, kept)


ROUNDS = [91.48e-3, 105.62e-3, 93.02e-3]  # section 1's rounds as the reader saw them


def test_a_moments_move_counts_the_unprofiled_step_where_it_lies_outside_the_rounds():
    """t23_0001 #6: +15.5% (105.62 / 91.48) beside an unprofiled 85.2 ms: counting it, 105.62 / 85.2 = +24.0%."""
    step = profile.StepProfile(94.8e-3, {}, [], None, None, None, unprofiled_seconds=85.2e-3)
    said = step.overhead_sentence(ROUNDS)
    assert ("That +11.3% is within the +24.0% a moment moves one step (section 1's rounds and the unprofiled "
            "step here: the slowest over the fastest, 105.62 / 85.2 ms)") in said
    inside = profile.StepProfile(100.0e-3, {}, [], None, None, None, unprofiled_seconds=95.0e-3)
    assert "(section 1's rounds: the slowest over the fastest, 105.62 / 91.48 ms)" in inside.overhead_sentence(ROUNDS)
    below = profile.retimed_sentence(93.02e-3, 85.2e-3, ROUNDS)
    assert "faster than every round. Counting it, the same step took 85.2 to 105.62 ms, the slowest +24.0%" in below
    above = profile.retimed_sentence(93.02e-3, 110.2e-3, ROUNDS)
    assert "Counting it, the same step took 91.48 to 110.2 ms, the slowest +20.5%" in above
    assert "Counting it" not in profile.retimed_sentence(93.02e-3, 95.0e-3, ROUNDS)
