"""What tensor parallelism costs (lesson 07, section 5): step times of one MLP block on one device and split
over two, the all-reduce measured over message sizes (alpha and beta fitted with ``utils.linkmodel``), and the
cost model

    t_tp(w) = t_1(w) / 2 + n_ar * (alpha + bytes(w) / beta)

with ``n_ar`` = 2 all-reduces per training step (``g`` forward, ``f`` backward) of ``tokens x width`` values.
Everything is measured in one launch: for each width, rounds of the full block on rank 0 alone (rank 1
waits in a barrier) alternate with rounds of the split block on both; then both time all-reduces.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import os
import statistics
import time

import psutil
import torch
import torch.distributed as dist

from utils import bench, claims, models
from utils.launch import current_backend, process_group
from utils.linkmodel import AlphaBeta, fit_alpha_beta
from utils.lessons.tensor_parallel.layers import TensorParallelMLP
from utils.lessons.tensor_parallel.verdicts import call_as_printed, rank_as_printed
from utils.lessons.tensor_parallel.verdicts import seconds_dict_as_printed as _seconds_as_printed

ALLREDUCES_PER_STEP = 2  # g in the forward pass, f in the backward pass


@dataclasses.dataclass(frozen=True)
class Timing:
    """What the cost launch measures: MLP blocks of ``widths`` on ``tokens`` tokens, all-reduces of
    ``sizes``."""

    widths: tuple[int, ...]
    tokens: int
    sizes: tuple[int, ...]  # bytes of the all-reduces fitted for alpha and beta
    repeats: int = 10
    warmup: int = 2
    threads: int | None = None  # torch threads per worker (cpu: 1, so each worker has a core)
    seed: int = 0


def mlp(width: int, seed: int) -> torch.nn.Module:
    """The GPT's MLP block of ``width`` (hidden 4 x width), the same weights on every rank."""
    with models.seeded(seed):
        return models.FeedForward(models.GPTConfig(vocab_size=1, context=1, width=width, depth=1, heads=1))


def step_fn(block: torch.nn.Module, x: torch.Tensor, dy: torch.Tensor):
    """One training step's work on the block: forward, then backward into the input and every weight."""
    params = [x, *block.parameters()]

    def step():
        torch.autograd.grad(block(x), params, dy)
    return step


def _clocks() -> tuple[float, float, float]:
    """Wall time, this thread's CPU time, and the CPU time of every thread of this process (gloo's too)."""
    return time.perf_counter(), time.thread_time(), time.process_time()


def _since(start: tuple[float, float, float]) -> dict:
    wall, thread, process = (b - a for a, b in zip(start, _clocks()))
    return {"wall": wall, "thread_cpu": thread, "process_cpu": process}


@contextlib.contextmanager
def timed_allreduces():
    """Seconds spent inside ``dist.all_reduce`` (as ``layers.py`` calls it) while the block runs: the
    all-reduces' own time and any wait for the other rank to arrive. Host time: right for gloo, which returns
    when the sum is there; NCCL returns once the kernel is queued, so on GPUs it yields None. ``calls``: each
    call's (start, end) on the machine's monotonic clock, which every process shares, so that two ranks' calls
    can be set side by side: when each arrived, and how long each stayed inside once both were there."""
    gloo = current_backend() == "gloo"
    inside = {"seconds": 0.0 if gloo else None, "calls": [] if gloo else None}
    plain = dist.all_reduce

    def timed(tensor, *args, **kwargs):
        start = time.perf_counter()  # CLOCK_MONOTONIC on Linux: the same clock in every process
        try:
            return plain(tensor, *args, **kwargs)
        finally:
            if inside["seconds"] is not None:
                end = time.perf_counter()
                inside["seconds"] += end - start
                inside["calls"].append((start, end))
    dist.all_reduce = timed
    try:
        yield inside
    finally:
        dist.all_reduce = plain


def time_width(width: int, t: Timing, device, rank: int, world: int) -> dict:
    """Seconds of one step of the full block (rank 0 alone, rank 1 waiting) and of the split block (all
    ranks), in alternating rounds so that both meet the same machine; the fastest round of each counts, and
    every round is kept (for the noise). Each round also records where the time went: the CPU time of the
    step's thread and of the whole process, and the time inside the all-reduces (``timed_allreduces``)."""
    full = mlp(width, t.seed).to(device)
    x = torch.randn(t.tokens, width, device=device, requires_grad=True)
    dy = torch.randn(t.tokens, width, device=device) / t.tokens
    split = TensorParallelMLP(full, rank, world).to(device)  # this rank's shard (a copy of it)
    with torch.no_grad():
        diff = (split(x) - full(x)).abs().max().item()  # the split's output against the full block's
    one_step, split_step = step_fn(full, x, dy), step_fn(split, x, dy)
    alone, waiting, two = [], [], []
    start_all, (busy0, steal0) = _clocks(), machine_cpu()
    for r in range(t.warmup + t.repeats):
        dist.barrier()
        start = _clocks()
        if rank == 0:
            one_step()
            _sync(device)
            alone.append(_since(start))
        dist.barrier()
        if rank != 0:
            waiting.append(_since(start))  # rank 1 while rank 0 ran alone: what its waiting cost the CPU
        start = _clocks()
        with timed_allreduces() as inside:
            split_step()
            _sync(device)
        two.append({**_since(start), "allreduce": inside["seconds"], "calls": inside["calls"]})
    window, (busy1, steal1) = _since(start_all), machine_cpu()
    window.update(machine_busy=busy1 - busy0, steal=steal1 - steal0)  # every program's CPU over the rounds
    alone, waiting, two = alone[t.warmup:], waiting[t.warmup:], two[t.warmup:]
    fastest = min(two, key=lambda r: r["wall"])
    return {"width": width, "one": min(r["wall"] for r in alone) if rank == 0 else None,
            "two": fastest["wall"], "one_rounds": [r["wall"] for r in alone],
            "two_rounds": [r["wall"] for r in two],
            "split_round": fastest,  # where the fastest split step's time went
            "split_rounds": two,  # every round's, the all-reduce calls included (``miss`` pairs the ranks')
            "alone_round": min(alone, key=lambda r: r["wall"]) if alone else None,
            "waiting_round": min(waiting, key=lambda r: r["wall"]) if waiting else None,
            "threads": psutil.Process().num_threads(),  # torch's, gloo's and Python's threads of this worker
            "window": window,  # wall, this worker's CPU, the machine's CPU and steal over every round
            "bytes": t.tokens * width * x.element_size(),
            "flops": 48 * t.tokens * width**2,  # 2 matmuls of 2*N*w*4w FLOPs, x3 for the backward
            "max_abs_diff": diff}


def half_block(width: int, seed: int) -> torch.nn.Module:
    """The work of one rank's shard without its all-reduces: an MLP block of ``width`` with half the hidden
    features (the same FLOPs as a split rank's step)."""
    with models.seeded(seed):
        return models.FeedForward(models.GPTConfig(vocab_size=1, context=1, width=width, depth=1, heads=1,
                                                   mlp_ratio=2))


def corun(width: int, t: Timing, device, rank: int) -> dict:
    """Does a rank's half run slower when the other rank computes at the same moment? The shard's work
    without its all-reduces (``half_block``), in alternating rounds: on rank 0 alone (rank 1 waiting), then
    on both ranks at once. What the two share (memory bandwidth, last-level cache, the clock) shows as the
    ratio together / alone; the fastest round of each counts. Lesson 07."""
    block = half_block(width, t.seed).to(device)
    x = torch.randn(t.tokens, width, device=device, requires_grad=True)
    step = step_fn(block, x, torch.randn(t.tokens, width, device=device) / t.tokens)
    alone, together = [], []
    for _ in range(t.warmup + t.repeats):
        dist.barrier()
        if rank == 0:
            start = _clocks()
            step()
            _sync(device)
            alone.append(_since(start)["wall"])
        dist.barrier()
        start = _clocks()
        step()
        _sync(device)
        together.append(_since(start))
    fastest = min(together[t.warmup:], key=lambda r: r["wall"])
    return {"alone": min(alone[t.warmup:]) if rank == 0 else None, "together": fastest["wall"],
            "together_core": fastest["thread_cpu"] / fastest["wall"]}  # 1.0: the thread held its core


def machine_cpu() -> tuple[float, float]:
    """Seconds of CPU the whole machine has used (every core, every program) and the hypervisor's steal."""
    c = psutil.cpu_times()
    busy = c.user + c.system + getattr(c, "nice", 0.0) + getattr(c, "irq", 0.0) + getattr(c, "softirq", 0.0)
    return busy, getattr(c, "steal", 0.0)


def counter_grain(wall: float) -> dict:
    """How finely ``machine_cpu`` can read a window of ``wall`` seconds: the kernel counts CPU time in ticks
    (``tick`` seconds, 10 ms where CLK_TCK is 100) on each of ``cpus`` cores, so a window's reading may be off
    by a tick on every core: ``pass_step.load_grain`` turns this into cores' worth (t32_0708 #1)."""
    tick = 1 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 0.01
    return {"window": wall, "tick": tick, "cpus": psutil.cpu_count() or 1}


def _sync(device) -> None:
    if torch.device(device).type == "cuda":
        torch.cuda.synchronize(device)


def time_all_reduce(n_bytes: int, t: Timing, device) -> float:
    buf = torch.ones(n_bytes // 4, device=device)
    return bench.measure(lambda: dist.all_reduce(buf), warmup=t.warmup, repeats=t.repeats, device=device).min


def cost_worker(t: Timing) -> dict | None:
    """On each worker: every width, then the all-reduce sweep; rank 0 returns the times (seconds)."""
    if t.threads:
        torch.set_num_threads(t.threads)
    load = os.getloadavg()[0]  # runnable processes over the last minute, before this launch's work
    with process_group() as device:
        rank, world = dist.get_rank(), dist.get_world_size()
        rows = [time_width(w, t, device, rank, world) for w in t.widths]
        together = corun(t.widths[-1], t, device, rank)  # the largest width's halves, alone and at once
        sweep = [time_all_reduce(n, t, device) for n in t.sizes]
        every = [None] * world
        dist.all_gather_object(every, rows)  # rank 1's rows: its side of each split step
        if rank:
            return None
        return {"rows": rows, "peer_rows": every[1], "sizes": list(t.sizes), "seconds": sweep,
                "load": (load, os.getloadavg()[0]), "cores": psutil.cpu_count(), "corun": together}


@dataclasses.dataclass(frozen=True)
class Model:
    """The cost model of a tensor-parallel step, with alpha and beta from the run's own all-reduces."""

    link: AlphaBeta

    def predict(self, one: float, n_bytes: float) -> float:
        """Predicted seconds of the split step, from the measured one-device step."""
        return one / 2 + ALLREDUCES_PER_STEP * self.link.time(n_bytes)


def model_ms(one: float, comm: float = 0.0) -> float:
    """The model's split step in ms as a reader works it from the width table: t1/2 + the all-reduces, from
    ``one`` and ``comm`` (seconds) as printed (ms, 2 decimals), rounded half up to 2 decimals (``claims.half_up``):
    2.83 / 2 + 0.58 = 1.995 prints 2.00, never 1.99 from the unrounded seconds or a float's tie."""
    return claims.half_up(claims.as_printed(one, 2, 1e-3) / 2 + claims.as_printed(comm, 2, 1e-3), 2)


def half_per_call(one: float, digits: int, calls: int) -> float:
    """Half one device's time ``one`` (seconds) over a rank's ``calls`` all-reduces: the compute the model
    puts before each call. Worked from ``one`` as printed (ms to ``digits`` decimals) and rounded half up to
    0.1 ms, as printed (22.78 ms / 2 / 2 = 5.695 -> 5.7 ms); in seconds. Lesson 07 sets section 1's pass
    beside section 4's step on this one base."""
    return claims.half_up(claims.as_printed(one, digits, 1e-3) / 2 / calls, 1) * 1e-3


def analyse(got: dict) -> dict:
    """Fit alpha-beta, predict every width, judge each speed-up against its noise, and find the crossovers
    (measured: beyond the noise; predicted)."""
    model = Model(fit_alpha_beta(got["sizes"], got["seconds"]))
    rows = []
    for r in got["rows"]:
        # priced from alpha and beta as the page prints them (whole us, GB/s to 2 decimals) and kept as the
        # width table prints it (ms, half up), so 2 x (242 + 131,072 / 5,140) us = 0.54 ms checks by hand
        calls = ALLREDUCES_PER_STEP * call_as_printed(model.link, r["bytes"])
        comm = claims.half_up(calls * 1e3, 2) * 1e-3
        predicted = model_ms(r["one"], comm) * 1e-3   # model.predict's sum, from its terms as printed
        ratios = [a / b for a, b in zip(r["one_rounds"], r["two_rounds"])]   # one device / split, per round
        rows.append({**r, "predicted": predicted,
                     # one statistic for the speed-up and its noise: the paired rounds' median ratio, and half
                     # their middle half's range, as printed (claims.printed_spread); the times stay the fastest
                     "speedup": statistics.median(ratios), "spread": claims.printed_spread(ratios),
                     # the model's speed-up as the width table's two ms print it (1 device ms / model ms),
                     # rounded half up as a reader rounds: 0.94 / 0.80 = 1.175 is 1.18x (the float is 1.17499...)
                     "predicted_speedup": claims.half_up(claims.printed_ratio(r["one"], predicted, 2, 1e-3), 2),
                     "comm": comm})
    return {"model": model, "rows": rows, "peer_rows": got.get("peer_rows"), "load": got.get("load"),
            "cores": got.get("cores"), "corun": got.get("corun"),
            "measured_crossover": crossover(rows, "speedup", noise=True),
            "predicted_crossover": crossover(rows, "predicted_speedup"),
            # the model's crossover, and where it moves if every all-reduce is off by the fit's worst residual
            "model_crossover": tuple(model_crossover(rows, model.link, 1 + k * model.link.worst_residual)
                                     for k in (0, -1, 1))}


def crossover(rows: list[dict], key: str, noise: bool = False) -> int | None:
    """The smallest width from which on every larger one the speedup stays above 1 (None: never); with
    ``noise``, above 1 by more than the row's ``spread``, both read as printed (2 decimals), as the width
    table's verdicts (``claims.speedup_verdict``) read them: one verdict per width on the page."""
    def wins(q: dict) -> bool:
        spread = claims.as_printed(q["spread"], 2) if noise else 0.0
        return claims.as_printed(q[key], 2) - spread > 1

    for i, r in enumerate(rows):
        if all(wins(q) for q in rows[i:]):
            return r["width"]
    return None


def model_crossover(rows: list[dict], link: AlphaBeta, scale: float = 1.0) -> float | None:
    """The width where the model's speed-up, t1 / (t1/2 + 2(alpha + bytes/beta) x ``scale``) from each swept
    width's measured t1, crosses 1 for the last time, interpolated in log width between the two swept widths
    around it; the smallest width if the model already wins there, None if it never does. ``scale`` != 1:
    every all-reduce off by that factor (the fit's residual). Lesson 07."""
    speedups = [r["one"] / (r["one"] / 2 + ALLREDUCES_PER_STEP * link.time(r["bytes"]) * scale) for r in rows]
    if speedups[-1] <= 1:
        return None
    below = [i for i, v in enumerate(speedups) if v <= 1]
    if not below:
        return float(rows[0]["width"])
    i = below[-1]  # the last width where the model loses; it wins from i + 1 on
    (w0, s0), (w1, s1) = (rows[i]["width"], speedups[i]), (rows[i + 1]["width"], speedups[i + 1])
    return math.exp(math.log(w0) + (1 - s0) / (s1 - s0) * (math.log(w1) - math.log(w0)))


def miss(analysis: dict) -> dict:
    """Where the largest width's split step spent its time, against the model's two terms (lesson 07): per
    rank, compute (the step outside the all-reduces) against t1/2, the time inside the all-reduces against
    2(alpha + bytes/beta), and the CPU time its threads got; for the machine, the CPU other programs used
    over the same rounds (every core's time, less the two workers') and the hypervisor's steal; and the
    shard's work alone against both shards at once (``corun``). Where both ranks timed each call (gloo), one
    round is read on both (the one whose slower rank was fastest) and each rank's time inside the all-reduces
    is cut in two: the time between the ranks' arrivals, and the time after both arrived (``arrivals``)."""
    row, peer = analysis["rows"][-1], (analysis["peer_rows"] or [None])[-1]
    window = row["window"]
    ours = window["process_cpu"] + (peer["window"]["process_cpu"] if peer else 0.0)
    out = {"width": row["width"], "model_compute": row["one"] / 2, "model_comm": row["comm"],
           "model_step": row["predicted"], "one": row["one"], "load": analysis["load"],
           "cores": analysis["cores"], "threads": row["threads"], "corun": analysis["corun"],
           "others": max(window["machine_busy"] - ours, 0.0) / window["wall"],  # cores' worth, other programs
           "steal": window["steal"] / window["wall"], "ranks": [], "paired": False,
           "residual": analysis["model"].link.worst_residual,
           "waiting_core": (peer["waiting_round"]["process_cpu"] / peer["waiting_round"]["wall"]
                            if peer and peer["waiting_round"] else None)}
    rounds = [row["split_round"]] + ([peer["split_round"]] if peer else [])
    paired = _paired_rounds(row, peer)
    if paired:
        rounds, out["paired"] = paired, True
    for split, other in zip(rounds, reversed(rounds)):
        inside = split["allreduce"]
        rank = {"step": split["wall"], "allreduce": inside,
                "compute": split["wall"] - inside if inside is not None else None,
                "thread_cpu": split["thread_cpu"],
                "other_threads_cpu": split["process_cpu"] - split["thread_cpu"]}
        if paired:
            rank.update(arrivals(split["calls"], other["calls"]))
        out["ranks"].append(rank)
    return out


def _paired_rounds(row: dict, peer: dict | None) -> list[dict] | None:
    """Both ranks' records of the same split round, the one whose slower rank was fastest; None where the
    calls were not timed (NCCL) or a rank is missing."""
    if not peer or not row.get("split_rounds") or not peer.get("split_rounds"):
        return None
    pairs = [(a, b) for a, b in zip(row["split_rounds"], peer["split_rounds"])
             if a.get("calls") and b.get("calls") and len(a["calls"]) == len(b["calls"])]
    if not pairs:
        return None
    return list(min(pairs, key=lambda ab: max(ab[0]["wall"], ab[1]["wall"])))


def arrivals(mine: list[tuple[float, float]], theirs: list[tuple[float, float]]) -> dict:
    """One rank's time inside its all-reduces, cut with the other rank's calls of the same round (the same
    clock): ``waited``, the time between its own arrival and the other's (0 when it came last; no byte moves
    then), and ``after_both``, from the later arrival to its own return. That second part is not the sum
    alone: it also holds any time this rank stayed inside after the other had returned (``after_other``, a
    part of ``after_both``), which no exchange between the two explains. Lesson 07."""
    waited = after_both = after_other = 0.0
    for (start, end), (their_start, their_end) in zip(mine, theirs):
        both = max(start, their_start)
        waited += both - start
        after_both += max(end - both, 0.0)
        after_other += max(end - max(both, their_end), 0.0)
    return {"waited": waited, "after_both": after_both, "after_other": after_other}


def miss_as_printed(m: dict) -> dict:
    """``miss``'s figures as printed (``report.miss_table``'s): the model's and each rank's seconds
    (``_seconds_as_printed``; each total the sum of its printed parts), the shard timed apart, and the fit's
    worst residual as its whole per cent. Printing it again gives the same figures."""
    corun = m.get("corun") or {}
    model = _seconds_as_printed(m, ("model_comm", "one"))
    model["model_compute"] = model_ms(m["one"]) * 1e-3   # t1/2 from t1 as printed
    model["model_step"] = model_ms(m["one"], m["model_comm"]) * 1e-3   # t1/2 + the all-reduces, as printed
    return m | {**model,
                "ranks": [rank_as_printed(r) for r in m["ranks"]],
                "corun": _seconds_as_printed(corun, ("alone", "together")) if corun else corun,
                "residual": claims.as_printed(m["residual"], 2)}


def printed_median(ratios: list[float]) -> float:
    """The median of paired rounds' ratios worked from the rounds as printed (2 decimals), half up: the figure
    a reader takes from the printed rounds (0.96x and 0.97x in the middle give 0.97x), as section 1 prints it
    and records it for lesson 09."""
    return claims.half_up(statistics.median([claims.as_printed(r, 2) for r in ratios]), 2)


def crossover_width(flops: float, beta: float, alpha: float, tokens: int, bytes_per_value: int) -> float:
    """The width above which split compute saves more than the all-reduces cost, from the model:
    48 N w^2 / (2 F) = 2 (alpha + N w b / beta), solved for w (N tokens, b bytes per value, F FLOP/s)."""
    a, b, c = 24 * tokens / flops, -2 * tokens * bytes_per_value / beta, -2 * alpha
    return (-b + (b * b - 4 * a * c) ** 0.5) / (2 * a)


def model_speedup(flops: float, beta: float, alpha: float, tokens: int, bytes_per_value: int,
                  width: int) -> float:
    """The model's speed-up of a split MLP step at ``width``: t1 / (t1/2 + 2 (alpha + N w b / beta)), with
    t1 = 48 N w^2 / F (the same terms as ``crossover_width``, where it equals 1)."""
    t1 = 48 * tokens * width ** 2 / flops
    return t1 / (t1 / 2 + 2 * (alpha + tokens * width * bytes_per_value / beta))
