"""Lesson 09, t34_09 (other): make bench's pipeline beside lesson 02 §5's, where the medians disagree, prints both
medians ± their spreads and says the two runs disagree, as the DDP and quantize paragraphs do (every branch).
Fabricated figures (no rounds kept: the 2% floor, 0.04 at 1.87x)."""

from test_09_s71_beside import _pipelines

from utils.lessons.articles_checked import bench_pipeline

DISAGREE = "neither covering the other's, so the two runs disagree"


def test_every_disagreeing_branch_says_the_runs_disagree_with_both_figures():
    same_work = bench_pipeline.lesson_02_beside(_pipelines(1.8675, 1.83))
    assert f": 1.87x ± 0.04 and 1.83x ± 0.04, {DISAGREE}; about the same share" in same_work, same_work
    other_work = bench_pipeline.lesson_02_beside(_pipelines(1.8675, 1.6965, lesson_reference=1.745))
    assert f"{DISAGREE}; about the same share of each, so the two runs' stages did different work" in other_work
    shares = bench_pipeline.lesson_02_beside(_pipelines(1.8675, 1.60, lesson_reference=1.93))
    assert f"{DISAGREE}; the shares differ too" in shares, shares
    agree = bench_pipeline.lesson_02_beside(_pipelines(1.8675, 1.87, lesson_reference=1.93))
    assert "disagree" not in agree
