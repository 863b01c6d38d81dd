"""Lesson 09, t33_09 #4: two runs' stage work (bound over reference, kept without rounds) is read by the note's
own rule for such figures, within 2% of each other: 0.92x beside 0.91x is the same work, never "differs" on its
last digit. Fabricated figures."""

from __future__ import annotations

from utils.lessons.articles_checked.bench_pipeline import agreeing_work_words, same_work, work_text


def test_work_within_the_2_percent_floor_is_the_same_work():
    said = agreeing_work_words(1.87, 0.06, 1.86, 0.08, 0.92, 0.91)
    assert said.endswith("; both runs' stages did about the same work (0.91-0.92x one device's, bound over "
                         "reference)"), said
    assert "differs" not in said
    assert agreeing_work_words(1.87, 0.06, 1.86, 0.08, 0.92, 0.92).endswith("(0.92x one device's, bound over "
                                                                           "reference)")


def test_work_past_the_floor_differs_and_the_edges():
    said = agreeing_work_words(1.87, 0.06, 1.86, 0.08, 0.95, 0.91)  # 4% apart
    assert said.endswith("their stages' work differs (about 0.95x and 0.91x one device's, each bound over its "
                         "reference), a gap the medians do not show beyond noise"), said
    assert same_work(1.00, 0.98) and not same_work(1.00, 0.97)
    assert work_text(0.91, 0.92) == "0.91-0.92x" and work_text(0.92, 0.92) == "0.92x"
