"""Benchmark ``ddp``: lesson 03's recipe, 2-worker samples/s over 1-worker samples/s, against the plan's bound
(2x with a device per worker, about 1x where two ranks share one GPU; ``lesson_settings`` decides).

The same method and run lengths as the lesson's section 3 (``scaling.WARMUP_STEPS``, ``TIMED_STEPS``,
``ROUNDS``: paired rounds, median ratio), so the two report the same figure on the same machine. Every round is
reported and counted, with the range over all of them; beside the bound stands the work-scaled reference (the
bound over the work per sample measured: CPU seconds, where the workers are CPU processes; measured, so a
reference, not a bound), as lesson 02's ``pipeline`` does.
"""

from utils import bench, devices
from utils.lessons.ddp import scaling
from utils.lessons.ddp.plan import LessonSettings, lesson_settings
from utils.lessons.ddp.settings import Settings


def benchmark_settings(S: LessonSettings) -> Settings:
    """The lesson's model, batch and threads for this machine, with the lesson's scaling run lengths."""
    return S.training(steps=scaling.WARMUP_STEPS + scaling.TIMED_STEPS, warmup_steps=scaling.WARMUP_STEPS)


@bench.register("ddp")
def ddp_benchmark() -> bench.Result:
    """The small GPT at the lesson's sizes for this machine; both runs on the 2-worker plan's backend."""
    S = lesson_settings(devices.plan(2), devices.hardware())
    s = benchmark_settings(S)
    r = scaling.scaling(s, S.backend, S.scaling_bound, is_bound=S.scaling_is_bound)
    kind = "bound" if S.scaling_is_bound else "expectation"
    note = (f"small GPT width {s.width}, batch {s.batch_per_worker}/worker, {s.threads or 'default'} thread(s)/"
            f"worker, {S.backend} for 1 and 2 workers{S.label}; {scaling.verdict(r)}; {kind} "
            f"{S.scaling_bound:g}x: {S.scaling_bound_why}")
    rounded = lambda xs: [round(x, 3) for x in xs]  # noqa: E731
    return bench.Result("ddp", measured=r["ratio"], bound=r["bound"], unit="x", note=note,
                        extra={"samples_per_s_1": r["one"], "samples_per_s_2": r["two"], "rounds": rounded(r["ratios"]),
                               "ratios": rounded(r["ratios"]), "range": [round(r["low"], 3), round(r["high"], 3)],
                               "low": r["low"], "high": r["high"], "above_bound": rounded(r["above"]),
                               "bound_is_expectation": not S.scaling_is_bound,
                               "work_ratio": round(r["work_ratio"], 3) if r["work_ratio"] else None,
                               "work_scaled_reference": round(r["work_bound"], 3) if r["work_bound"] else None})
