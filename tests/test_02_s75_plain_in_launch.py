"""Lesson 02, the thirty-sixth reading (t36_02): section 9 sets its schedules beside plain 1F1B timed in the
same launch (#1), on fabricated figures."""

from utils.lessons.model_split import report, runs


def _row(schedule: str, speedups: list[float], baseline: float = 0.585) -> runs.Row:
    """A row whose printed median and ± come from ``speedups``; the step follows from the median speedup."""
    med = sorted(speedups)[len(speedups) // 2]
    return runs.Row(128, 4, schedule, baseline / med, baseline, [0.3, 0.3], speedups=speedups)


PLAIN = _row("1f1b", [1.11, 1.15, 1.17, 1.20, 1.23])


def _said(rows):
    return report.bubble_answer(rows, PLAIN, "this launch")


def test_the_same_launch_reads_each_band_against_plain_1f1b_with_no_launch_gap():
    p_v, p_d = report.printed(PLAIN)
    fast = _row("ZBV", [1.95, 1.96, 1.97, 1.98, 1.99])
    said = _said([fast])
    assert f"Speedups beside plain 1F1B's {p_v:.2f}x ± {p_d:.2f}, timed in the same rounds against the same " \
           "one-device step (585 ms): ZBV" in said
    assert "of it: faster)" in said and "widened" not in said and "apart, a share" not in said
    assert said.endswith("faster or slower only where that clears 1.")
    assert "(this launch)" in said  # the idle shares name where plain 1F1B ran


def test_the_layout_reading_names_the_side_its_factor_is_read_against():
    # t36_02 #3: "a factor of 1.45 apart" beside "1.41 below, 1.69 above" did not say which applies
    from utils.lessons.model_split import fit_accuracy
    above = fit_accuracy.layout_reading(0.58, 0.40, 0.41)
    assert "0.580 ms is 1.45x 0.400 ms, within the 1.69 allowed above; no effect of pinning" in above
    below = fit_accuracy._side_text(0.40, 0.50, 0.41)  # 1/1.25, within 1.41 below
    assert below == "0.400 ms is 1/1.25 of 0.500 ms, within the 1.41 allowed below"
    assert fit_accuracy._side_text(0.55, 0.32, 1.2).endswith("within any factor allowed above")
