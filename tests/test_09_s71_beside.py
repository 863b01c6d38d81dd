"""Lesson 09, the thirty-second reading (t32_09 #1): make bench's pipeline beside lesson 02 §5's is read by the
noise rule between runs first, and "different work" is said only where the work differs. Fabricated figures."""

from types import SimpleNamespace

from utils.lessons.articles_checked import bench_pipeline


def _recorded(record):
    return SimpleNamespace(record=record, kind="make bench", detail="pipeline")


def _pipelines(bench_value: float, lesson_value: float, lesson_reference: float = 1.943) -> dict:
    bench = {"value": bench_value, "bound": 16 / 9, "work_scaled_reference": 1.943, "m": 8, "batch": 128,
             "schedule": "1f1b"}
    lesson = {"value": lesson_value, "bound": 16 / 9, "reference": lesson_reference,
              "what": "the sweep's best of the plain schedules, 1f1b m=8, batch 128, against 2m/(m+1)"}
    return {"results": {"pipeline_configs": _recorded(bench), "pipeline": _recorded(lesson)}}


def test_equal_medians_are_within_noise_and_did_the_same_work():
    said = bench_pipeline.lesson_02_beside(_pipelines(1.8675, 1.87, lesson_reference=1.93))
    assert "within noise of each other (1.87x ± 0.04 and 1.87x ± 0.04" in said, said
    assert "both runs' stages did about the same work (0.92x one device's" in said
    assert "different work" not in said and "neither run explains" not in said


def test_medians_within_noise_with_work_that_differs_say_so_without_a_gap():
    said = bench_pipeline.lesson_02_beside(_pipelines(1.8675, 1.87, lesson_reference=1.745))
    assert "within noise of each other" in said
    assert "their stages' work differs (about 0.92x and 1.02x one device's" in said
    assert "a gap the medians do not show beyond noise" in said


def test_medians_that_disagree_with_the_same_share_and_the_same_work_are_not_called_different_work():
    said = bench_pipeline.lesson_02_beside(_pipelines(1.8675, 1.83))
    assert "(96% of it)" in said and "(94%)" in said
    assert "the same work (0.92x one device's" in said and "yet the medians disagree" in said
    assert "did different work" not in said


def test_medians_that_disagree_with_the_same_share_and_different_work():
    said = bench_pipeline.lesson_02_beside(_pipelines(1.8675, 1.6965, lesson_reference=1.745))
    assert "the two runs' stages did different work (about 0.92x and 1.02x one device's" in said
