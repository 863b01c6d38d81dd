"""Reading 31's items for lessons 03 and 04 (t31_0304): unit tests on fabricated figures; the notebook tests
read cell sources, never a run's outputs."""
import re
from pathlib import Path

import nbformat

from utils.lessons.compression.roofline import Reference


def test_int8_slower_than_compile_names_no_unmeasured_cause():
    """t31_0304 #1: the run does not time quantize, the int8 matmul and rescale apart, so the slower branch
    says so and never claims the steps 'take more than the bytes save'."""
    from utils.lessons.compression.quantruns import over_compile
    ref = Reference("memory-bound", 3.97, 0.5, 3.1, "bytes moved", "L3")
    slower = over_compile(0.98, 0.01, "beyond noise", ref)
    assert slower.startswith("quantizing costs time beyond compile's")
    assert "does not time its steps" in slower and "int8 matmul" in slower
    assert "bytes save" not in slower
    assert "adds no time beyond compile's" in over_compile(0.99, 0.05, "within noise", ref)
    assert over_compile(2.0, 0.02, "beyond noise", ref).startswith("quantizing gains over compile alone")


def _markdown(name: str, marker: str) -> str:
    nb = nbformat.read(Path(__file__).resolve().parents[1] / "notebooks" / name, as_version=4)
    return next(c.source for c in nb.cells if c.cell_type == "markdown" and marker in c.source)


def test_04_claims_intro_excludes_what_the_bullets_mark_and_only_that():
    """t31_0304 #2: every table row was measured in an earlier section, so that phrase excluded nothing; the
    intro names the marks the bullets carry ('not in the table below', theory, not measured/tested here)."""
    cell = _markdown("04_compression.ipynb", "The measured statements above")
    intro = " ".join(cell[cell.index("The measured statements above"):].split())
    assert "measured in an earlier section" not in intro
    assert "not in the table below" in intro and "theory" in intro
    bullets = " ".join(cell[:cell.index("The measured statements above")].split())
    assert len(re.findall(r"not in the table below", bullets)) == 2  # the mask bytes and the int8 emulation
    assert "not the table below" not in bullets  # one wording, the one the intro names


def test_03_why_late_prints_the_start_gap_in_ms_in_every_branch():
    """t31_0304 #3: the markdown promises the start gap in ms for each charted step; the branch where the start
    played no part printed none. Every branch now gives it (fabricated figures, ms as printed)."""
    from utils.lessons.ddp.overlap import late_because
    for skew, own, lag in ((0.0, 1.2, 1.2), (3.0, 0.0, 3.0), (4.0, -1.0, 3.0), (1.0, -5.0, -4.0),
                           (0.5, 4.9, 5.4), (4.0, 1.0, 5.0), (1.8, 1.2, 3.0)):
        said = late_because(skew, own, lag)
        assert re.search(r"barrier \d+\.\d ms", said), said
    assert "left the barrier 0.0 ms apart, so not because of the start" in late_because(0.0, 1.2, 1.2)


def test_03_chart_sentence_quotes_the_way_instead_of_a_possessive():
    """t31_0304 other (d): "DDP, 1 MiB buckets's chart" read badly; the way is quoted as its chart names it."""
    from utils.lessons.ddp import overlap
    ranks = [{"rank": r, "step": 0.07, "exposed": 0.01,
              "steps": [{"start": start, "ready": ready, "step": 0.07, "calls": {}}]}
             for r, start, ready in ((0, 0.0, 0.0600), (1, 0.0, 0.0612))]
    said = overlap.drawn_text("DDP, 1 MiB buckets", ranks, 0, "")
    assert said.startswith('Chart "DDP, 1 MiB buckets", step 1: ') and "'s chart" not in said
    level = [dict(r, steps=[dict(r["steps"][0], ready=0.0600)]) for r in ranks]
    assert "both ranks left the starting barrier 0.0 ms apart" in overlap.drawn_text("by hand", level, 0)


def test_03_barrier_is_defined_where_the_lesson_first_uses_it():
    """t31_0304 #3: "barrier" was used in prose without a definition."""
    cell = _markdown("03_ddp.ipynb", "barrier")
    assert "until every rank has reached it" in " ".join(cell.split())


def test_a_speedups_noise_prints_its_share_and_the_worked_spread_unless_that_is_zero():
    """t31_0304 other (a), (b): "±4%" beside a call that only the worked ± 0.05 on 1.14x supports, and
    "0.24x ± 0.00" read as no noise. The share always prints; the worked spread where it is not 0.00."""
    from utils.lessons.compression.measure import noise_text
    assert noise_text(1.14, 0.04) == "±4%, ± 0.05 on 1.14x"  # 1.14 x 4% = 0.0456 -> 0.05, half up
    assert noise_text(0.24, 0.02) == "±2%, ± 0.005 on 0.24x"  # 0.0048: a third decimal (t35_0304 #5), not 0.00
    assert noise_text(0.24, 0.0) == "±0%"  # no noise: no worked spread


def test_compile_alone_and_the_references_reading_print_that_noise():
    from utils.lessons.compression import report
    from utils.lessons.compression.quantruns import compile_alone
    eager = [("aten::addmm", .92), ("aten::copy_", .05), ("aten::clamp_min", .03)]  # 8% outside: 1.09x at most
    edge = compile_alone(256, 1.14, "beyond noise", 0.04, 1.0, eager)
    assert "passes that 1.09x by no more than the round-to-round noise (±4%, ± 0.05 on 1.14x)" in edge
    at = report.references_reading(1, "memory-bound (L3)", [("by hand", 0.24, 0.02, 0.24)])
    assert "by hand 0.24x (±2%, ± 0.005 on 0.24x) against 0.24x (at it, within noise)" in at
    assert "± 0.00 " not in at


def test_03_smaller_wording_items():
    """t31_0304 other (e), (f), (g): the small-message reading is the last two lines, not the last one; "barely
    matters" names the rule that keeps a 1.19x row "no difference shown"; fsync is explained."""
    small = " ".join(_markdown("03_ddp.ipynb", "reading the small messages").split())
    assert small.startswith("The collapsed block above ends by reading the small messages")  # t39_0304
    knobs = " ".join(_markdown("03_ddp.ipynb", "Read the times against the *every round* column").split())
    assert "barely matters" not in knobs and "by the table's every-round rule" in knobs  # t35_0304 #1
    saved = " ".join(_markdown("03_ddp.ipynb", "`fsync`").split())
    assert "`fsync` it (force it to disk)" in saved
