"""Lesson 06 cell 11, thirtieth reading (t30_0506, other problems): the peak's total error is printed at one
precision, one decimal of a percent half up, in the sentence and in the lines table's total row alike ("+1.3%"
above a row that read "+0.61 MB (+1%)"). Fabricated figures."""

import json
from pathlib import Path

import pytest

from utils import claims
from utils.lessons.memory import report
from utils.lessons.memory.calculator import Shape, estimate
from utils.lessons.memory.measure import Measured

MB = 1e6
TINY = Shape(vocab=48, context=16, width=32, depth=2, heads=4)


@pytest.mark.parametrize("share, said", [(0.0131, "+1.3%"), (-0.0195, "-2.0%"), (0.00045, "0.0%"),
                                         (-0.0004, "0.0%"), (0.0125, "+1.3%")])   # half up away from zero
def test_error_percent(share, said):
    # the one precision a total's error prints at: claims.signed_percent to one decimal
    assert claims.signed_percent(share, 1) == said


def test_the_total_row_prints_the_sentences_precision_and_the_lines_keep_whole_percents():
    # 47.16 MB against 46.55 MB as printed: +1.31%, "+1.3%" in the sentence and the row alike
    assert report.line_error(47.1649e6, 46.5501e6, tenths=True) == "+0.61 MB (+1.3%)"
    assert report.line_error(47.1649e6, 46.5501e6) == "+0.61 MB (+1%)"   # a line: whole percents
    assert claims.signed_percent(report.relative_error(47.1649e6, 46.5501e6), 1) == "+1.3%"
    b = estimate(TINY, 2)
    m = Measured(b.peak * 1.02, {"parameters": b.lines["parameters"]}, "test")
    total_row = report.lines_table(b, m, title="t").rows[-1]
    assert total_row[-1].endswith(f"({claims.signed_percent(report.relative_error(b.peak, m.peak), 1)})")


def test_lesson_06_prints_the_total_with_error_percent():
    cells = json.loads((Path(__file__).parents[1] / "notebooks" / "06_memory.ipynb").read_text())["cells"]
    code = "".join(cells[11]["source"])
    assert "signed_percent(relative_error(BUDGET.peak, m.peak), 1)" in code and "{total:+.1%}" not in code
