"""Lesson 06, section 6: the same training on two ranks, as DDP (a full copy of everything on each rank) and as
FSDP2 (``torch.distributed.fsdp.fully_shard``: parameters, gradients and optimizer state sharded), with the
bytes each keeps per rank and the bytes each sends per step, measured in the workers.

    results = launch(train_sharded, S, "fsdp", nprocs=2)     # one dict per rank
    results[0]["state_bytes"], results[0]["sent"]            # params + grads + AdamW state; bytes per collective

The collectives are counted where they are called: DDP's gradient all-reduce through a communication hook,
FSDP2's all-gather and reduce-scatter by wrapping ``torch.distributed.all_gather_single`` and
``reduce_scatter_single``, the two functions FSDP2 calls (torch 2.13).
"""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass, field

import torch
import torch.distributed as dist
from torch.distributed.algorithms.ddp_comm_hooks.default_hooks import allreduce_hook
from torch.nn.parallel import DistributedDataParallel

from utils import models
from utils.launch import keep_until_exit, process_group
from utils.lessons.memory.plan import Settings

STRATEGIES = ("ddp", "fsdp")


def local(t: torch.Tensor) -> torch.Tensor:
    """The part of ``t`` this rank holds: a DTensor's local shard (FSDP2), else the tensor itself. Lesson 06."""
    return t.to_local() if hasattr(t, "to_local") else t


def state_bytes(model: torch.nn.Module, optimizer: torch.optim.Optimizer) -> dict[str, int]:
    """Bytes this rank holds of parameters, gradients and optimizer state, from the tensors' own sizes
    (a sharded tensor counts its local shard only). Lesson 06."""
    params = [local(p) for p in model.parameters()]
    grads = [local(p.grad) for p in model.parameters() if p.grad is not None]
    states = [local(v) for s in optimizer.state.values() for v in s.values() if torch.is_tensor(v) and v.dim()]
    size = lambda ts: sum(t.numel() * t.element_size() for t in ts)  # noqa: E731
    return {"parameters": size(params), "gradients": size(grads), "optimizer": size(states)}


def shard(model: models.GPT) -> models.GPT:
    """FSDP2: each block its own unit (gathered just before it runs, freed after), then the rest.
    Lesson 06."""
    try:
        from torch.distributed.fsdp import fully_shard
    except ImportError:  # torch before 2.6
        from torch.distributed._composable.fsdp import fully_shard

    for block in model.blocks:
        fully_shard(block)
    fully_shard(model)  # the embedding and the head: the root unit
    return model


# The functions FSDP2 calls for its collectives: torch 2.13's, and the older torch's (from 2.4) as a fallback.
GATHERS = ("all_gather_single", "all_gather_into_tensor")
SCATTERS = ("reduce_scatter_single", "reduce_scatter_tensor")


@dataclass
class Counts:
    """Per collective, over a run: bytes this rank handed to it, calls, and seconds spent inside them."""

    sent: dict[str, int] = field(default_factory=dict)
    calls: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)

    def add(self, label: str, nbytes: int, seconds: float = 0.0) -> None:
        self.sent[label] = self.sent.get(label, 0) + nbytes
        self.calls[label] = self.calls.get(label, 0) + 1
        self.seconds[label] = self.seconds.get(label, 0.0) + seconds

    def clear(self) -> None:
        self.sent.clear(), self.calls.clear(), self.seconds.clear()


@contextlib.contextmanager
def counted_collectives(counts: Counts, timed: bool = False):
    """Count the bytes this rank gives to FSDP2's all-gather and reduce-scatter while the block runs (each
    takes ``(output, input, ...)``; the input is what this rank contributes), and the calls. ``timed`` (CPU
    workers on gloo): also the seconds from each call to its end, waiting for it if it was started
    asynchronously; gloo's work runs on the same cores as the compute, so waiting hides no overlap. Lesson 06."""
    originals = {next(n for n in names if hasattr(dist, n)): None for names in (GATHERS, SCATTERS)}
    originals = {name: getattr(dist, name) for name in originals}  # the newest of each pair this torch has

    def counting(label, fn):
        def wrapper(*args, **kwargs):
            t = args[1] if len(args) > 1 else kwargs.get("input", kwargs.get("input_tensor"))
            start = time.perf_counter()
            work = fn(*args, **kwargs)
            if timed and work is not None:
                work.wait()
            counts.add(label, t.numel() * t.element_size(), time.perf_counter() - start if timed else 0.0)
            return work
        return wrapper

    for name, fn in originals.items():
        setattr(dist, name, counting("all-gather" if name in GATHERS else "reduce-scatter", fn))
    try:
        yield counts
    finally:
        for name, fn in originals.items():
            setattr(dist, name, fn)


def counting_allreduce(counts: Counts, timed: bool = False):
    """A DDP communication hook: torch's own all-reduce, counting each bucket's bytes, and with ``timed`` the
    seconds from its start to its end. Lesson 06."""
    def hook(state, bucket):  # no annotations: DDP checks a hook's signature
        buffer = bucket.buffer()
        start = time.perf_counter()
        future = allreduce_hook(state, bucket)
        if timed:
            future.wait()
        counts.add("all-reduce", buffer.numel() * buffer.element_size(),
                   time.perf_counter() - start if timed else 0.0)
        return future
    return hook


def rank_batches(s: Settings, rank: int, world: int, device) -> list[tuple[torch.Tensor, torch.Tensor]]:
    """This rank's share of each step's batch: the same global batches whatever the strategy. Lesson 06."""
    g = torch.Generator().manual_seed(0)
    shape = s.shard_shape
    batches = []
    for _ in range(s.steps):
        x = torch.randint(0, shape.vocab, (world * s.shard_batch, shape.context + 1), generator=g)
        mine = x[rank * s.shard_batch:(rank + 1) * s.shard_batch]
        batches.append((mine[:, :-1].to(device), mine[:, 1:].to(device)))
    return batches


def train_sharded(s: Settings, strategy: str) -> dict:
    """In each rank of ``launch``: ``s.steps`` AdamW steps of the small GPT as ``strategy`` ("ddp" or "fsdp");
    returns this rank's losses, state bytes after the last step, and per step from the second on: bytes sent
    and calls by collective, seconds inside them (CPU workers), the step time. Lesson 06."""
    if s.shard_on_cpu:
        os.environ["TWOGPU_DEVICE"] = "cpu"  # one GPU: the two workers run on the CPU (see plan.py)
    with process_group("gloo" if s.shard_on_cpu else None) as device:
        rank, world = dist.get_rank(), dist.get_world_size()
        model = models.small_gpt(**s.shard_shape.gpt_kwargs(), seed=0).to(device)
        counts, timed = Counts(), device.type == "cpu"
        if strategy == "fsdp":
            net = shard(model)
        else:
            ids = [device.index] if device.type == "cuda" else None
            net = keep_until_exit(DistributedDataParallel(model, device_ids=ids))
            net.register_comm_hook(None, counting_allreduce(counts, timed))
        optimizer = torch.optim.AdamW(net.parameters(), lr=s.lr)
        losses, times = [], []
        with counted_collectives(counts, timed):
            for i, (x, y) in enumerate(rank_batches(s, rank, world, device)):
                if i == 1:  # the first step sets up (FSDP2's lazy init, DDP's buckets): not counted
                    counts.clear(), times.clear()
                start = time.perf_counter()
                loss = models.cross_entropy(net(x), y)
                loss.backward()
                optimizer.step()
                if device.type == "cuda":
                    torch.cuda.synchronize(device)
                times.append(time.perf_counter() - start)
                held = state_bytes(net, optimizer)  # gradients still held: measured before they are freed
                optimizer.zero_grad(set_to_none=True)
                losses.append(loss.item())
        dist.barrier()
    per_step = lambda d: {k: v / len(times) for k, v in d.items()}  # noqa: E731
    return {"rank": rank, "strategy": strategy, "losses": losses, "state": held,
            "state_bytes": sum(held.values()), "sent_per_step": per_step(counts.sent),
            "calls_per_step": per_step(counts.calls),
            "collective_seconds_per_step": per_step(counts.seconds) if timed else None,
            "step_seconds": sorted(times)[len(times) // 2], "mean_step_seconds": sum(times) / len(times),
            "step_range": (min(times), max(times))}   # the fastest and slowest step: a ratio's range


def expected_inputs(shape, strategy: str, n: int = 2, bytes_per_value: int = 4) -> dict[str, float]:
    """Bytes each rank hands to each collective per step, by formula. DDP all-reduces every gradient once.
    FSDP2 all-gathers each block's shards twice (before its forward and again before its backward: it frees
    the gathered weights after the forward) and the root unit (embedding and head) once, then reduce-scatters
    every gradient. Lesson 06."""
    total = shape.parameters() * bytes_per_value
    blocks = shape.depth * shape.block_parameters() * bytes_per_value
    if strategy == "ddp":
        return {"all-reduce": total}
    return {"all-gather": (2 * blocks + (total - blocks)) / n, "reduce-scatter": total}


def wire_bytes(collective: str, input_bytes: float, n: int = 2) -> float:
    """Bytes one rank sends in a ring for a collective given ``input_bytes``: an all-reduce sends 2(n-1)/n of
    its buffer, a reduce-scatter (n-1)/n of it, an all-gather its shard to each of the n-1 others. Lesson 06."""
    factor = {"all-reduce": 2 * (n - 1) / n, "reduce-scatter": (n - 1) / n, "all-gather": n - 1}[collective]
    return factor * input_bytes
