"""Beyond GPipe and 1F1B: schedules with two stages per worker, each against its own bubble formula (lesson 02).

Lesson 02 (``notebooks/02_model_split.ipynb``, section 9). With p workers, v stages ("chunks") per worker
and m micro-batches, the best speedup over one device of each schedule torch ships is its bubble formula:

    GPipe, 1F1B                    p·m / (m + p − 1)                    (bubble (p − 1) / (m + p − 1))
    ScheduleInterleaved1F1B        p·v·m / (v·m + p − 1)                the fill and drain are v times shorter
    ScheduleInterleavedZeroBubble  p·3vm / (3vm + p − 1)                backward split into B (input grads)
                                                                        and W (weight grads), W fills the
                                                                        bubble: ZB-H1's (p − 1)(F + B − W),
                                                                        v times shorter, with F = B = W
    ScheduleZBVZeroBubble          p                                    zero bubble when F = B = W, m >= 2p

The zero-bubble formulas assume forward, input-gradient and weight-gradient passes of equal time (what
torch's documentation states for ZBV); ``fbw_times`` measures them from the recorded spans.

    rows, run = measure_multi(task, batch=64, m=4, rounds=5)     # one launch, one device interleaved
    report.plot_schedule(run.spans(rows[0].key))
"""

from __future__ import annotations

import statistics
from typing import Sequence

import torch
import torch.distributed as dist
from torch.distributed.pipelining import (ScheduleInterleaved1F1B, ScheduleInterleavedZeroBubble,
                                          ScheduleZBVZeroBubble)

from utils import launch, precision, timeline
from utils.lessons.model_split.balance import balanced_split
from utils.lessons.model_split.bounds import pipeline_bound
from utils.lessons.model_split.host import ledger_fields
from utils.lessons.model_split.ideal import achievable
from utils.lessons.model_split.instrument import RecordedStage
from utils.lessons.model_split.runs import (Config, PipelineRun, Row, _config_runner, baseline_runner, idle_by_round,
                                           loss_values, pin_cpu_worker, time_rounds)
from utils.lessons.model_split.schedules import stage_device
from utils.lessons.model_split.split import split_sequential
from utils.lessons.model_split.tasks import Task

MULTI = {"interleaved 1F1B": ScheduleInterleaved1F1B, "interleaved ZB": ScheduleInterleavedZeroBubble,
         "ZBV": ScheduleZBVZeroBubble}
CHUNKS = 2  # stages per worker (ZBV requires exactly two)


def stage_ranks(name: str, p: int = 2, v: int = CHUNKS) -> list[int]:
    """Which worker holds each of the p·v stages: round robin (0, 1, 0, 1) for the interleaved schedules,
    a V (0, 1, 1, 0) for ZBV, so that the last stage sits beside the first."""
    if name == "ZBV":
        return list(range(p)) + list(range(p - 1, -1, -1))
    return [k % p for k in range(p * v)]


def schedule_bound(name: str, m: int, p: int = 2, v: int = CHUNKS) -> float:
    """The schedule's best speedup over one device: its bubble formula (module doc)."""
    if name == "interleaved 1F1B":
        return p * v * m / (v * m + p - 1)
    if name == "interleaved ZB":
        return p * 3 * v * m / (3 * v * m + p - 1)
    if name == "ZBV":
        return float(p)
    return pipeline_bound(m, p)


def formula(name: str) -> str:
    """The bound's formula in words, for tables."""
    return {"interleaved 1F1B": "p·v·m/(v·m+p−1)", "interleaved ZB": "p·3vm/(3vm+p−1), F=B=W",
            "ZBV": "p (zero bubble), F=B=W"}.get(name, "p·m/(m+p−1)")


def _runner(task: Task, model, rank: int, device, name: str, m: int, points, x, y, sent: dict, key: str,
            losses: dict):
    modules = split_sequential(model, points)
    ranks = stage_ranks(name, dist.get_world_size())
    mine = [RecordedStage(mod, k, len(modules), device) for k, mod in enumerate(modules) if ranks[k] == rank]
    for chunk, stage in enumerate(mine):  # the chart tells a worker's two stages apart: "F3c0", "F3c1"
        stage.chunk = chunk
    sched = MULTI[name](mine, n_microbatches=m, loss_fn=task.loss_fn)
    args = (x,) if any(s.is_first for s in mine) else ()
    kwargs = {"target": y, "return_outputs": False} if any(s.is_last for s in mine) else {}

    def run(recorder):
        model.zero_grad(set_to_none=True)
        for s in mine:
            s.recorder, s.bytes_sent, s.messages = recorder, 0, 0
        if kwargs:  # the last stage's worker: it keeps the micro-batches' losses (read after the rounds)
            kwargs["losses"] = losses[key] = []
        sched.step(*args, **kwargs)
        sent[key] = (sum(s.bytes_sent for s in mine), sum(s.messages for s in mine))
    return run


def multi_worker(task: Task, points: Sequence[int], batch: int, m: int, names: Sequence[str], rounds: int,
                 seed: int, plain: Config | None = None) -> dict:
    """Worker (run by ``launch``): one device (rank 0, whole model), each schedule of ``names`` on the stages
    cut at ``points`` and, where given, ``plain`` (plain 1F1B, one stage per worker), interleaved round by round
    (``runs.time_rounds``)."""
    pin_cpu_worker()  # before the process group: gloo's threads inherit the core
    with launch.process_group():
        device, rank = stage_device(), dist.get_rank()
        regime = precision.fp32_matmuls(device)  # TF32 on Ampere+ GPUs, as in practice (checks stay IEEE fp32)
        model = task.build().to(device)
        x, y = (t.to(device) for t in task.make_batch(batch, seed))
        sent, losses = {}, {}
        runners = {"one device": baseline_runner(task, model, rank, x, y, losses)}
        if plain is not None:  # in the same rounds: the schedules are read beside it with no launch between
            runners[plain.key] = _config_runner(task, model, rank, device, plain, None, x, y, sent, losses)
        for name in names:
            runners[name] = _runner(task, model, rank, device, name, m, list(points), x, y, sent, name, losses)
        out = time_rounds(runners, rounds, True, device, f"worker {rank}")
        return {**out, "sent": sent, "threads": torch.get_num_threads(), "device": str(device),
                "losses": loss_values(losses), "regime": regime}


def _row(raw: list[dict], key: str, schedule: str, batch: int, m: int, points, bound: float | None) -> Row:
    """The row of runner ``key``: its medians beside one device's of the same rounds, paired round by round."""
    med = statistics.median
    one, t = raw[0]["times"]["one device"], raw[0]["times"][key]
    sent = [w["sent"].get(key, (0, 0)) for w in raw]
    return Row(batch, m, schedule, med(t), med(one), [med(w["busy"][key]) for w in raw],
               split_points=tuple(points), spread=(max(t) - min(t)) / med(t),
               cpu=[med(w["cpu"][key]) for w in raw], baseline_cpu=med(raw[0]["cpu"]["one device"]),
               speedups=[a / b for a, b in zip(one, t)], cpu_workers=raw[0]["device"].startswith("cpu"),
               baseline_busy=med(raw[0]["busy"]["one device"]), bound_override=bound,
               bytes_sent=sum(b for b, _ in sent), messages=sum(n for _, n in sent),
               idle_rounds=idle_by_round(raw, key, t))


def measure_multi(task: Task, costs: Sequence[float], batch: int, m: int, names: Sequence[str] = tuple(MULTI),
                  rounds: int = 5, seed: int = 0, timeout: float = 300, plain: bool = True) -> PipelineRun:
    """Each schedule of ``names`` on two workers, two stages each (split where ``costs`` balance four
    stages), against one device timed in the same launch, round by round; each row carries its bound at this
    m: what the schedule's ideal chart reaches (``ideal.achievable``; for ZBV short of p, its limit as m grows).
    With ``plain``, plain 1F1B at the same batch and m (split where ``costs`` balance two stages) runs in the
    same rounds, as the run's ``plain`` row: a speedup moves between launches by more than one launch's ± shows
    (section 7), so the schedules are compared with plain 1F1B inside one launch, not with section 5's."""
    points = balanced_split(costs, 2 * CHUNKS)
    config = Config(batch, m, "1f1b", tuple(balanced_split(costs, 2))) if plain else None
    raw = launch.launch(multi_worker, task, points, batch, m, list(names), rounds, seed, config, nprocs=2,
                        timeout=timeout)
    rows = [_row(raw, name, name, batch, m, points, achievable(name, m)) for name in names]
    plain_row = _row(raw, config.key, "1f1b", batch, m, config.split_points, None) if config else None
    return PipelineRun(rows, raw, tuple(points), raw[0]["threads"], raw[0]["device"].startswith("cpu"),
                       plain=plain_row)


def fbw_times(spans: Sequence[timeline.Span]) -> dict[str, float]:
    """Median seconds of each kind of pass on the chart: forward (F), backward (B: the whole backward, or
    only the input gradients where a zero-bubble schedule splits it) and weight (W)."""
    out = {}
    for name in ("forward", "backward", "weight"):
        d = [s.duration for s in spans if s.name == name]
        if d:
            out[name] = statistics.median(d)
    return out


LEDGER_NAMES = {"interleaved 1F1B": "pipeline_interleaved_1f1b_speedup", "interleaved ZB": "pipeline_zb_speedup",
                "ZBV": "pipeline_zbv_speedup"}  # the names lesson 09 reads


def record_ledger(rows: Sequence[Row], load: float | None = None, cores: int | None = None) -> None:
    """Record each two-stages-per-worker schedule's speedup in the ledger (``LEDGER_NAMES``), beside its bound
    at this m and its work-scaled reference, with its paired rounds, so that lesson 09 judges it with the
    spread this lesson printed; with each worker's CPU/busy and the host's ``load`` on its ``cores`` where the
    workers are CPU processes (``host.ledger_fields``). Returns nothing (a cell ending with it prints nothing)."""
    from utils import ledger

    for r in rows:
        ledger.record(LEDGER_NAMES[r.schedule], r.speedup, "x", bound=r.bound, reference=r.work_bound,
                      lesson="02", rounds=r.speedups,
                      what=f"{r.schedule}, two stages per worker, batch {r.batch}, m={r.m}, against its bound "
                           "at this m (section 9)", **ledger_fields(r, load, cores))
