"""Benchmark ``mfu``: the small GPT's training-step MFU against the matmul peak measured in the same run
(lesson 01, section 1)."""

import torch

from utils import bench, devices
from utils.lessons.why_slow.plan import lesson_settings
from utils.lessons.why_slow.step import training_step
from utils.lessons.why_slow.utilisation import step_utilisation


@bench.register("mfu")
def mfu_benchmark() -> bench.Result:
    """Median of 5 alternating rounds (step, peak matmul). ``bound`` holds 1.0, all of the measured peak: a
    reference, not a ceiling (lesson 01 records it as one: a step's kernels can pass a peak timed on one matmul)."""
    S = lesson_settings(devices.plan(1), devices.hardware(), torch.backends.cpu.get_cpu_capability())
    u = step_utilisation(training_step(S.model, S.batch, S.device, S.step_dtype), S.peak_matmul,
                         threads=S.measure_threads)
    return bench.Result("mfu", measured=u.median, bound=1.0, unit="",
                        note=f"{S.step_dtype} step against the {u.peak_name} ({u.peak / 1e9:.0f} GFLOP/s), "
                             f"both timed in 5 interleaved rounds",
                        extra=dict(step_flops=u.model_flops, achieved_flops=u.achieved, peak_flops=u.peak, threads=u.threads,
                                   mfu_rounds=u.mfus))
