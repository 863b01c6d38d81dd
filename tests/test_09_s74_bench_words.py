"""Lesson 09, the thirty-fifth reading (t35_09 #5, #6): make bench's per-process rate of the split alone is a
reference (measured here), never a "bound"; its int8 reference is printed rough where make bench marked it
rough, as lesson 04's beside it. Fabricated figures."""

from __future__ import annotations

from utils.lessons.articles_checked import bench_lessons

ROUGH_NOTE = "reference: ~8.1x (rough), compute-bound: matmul rates measured on (256, 1024) @ (1024, 1024)"
LESSON_04 = {"value": 4.11, "bound": 8.6, "noise": 0.09,
             "what": "torchao int8 compiled, batch 256, against its roofline reference ~8.6x (rough)"}


def test_make_benchs_int8_reference_is_printed_as_make_bench_marked_it():
    assert bench_lessons.bench_reference_words({"bound": 8.1354, "note": ROUGH_NOTE}) == "~8.1x (rough)"
    assert bench_lessons.bench_reference_words({"bound": 8.1354, "note": "", "reference_rough": True}) == (
        "~8.1x (rough)")
    assert bench_lessons.bench_reference_words({"bound": 8.1354, "note": "reference: 8.14x, compute-bound"}) == (
        "8.14x")
    said = bench_lessons.quantize_beside_words({"value": 4.40, "bound": 8.1354, "noise": 0.08, "note": ROUGH_NOTE},
                                               LESSON_04)
    assert "against its reference ~8.1x (rough), lesson 04" in said and "8.14x" not in said, said


def test_the_split_alones_per_process_rate_is_called_a_reference():
    bench = {"value": 1.05, "bound": 1.0, "process_bound": 1.08, "rounds": [1.01, 1.03, 1.05, 1.05, 1.11]}
    recorded = {"value": 1.04, "bound": 1.0, "rounds": [0.87, 1.03, 1.04, 1.04, 1.14]}
    said = bench_lessons.split_alone_words(bench, recorded)
    assert "its per-process reference is 1.08x, which its median does not pass" in said, said
    assert "its bound is" not in said
    past = bench_lessons.split_alone_words(bench | {"process_bound": 0.98}, recorded)
    assert "its per-process reference is 0.98x, past that too: a finding to explain" in past, past
