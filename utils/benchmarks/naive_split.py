"""Benchmark ``naive_split``: lesson 02's hand-written two-device split against one device (bound 1x)."""

from utils import bench
from utils.lessons.model_split.runs import LESSON_BATCHES, LESSON_SPLIT, Config, measure_pipeline
from utils.lessons.model_split.tasks import gpt_task


@bench.register("naive_split")
def bench_naive_split() -> bench.Result:
    """Lesson 02: speedup of the naive two-device split over one device (expected about 1x: nothing overlaps)."""
    batch = LESSON_BATCHES[-1]
    run = measure_pipeline(gpt_task(), LESSON_SPLIT, [Config(batch, 1, naive=True)], rounds=7, record=False)
    row = run.rows[0]
    return bench.Result("naive_split", row.speedup, 1.0, "x",
                        note=f"hand-written send/recv split, batch {batch}; the bound of a split without "
                             f"micro-batches is 1x", extra={"batch": batch})
