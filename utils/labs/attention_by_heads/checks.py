"""Checks for ``labs/07_attention_by_heads.ipynb``: the learner's attention block split by heads (lesson 07).

Lesson 07 splits the MLP block over two workers (column-parallel, then row-parallel, glued by ``f`` and ``g``).
The lab asks for the other half of a transformer block: ``utils.models.Attention`` split by heads. The learner
writes ``HeadParallelAttention(full, rank, world)``; the checks launch it on two workers, count the
collectives, and compare with one process running the full block:

- ``check_heads``: rank r holds only what its heads need: the query, key and value rows of heads
  r*H/n .. (r+1)*H/n of the fused ``qkv`` (a plain chunk of the fused weight takes the wrong rows), the
  matching input columns of ``proj``, and the output bias whole;
- ``check_forward``: both ranks' outputs equal the full block's (a bias added on every rank, no sum, a rank
  that splits its slice into every head, a softmax scaled by the full width: each named);
- ``check_backward``: the input gradient and every shard's gradient equal the full block's (no ``f``, or a
  ``g`` that all-reduces on the way back too: each named);
- ``check_communication``: one all-reduce forward and one backward, each of tokens x width values, and no
  all-gather.

One launch serves every check (its result is kept per class object).
"""

from __future__ import annotations

import torch
import torch.distributed as dist
from torch import nn

from utils import models
from utils.checks import expect, expect_close, run_check
from utils.launch import launch

SEED, WORLD = 0, 2
WIDTH, HEADS, BATCH, CONTEXT = 32, 4, 2, 8
LAUNCH_TIMEOUT_S = 120
ATOL = 1e-6  # float32 on the CPU: the split sums in another order, to about 1e-7
GATHERS = ("all_gather", "all_gather_into_tensor")
_LAUNCHES: dict[int, tuple] = {}  # id(attention class) -> (class, results or the exception)


def config(heads: int = HEADS) -> models.GPTConfig:
    return models.GPTConfig(vocab_size=16, context=CONTEXT, width=WIDTH, depth=1, heads=heads)


def full_attention(heads: int = HEADS) -> models.Attention:
    """The lab's attention block on one device, the same weights in every process (seeded)."""
    with models.seeded(SEED):
        return models.Attention(config(heads))


def inputs() -> tuple[torch.Tensor, torch.Tensor]:
    """The input and the gradient that flows back into the output (a mean loss over the tokens)."""
    g = torch.Generator().manual_seed(SEED + 1)
    x = torch.randn(BATCH, CONTEXT, WIDTH, generator=g)
    return x, torch.randn(BATCH, CONTEXT, WIDTH, generator=g) / (BATCH * CONTEXT)


def heads_rows(t: torch.Tensor, rank: int, world: int) -> torch.Tensor:
    """Rank ``rank``'s rows of a fused (3C, ...) qkv tensor: its heads' queries, keys and values."""
    return torch.cat([part.chunk(world, dim=0)[rank] for part in t.split(WIDTH, dim=0)])


def _counting(calls: dict):
    """Replace ``dist.all_reduce`` and the all-gathers by counting wrappers; returns a function that restores
    them."""
    plain = {name: getattr(dist, name) for name in ("all_reduce", *GATHERS)}

    def wrap(name):
        def counted(t, *args, **kwargs):
            calls.setdefault(name, []).append(t.numel() if isinstance(t, torch.Tensor) else 0)
            return plain[name](t, *args, **kwargs)
        return counted
    for name in plain:
        setattr(dist, name, wrap(name))
    return lambda: [setattr(dist, name, fn) for name, fn in plain.items()]


def _worker(attention_cls) -> dict:
    """On each rank: the learner's split attention, collectives counted forward and backward."""
    dist.init_process_group("gloo")
    try:
        rank, world = dist.get_rank(), dist.get_world_size()
        layer = attention_cls(full_attention(), rank, world)
        x, dy = inputs()
        x.requires_grad_(True)
        out = {"forward": {}, "backward": {}}
        try:  # a forward that raises still leaves the shards to judge (exercise A)
            for way in ("forward", "backward"):
                restore = _counting(out[way])
                try:
                    if way == "forward":
                        y = layer(x)
                        out["y"] = y.detach()
                    else:
                        y.backward(dy)
                finally:
                    restore()
        except Exception as exc:  # noqa: BLE001 - reported by the checks that need the run
            out["error"] = exc
        out["dx"] = x.grad
        out["params"] = {k: (p.detach().clone(), None if p.grad is None else p.grad.clone())
                         for k, p in layer.named_parameters()}
        return out
    finally:
        dist.destroy_process_group()


def reference(heads: int = HEADS, scale: float | None = None) -> dict:
    """One process, the full block: output, input gradient, every parameter and its gradient. ``heads`` and
    ``scale`` give the outputs of two classic mistakes (every head on each rank's slice; the softmax scaled
    by the full width)."""
    full = full_attention(heads)
    x, dy = inputs()
    x.requires_grad_(True)
    if scale is None:
        y = full(x)
    else:
        B, T, C = x.shape
        q, k, v = (t.view(B, T, heads, -1).transpose(1, 2) for t in full.qkv(full.norm(x)).split(C, dim=2))
        a = nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True, scale=scale)
        y = full.proj(a.transpose(1, 2).reshape(B, T, C))
    y.backward(dy)
    return {"y": y.detach(), "dx": x.grad,
            "params": {k: (p.detach(), p.grad) for k, p in full.named_parameters()}}


def launched(attention_cls) -> list[dict]:
    """The learner's layer on 2 workers, launched once per class object."""
    key = id(attention_cls)
    if key not in _LAUNCHES or _LAUNCHES[key][0] is not attention_cls:
        try:
            outcome = launch(_worker, attention_cls, nprocs=WORLD, backend="gloo", timeout=LAUNCH_TIMEOUT_S)
        except Exception as exc:  # kept, so that each check reports it (e.g. "not done yet")
            outcome = exc
        _LAUNCHES[key] = (attention_cls, outcome)
    outcome = _LAUNCHES[key][1]
    if isinstance(outcome, Exception):
        raise outcome
    return outcome


def ran(attention_cls) -> list[dict]:
    """``launched``, for the checks that need the forward and backward pass: a pass that raised raises here."""
    results = launched(attention_cls)
    for r in results:
        if "error" in r:
            raise r["error"]
    return results


def expected(ref: dict, rank: int, world: int, grad: bool = False) -> dict[str, torch.Tensor]:
    """What rank ``rank`` must hold (or its gradients): its heads' qkv rows, proj's matching columns, and
    proj's bias whole."""
    k = 1 if grad else 0
    p = {name: value[k] for name, value in ref["params"].items()}
    return {"qkv.weight": heads_rows(p["qkv.weight"], rank, world),
            "qkv.bias": heads_rows(p["qkv.bias"], rank, world),
            "proj.weight": p["proj.weight"].chunk(world, dim=1)[rank], "proj bias": p["proj.bias"]}


def _held(r: dict, grad: bool = False) -> dict[str, torch.Tensor]:
    """The learner's qkv and proj parameters by the names the spec fixes; the output bias is ``proj.bias``
    or any other parameter of shape (C,) outside the norm."""
    k = 1 if grad else 0
    params = {name: value[k] for name, value in r["params"].items()}
    held = {name: params.get(name) for name in ("qkv.weight", "qkv.bias", "proj.weight")}
    biases = [v for name, v in params.items() if name not in held and not name.startswith("norm")
              and r["params"][name][0].shape == (WIDTH,)]
    held["proj bias"] = biases[0] if biases else None
    return held


def check_heads(attention_cls):
    """Skill: rank r keeps only its heads' query, key and value rows, proj's matching columns, the bias once."""

    def body():
        ref = reference()
        q_rows = ref["params"]["qkv.weight"][0]
        for rank, r in enumerate(launched(attention_cls)):
            want, held = expected(ref, rank, WORLD), _held(r)
            for name in ("qkv.weight", "proj.weight"):
                expect(held[name] is not None, f"rank {rank} has no parameter {name}: keep the two linear "
                                               "layers as qkv and proj (the names the checks read)")
            qkv, proj = held["qkv.weight"], held["proj.weight"]
            expect(qkv.shape != q_rows.shape, f"rank {rank} holds the whole qkv weight {tuple(qkv.shape)}: "
                                              "every head's. A rank keeps only its own heads' rows")
            if qkv.shape == want["qkv.weight"].shape and torch.equal(qkv, q_rows.chunk(WORLD, dim=0)[rank]):
                expect(False, f"rank {rank}'s qkv is a plain 1/{WORLD} chunk of the fused weight: the fused "
                              "weight stacks all queries, then all keys, then all values, so that chunk holds "
                              "the wrong rows. Take this rank's heads from each of the three")
            expect(qkv.shape == want["qkv.weight"].shape,
                   f"rank {rank}'s qkv weight has shape {tuple(qkv.shape)}, expected "
                   f"{tuple(want['qkv.weight'].shape)}: queries, keys and values of its {HEADS // WORLD} heads")
            expect_close(qkv, want["qkv.weight"], atol=0.0, what=f"rank {rank}'s qkv weight")
            if held["qkv.bias"] is not None:
                expect_close(held["qkv.bias"], want["qkv.bias"], atol=0.0, what=f"rank {rank}'s qkv bias")
            expect(proj.shape == want["proj.weight"].shape,
                   f"rank {rank}'s proj weight has shape {tuple(proj.shape)}, expected "
                   f"{tuple(want['proj.weight'].shape)}: proj meets this rank's heads in its input features "
                   "(the weight's second dimension)")
            expect_close(proj, want["proj.weight"], atol=0.0, what=f"rank {rank}'s proj weight")
            expect(held["proj bias"] is not None, f"rank {rank} has no output bias: keep proj's bias, whole")
        full = sum(v[0].numel() for name, v in ref["params"].items() if not name.startswith("norm"))
        mine = sum(v.numel() for v in held.values() if v is not None)
        return (f"each rank holds its {HEADS // WORLD} heads: {mine:,} of the block's {full:,} weights "
                "(the norm replicated)")

    return run_check("each rank holds its heads", body,
                     hint="the fused qkv weight stacks three (C, C) weights; where do one head's rows lie?")


def check_forward(attention_cls):
    """Skill: the heads' partial projections are summed across ranks, the bias added once, each head whole."""

    def body():
        ref = reference()
        bias = ref["params"]["proj.bias"][0]
        for rank, r in enumerate(ran(attention_cls)):
            expect(r["forward"].get("all_reduce"),
                   f"rank {rank} ran no all-reduce in the forward pass: its output is only its heads' "
                   "share of the projection; the ranks' partial outputs must be added up")
            y = r["y"]
            expect(y.shape == ref["y"].shape, f"rank {rank}'s output has shape {tuple(y.shape)}, expected "
                                              f"{tuple(ref['y'].shape)}: the full update on every rank")
            close = lambda other: (y - other).abs().max().item() < 1e-5  # noqa: E731
            wrong = (y - ref["y"]).abs().max().item() > ATOL
            expect(not (wrong and close(ref["y"] + bias)),
                   f"rank {rank}'s output is the full output plus one more bias: the bias was summed across "
                   "the ranks too; add it once, after the sum")
            expect(not (wrong and close(reference(heads=HEADS * WORLD)["y"])),
                   f"rank {rank} split its slice into all {HEADS} heads: it holds {HEADS // WORLD} of them, "
                   "each as wide as one of the full block's heads")
            expect(not (wrong and close(reference(scale=WIDTH ** -0.5)["y"])),
                   f"rank {rank}'s softmax is scaled by the full width's square root: attention scales by "
                   "one head's width")
            expect_close(y, ref["y"], atol=ATOL, what=f"rank {rank}'s output")
        return "both ranks' outputs equal the full block's to 1e-6"

    return run_check("forward equals one device", body,
                     hint="which of the block's layers produce a partial result, and how do partials combine?")


def check_backward(attention_cls):
    """Skill: ``f``'s backward sums the input gradients; ``g``'s hands the gradient on unchanged."""

    def body():
        ref = reference()
        for rank, r in enumerate(ran(attention_cls)):
            want, held = expected(ref, rank, WORLD, grad=True), _held(r, grad=True)
            proj = held["proj.weight"]
            expect(proj is not None, f"rank {rank}'s proj weight got no gradient: is it a parameter, used?")
            ratio = (proj.norm() / want["proj.weight"].norm()).item() if proj.shape == want[
                "proj.weight"].shape else float("nan")
            expect(abs(ratio - WORLD) > 0.01,
                   f"rank {rank}'s proj gradient is {WORLD}x one device's: the output's gradient was "
                   "all-reduced on its way back; the backward of a sum hands every term the gradient unchanged")
            for name, value in want.items():
                expect(held[name] is not None or name == "qkv.bias", f"rank {rank}'s {name} got no gradient")
                if held[name] is not None:
                    expect_close(held[name], value, atol=ATOL, what=f"rank {rank}'s gradient of {name}")
            share = (r["dx"] - ref["dx"]).abs().max().item() > ATOL and not r["backward"].get("all_reduce")
            expect(not share, f"rank {rank}'s input gradient is only its own heads' share: every rank read "
                              "the whole input, so the input's gradient is the sum over the ranks (lesson 07's "
                              "f, before the block)")
            expect_close(r["dx"], ref["dx"], atol=ATOL, what=f"rank {rank}'s input gradient")
        return "the input gradient and every shard's gradient equal the full block's to 1e-6"

    return run_check("backward equals one device", body,
                     hint="every rank read the whole input; what is the gradient of a sum's terms?")


def check_communication(attention_cls):
    """Skill: one all-reduce forward (``g``) and one backward (``f``), of tokens x width values each."""

    def body():
        values = BATCH * CONTEXT * WIDTH
        for rank, r in enumerate(ran(attention_cls)):
            for way in ("forward", "backward"):
                gathered = sum(len(r[way].get(name, [])) for name in GATHERS)
                expect(not gathered, f"rank {rank} ran {gathered} all-gather(s) in the {way} pass: the heads "
                                     "never need each other's outputs; proj's partial outputs sum instead")
            fwd, bwd = r["forward"].get("all_reduce", []), r["backward"].get("all_reduce", [])
            expect(len(fwd) == 1, f"rank {rank} ran {len(fwd)} all-reduce(s) in the forward pass, expected 1: "
                                  "the sum of proj's partial outputs")
            expect(len(bwd) == 1, f"rank {rank} ran {len(bwd)} all-reduce(s) in the backward pass, expected 1: "
                                  "the input's gradient (f); the output's sum needs none on the way back")
            expect(fwd == [values], f"rank {rank} all-reduced {fwd[0]:,} values, expected {values:,} "
                                    "(tokens x width: the block's output)")
        return f"one all-reduce forward and one backward, each of {values:,} values (tokens x width)"

    return run_check("one all-reduce each way", body,
                     hint="count the collectives a column-then-row split needs, and where each sits")
