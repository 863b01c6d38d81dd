"""Lab 08: what the slow script's thread count costs, timed alone. The slow script's workers each ask for
``os.cpu_count()`` threads; the launcher gives each ``cores // workers``. On the workers that just profiled
the slow script, both time the slow script's forward and backward of one micro-batch at each count, in
alternating paired rounds after a warm-up; the take-aways scale the measured speed-up to the profile's
forward and backward, against the prediction's miss.

    outcome = launch(profiled_then_timed, profiled, steps, readers, nprocs=2)[0]   # the diagnosis's launch
    threads_sentence(outcome["threads"], fb_ms, miss_ms)                            # the take-away's words
"""

from __future__ import annotations

import contextlib
import os
import statistics
import tempfile
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from utils import bench, claims
from utils.labs.make_it_fast import script
from utils.launch import current_backend, current_device, keep_until_exit

ROUNDS = 5  # paired rounds after one warm-up pair: from 4 rounds on, claims' spread is the middle half's
NOT_TIMED = ("this run did not time one thread count against the other alone, so what the threads cost is "
             "not measured here")


def profiled_then_timed(profiled, steps: int, readers: tuple) -> dict:
    """A worker: the diagnosis's profiled slow script (``profiled``, checks' ``_profiled_slow``), then the
    thread counts timed on the same workers; rank 0's outcome carries the timing under "threads"."""
    launcher = torch.get_num_threads()  # cores // workers, the launcher's: the slow script then asks for more
    outcome = profiled(steps, readers)
    timed = time_thread_counts(os.cpu_count() or 1, launcher)
    return dict(outcome, threads=timed) if outcome else outcome


def _own_group(device: torch.device) -> str:
    """A process group for the timing alone, on a file store (returns its path): the slow script's store still
    holds MASTER_PORT (its DDP model lives until the worker exits), so a second env:// init would find the port
    taken. The path is the launch's own: both workers share the parent and MASTER_PORT."""
    path = os.path.join(tempfile.gettempdir(), f"lab08-threads-{os.getppid()}-{os.environ['MASTER_PORT']}")
    world = int(os.environ["WORLD_SIZE"])
    dist.init_process_group(current_backend(), store=dist.FileStore(path, world), rank=int(os.environ["RANK"]),
                            world_size=world, device_id=device if device.type == "cuda" else None)
    return path


def _one_micro_batch():
    """The slow script's first micro-batch: (MICRO_BATCH, CONTEXT) inputs and targets, read without the
    storage's wait (only the compute is timed)."""
    windows = script.text().windows
    return (torch.stack(t) for t in zip(*(windows[i] for i in range(script.MICRO_BATCH))))


def time_thread_counts(slow: int, launcher: int, rounds: int = ROUNDS) -> dict:
    """Both workers time the slow script's forward and backward of one micro-batch (DDP's all-reduce
    included, as the slow script syncs every micro-batch) at ``slow`` and at ``launcher`` threads, each round
    starting with the other count (``bench.alternate``). Returns the counts, each round's ms at each, and the
    rounds' ratios slow / launcher (how much faster the launcher's count ran): none where the counts are
    the same."""
    timed = {"slow": slow, "launcher": launcher, "slow_ms": [], "launcher_ms": [], "ratios": []}
    if slow == launcher:
        return timed
    device = current_device()
    store = _own_group(device)
    x, y = (t.to(device) for t in _one_micro_batch())
    model = keep_until_exit(DDP(script.build_model(script.text().corpus.vocab_size).to(device),
                                device_ids=[device.index] if device.type == "cuda" else None))

    def forward_and_backward(threads: int) -> float:
        with bench.threads(threads):
            dist.barrier()  # both workers compute at once, as in the slow script: they share the cores
            bench.synchronize(device)
            start = time.perf_counter()
            (model(x, y)[1] / script.ACCUMULATE).backward()
            bench.synchronize(device)
            return (time.perf_counter() - start) * 1e3

    bench.alternate(lambda: forward_and_backward(slow), lambda: forward_and_backward(launcher), 1)  # warm-up
    slow_ms, launcher_ms = bench.alternate(lambda: forward_and_backward(slow),
                                           lambda: forward_and_backward(launcher), rounds)
    dist.barrier()  # both are done with the store: its file can go (the worker exits without freeing it)
    if dist.get_rank() == 0:
        with contextlib.suppress(OSError):
            os.remove(store)
    dist.destroy_process_group()
    return dict(timed, slow_ms=slow_ms, launcher_ms=launcher_ms,
                ratios=[s / f for s, f in zip(slow_ms, launcher_ms)])


def _saved_ms(fb_ms: float, speedup: float) -> float:
    """The ms a step the profile's forward and backward (``fb_ms``, as printed) would lose at ``speedup``,
    worked as a reader does from the printed figures (1576 - 1576 / 6.12 = 1318), never below none."""
    return max(0.0, claims.half_up(fb_ms - fb_ms / speedup, 0)) if speedup > 0 else 0.0


def _share_of_miss(fb_ms: float, value: float, spread: float, miss_ms: float) -> str:
    """What the saving is of the prediction's miss (``miss_ms``): its share, the share's range across the ±
    (where the ends differ), and the branch, judged on the shares as printed (whole percent, half up): the
    whole miss within noise (the range reaches 100%), more than it, or part of it."""
    saved = _saved_ms(fb_ms, value)
    share, low, high = (claims.half_up(100 * ms / miss_ms, 0) for ms in
                        (saved, _saved_ms(fb_ms, value - spread), _saved_ms(fb_ms, value + spread)))
    across = f" ({low:.0f}%-{high:.0f}% across its ±)" if low != high else ""
    said = f"{share:.0f}%{across} of the prediction's {miss_ms:.0f} ms miss"
    if low <= 100 <= high:
        return said + ": the threads explain the whole miss, within noise"
    if low > 100:
        return said + ": more than the whole miss, a finding to explain"
    # what else the fast script changed inside forward and backward, and what the profile itself added: named
    # as candidates, since this run times neither apart
    return said + (f": part of it; the other {miss_ms - saved:.0f} ms: your script's other changes inside "
                   "forward and backward (fewer all-reduces a step, for one) and the profiler's own overhead on "
                   "the slow script's step, candidates not timed apart")


def threads_sentence(timed: dict | None, fb_ms: float, miss_ms: float | None) -> str:
    """The take-away on the threads, from this run: how much faster the slow script's forward and backward ran
    at the launcher's thread count than at its own (the paired rounds' median ± spread, claims' verdict), and,
    scaled to the profile's ``fb_ms`` a step, what share of the prediction's miss (``miss_ms``, as printed;
    None where the prediction did not miss under the measured step) that accounts for. ``timed``: from
    ``time_thread_counts``; None where this run did not time them."""
    if not timed:
        return NOT_TIMED
    slow, launcher, ratios = timed["slow"], timed["launcher"], timed["ratios"]
    if not ratios:
        return f"the launcher gives {launcher} too, so the thread count cost nothing to time here"
    value, spread = claims.as_printed(statistics.median(ratios), 2), claims.printed_spread(ratios)
    verdict = claims.speedup_verdict(value, None, spread, rounds=ratios, slower="its own count ran faster")
    verdict = verdict.replace("than the baseline", f"than at its own {slow}")  # the baseline here: its own count
    plural = "s" if launcher > 1 else ""
    said = (f"timed alone on the same two workers after the profile (one micro-batch, {len(ratios)} paired "
            f"rounds after a warm-up), the slow script's forward and backward ran {value:.2f}x ± "
            f"{spread:.2f} as fast at the launcher's {launcher} thread{plural} (cores // workers) as at its "
            f"{slow}: {verdict}")
    none = (f"the threads explain none of the prediction's {miss_ms:.0f} ms miss" if miss_ms and miss_ms > 0
            else "the thread count saved nothing measured here")
    if not verdict.startswith("faster"):  # within noise of 1x, equal as printed, or the slow count faster
        return said + f"; so {none}"
    fb = claims.as_printed(fb_ms, 0)
    said += (f" (no bound beside it: a thread count's ceiling is the cores, and both counts ran on the same "
             f"{slow} cores, so the gain is what oversubscribing them cost)")
    saved = (f"; scaled to the profile's {fb:.0f} ms a step of it, the launcher's count saves {fb:.0f} - "
             f"{fb:.0f} / {value:.2f} = {_saved_ms(fb, value):.0f} ms a step")
    if not miss_ms or miss_ms <= 0:
        # the prediction keeps forward and backward as profiled: a step that meets it did not show the saving
        return said + saved + (", beside a prediction (forward and backward as profiled) that did not miss under "
                               "your step: your step did not show that saving, a finding to explain")
    return said + saved + ", " + _share_of_miss(fb, value, spread, miss_ms)
