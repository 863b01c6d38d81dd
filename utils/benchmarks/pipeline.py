"""Benchmark ``pipeline``: lesson 02's best pipelined configuration on two workers against 2m/(m+1).

Sizes, split, micro-batch counts, bounds and the label come from ``plan.lesson_settings`` for this machine:
the GPU sizes where each worker has a GPU, the CPU sizes where two CPU processes stand in for them.
"""

from utils import bench, devices
from utils.lessons.model_split.plan import lesson_settings, task_for
from utils.lessons.model_split.runs import lesson_configs, measure_pipeline


@bench.register("pipeline")
def bench_pipeline() -> bench.Result:
    """Lesson 02: speedup of the best GPipe configuration over one worker with the same threads, same run."""
    s = lesson_settings(devices.plan(2), devices.hardware())
    run = measure_pipeline(task_for(s.sizes), s.split, lesson_configs(s.sizes.batches, s.micro_batches),
                           rounds=7, record=False)
    best = run.best()
    where = f"{run.threads} thread(s) each" if s.cpu_workers else ", ".join(s.workers)
    return bench.Result("pipeline", best.speedup, best.bound, "x",
                        note=f"GPipe on 2 workers{s.label}, GPT width {s.sizes.width} depth {s.sizes.depth} split "
                             f"{list(s.split)}, batch {best.batch}, m={best.m}, {where}; bound 2m/(m+1)",
                        extra={"batch": best.batch, "m": best.m, "split": list(s.split),
                               "speedups": {f"batch {r.batch} m={r.m}": round(r.speedup, 3) for r in run.rows}})
