"""Benchmark ``pipeline``: lesson 02's best GPipe configuration on two workers against 2m/(m+1)."""

from utils import bench
from utils.lessons.model_split.runs import LESSON_SPLIT, lesson_configs, measure_pipeline
from utils.lessons.model_split.tasks import gpt_task


@bench.register("pipeline")
def bench_pipeline() -> bench.Result:
    """Lesson 02: speedup of the best GPipe configuration over one worker with the same threads, same run."""
    run = measure_pipeline(gpt_task(), LESSON_SPLIT, lesson_configs(), rounds=7, record=False)
    best = run.best()
    return bench.Result("pipeline", best.speedup, best.bound, "x",
                        note=f"GPipe on 2 workers, batch {best.batch}, m={best.m}, {run.threads} thread(s) each; "
                             f"bound 2m/(m+1)",
                        extra={"batch": best.batch, "m": best.m,
                               "speedups": {f"batch {r.batch} m={r.m}": round(r.speedup, 3) for r in run.rows}})
