"""Benchmark ``copy``: the largest copy on the mode's main path against its bound (lesson 00).

In ``cpu`` mode that is host memcpy against DRAM's reference (half the measured read rate); the gloo path the
simulated GPUs really exchange tensors through is measured beside it (``gloo_GBps``: no bound, a figure).
"""

from utils import bench, devices
from utils.lessons.start_here.bandwidth import MIB, measure_copies
from utils.lessons.start_here.loopback import measure_loopback


@bench.register("copy")
def copy_benchmark() -> bench.Result:
    """Host memcpy on CPU, pinned host-to-device on GPU: 64 MiB, against the path's bound."""
    points = measure_copies([64 * MIB])
    main = points[1] if len(points) > 1 else points[0]
    kind = "bound" if main.is_bound else "reference"  # on a CPU every regime's figure is measured: a reference
    extra, note = {}, main.path + (f" ({main.regime} {kind})" if main.regime else "")
    if devices.plan(2).backend == "gloo":  # the workers' own path: gloo over loopback between two processes
        gloo = measure_loopback([64 * MIB])[0]
        extra["gloo_GBps"] = round(gloo.rate / 1e9, 3)
        note += f"; gloo loopback between two processes at 64 MiB: {gloo.rate / 1e9:.2f} GB/s"
    return bench.Result("copy", measured=main.rate / 1e9, bound=(main.bound or float("nan")) / 1e9,
                        unit="GB/s", note=note, extra=extra)
