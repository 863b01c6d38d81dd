"""Reading 32's items for lessons 03 and 04 (t32_0304): unit tests on fabricated figures; the notebook tests
read cell sources, never a run's outputs."""
from pathlib import Path

import nbformat


def _cells(name: str) -> list:
    return nbformat.read(Path(__file__).resolve().parents[1] / "notebooks" / name, as_version=4).cells


def test_a_step_inside_the_defaults_rounds_is_never_called_about_their_median():
    """t32_0304 #1: 67.8 ms was "about its 75 ms median, which is printed to whole ms", a 7.2 ms gap that no
    rounding hides. Inside the rounds the step is not told apart from the median, because the rounds move."""
    from utils.lessons.ddp.knobs import step_beside_table
    far = step_beside_table(67.8, 75, 2.1, (65, 86))  # inside the rounds, 7.2 ms below the median
    assert far == (", inside this table's default rounds (65-86 ms), so not told apart from its 75 ms median: "
                   "one step moves that far from round to round (this table's steps also include an optimizer "
                   "step, which section 2's do not)")
    assert "about" not in far and "printed to whole ms" not in far
    # the same words at either edge of the rounds, and above the median
    for step in (65.0, 80.2, 86.0):
        assert step_beside_table(step, 75, 0.0, (65, 86)).startswith(", inside this table's default rounds")
    # just outside: read against the median to half a ms, as before
    assert step_beside_table(64.9, 75, 0.0, (65, 86)).startswith(", about 10 ms shorter than")
    assert step_beside_table(86.1, 75, 0.0, (65, 86)).startswith(", about 11 ms longer although")


def test_the_waits_label_is_read_from_the_share_as_printed_and_its_rule_is_printed():
    """t32_0304 #2: 2.1 of 5.3 ms (39.6%) printed "40% | mostly not waiting" beside "42% | about half": the
    label came from the unrounded share, across a 40% boundary the page never printed."""
    from utils.lessons.ddp import overlap, waits

    def row(exposed_ms: float, waited_ms: float) -> tuple:
        return waits.row("DDP, default buckets", {"exposed": exposed_ms * 1e-3, "communication": 14.1e-3},
                         {"in_calls": 1.0e-3, "other_in_calls": 0.0, "exposed": waited_ms * 1e-3,
                          "lag": waited_ms * 1e-3, "me": 0, "other": 1})

    assert row(5.3, 2.1)[4:] == ("5.3 ms: 2.1 ms (40%)", "about half")  # 39.6 % prints 40%
    assert row(7.9, 3.3)[4:] == ("7.9 ms: 3.3 ms (42%)", "about half")
    assert row(5.3, 2.0)[4:] == ("5.3 ms: 2.0 ms (38%)", "mostly not waiting")
    assert row(5.0, 3.0)[4:] == ("5.0 ms: 3.0 ms (60%)", "about half")  # 60% is the top of "about half"
    assert row(4.9, 3.0)[4:] == ("4.9 ms: 3.0 ms (61%)", "mostly waiting")
    assert overlap.waiting_share(60.4, 100.0) == "about half"  # prints 60%
    assert overlap.waiting_share(60.5, 100.0) == "mostly waiting"  # prints 61%, half up
    key = " ".join(waits.KEY.split())
    assert ("So it was: mostly waiting above 60% of the exposed time, about half from 40% to 60%, mostly not "
            "waiting below 40% (the share as printed).") in key


def test_03_barrier_is_defined_before_the_cell_whose_collapsed_block_first_prints_it():
    """t32_0304 #3: the chart cell's collapsed block says "left the barrier 0.0 ms apart", and the definition
    came only in the markdown after that cell."""
    cells = _cells("03_ddp.ipynb")
    prints = next(i for i, c in enumerate(cells) if c.cell_type == "code" and "overlap.drawn_text(" in c.source)
    defines = next(i for i, c in enumerate(cells) if c.cell_type == "markdown" and "barrier" in c.source)
    assert defines < prints
    assert "a call that no rank leaves until every rank has reached it" in " ".join(cells[defines].source.split())


def test_03_section_3_names_the_load_rule_it_reads_by_not_far_apart():
    """t32_0304 other (b): "ran far apart in sections 2 and 3" read as far apart in time; the markdown names the
    rule `scaling.load_changed` applies."""
    cell = next(c.source for c in _cells("03_ddp.ipynb") if c.cell_type == "markdown" and "LOAD_LINE" in c.source)
    text = " ".join(cell.split())
    assert "ran far apart" not in text
    from utils.lessons.ddp.scaling import LOAD_LINE  # t35_0304 other (i): the figure, named beside the constant
    assert LOAD_LINE == 0.20 and "more than a fifth apart (`scaling.LOAD_LINE`)" in text
    assert "outside every round" in text  # load_changed's second condition


def test_04_trade_off_lines_name_the_paired_median_once_and_each_line_the_division_alone():
    """t32_0304 other (d): "(the median of the paired rounds' ratios, not the ratio of the figures printed: …)"
    six times in one cell; the lead sentence says it once and each line keeps only its division."""
    from utils.lessons.compression.report import PAIRED_LEAD, paired_note
    assert paired_note(2.81, 34.17, 12.36, " ms", lead_said=True) == " (34.17 ms / 12.36 ms = 2.76x)"
    assert paired_note(2.81, 34.17, 12.36, " ms").startswith(" (the median of the paired rounds' ratios")
    assert paired_note(2.76, 34.17, 12.36, " ms", lead_said=True) == ""  # the figures divide to the median
    assert "median of the paired rounds' ratios" in PAIRED_LEAD
    cell = next(c.source for c in _cells("04_compression.ipynb")
                if c.cell_type == "code" and "def against(" in c.source)
    assert "lead_said=True" in cell and cell.index("reading.append(PAIRED_LEAD)") < cell.index("for name in (")  # collapsed (t40)


def test_04_the_short_count_names_which_rows_of_the_collapsed_table_it_counts():
    """t32_0304 other (e): "6 of the 7 quantized paths timed (section 4's collapsed table)" beside a table with 8
    rows besides fp32 compiled: the bf16 rows are bases, not counted, and the count now says so."""
    from utils.lessons.compression import report
    short = ("int8 dynamic", 0.50, 0.02, 3.97)
    said = report.references_reading(1, "memory-bound (L3)", [short], timed=[short, short])
    assert said.startswith("At batch 1 (memory-bound (L3)) all 2 quantized paths with int8 or int4 weights timed "
                           "(section 4's collapsed table; its fp32 and bf16 rows not counted) fell short")
    # without timed rows the count is over the rows read, with no claim about the table
    assert "collapsed table" not in report.references_reading(1, "x", [short])


def test_03_closing_claim_prints_the_waiting_share_half_up_as_its_label_reads_it():
    """t32_0304 #2, the closing table: waiting_share reads the whole percent half up, so the share printed beside
    "about half" is percent()'s, not Python's :.0% (which rounds a float's binary value)."""
    cell = next(c.source for c in _cells("03_ddp.ipynb") if c.cell_type == "code" and "exposed_share =" in c.source)
    assert "percent(printed_ratio(wait['exposed'], ddp['exposed'], 1, 1e-3))" in cell
