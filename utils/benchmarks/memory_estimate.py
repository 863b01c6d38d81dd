"""Benchmark ``memory_estimate`` (lesson 06): the largest relative error of the memory calculator against the
measured peak of a training step, over the configurations ``validate.configurations`` lists (selective
checkpointing and the chunked cross-entropy among them), at lesson 06's sizes for this machine; bound 0.10. ``python -m utils.benchmarks memory_estimate``.
"""

from __future__ import annotations

from utils import bench
from utils.lessons.memory.plan import current_settings
from utils.lessons.memory.validate import configurations, estimate_errors

BOUND = 0.10  # the calculator within 10% of the measured peak


@bench.register("memory_estimate")
def bench_memory_estimate() -> bench.Result:
    """Lesson 06: max |calculator - measured| / measured over the configurations; ratio = error / bound."""
    s = current_settings()
    with bench.threads(s.torch_threads):
        errors = estimate_errors(configurations(s.shape, s.batch), s.device)
    worst = max(errors, key=lambda k: abs(errors[k][2]))
    measured = abs(errors[worst][2])
    return bench.Result("memory_estimate", measured=measured, bound=BOUND, unit="relative error",
                        ratio_to_bound=measured / BOUND,
                        note=f"largest error: {worst} ({errors[worst][2]:+.1%}); {len(errors)} configurations"
                             f"{s.label}",
                        extra={"configs": {k: {"estimated": e, "measured": m, "error": r}
                                           for k, (e, m, r) in errors.items()}, "device": s.device})
