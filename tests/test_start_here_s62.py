"""Lessons 00 and 01 after the twenty-fourth reading (t24_0001): the line check's sign test, the run's time."""

from utils.lessons.start_here import line_check

KIB, MIB = 2**10, 2**20
SIZES = [4, 4 * KIB, 64 * KIB, 256 * KIB, MIB, 4 * MIB, 16 * MIB, 64 * MIB]


def _rows(misses):
    """(size, measured s, line s, miss) per size, 100 µs measured each (fabricated figures)."""
    return [(n, 100e-6, 100e-6 * (1 - m), m) for n, m in zip(SIZES, misses)]


def test_misses_past_noise_all_on_one_side_of_the_line_say_the_line_does_not_describe_the_run():
    """t24_0001 #2: every size within ±45%, yet all 7 past ±10% slower than the line: 1/64 by chance."""
    check = line_check.LineCheck(_rows([0.33, 0.23, 0.33, 0.08, 0.18, 0.28, 0.38, 0.31]), 0.45)
    assert check.grade == "one side" and check.side == "slower"
    assert check.verdict.startswith("no: slower than the line")  # lesson 00's exercise 4 reads "no" as: measured
    said = check.sentence()
    assert "no size of this run lies past that fit's own ±45%" in said
    assert "all 7 of its 8 sizes that miss by more than the ±10%" in said and "(+18.0% to +38.0%)" in said
    assert "all on one side happens 2% of the time" in said and "use its measured times" in said
    # faster at every size: the other side, named so
    fast = line_check.LineCheck(_rows([-0.2] * 8), 0.45)
    assert fast.grade == "one side" and "faster than the line" in fast.verdict


def test_one_sign_among_too_few_misses_or_back_and_forth_signs_keep_the_old_grades():
    """4 misses past noise on one side (1 in 8 by chance) is no pattern; signs that change are none either."""
    few = line_check.LineCheck(_rows([0.2, 0.2, 0.2, 0.2, 0.05, -0.05, 0.05, 0.05]), 0.45)
    assert few.grade == "within" and few.verdict.startswith("yes")
    mixed = line_check.LineCheck(_rows([0.2, -0.2, 0.2, 0.2, -0.2, 0.2, 0.2, 0.2]), 0.45)
    assert mixed.grade == "within"
    # two sizes past the edge stay "beyond" whatever their signs; one alone past it, the rest one-sided: one side
    beyond = line_check.LineCheck(_rows([0.6, 0.6, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2]), 0.45)
    assert beyond.grade == "beyond"
    lone = line_check.LineCheck(_rows([0.6, 0.2, 0.2, 0.2, 0.2, 0.2, 0.05, 0.05]), 0.45)
    assert lone.grade == "one side" and "only 4 B of this run lies past" in lone.sentence()


def test_the_answer_and_the_fits_sentence_follow_the_one_sided_grade():
    from utils import machine
    from utils.lessons.start_here import summary

    scatter = [1.35, 0.75] * 4  # the kept fit's own run, noisy: its line misses its own points by about ±40%
    kept = machine.link_fit("gloo", SIZES, [k * (50e-6 + n / 4e9) for k, n in zip(scatter, SIZES)])
    kept = machine.LinkFit(kept.name, kept.fit, kept.seconds, "on 2026-12-05 (this machine's stored profile)")
    assert 0.3 < kept.accuracy < summary.FIT_USABLE
    slower = machine.link_fit("gloo", SIZES, [1.3 * (50e-6 + n / 4e9) for n in SIZES])  # slower at every size
    answer = summary.cost_answer(kept, slower, tolerance=summary.FIT_USABLE)
    assert "its measured time (listed below), not the profile's line" in answer
    assert "slower than that line at every size past one median's noise" in answer
    assert "miss it by up to" in summary.link_sentence(kept, slower)
    same = machine.link_fit("gloo", SIZES, [1.0001 * t for t in kept.seconds])  # back and forth, as kept
    assert "this run's messages lie on it (yes" in summary.cost_answer(kept, same, tolerance=summary.FIT_USABLE)


def test_lesson_00_keeps_the_time_of_its_run_and_lesson_01_quotes_it(tmp_path, monkeypatch):
    """t24_0001 #1: two runs of lesson 00 on one day share the date; the time of day tells them apart."""
    from types import SimpleNamespace as NS

    from utils import ledger, machine
    from utils.lessons.start_here import summary
    from utils.lessons.why_slow import between_runs, link_report

    monkeypatch.setenv(ledger.ENV, str(tmp_path))
    run = machine.link_fit("gloo", SIZES, [50e-6 + n / 4e9 for n in SIZES])
    saved = summary.to_ledger(NS(peak=lambda dtype: NS(best=1e11, name="fp32 matmul")), [], None, this_run=run)
    kept = ledger.figure(link_report.LESSON00_RUN, "cpu")
    stamp = f"on {kept['date']} at {kept['time']}"
    assert stamp in saved and "Lesson 01 sets its run of the link beside this one" in saved
    assert f"(its section 3, kept in the ledger {stamp}):" in between_runs.between_runs_sentence(run, kept)
    # a record from before the time was kept: its date alone; none at all: nothing to date
    del kept["time"]
    assert f"kept in the ledger on {kept['date']}):" in between_runs.between_runs_sentence(run, kept)
    assert "none recorded" in between_runs.between_runs_sentence(run, None)
    assert "Lesson 01" not in summary.to_ledger(NS(peak=lambda d: NS(best=1e11, name="x")), [], None)  # no run kept
