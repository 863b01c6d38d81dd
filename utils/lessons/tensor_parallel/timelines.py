"""The article's split against tensor parallelism, on a timeline (lesson 07, section 1).

The first article puts attention on one GPU and the feed-forward network on the other, and runs them one
after the other: ``article_worker`` does exactly that for a stack of GPT blocks (rank 0 runs every block's
attention, rank 1 every block's FFN, the activations go back and forth with send/recv). ``parallel_worker``
runs the same blocks tensor-parallel (``TensorParallelBlock``, lab 07's reference): both ranks work on every
sub-layer, and the all-reduces are recorded as spans of their own. Each worker first times its passes against
the whole stack on rank 0 alone, in alternating rounds (``round_times``: the lesson reads their paired
ratios), then records ``rounds`` passes back to back for the timeline, after one pass that is not recorded:
the two ranks leave a barrier at different moments, and the first all-reduce after it would show that wait,
not the all-reduce. Forward passes only, as in inference.
"""

from __future__ import annotations

import dataclasses
import time

import torch
import torch.distributed as dist

from utils import models
from utils.launch import current_backend, process_group
from utils.lessons.tensor_parallel.cost import arrivals, counter_grain, machine_cpu, printed_median
from utils.lessons.tensor_parallel.attention_reference import TensorParallelBlock
from utils.timeline import Span, SpanRecorder


@dataclasses.dataclass(frozen=True)
class Blocks:
    """A stack of ``depth`` GPT blocks and the batch each forward pass reads; ``rounds`` passes are drawn,
    ``timed`` paired rounds are timed."""

    width: int = 256
    heads: int = 4
    depth: int = 2
    batch: int = 8
    context: int = 64
    rounds: int = 3  # passes drawn
    timed: int = 10  # paired rounds timed (the fastest counts)
    threads: int | None = None
    seed: int = 0

    def build(self, device) -> torch.nn.ModuleList:
        config = models.GPTConfig(vocab_size=1, context=self.context, width=self.width, depth=self.depth,
                                  heads=self.heads)
        with models.seeded(self.seed):
            return torch.nn.ModuleList(models.Block(config) for _ in range(self.depth)).to(device)

    def batch_input(self, device) -> torch.Tensor:
        g = torch.Generator().manual_seed(self.seed + 1)
        return torch.randn(self.batch, self.context, self.width, generator=g).to(device)


def _send(t: torch.Tensor, peer: int) -> None:
    # gloo sends CPU tensors only (two ranks sharing one GPU use gloo): copy through the host there
    dist.send(t.cpu() if current_backend() == "gloo" else t, peer)


def _recv(like: torch.Tensor, peer: int) -> torch.Tensor:
    buf = torch.empty_like(like, device="cpu") if current_backend() == "gloo" else torch.empty_like(like)
    dist.recv(buf, peer)
    return buf.to(like.device)


def _sync(device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def _timed(fn, device) -> float:
    _sync(device)
    start = time.perf_counter()
    fn()
    _sync(device)
    return time.perf_counter() - start


def _stack(blocks, x) -> torch.Tensor:
    for block in blocks:
        x = block(x)
    return x


def round_times(full, x, split_pass, rounds: int, rank: int, device) -> tuple[list[float], list[float]]:
    """Seconds of each round's pass of the whole stack on rank 0 alone (rank 1 waits; [] on rank 1) and of
    ``split_pass(k)`` on both ranks, alternating, so that both meet the same machine (after a warm-up)."""
    alone, split = [], []
    for k in range(-1, rounds):  # -1: warm-up, neither timed nor drawn
        dist.barrier()
        if rank == 0:
            alone.append(_timed(lambda: _stack(full, x), device))
        dist.barrier()
        split.append(_timed(lambda: split_pass(k), device))
    return alone[1:], split[1:]


def article_pass(blocks, x, rank: int, rec: SpanRecorder, k: int) -> None:
    """The article's split: attention on rank 0, FFN on rank 1, one after the other, block after block."""
    h = x
    for b, block in enumerate(blocks):  # spans carry their block: the chart labels "b0 attn", "b0 ffn"
        if rank == 0:
            with rec.span("attention", k, block=b):
                h = h + block.attn(h)
            _send(h, 1)
            h = _recv(h, 1)
        else:
            h = _recv(h, 0)
            with rec.span("ffn", k, block=b):
                h = h + block.ffn(h)
            _send(h, 0)


def article_worker(b: Blocks) -> dict:
    """Times the article's split against rank 0 alone (paired rounds), then records ``rounds`` passes."""
    if b.threads:
        torch.set_num_threads(b.threads)
    with process_group() as device, torch.no_grad():
        rank = dist.get_rank()
        blocks, x = b.build(device), b.batch_input(device)  # each rank uses only its half of every block
        untimed = SpanRecorder("not drawn")
        alone_rounds, split_rounds = round_times(blocks, x, lambda k: article_pass(blocks, x, rank, untimed, k),
                                                 b.timed, rank, device)
        alone, split = (min(alone_rounds) if rank == 0 else None), min(split_rounds)
        rec = SpanRecorder(f"rank {rank} ({device})", device=str(device))
        dist.barrier()
        article_pass(blocks, x, rank, untimed, -1)  # not drawn: the ranks left the barrier at different times
        for k in range(b.rounds):  # drawn: back to back, as a served model would run them
            article_pass(blocks, x, rank, rec, k)
        return {"alone": alone, "split": split, "spans": [s.to_dict() for s in rec.spans()],
                "alone_rounds": alone_rounds, "split_rounds": split_rounds}  # seconds, each timed round


def parallel_worker(b: Blocks) -> dict:
    """The same for the stack tensor-parallel: every sub-layer on both ranks, all-reduces drawn as spans."""
    if b.threads:
        torch.set_num_threads(b.threads)
    with process_group() as device, torch.no_grad():
        rank, world = dist.get_rank(), dist.get_world_size()
        full, x = b.build(device), b.batch_input(device)  # rank 0 keeps it for the one-device reference
        blocks = [TensorParallelBlock(block, rank, world) for block in full]
        untimed = SpanRecorder("not drawn")
        alone_rounds, split_rounds = round_times(full if rank == 0 else [], x,
                                                 lambda k: parallel_pass(blocks, x, untimed, k), b.timed, rank,
                                                 device)
        alone, split = (min(alone_rounds) if rank == 0 else None), min(split_rounds)
        rec = SpanRecorder(f"rank {rank} ({device})", device=str(device))
        plain = dist.all_reduce

        def recorded(t, *args, **kwargs):  # dist.all_reduce as layers.py calls it, recorded as a span
            with rec.span("all-reduce"):
                return plain(t, *args, **kwargs)
        dist.barrier()
        parallel_pass(blocks, x, untimed, -1)  # not drawn: its first all-reduce waits for the later rank
        dist.all_reduce = recorded
        start, (busy, _) = time.perf_counter(), machine_cpu()
        mine = time.process_time()
        try:
            for k in range(b.rounds):
                parallel_pass(blocks, x, rec, k)
        finally:
            dist.all_reduce = plain
        wall = time.perf_counter() - start
        window = {"wall": wall, "machine_busy": machine_cpu()[0] - busy,
                  "process_cpu": time.process_time() - mine}
        every = [None] * world
        dist.all_gather_object(every, window)  # both workers' CPU over the drawn passes
        others = max(every[0]["machine_busy"] - sum(w["process_cpu"] for w in every), 0.0) / wall
        return {"alone": alone, "split": split, "spans": [s.to_dict() for s in carve(rec.spans())],
                "alone_rounds": alone_rounds, "split_rounds": split_rounds,  # seconds, each timed round
                "others": others,  # cores' worth of CPU other programs used while the passes were drawn
                "counter": counter_grain(wall)}  # how finely that window's counters read it


def _call_rows(spans: list[Span]) -> dict[str, list[tuple[float, float]]] | None:
    """Each row's all-reduce calls (start, end) in order; None unless two rows hold the same number."""
    rows: dict[str, list[tuple[float, float]]] = {}
    for s in sorted(spans, key=lambda s: s.start):
        if s.name == "all-reduce":
            rows.setdefault(s.device, []).append((s.start, s.end))
    return rows if len(rows) == 2 and len({len(calls) for calls in rows.values()}) == 1 else None


def allreduce_parts(spans: list[Span]) -> dict | None:
    """The drawn pass's all-reduces on both ranks cut in two, as section 4 cuts a step's (``cost.arrivals``,
    one clock for both): per rank, the seconds ``waited`` between its arrival and the other's (no byte moves
    then), ``after_both`` from the later arrival to its return, and of that ``after_other``, after the other
    rank had returned; ``both_inside``, every call's time with both ranks inside (from the later arrival to
    the earlier return: the exchange itself), sorted. None where the two rows do not hold the same number
    of calls."""
    rows = _call_rows(spans)
    if rows is None:
        return None
    (a, mine), (b, theirs) = sorted(rows.items())
    parts = {a: arrivals(mine, theirs), b: arrivals(theirs, mine)}
    together = [min(end, their_end) - max(start, their_start)   # both inside: one figure a call
                for (start, end), (their_start, their_end) in zip(mine, theirs)]
    return {"ranks": parts, "both_inside": sorted(max(t, 0.0) for t in together)}


def late_return_at_end(spans: list[Span]) -> float:
    """Seconds the row that ends the drawn pass last stayed inside the pass's last all-reduce after the other
    row's had returned (``cost.arrivals``' ``after_other`` of that one call): the part of its later end that
    is a late return, the rest being its last sub-layer. 0 where the two rows do not hold the same calls."""
    rows = _call_rows(spans)
    last = max(spans, key=lambda s: s.end).device if spans else None   # the row whose last span ends last
    if rows is None or last not in rows:
        return 0.0
    mine, theirs = rows.pop(last), next(iter(rows.values()))
    return arrivals(mine[-1:], theirs[-1:])["after_other"]


def carve(spans: list[Span]) -> list[Span]:
    """Sub-layer spans with the all-reduces inside them cut out, so that no two spans of a row overlap:
    compute before the all-reduce, the all-reduce, the bias and residual additions after it."""
    reduces = [s for s in spans if s.name == "all-reduce"]
    out = list(reduces)
    for s in (s for s in spans if s.name != "all-reduce"):
        start = s.start
        for r in sorted((r for r in reduces if s.start <= r.start and r.end <= s.end), key=lambda r: r.start):
            out.append(dataclasses.replace(s, start=start, end=r.start))
            start = r.end
        out.append(dataclasses.replace(s, start=start, end=s.end))
    return sorted((s for s in out if s.end > s.start), key=lambda s: s.start)


def parallel_pass(blocks, x, rec: SpanRecorder, k: int) -> None:
    h = x
    for b, block in enumerate(blocks):
        with rec.span("attention", k, block=b):
            h = h + block.attn(h)
        with rec.span("ffn", k, block=b):
            h = h + block.ffn(h)


def record_speedup(alone_rounds: list[float], split_rounds: list[float], bound: float, blocks: Blocks,
                   article: bool = False) -> None:
    """A section 1 split in the ledger: the median of the paired rounds' ratios (one device's time over the
    split's: the figure the section prints), its bound and every round's ratio, so that lesson 09 reads it
    with the spread printed here. Tensor parallel as ``tensor_parallel_speedup`` (row A21, the plan's bound);
    ``article``: the article's split as ``article_split_speedup`` (rows A11 and A19, which set it beside
    their own rounds of the same worker; its bound 1x: the halves take turns). Returns nothing."""
    from utils import ledger

    ratios = [a / s for a, s in zip(alone_rounds, split_rounds)]
    name, how = (("article_split_speedup", "split the article's way (attention on one worker, FFN on the other)")
                 if article else ("tensor_parallel_speedup",
                                  f"batch {blocks.batch} x {blocks.context} tokens, tensor parallel"))
    ledger.record(name, printed_median(ratios), "x", bound=bound, lesson="07",
                  what=f"a forward pass of {blocks.depth} GPT blocks of width {blocks.width}, {how}: the median "
                       f"of {len(ratios)} paired rounds",
                  rounds=ratios)


def pass_bounds(spans: list[Span]) -> list[tuple[float, float]]:
    """Each recorded pass's (start, end), k = 0, 1, ...: its first span's start to its last span's end over
    ``spans`` (give rank 0's alone to time a pass as ``round_times`` does: the sub-layer spans enclose the
    all-reduces, so the last return is in, and the other rank's late return is not)."""
    passes = sorted({s.index for s in spans if s.index is not None})
    return [(min(s.start for s in spans if s.index == k), max(s.end for s in spans if s.index == k))
            for k in passes]


def pass_spans(spans: list[Span], k: int) -> list[Span]:
    """Pass ``k``'s spans on every row: its sub-layer pieces (index k) and the all-reduces between them on
    the same row (``carve`` cut those out, and they carry no index), a rank's late return included."""
    mine = [s for s in spans if s.index == k]
    rows = {d: pass_bounds([s for s in mine if s.device == d])[0] for d in {s.device for s in mine}}
    inside = [s for s in spans if s.index is None and s.device in rows
              and rows[s.device][0] <= s.start and s.end <= rows[s.device][1]]
    return sorted(mine + inside, key=lambda s: s.start)
