"""Lesson 04, thirty-third reading (t33_0304 other (d)): the closing line counts the quantized paths short of
their references without printing section 4's figures again (fabricated figures)."""
from utils.lessons.compression import report

SHORT = ("torch.ao int8", 2.36, 0.05, 3.97)   # (name, speedup, noise, reference): below its reference
AT = ("int8 by hand", 0.25, 0.02, 0.24)      # within noise of its reference: not short


def test_the_count_leaves_the_figures_to_section_4():
    some = report.references_count(1, "memory-bound (L3)", [SHORT, AT])
    assert some == ("At batch 1 (memory-bound (L3)) 1 of the 2 quantized paths with int8 or int4 weights timed fell "
                    "short of their roofline references; section 4's collapsed table (every variant, both batches, with "
                    "its reference) gives each one's speedup beside its reference.")
    assert "answer names each one" not in some  # t35_0304 #2: the answer names only some of them
    assert "2.36x" not in some and "0.25x" not in some


def test_the_count_reads_every_outcome():
    assert "all 2 quantized paths" in report.references_count(1, "x", [SHORT, SHORT])
    assert "none of the 2 quantized paths" in report.references_count(1, "x", [AT, AT])
    assert "the one quantized path with int8 or int4 weights timed did not fall short" in report.references_count(
        1, "x", [AT])
