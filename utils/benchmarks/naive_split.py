"""Benchmark ``naive_split``: lesson 02's hand-written two-device split against one device (bound 1x).

Sizes, split and the label come from ``plan.lesson_settings`` for this machine (GPU sizes on GPU workers).
"""

from utils import bench, devices
from utils.lessons.model_split.plan import lesson_settings, task_for
from utils.lessons.model_split.runs import Config, measure_pipeline


@bench.register("naive_split")
def bench_naive_split() -> bench.Result:
    """Lesson 02: speedup of the naive two-device split over one device (expected about 1x: nothing overlaps)."""
    s = lesson_settings(devices.plan(2), devices.hardware())
    batch = s.sizes.batches[-1]
    run = measure_pipeline(task_for(s.sizes), s.split, [Config(batch, 1, naive=True)], rounds=7, record=False)
    row = run.rows[0]
    per_process = (f"; measured per process (each stage alone in its own process, same launch) the bound is "
                   f"{row.process_bound:.2f}x and the split reaches {row.speedup / row.process_bound:.2f} of it"
                   if row.process_bound else "")
    return bench.Result("naive_split", row.speedup, row.bound, "x",
                        note=f"hand-written send/recv split{s.label}, GPT width {s.sizes.width} depth "
                             f"{s.sizes.depth} split {list(s.split)}, batch {batch}, median of paired rounds; the "
                             f"bound of a split without micro-batches is 1x{per_process}",
                        extra={"batch": batch, "split": list(s.split), "process_bound": row.process_bound,
                               "rounds": [round(x, 3) for x in row.speedups]})
