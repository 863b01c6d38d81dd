"""Lab 08: what the slow script's thread count costs, timed alone. The slow script's workers each ask for
``os.cpu_count()`` threads; the launcher gives each ``cores // workers``. On the workers that just profiled
the slow script, both time the slow script's forward and backward of one micro-batch at each count, in
alternating paired rounds after a warm-up; the take-aways scale the measured speed-up to the profile's
forward and backward, against the prediction's miss.

    outcome = launch(profiled_then_timed, profiled, steps, readers, nprocs=2)[0]   # the diagnosis's launch
    threads_sentence(outcome["threads"], fb_ms, miss_ms, reading)                   # the take-away's words
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
KEPT = ("optimizer", "evaluate", "checkpoint")  # besides forward and backward, what the prediction keeps
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


def kept_ms(reading: dict) -> tuple[float, str]:
    """The regions besides forward and backward that the prediction keeps at their profiled cost
    (``prediction.needed_step_ms``): the optimizer every step, the held-out loss every ``EVAL_EVERY``-th step,
    the checkpoint every ``CHECKPOINT_EVERY``-th, worked from cell 11's rows as printed (0.1 ms) and rounded
    half up, with the working: (129.0, "76.5 + 281.3 / 6 + 35.2 / 6 = 129"). They ran at the slow script's
    thread count too, but the threads were timed on forward and backward alone."""
    optimizer, evaluate, checkpoint = (claims.as_printed(reading[region], 1) for region in KEPT)
    ms = claims.half_up(optimizer + evaluate / script.EVAL_EVERY + checkpoint / script.CHECKPOINT_EVERY, 0)
    return ms, (f"{optimizer:.1f} + {evaluate:.1f} / {script.EVAL_EVERY} + {checkpoint:.1f} / "
                f"{script.CHECKPOINT_EVERY} = {ms:.0f}")


def _percent(ms: float, of_ms: float) -> float:
    """``ms`` as a whole percent of ``of_ms`` (both as printed), half up; none of nothing is unbounded."""
    return claims.half_up(100 * ms / of_ms, 0) if of_ms > 0 else float("inf")


def _candidates(rest_ms: float, kept: float) -> str:
    """The miss the threads' saving leaves, and what may hold it: named as candidates, since this run times
    none of them apart (the kept regions first: they ran at the slow count too, and can hold at most their
    own ms)."""
    first = f"the kept regions above (up to {kept:.0f} ms of it), " if kept else ""
    return (f"; the other {rest_ms:.0f} ms: {first}your script's other changes inside forward and backward "
            "(fewer all-reduces a step, for one) and the profiler's own overhead on the slow script's step, "
            "candidates not timed apart")


def _range(low: float, high: float) -> str:
    """"71%-104%", or "76%" where both ends print alike."""
    return f"{low:.0f}%" if low == high else f"{low:.0f}%-{high:.0f}%"


def _share_text(saved: float, ends: tuple, miss_ms: float, kept: tuple) -> tuple[str, float, float]:
    """The saving's share of the part of the miss forward and backward can hold, like with like: the whole miss
    where the prediction keeps nothing else (``kept`` none), else from the miss less the most the kept regions
    could save (all their ms) up to the whole miss. Returns the words and the ends across the ± (``ends``:
    the ms saved at the speed-up less and plus its spread), as printed."""
    kept_most, worked = kept
    part = miss_ms - kept_most  # the least of the miss forward and backward can hold
    low, high = _percent(ends[0], miss_ms), _percent(ends[1], part)
    centre = (_percent(saved, miss_ms), _percent(saved, part))
    across = f" ({_range(low, high)} across its ±)" if (low, high) != centre else ""
    if not kept_most:
        return f", {centre[0]:.0f}%{across} of the prediction's {miss_ms:.0f} ms miss", low, high
    said = (f" on forward and backward alone; the prediction's {miss_ms:.0f} ms miss also holds what the "
            f"other regions it keeps saved (the optimizer, and the evaluations and checkpoints it keeps: "
            f"{worked} ms as profiled, at the slow script's count too, not timed apart), at most those "
            f"{kept_most:.0f} ms")
    if part <= 0:  # they could hold it all: forward and backward's part has no floor, the share no ceiling
        across = f" ({low:.0f}% or more across its ±)" if low != centre[0] else ""
        said += f", so the saving is {centre[0]:.0f}% or more{across} of forward and backward's part"
        return said, low, high
    said += (f", so forward and backward's part of it is {part:.0f} to {miss_ms:.0f} ms, and the saving is "
             f"{_range(*centre)}{across} of that part")
    return said, low, high


def _share_of_miss(fb_ms: float, value: float, spread: float, miss_ms: float, kept: tuple = (0.0, "")) -> str:
    """What the saving on forward and backward is of its part of the prediction's miss (``miss_ms``; ``kept``:
    ``kept_ms``'s, the other regions the prediction keeps), and the branch, judged on the shares as printed
    (whole percent, half up): more than the whole miss even at the speed-up's low end, part of even the least
    part forward and backward can hold at its high end, or within noise of that part."""
    saved = _saved_ms(fb_ms, value)
    ends = (_saved_ms(fb_ms, value - spread), _saved_ms(fb_ms, value + spread))
    said, low, high = _share_text(saved, ends, miss_ms, kept)
    rest = _candidates(miss_ms - saved, kept[0])
    if low > 100:
        return said + ": more than the whole miss, a finding to explain"
    if high < 100:
        return said + ": part of it" + rest
    if saved >= miss_ms or not kept[0]:
        left = f", leaving none of it to the other kept regions' {kept[0]:.0f} ms" if kept[0] else ""
        return said + ": the threads explain the whole miss, within noise" + left
    if miss_ms - kept[0] <= 0:
        return said + ": how much of that part the threads explain is not told apart here" + rest
    return said + ": the threads may explain forward and backward's whole part, within noise" + rest


def _beside_the_profile(timed: dict, fb_ms: float) -> str:
    """The slow count's ms a micro-batch, timed without the profiler (the rounds' median), beside the profile's
    forward and backward a micro-batch at the same count, under it (cell 11's row over ``ACCUMULATE``, as
    printed): the speed-up is scaled to the profiled ms, so the reader sees how far apart the two are."""
    if not timed["slow_ms"]:
        return ""
    fb, per = claims.as_printed(fb_ms, 1), script.ACCUMULATE
    median = statistics.median(timed["slow_ms"])
    return (f"; at {timed['slow']} threads a median {median:.1f} ms a micro-batch, the profile's {fb:.1f} / "
            f"{per} = {claims.half_up(fb / per, 1):.1f} ms under the profiler")


def threads_sentence(timed: dict | None, fb_ms: float, miss_ms: float | None,
                     reading: dict | None = None) -> str:
    """The take-away on the threads, from this run: how much faster the slow script's forward and backward ran
    at the launcher's thread count than at its own (the paired rounds' median ± spread, claims' verdict), and,
    scaled to the profile's ``fb_ms`` a step, what share of the prediction's miss (``miss_ms``, as printed;
    None where the prediction did not miss under the measured step) that accounts for: of the part of the miss
    forward and backward can hold, the other regions the prediction keeps (from ``reading``, the profile's
    reading; None: none kept) holding the rest. ``timed``: from ``time_thread_counts``; None where this run did
    not time them."""
    if not timed:
        return NOT_TIMED
    slow, launcher, ratios = timed["slow"], timed["launcher"], timed["ratios"]
    if not ratios:
        return f"the launcher gives {launcher} too, so the thread count cost nothing to time here"
    value, spread = claims.as_printed(statistics.median(ratios), 2), claims.printed_spread(ratios)
    verdict = claims.speedup_verdict(value, None, spread, rounds=ratios, slower="its own count ran faster")
    verdict = verdict.replace("than the baseline", f"than at its own {slow}")  # the baseline here: its own count
    plural = "s" if launcher > 1 else ""
    said = (f"timed alone, without the profiler, on the same two workers after the profile (one micro-batch, "
            f"{len(ratios)} paired rounds after a warm-up{_beside_the_profile(timed, fb_ms)}), the slow "
            f"script's forward and backward ran {value:.2f}x ± {spread:.2f} as fast at the launcher's "
            f"{launcher} thread{plural} (cores // workers) as at its {slow}: {verdict}")
    none = (f"the threads explain none of the prediction's {miss_ms:.0f} ms miss" if miss_ms and miss_ms > 0
            else "the thread count saved nothing measured here")
    if not verdict.startswith("faster"):  # within noise of 1x, equal as printed, or the slow count faster
        return said + f"; so {none}"
    fb = claims.as_printed(fb_ms, 0)
    said += (f" (no bound beside it: a thread count's ceiling is the cores, and both counts ran on the same "
             f"{slow} cores, so the gain is what oversubscribing them cost)")
    saved = (f"; scaled to the profile's {fb:.0f} ms a step of it (under the profiler, the speed-up without "
             f"it), the launcher's count saves {fb:.0f} - {fb:.0f} / {value:.2f} = {_saved_ms(fb, value):.0f} ms "
             "a step")
    if not miss_ms or miss_ms <= 0:
        # the prediction keeps forward and backward as profiled: a step that meets it did not show the saving
        return said + saved + (", beside a prediction (forward and backward as profiled) that did not miss under "
                               "your step: your step did not show that saving, a finding to explain")
    kept = kept_ms(reading) if reading else (0.0, "")
    return said + saved + _share_of_miss(fb, value, spread, miss_ms, kept)
