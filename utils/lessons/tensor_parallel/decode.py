"""Lesson 07, section 5: decoding with a KV cache, on one device and tensor-parallel over two.

With a cache, each new token runs one position through every block: its key and value are appended to the
cache, and its query attends over the cache. The work per token is then small matrix-vector products, and
its time is bounded by reading every weight once per token: ``weight bytes / memory bandwidth``. Tensor
parallelism halves the blocks' weight bytes on each device (each holds half of every large matrix), at the
price of two all-reduces per block per token.

    launch(decode_worker, S.generation, nprocs=2)[0]   # seconds per token, one device and TP; same tokens

A second floor: every operation of a token costs a fixed overhead before any byte is read (on a GPU, a kernel
launch, several microseconds; on a CPU, torch's dispatch). A small model decodes about ``ops_per_token``
operations a token, so eager decode can be *launch-bound*: ``ops x overhead`` above ``bytes / bandwidth``.
On a GPU, a CUDA graph replays the whole token's kernels with one launch (``static_greedy(graph=True)``: a
KV cache of fixed size, so that every token runs the same kernels on the same buffers).
"""

from __future__ import annotations

import time
from contextlib import contextmanager

import torch
from torch.utils._python_dispatch import TorchDispatchMode
import torch.distributed as dist
from torch import nn

from utils.claims import against_speedup, as_printed, half_up, percent, printed_ratio
from utils.launch import process_group
from utils.lessons.tensor_parallel.inference import Generation, _timed, printed_noise
from utils.lessons.tensor_parallel.attention_reference import TensorParallelBlock, cached_attention
from utils.lessons.tensor_parallel.decode_loss import SHORTER_SIDE
from utils.lessons.tensor_parallel.layers import AllReduceClock


def step(model, idx: torch.Tensor, start: int, cache: dict) -> torch.Tensor:
    """The logits of positions ``start ..`` of ``idx`` (the prompt, then one token at a time)."""
    positions = torch.arange(start, start + idx.shape[1], device=idx.device)
    h = model.embed.token(idx) + model.embed.position(positions)
    for i, block in enumerate(model.blocks):
        h = h + cached_attention(block.attn, h, cache, i)
        h = h + block.ffn(h)
    return model.head(h)


@contextmanager
def timing_all_reduces(calls: list | None):
    """While inside, each all-reduce of the tensor-parallel forward appends the seconds this rank spent in it
    to ``calls`` (``layers.AllReduceClock``); with ``calls=None``, nothing is recorded."""
    if calls is None:
        yield
        return
    AllReduceClock.calls = calls
    try:
        yield
    finally:
        AllReduceClock.calls = None   # recording stops with the block, even on an error


def cached_greedy(model, idx: torch.Tensor, new_tokens: int, all_reduces: list | None = None
                  ) -> tuple[torch.Tensor, float]:
    """Greedy generation with a KV cache; returns the tokens and the seconds of the decode (after the
    prompt's prefill) per new token. ``all_reduces`` (a list): each all-reduce of the timed tokens appends its
    seconds on this rank (the prefill's are left out, as its time is)."""
    def now() -> float:
        if idx.is_cuda:
            torch.cuda.synchronize(idx.device)
        return time.perf_counter()

    cache: dict = {}
    token = step(model, idx, 0, cache)[:, -1].argmax(-1, keepdim=True)
    out, start = [idx, token], now()
    with timing_all_reduces(all_reduces):
        for n in range(1, new_tokens):
            token = step(model, token, idx.shape[1] + n - 1, cache)[:, -1].argmax(-1, keepdim=True)
            out.append(token)
    return torch.cat(out, dim=1), (now() - start) / max(1, new_tokens - 1)


class _CountOps(TorchDispatchMode):
    """Counts the aten operations run inside it: about one kernel launch each on a GPU."""

    def __init__(self):
        super().__init__()
        self.count = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.count += 1
        return func(*args, **(kwargs or {}))


def ops_per_token(model, idx: torch.Tensor) -> int:
    """Operations one decoded token runs (one position through every block and the head, after the prompt),
    counted by torch's dispatcher. Lesson 07."""
    cache: dict = {}
    token = step(model, idx, 0, cache)[:, -1].argmax(-1, keepdim=True)
    with _CountOps() as counter:
        step(model, token, idx.shape[1], cache)[:, -1].argmax(-1, keepdim=True)
    return counter.count


def per_op_seconds(device, n: int = 2000) -> float:
    """Seconds one tiny operation costs on ``device`` before any work: a kernel launch on a GPU, torch's
    dispatch on a CPU (``n`` in-place adds of one number, timed together). Lesson 07."""
    x = torch.zeros(1, device=device)
    for _ in range(50):  # warm-up
        x.add_(1)
    if x.is_cuda:
        torch.cuda.synchronize(device)
    start = time.perf_counter()
    for _ in range(n):
        x.add_(1)
    if x.is_cuda:
        torch.cuda.synchronize(device)
    return (time.perf_counter() - start) / n


def static_step(model, token: torch.Tensor, pos: torch.Tensor, keys: list, values: list) -> torch.Tensor:
    """One token through a one-device GPT with a KV cache of fixed size: ``keys[i]``, ``values[i]`` (B, heads,
    context, D) hold block i's keys and values, ``pos`` (a 1-element tensor) is the token's position. The same
    kernels on the same buffers for every token: what a CUDA graph can capture. Returns the next token (B, 1).
    Lesson 07."""
    B = token.shape[0]
    h = model.embed.token(token) + model.embed.position(pos)  # (B, 1, C)
    visible = (torch.arange(keys[0].shape[2], device=token.device) <= pos).view(1, 1, 1, -1)  # 0..pos
    for i, block in enumerate(model.blocks):
        attn = block.attn
        q, k, v = attn.qkv(attn.norm(h)).chunk(3, dim=2)
        q, k, v = (t.view(B, 1, attn.heads, -1).transpose(1, 2) for t in (q, k, v))  # (B, heads, 1, D)
        keys[i].index_copy_(2, pos, k)
        values[i].index_copy_(2, pos, v)
        y = nn.functional.scaled_dot_product_attention(q, keys[i], values[i], attn_mask=visible)
        h = h + attn.proj(y.transpose(1, 2).reshape(B, 1, -1))
        h = h + block.ffn(h)
    return model.head(h)[:, -1].argmax(-1, keepdim=True)


def static_greedy(model, idx: torch.Tensor, new_tokens: int, graph: bool = False
                  ) -> tuple[torch.Tensor, float]:
    """Greedy generation with ``static_step`` after a cached prefill; with ``graph`` (a GPU) each token is one
    replay of a captured CUDA graph. Returns the tokens and the seconds per new token after the first, as
    ``cached_greedy``. Lesson 07."""
    cache: dict = {}
    first = step(model, idx, 0, cache)[:, -1].argmax(-1, keepdim=True)
    B, context = idx.shape[0], model.embed.context
    keys, values = [], []
    for i in range(len(model.blocks)):  # the prompt's keys and values, in buffers of the full context
        k, v = cache[i]
        keys.append(torch.zeros(*k.shape[:2], context, k.shape[3], device=k.device, dtype=k.dtype))
        values.append(torch.zeros_like(keys[-1]))
        keys[-1][:, :, :k.shape[2]] = k
        values[-1][:, :, :v.shape[2]] = v
    token, pos = first.clone(), torch.tensor([idx.shape[1]], device=idx.device)

    def one_token():  # the next token written into the same buffers; the position moves on
        token.copy_(static_step(model, token, pos, keys, values))
        pos.add_(1)

    run = one_token
    if graph:
        side = torch.cuda.Stream(idx.device)
        side.wait_stream(torch.cuda.current_stream(idx.device))
        saved = ([k.clone() for k in keys], [v.clone() for v in values], token.clone(), pos.clone())
        with torch.cuda.stream(side):  # warm-up on a side stream, as capture requires
            for _ in range(2):
                one_token()
        torch.cuda.current_stream(idx.device).wait_stream(side)
        captured = torch.cuda.CUDAGraph()
        with torch.cuda.graph(captured):
            one_token()
        for buf, old in zip(keys + values + [token, pos], saved[0] + saved[1] + [saved[2], saved[3]]):
            buf.copy_(old)  # undo the warm-up and the capture's own run
        run = captured.replay
    out = [idx, first]
    if idx.is_cuda:
        torch.cuda.synchronize(idx.device)
    start = time.perf_counter()
    for _ in range(1, new_tokens):
        run()
        out.append(token.clone())
    if idx.is_cuda:
        torch.cuda.synchronize(idx.device)
    return torch.cat(out, dim=1), (time.perf_counter() - start) / max(1, new_tokens - 1)


def weight_bytes(model: nn.Module) -> dict[str, int]:
    """Bytes of the blocks' weights and of the rest (embedding, head) this rank holds."""
    blocks = sum(p.numel() * p.element_size() for p in model.blocks.parameters())
    return {"blocks": blocks, "rest": sum(p.numel() * p.element_size() for p in model.parameters()) - blocks}


def gather_rounds(rounds: list[list[float]], device) -> torch.Tensor:
    """Every rank's seconds inside each all-reduce call of each timed round, on every rank (a tiny
    all_gather): (ranks, rounds, calls). Both ranks run the same calls, so the shapes agree."""
    mine = torch.tensor(rounds, dtype=torch.float64, device=device)
    every = [torch.empty_like(mine) for _ in range(dist.get_world_size())]
    dist.all_gather(every, mine)
    return torch.stack(every).cpu()


def all_reduces_of_round(every: torch.Tensor, fastest: int, tokens: int) -> dict:
    """Per token, in the round ``fastest``: the seconds each rank spent inside its all-reduces, each call's
    shorter side summed ("both inside": a call's time after the later rank arrived, the rest of the other
    rank's being its wait), and the calls a token."""
    calls = every[:, fastest]   # (ranks, calls)
    said = {f"rank {r}": calls[r].sum().item() / tokens for r in range(calls.shape[0])}
    return said | {"both inside": calls.min(0).values.sum().item() / tokens, "calls": calls.shape[1] / tokens}


def decode_worker(g: Generation, batch: int = 1) -> dict | None:
    """On each worker: decode ``g.new_tokens`` tokens of one prompt with a KV cache, on rank 0 alone and
    tensor-parallel on both, in alternating rounds; rank 0 returns the fastest seconds per token of each,
    the weight bytes each device reads per token, whether the tokens agree, and, for the fastest
    tensor-parallel round, the seconds each rank spent inside its all-reduces a token."""
    if g.threads:
        torch.set_num_threads(g.threads)
    with process_group() as device, torch.inference_mode():
        rank, world = dist.get_rank(), dist.get_world_size()
        one = g.gpt().to(device).eval()
        tp = g.gpt().to(device).eval()
        tp.blocks = nn.ModuleList(TensorParallelBlock(b, rank, world) for b in tp.blocks)
        idx = g.prompts(batch).to(device)
        times = {"one device": [], "tensor parallel": []}
        tokens, inside = {}, []   # inside: per timed round, this rank's seconds in each all-reduce call
        for r in range(g.rounds + 1):  # round 0: warm-up
            for name, model in (("one device", one), ("tensor parallel", tp)):
                dist.barrier()
                if name == "one device" and rank:
                    continue
                calls = [] if name == "tensor parallel" else None   # one device has no all-reduce
                _, (tokens[name], per_token) = _timed(lambda: cached_greedy(model, idx, g.new_tokens, calls),
                                                      device)
                if r:
                    times[name].append(per_token)
                    if calls is not None:
                        inside.append(calls)
        tp_ops = ops_per_token(tp, idx)  # on both ranks at once: its all-reduces need the other rank
        every = gather_rounds(inside, device)   # both ranks, before rank 1 leaves
        if rank:
            return None
        fastest = times["tensor parallel"].index(min(times["tensor parallel"]))   # the round reported
        in_all_reduces = all_reduces_of_round(every, fastest, max(1, g.new_tokens - 1))
        ops, per_op = ops_per_token(one, idx), per_op_seconds(device)
        graphed = same = None
        if device.type == "cuda":  # one device, a CUDA graph per token: the launches replayed at once
            graphed = min(_timed(lambda: static_greedy(one, idx, g.new_tokens, graph=True), device)[1][1]
                          for _ in range(g.rounds))
            same = torch.equal(static_greedy(one, idx, g.new_tokens, graph=True)[0], tokens["one device"])
        return {"seconds": {k: min(v) for k, v in times.items()},
                "spread": {k: (max(v) - min(v)) / min(v) for k, v in times.items()},
                "bytes": {"one device": weight_bytes(one), "tensor parallel": weight_bytes(tp)},
                "same_tokens": torch.equal(tokens["one device"], tokens["tensor parallel"].to(device)),
                "ops": ops, "tp_ops": tp_ops, "per_op": per_op, "graph": graphed,
                "graph_same_tokens": same, "all_reduces": in_all_reduces,
                "batch": batch, "new_tokens": g.new_tokens}


def memory_bandwidth(simulated: bool, hw, threads: int | None) -> tuple[float, str]:
    """Bytes a second one device reads its weights at, and what that figure is: on a GPU its datasheet
    memory bandwidth (a bound); in cpu mode the machine profile's STREAM on the workers' thread count (lesson
    00's, one value per ceiling on a machine; a reference: weights small enough to sit in a cache are read
    faster)."""
    from utils import gpu_specs, machine

    if not simulated and hw is not None and hw.gpus:
        spec = gpu_specs.spec_for(hw.gpus[0].name)
        if spec is not None:
            return spec.memory_bandwidth, f"{spec.name} memory bandwidth (datasheet bound)"
    count = threads or torch.get_num_threads()
    ceiling = machine.stored_profile("cpu", peaks={count: ("fp32",)}, bandwidth_threads=(count,)).bandwidth(count)
    return ceiling.best, f"{ceiling.name} (the machine profile's, lesson 00: a reference)"


def decode_bounds(result: dict, bandwidth: float) -> dict[str, float]:
    """Seconds per token below which neither can decode: the weight bytes each device reads per token over
    the memory bandwidth (tensor parallel: its half of the blocks, the embedding and head whole). Worked from
    the two as printed (MB and GB/s to 1 decimal: MB / GB/s = ms), so the floor checks by hand."""
    rate = max(as_printed(bandwidth, 1, 1e9), 0.1)   # GB/s; printed 0.0 divides as 0.1
    return {name: as_printed(sum(b.values()), 1, 1e6) / rate * 1e-3 for name, b in result["bytes"].items()}


def launch_floor(result: dict, ops: str = "ops") -> float:
    """Seconds per token that eager decode spends on its operations' fixed cost alone: operations a token x
    the cost of one tiny operation (a kernel launch on a GPU, dispatch on a CPU); ``ops="tp_ops"``: a tensor-
    parallel rank's operations, its all-reduces counted as one each. Lesson 07. The cost of one operation
    as printed (us, 1 decimal), so that "116 operations x 2.2 us" is the 0.26 ms printed beside it."""
    return result[ops] * as_printed(result["per_op"], 1, 1e-6) * 1e-6


def cache_against_uncached(cached: dict, uncached: dict, new_tokens: int) -> list[str]:
    """Each method's cached decode (``decode_worker``: seconds a token after the prefill) against its
    generation without a cache at the same batch (an ``inference_worker`` row: seconds for ``new_tokens``
    steps, each a pass over the whole sequence): the verdict from the run, and where the cache did not speed
    a method up, a candidate cause said as a hypothesis. Lesson 07."""
    said = []
    for name in ("one device", "tensor parallel"):
        with_cache, without = cached["seconds"][name], uncached[name] / new_tokens
        # > 1: the cache made a token faster; ms as printed, the ratio half up as a reader rounds it (4.12 / 1.60
        # = 2.575 -> 2.58x: ``against_speedup`` rounds a measured figure as Python prints it, 2.57)
        x = half_up(printed_ratio(without, with_cache, 2, 1e-3), 2)
        row = against_speedup(f"{name}, KV cache", x, None,
                              printed_noise(x, max(cached["spread"][name], uncached["spread"][name])),
                              slower="slower than without the cache")
        verdict = row.verdict.replace("the baseline", "without the cache")   # no bound: "faster than ..."
        said.append(f"{name}, {with_cache * 1e3:.2f} ms a token with the cache against {without * 1e3:.2f} "
                    f"ms without it: {row.measured} the uncached speed, {verdict}")
        if verdict.startswith("slower") or name == "tensor parallel" and verdict.startswith("within noise"):
            said[-1] += (_tp_cache_note(cached) if name == "tensor parallel" else
                         " (why is not measured here)")
    return said


def _tp_cache_note(cached: dict) -> str:
    """Why the cache did not shorten a tensor-parallel token, as far as this run measured it: the cached
    token's exchange inside its all-reduces with both ranks inside, at most their time with both inside (in
    ``decode_loss``'s words), timed in the decode loop (``"all_reduces"``), time that no saved compute shortens (rank 0's wait for rank 1, which holds rank 1's
    compute, is left out); the uncached generation's all-reduces were not timed, so the two are not compared
    part by part."""
    inside = cached.get("all_reduces")
    if not inside:
        return (" (not taken apart here: the cache saves compute, not a token's all-reduces or the ranks' "
                "waits for each other, and adds operations of its own; the two were timed in separate "
                "launches)")
    token = as_printed(cached["seconds"]["tensor parallel"], 2, 1e-3)
    both = as_printed(inside["both inside"], 2, 1e-3)   # ms as the decode cell's detail prints them
    return (f" (not taken apart here: with the cache, at most {both:.2f} ms of rank 0's {token:.2f} ms token "
            f"({percent(both / token)}) was its all-reduces' exchange with both ranks inside {SHORTER_SIDE}, "
            "timed in the decode loop, time no saved compute shortens; the generation without the cache, timed in a "
            "separate launch, did not time its all-reduces)")
