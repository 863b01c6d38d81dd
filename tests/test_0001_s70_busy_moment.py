"""Thirty-first reading (t31_0001 #4), lesson 00 cell 26: one size alone off the line is a median a one-off busy
moment can make, not "noise" (one block held noise to ±10% in one sentence and let it make a 69% miss in
another). Fabricated figures."""

from types import SimpleNamespace as NS

from utils.lessons.start_here import line_check

MIB = 2**20
SIZES = [4, 4096, MIB, 4 * MIB, 16 * MIB, 64 * MIB]


def test_the_pattern_sentence_calls_one_wide_miss_a_busy_moment():
    said = line_check.pattern_sentence(SIZES, [0.18, 0.02, -0.43, 0.14, 0.19, 0.19])
    assert "one size's median alone, which a one-off busy moment can make; time it again." in said
    assert "noise can make" not in said


def test_the_kept_lines_verdict_says_the_same():
    from tests.test_0001_s64_between_runs import THEIRS, _kept
    theirs = dict(THEIRS)
    theirs[256 * 2**10] = 60.0  # 151.1 µs on the kept line: one size alone far off it
    run = NS(fit=NS(sizes=list(theirs)), seconds=[t * 1e-6 for t in theirs.values()])
    check = line_check.check_line(_kept(), run)
    assert check.grade == "one size"
    said = check.sentence()
    assert "one size's median alone, which a one-off busy moment can make as well as a changed link" in said
    assert "noise can make" not in said
