"""Lesson 09, the thirty-sixth reading (t36_09 #2): where no row's check reads above its bound, the note under §1's
counts still gives lesson 02 §9's reading of each schedule whose median passed its bound (the medians sentence
marks it "(past it)" and row A19 points to the note for it), and none for a schedule under its bound.
Fabricated figures."""

from __future__ import annotations

from test_articles_checked import _figures, _recorded

from utils.lessons.articles_checked import report

PAST = [1.94, 1.96, 1.99, 1.97, 1.98]  # median 1.97, past a 1.78x bound


def _note(**schedules) -> str:
    m = _figures(ddp=_recorded(1.78, 1.92), **schedules)
    return " ".join(report.above_bound_paragraphs(m, []))  # no row above its bound


def test_a_schedule_past_its_bound_is_read_as_lesson_02_9_reads_it():
    note = _note(interleaved_1f1b=_recorded(1.97, 16 / 9, rounds=PAST, reference=2.03))
    assert "reads interleaved 1F1B, 1.97x, within its work-scaled reference (2.03x" in note, note
    assert "explained by the reference" in note
    past_too = _note(zbv=_recorded(1.97, 16 / 9, rounds=PAST, reference=1.85))
    assert "reads ZBV, 1.97x, past its work-scaled reference too (1.85x" in past_too, past_too


def test_a_schedule_under_its_bound_gets_no_reading():
    note = _note(zb=_recorded(1.70, 1.92))
    assert "reads interleaved ZB, 1.70x" not in note, note
    assert report.two_stages_past(_figures(zb=_recorded(1.70, 1.92))) == ""
