"""Benchmark ``roofline``: the largest ratio of a lesson-01 op's measured FLOP/s to its roofline ceiling.

The ceilings (the machine profile's probes: one large fp32 matmul; the faster of STREAM's copy and add on arrays
the size of the ops' operands) are measured in the same rounds as the ops, on the same threads (one on a CPU); a
value above 1.0 by more than the op's spread means the ceilings are wrong for that op (an operand served from
the caches)."""

import torch

from utils import bench, devices
from utils.lessons.why_slow.plan import lesson_settings
from utils.lessons.why_slow.roofline import lesson_ops, measure_roofline


@bench.register("roofline")
def roofline_benchmark() -> bench.Result:
    """Ceilings and ops in 5 alternating rounds on the lesson's threads (one on a CPU); each its fastest run."""
    S = lesson_settings(devices.plan(1), devices.hardware(), torch.backends.cpu.get_cpu_capability())
    roof = measure_roofline(lesson_ops(S), S)
    worst, c = roof.worst, roof.ceilings
    return bench.Result("roofline", measured=worst.fraction, bound=1.0, unit="",
                        note=f"highest: {worst.op.name} ({worst.bound}-bound, {worst.spread:.0%} spread); "
                             f"{roof.peak.name} {c.flops / 1e9:.0f} GFLOP/s, {roof.bandwidth.name} "
                             f"{c.bandwidth / 1e9:.1f} GB/s, measured in the same rounds",
                        extra=dict(spread=round(worst.spread, 4), threads=roof.threads, peak_flops=c.flops,
                                   bandwidth=c.bandwidth,
                                   fractions={p.op.name: round(p.fraction, 4) for p in roof.points}))
