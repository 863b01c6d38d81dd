"""Lesson 08, the eleventh reading: a step's bar near 1x is a hairline on the log axis, so the waterfall marks
its end with a diamond (with a legend entry) and the caption names it; bars that show draw no diamond."""
import matplotlib.pyplot as plt

from utils.lessons.putting_it_together import report
from utils.plots import overlapping_labels


def _rows(compile_x=0.99):   # the reader's run: compile ran 1.00x to 0.99x, not kept
    return [dict(step="baseline", kept=True, x_prev=1.0, x_base=1.0, bound=None),
            dict(step="precision", kept=True, x_prev=1.54, x_base=1.54, bound=2.01, noise=0.05),
            dict(step="two devices", kept=True, x_prev=1.52, x_base=2.34, bound=2.00, noise=0.03),
            dict(step="compile", kept=False, x_prev=compile_x, x_base=2.34, bound=2.38, noise=0.02)]


def _diamonds(fig):
    return [line for line in fig.axes[0].get_lines() if line.get_marker() == "D"]


def test_a_bar_near_one_x_gets_a_diamond_at_its_end_and_the_caption_says_so():
    rows = _rows()
    steps = rows[1:]
    assert report.too_short(steps[2], steps) and not report.too_short(steps[0], steps)
    fig = report.plot_waterfall(rows, " (simulated on CPU)")
    try:
        (diamond,) = _diamonds(fig)
        assert list(diamond.get_ydata()) == [0.99] and diamond.get_markerfacecolor() != "none"
        legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
        assert "end of a short bar" in legend and "not kept" in legend
        assert overlapping_labels(fig) == []
    finally:
        plt.close(fig)
    said = report.waterfall_caption(rows)
    assert "compile 0.99x (line 2.38x; a bar too short to see, a diamond at its end)" in said
    assert "precision 1.54x (line 2.01x)," in said


def test_bars_that_show_draw_no_diamond_and_no_legend_entry():
    rows = _rows(compile_x=0.80)   # a loss of 20 %: a bar that shows
    fig = report.plot_waterfall(rows, "")
    try:
        assert _diamonds(fig) == []
        legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
        assert "end of a short bar" not in legend
    finally:
        plt.close(fig)
    assert "diamond" not in report.waterfall_caption(rows)
