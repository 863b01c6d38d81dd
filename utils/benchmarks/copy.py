"""Benchmark ``copy``: the largest copy on the mode's main path against its bound (lesson 00)."""

from utils import bench
from utils.lessons.start_here.bandwidth import MIB, measure_copies


@bench.register("copy")
def copy_benchmark() -> bench.Result:
    """Host memcpy on CPU, pinned host-to-device on GPU: 64 MiB, against the path's bound."""
    points = measure_copies([64 * MIB])
    main = points[1] if len(points) > 1 else points[0]
    return bench.Result("copy", measured=main.rate / 1e9, bound=(main.bound or float("nan")) / 1e9,
                        unit="GB/s", note=main.path)
