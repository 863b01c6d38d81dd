"""The thirty-ninth reading of lessons 03 and 04 (t39_0304): a fixed part fitted to two medians where the larger
message took less, a busbw share the table printed for a size whose median the sentence calls rough, two lines
for one judgment with one of them unstated, and section 6's reading buried in ten visible lines."""
from pathlib import Path

import nbformat

from utils.lessons.ddp import allreduce, scaling

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def _size(n: int, ms: float, low: float, high: float) -> dict:
    """One size of the all-reduce table (two ranks: busbw = algbw), times in ms."""
    seconds = allreduce.printed_seconds(ms * 1e-3)
    return {"bytes": n, "seconds": ms * 1e-3, "low": low * 1e-3, "high": high * 1e-3, "busbw": n / seconds}


class _Fit:
    alpha, beta = 75.8e-6, 3.48e9


class _Link:
    fit = _Fit()


def test_03_no_fixed_part_is_fitted_where_the_larger_message_took_less():
    """t39_0304 #1: 4 KiB at 3.83 ms and 64 KiB at 0.338 ms put "the fixed part at 4.06 ms", more than the
    whole 64 KiB message, and set it at 26.7x 2α: the fit's part per byte was below zero. Now no split."""
    run = [_size(4096, 3.83, 0.213, 7.79), _size(2**14, 0.428, 0.271, 2.28), _size(2**16, 0.338, 0.292, 0.609)]
    said = allreduce.small_messages(run, link=_Link())
    assert "fixed part at" not in said and "2α" not in said and "\n" not in said
    assert "reads as fixed" not in said
    assert said.endswith("the larger message took less, so these two medians cannot be split into a fixed part "
                         "and a part per byte (the part per byte would come out below zero)")
    assert "from 3.83 ms to 0.338 ms" in said  # the two medians themselves are still printed


def test_03_the_fixed_part_is_still_fitted_where_the_larger_message_took_as_long_or_longer():
    """The other branch: t2 >= t1 gives a fixed part of at most t1, printed as a share, then beside 2α."""
    said = allreduce.small_messages([_size(4096, 0.256, 0.240, 0.3), _size(2**16, 0.414, 0.401, 0.42)],
                                    link=_Link())
    assert "= 0.245 ms, 96% of the 4 KiB message's 0.256 ms" in said  # (16 x 0.256 - 0.414) / 15
    assert "2α = 0.152 ms" in said.split("\n")[1]
    level = allreduce.small_messages([_size(4096, 0.300, 0.3, 0.3), _size(2**16, 0.300, 0.3, 0.3)])
    assert "= 0.300 ms, 100% of the 4 KiB message's 0.300 ms" in level


def test_03_the_table_scores_no_share_for_a_rough_size_as_the_sentence_does():
    """t39_0304 #2: the table printed 40% for the 3.15 MiB row (repeats 2.11-3.52 ms around 2.38 ms) while the
    sentence under it and the claims row scored no share of that rough median."""
    rough = _size(3_303_424, 2.38, 2.11, 3.52)
    steady = _size(2**24, 15.90, 11.43, 16.85)  # spread 5.42 ms, under half the median
    assert allreduce.share_cell(rough, 3.48e9, 2) == "rough: not scored"
    assert "no share of it is scored" in allreduce.beside_line(rough, 3.48e9, 2, "the machine profile's β")
    assert allreduce.share_cell(steady, 3.48e9, 2) == "30%"  # 1.06 / 3.48
    cells = nbformat.read(NOTEBOOKS / "03_ddp.ipynb", as_version=4).cells
    table = next(c.source for c in cells if c.cell_type == "code" and "all_reduce_benchmark(" in c.source)
    assert "allreduce.share_cell(r, line, LINE_DIGITS)" in table and "busbw_share" not in table


def test_03_the_page_states_both_lines_the_two_worker_figures_are_read_by():
    """t39_0304 #3: the output read the two runs with a 10% line, the markdown under it stated only a fifth."""
    assert (scaling.DIFFER_LINE, scaling.LOAD_LINE) == (0.10, 0.20)
    cells = nbformat.read(NOTEBOOKS / "03_ddp.ipynb", as_version=4).cells
    text = next(c.source for c in cells if c.cell_type == "markdown" and "What the CPU numbers tell" in c.source)
    assert "a tenth apart (`scaling.DIFFER_LINE`)" in text and "a fifth apart (`scaling.LOAD_LINE`)" in text


def test_03_section_6_answers_in_one_sentence_and_collapses_the_curve_reading():
    """Where a learner got lost: ten visible lines under section 6's table. The peak beside the link stays
    visible; the curve's shape, spread, inversions, falls and small messages go into the collapsed block."""
    cells = nbformat.read(NOTEBOOKS / "03_ddp.ipynb", as_version=4).cells
    code = next(c.source for c in cells if c.cell_type == "code" and "small_messages(ar_rows" in c.source)
    tail = code[code.index("shape = ["):]
    assert "say(" not in tail and "how_measured(" in tail
    after = next(c.source for c in cells if c.cell_type == "markdown" and "fixed cost per message" in c.source)
    assert "The last two lines above" not in after and "collapsed block above" in after
