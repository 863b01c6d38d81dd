"""Reading 25 (t25_0304): lesson 03's article before a printed step time and its loss gap as c42 prints it,
lesson 04's paired standard error, references passed or fallen short of, and section 4's collapsed details.
Every sentence's branches are checked on fabricated figures, not on one run's output."""

import json

import pytest

from utils.lessons.ddp import allreduce


@pytest.mark.parametrize("figure, said", [
    ("84 ms", "an 84 ms"), ("8 ms", "an 8 ms"), ("8.5 ms", "an 8.5 ms"), ("800 ms", "an 800 ms"),
    ("11 ms", "an 11 ms"), ("18 ms", "an 18 ms"), ("11,000 ms", "an 11,000 ms"), ("18000 ms", "an 18000 ms"),
    ("76 ms", "a 76 ms"), ("110 ms", "a 110 ms"), ("1 ms", "a 1 ms"), ("0.8 ms", "a 0.8 ms"),
    ("181 ms", "a 181 ms"), ("1,800 ms", "a 1,800 ms")])
def test_the_step_time_takes_the_article_it_is_read_with(figure, said):
    # the twenty-fifth reading: "against a 84 ms step"; the step time is printed from the run
    assert allreduce.with_article(figure) == said


def _source(path, index):
    return "".join(json.load(open(path))["cells"][index]["source"])


def test_lesson_03_prints_the_loss_gap_as_section_2_does_and_says_an_84_ms():
    # c42 prints gap_curves to .1e (6.5e-05); the claims row printed .0e (6e-05), rounding it twice
    claims_cell = _source("notebooks/03_ddp.ipynb", 70)
    assert 'f"gap {gap_curves:.1e}"' in claims_cell and "gap_curves:.0e" not in claims_cell
    assert "allreduce.with_article(" in _source("notebooks/03_ddp.ipynb", 61)
    assert "FSDP, Fully Sharded Data Parallel" in _source("notebooks/03_ddp.ipynb", 50)  # defined where it is used


from utils.lessons.compression import report, roofline  # noqa: E402
from tests.test_compression_s61 import MLP, TERMS  # noqa: E402  (the fabricated roofline terms of s61)


def test_a_speedup_stands_at_above_or_below_its_reference_by_the_printed_noise():
    assert report.beside_reference(0.29, 0.03, 0.24) == "above"  # 0.29 x 3% = 0.01 < the 0.05 gap
    assert report.beside_reference(0.25, 0.04, 0.24) == "at"  # 0.25 x 4% = 0.01 covers 0.01
    assert report.beside_reference(1.43, 0.04, 2.17) == "below"


def test_the_rows_that_passed_their_reference_are_named_with_their_figures():
    rows = [("int8 weight-only, by hand", 0.29, 0.03, 0.24), ("torchao int4 weight-only, compiled", 1.43, 0.04, 2.17)]
    assert report.passed_references(rows) == [
        "int8 weight-only, by hand (0.29x against its 0.24x reference, noise ±3%)"]
    assert report.passed_references(rows[1:]) == []


def test_the_pass_rate_note_names_the_rows_that_passed_or_says_none_did():
    fits = roofline.Rates(**TERMS, last_cache=32 << 20)
    by_hand = "int8 weight-only, by hand (0.29x against its 0.24x reference, noise ±3%)"
    fast = roofline.pass_rate_note(fits, MLP, 1, 374.7e-6, passed=[by_hand])  # faster than DRAM
    assert fast.endswith(f"though a pass served partly from a cache can pass them: at batch 1 {by_hand} does.")
    two = roofline.pass_rate_note(fits, MLP, 1, 374.7e-6, passed=[by_hand, "B (1.10x against its 1.00x reference)"])
    assert f"{by_hand} and B (1.10x against its 1.00x reference) do." in two
    none = roofline.pass_rate_note(fits, MLP, 1, 374.7e-6, passed=[])
    assert none.endswith("can pass them; at batch 1 no row of this run passed its reference beyond noise.")
    assert roofline.pass_rate_note(fits, MLP, 1, 374.7e-6).endswith("can pass them.")  # rows not given
    slow = roofline.pass_rate_note(fits, MLP, 1, 600e-6, passed=[by_hand])  # no faster than DRAM: still named
    assert slow.endswith(f"All the same, {by_hand} passed its reference beyond noise: a reference is not a ceiling.")
    assert "All the same" not in roofline.pass_rate_note(fits, MLP, 1, 600e-6, passed=[])


def test_the_references_reading_says_every_some_or_no_path_fell_short():
    int8 = ("torchao's int8 over compiled fp32", 1.03, 0.03, 3.97)  # within noise of 1x
    legacy = ("torch.ao int8 dynamic (deprecated)", 2.19, 0.04, 3.97)  # (2.19 - 1) / 2.97 = 40.07 %
    int4 = ("torchao int4 weight-only, compiled", 1.43, 0.04, 2.17)  # 0.43 / 1.17 = 36.75 %
    every = report.references_reading(1, "memory-bound (L3)", [int8, legacy, int4])
    assert every == ("At batch 1 (memory-bound (L3)) all 3 quantized paths read here fell short of their roofline "
                     "references: "
                     "torchao's int8 over compiled fp32 1.03x against 3.97x (no gain beyond noise); torch.ao int8 "
                     "dynamic (deprecated) 2.19x against 3.97x (40% of its gain); torchao int4 weight-only, compiled "
                     "1.43x against 2.17x (37% of its gain).")
    at, above = ("A", 3.90, 0.03, 3.97), ("B", 4.50, 0.02, 3.97)
    some = report.references_reading(1, "memory-bound (L3)", [int8, at])
    assert "1 of the 2 quantized paths read here fell short of their roofline references" in some
    assert "A 3.90x (±3%, ± 0.12 on 3.90x) against 3.97x (at it, within noise)" in some
    none = report.references_reading(1, "memory-bound (DRAM)", [at, above])
    assert "none of the 2 quantized paths read here fell short" in none
    assert "B 4.50x against 3.97x (above it, beyond noise)" in none
    slower = report.references_reading(1, "memory-bound (L3)", [("C", 0.80, 0.02, 3.97)])
    assert slower.endswith("C 0.80x against 3.97x (slower).")
    assert report.references_reading(1, "x", [("D", 0.20, 0.02, 0.24)]).endswith("D 0.20x against 0.24x (slower).")
    assert report.references_reading(1, "x", [("E", 1.10, 0.02, 0.90)]).endswith("(above it, beyond noise).")


def test_folded_text_is_what_say_prints():
    text = "word " * 60 + "\n" + "second paragraph"
    lines = report.folded(text).splitlines()
    assert all(len(line) <= 110 for line in lines) and lines[1].startswith("  ") and lines[-1] == "second paragraph"


def _nb_source(index):
    return _source("notebooks/04_compression.ipynb", index)


def test_lesson_04_answers_section_4_first_and_moves_how_it_was_read_into_the_details():
    cell = _nb_source(49)
    assert "say(" not in cell.split("lo_rows += ")[0]  # every reading before the answer goes to the notes
    tail = cell.split("lo_rows += ")[1]
    assert tail.index("references_reading(") < tail.index("pass_rate_note(") < tail.index("how_measured(")
    assert "passed=passed_references(" in tail
    assert "references_count(" in _nb_source(72)  # the summary's bullet points under the table: the count only
    summary = _nb_source(71)
    assert "folds exactly" not in summary and "up to float rounding" in summary
    assert "smaller\nthan the unpaired standard error of the difference" in _nb_source(26)
