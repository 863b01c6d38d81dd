"""Lesson 09, reader t39's items: figures that redo from what the page prints beside them, and one name per figure."""

from utils.linkmodel import AlphaBeta
from utils.lessons.articles_checked import bench_lessons, evidence, figures, timed_rows, timed_words
from utils.machine import LinkFit, MachineProfile


def test_paired_median_redoes_from_the_rounds_as_the_rounds_line_prints_them():
    # t39 #3: the rounds line prints 0.998 (three digits near 1x); the middle two, 0.998 and 1.01, give 1.004
    rounds = [0.56, 0.99, 1.24, 0.998, 1.01, 1.17]
    assert figures.paired(rounds)[0] == 1.00
    assert timed_words.rounds_words(rounds).startswith("1.00x ± ")


def test_lesson_04_spread_is_worked_from_its_noise_as_printed_in_whole_percent():
    # t39 #4: lesson 04 prints 3.87x and 9%; 3.87 x 9% = 0.348, printed ± 0.35 (not 0.0869 x 3.87 = 0.34)
    record = {"value": 3.8712, "noise": 0.0869}
    assert bench_lessons.int8_figures(record, percent_printed=True) == (3.87, 0.35, "its rounds' noise")
    assert bench_lessons.int8_figures(record)[1] == 0.34  # make bench's page prints no percent to redo from
    assert bench_lessons.noise_as_printed(0.0869) == 0.09


def test_this_runs_peaks_and_link_fit_are_not_named_the_machine_profile():
    # t39 #5: "the machine profile's alpha (lesson 00)" is the kept figure; this run's fit and peaks say so
    table = evidence.peaks_table(MachineProfile(device="cpu"))
    assert table.title.startswith("This run's matmul peaks of cpu")
    assert not table.title.startswith("Machine profile")
    fit = AlphaBeta(alpha=63.9e-6, beta=4.43e9, sizes=(4, 2**22), residuals=(0.1, -0.1))
    line = timed_rows.link_line(LinkFit(name="gloo loopback, 2 processes", fit=fit, seconds=(7e-5, 1e-3)))
    assert line.startswith("This run's alpha-beta fit (not the machine profile's), gloo loopback, 2 processes: "
                           "alpha 63.9 µs, beta 4.43 GB/s")
