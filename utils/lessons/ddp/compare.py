"""Communication hooks compared fairly: one launch, one DDP model per hook, one step of each in turn (lesson 03,
section 5).

Timed in separate launches, two hooks would also differ by whatever else the machine did at the time. Here
every variant trains in the same processes on the same batches, and each optimizer step runs the variants
one after another, in an order that rotates from step to step; a barrier starts each timed step on all
ranks together. Each variant's samples/s is then a distribution over its timed steps (median and middle
half), and ``reading`` says in words what the numbers show, difference by difference.
"""

from __future__ import annotations

import statistics
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler

from utils import precision
from utils.bench import synchronize, threads
from utils.claims import signed_percent, as_printed, printed_ratio
from utils.launch import keep_until_exit, process_group
from utils.lessons.ddp.hooks import builtin_bytes_per_sync, register_hook
from utils.lessons.ddp.instrumentation import ByteCounter
from utils.lessons.ddp.recipe import build, micro_batches, train_step
from utils.lessons.ddp.settings import Settings, text_data

SAME = ("steps", "batch_per_worker", "accumulate", "context", "width", "depth", "heads", "seed", "warmup_steps",
        "precision")


class _Variant:
    """One hook's DDP model, optimizer and batches inside the shared process group."""

    def __init__(self, s: Settings, dataset, device):
        self.s, self.device = s, device
        model, self.optimizer, _ = build(s, dataset.corpus.vocab_size, device)
        self.ddp = keep_until_exit(DDP(model, device_ids=[device.index] if device.type == "cuda" else None,
                                       **s.ddp_options()))
        register_hook(self.ddp, s.hook, s.powersgd_rank, s.powersgd_start)
        sampler = DistributedSampler(dataset, shuffle=True, seed=s.seed, drop_last=True)  # the same batches
        self.batches = micro_batches(DataLoader(dataset, batch_size=s.batch_per_worker, sampler=sampler,
                                                drop_last=True), sampler)
        self.scaler = precision.grad_scaler(s.precision, device)  # fp16 only; a pass-through otherwise
        self.seconds, self.bytes, self.losses = [], [], []

    def step(self) -> None:
        dist.barrier()  # start together: otherwise one rank's wait for the other is timed
        synchronize(self.device)
        start = time.perf_counter()
        counter = ByteCounter()
        with counter.active():
            loss = train_step(self.ddp, self.optimizer, self.batches, self.s.accumulate, self.device,
                              self.s.precision, self.scaler)
        synchronize(self.device)
        self.seconds.append(time.perf_counter() - start)
        # No hook (DDP's built-in reduction): the counter sees nothing; DDP's buckets say what was sent.
        self.bytes.append(counter.bytes if self.s.hook != "none" else builtin_bytes_per_sync(self.ddp))
        self.losses.append(loss)  # a 0-d tensor: read once, at the end


def compare_hooks(variants: dict[str, Settings]) -> dict[str, dict]:
    """On every worker: train each variant (same sizes, different hooks), one step of each in turn.

    Returns, per variant name: ``samples_per_s`` (one value per timed step, all ranks together),
    ``bytes_per_step`` (what this rank all-reduced, the median of the last three steps) and ``final_loss``
    (averaged over the ranks).
    """
    first = next(iter(variants.values()))
    for name, s in variants.items():
        differ = [f for f in SAME if getattr(s, f) != getattr(first, f)]
        if differ:
            raise ValueError(f"variant {name!r} differs in {differ}: only the hook and its options may differ")
    with threads(first.threads), process_group() as planned_device:
        device = torch.device(first.device) if first.device else planned_device
        precision.use(first.precision)
        dataset = text_data(first)
        runs = {name: _Variant(s, dataset, device) for name, s in variants.items()}
        names = list(runs)
        for step in range(first.steps):
            k = step % len(names)
            for name in names[k:] + names[:k]:  # rotate: no variant always runs first
                runs[name].step()
        finals = torch.stack([run.losses[-1] for run in runs.values()]).double()
        dist.all_reduce(finals)
        finals = (finals / dist.get_world_size()).tolist()
        samples = dist.get_world_size() * first.batch_per_worker * first.accumulate
        return {name: {"samples_per_s": [samples / t for t in run.seconds[first.warmup_steps:]],
                       "bytes_per_step": statistics.median(run.bytes[-3:]), "final_loss": final}
                for (name, run), final in zip(runs.items(), finals)}


def spread(values: list[float]) -> tuple[float, float, float]:
    """(first quartile, median, third quartile): the middle half of the values lies between the outer two."""
    q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, median, q3


def reading(rows: dict[str, dict], reference: str) -> list[str]:
    """One sentence per variant: its median samples/s against ``reference``'s, and whether the middle halves
    of the two distributions overlap (then the difference is within this machine's step-to-step noise). Both
    are read from the samples/s as the table prints them (whole numbers), so a reader redoes them from it."""
    whole = lambda values: [as_printed(v, 0) for v in spread(values)]
    r_lo, r_med, r_hi = whole(rows[reference]["samples_per_s"])
    lines = []
    for name, row in rows.items():
        if name == reference:
            continue
        lo, med, hi = whole(row["samples_per_s"])
        change = printed_ratio(med, r_med, 0) - 1
        overlap = lo <= r_hi and r_lo <= hi
        verdict = ("within the step-to-step noise (the middle halves overlap)" if overlap else
                   ("faster, beyond the noise" if change > 0 else "slower, beyond the noise"))
        fewer = rows[reference]["bytes_per_step"] / row["bytes_per_step"]
        sent = "the same bytes" if fewer == 1 else f"{fewer:.1f}x fewer bytes"
        shift = f"{signed_percent(change)} samples/s"
        if shift.lstrip("+-").startswith("0%"):  # under half a percent either way: no sign to read
            shift = "0% samples/s (no change at this rounding)"
        lines.append(f"{name}: {shift} against {reference}, {verdict}; {sent}")
    return lines
