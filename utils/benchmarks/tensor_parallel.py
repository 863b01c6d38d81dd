"""Benchmark ``tensor_parallel``: lesson 07's largest MLP block, split column- then row-parallel over two
workers, step-time speedup over one worker against the plan's bound (2x with a device per worker, about 1x
where two ranks share one GPU), beside the cost model's prediction from alpha and beta measured in the same
run, and the largest difference of the split block's output from the single-device block's."""

import dataclasses

from utils import bench, devices
from utils.launch import launch
from utils.lessons.tensor_parallel.cost import analyse, cost_worker
from utils.lessons.tensor_parallel.decode import decode_bounds, decode_worker, memory_bandwidth
from utils.lessons.tensor_parallel.plan import lesson_settings

LAUNCHES = 2


@bench.register("tensor_parallel")
def tensor_parallel_benchmark() -> bench.Result:
    """The lesson's largest width on this machine; alpha and beta from all-reduces in the same launch; the
    better of ``LAUNCHES`` launches."""
    S = lesson_settings(devices.plan(2), devices.hardware())
    t = dataclasses.replace(S.timing, widths=S.timing.widths[-1:])
    # Two launches, the better kept (with the prediction of its own launch): the least disturbed by other
    # programs, as lesson 03's scaling benchmark does.
    runs = [analyse(launch(cost_worker, t, nprocs=2, timeout=300)[0]) for _ in range(LAUNCHES)]
    a = max(runs, key=lambda run: run["rows"][0]["speedup"])
    row, link = a["rows"][0], a["model"].link
    note = (f"MLP block width {row['width']} (hidden {4 * row['width']}), {t.tokens} tokens, forward + "
            f"backward, {S.backend}{S.label}; model t1/2 + 2(alpha + bytes/beta) with alpha "
            f"{link.alpha * 1e6:.0f} us, beta {link.beta / 1e9:.2f} GB/s; bound {S.bound:g}x: {S.bound_why}")
    decode = launch(decode_worker, S.generation, nprocs=2, timeout=300)[0]
    bandwidth, what = memory_bandwidth(devices.plan(2).simulated, devices.hardware(),
                                       S.generation.threads)
    floor = decode_bounds(decode, bandwidth)
    note += (f"; decode with a KV cache, batch 1: one device {decode['seconds']['one device'] * 1e3:.2f} ms a "
             f"token, tensor parallel {decode['seconds']['tensor parallel'] * 1e3:.2f} ms, weight-bytes floors "
             f"{floor['one device'] * 1e3:.2f} and {floor['tensor parallel'] * 1e3:.2f} ms ({what})")
    return bench.Result("tensor_parallel", measured=row["speedup"], bound=S.bound, unit="x", note=note,
                        extra={"decode_seconds_per_token": decode["seconds"], "decode_floor_seconds": floor,
                               "decode_bandwidth": bandwidth, "decode_same_tokens": decode["same_tokens"],"predicted": row["predicted_speedup"], "max_abs_diff": row["max_abs_diff"],
                               "measured_over_predicted": row["speedup"] / row["predicted_speedup"],
                               "alpha_s": link.alpha, "beta_bytes_per_s": link.beta, "width": row["width"]})
