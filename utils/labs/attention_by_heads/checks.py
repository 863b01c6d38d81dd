"""Checks for ``labs/07_attention_by_heads.ipynb``: the learner's attention block split by heads (lesson 07).

Lesson 07 splits the MLP block over two workers (column-parallel, then row-parallel, glued by ``f`` and ``g``).
The lab asks for the other half of a transformer block: ``utils.models.Attention`` split by heads. The learner
writes ``HeadParallelAttention(full, rank, world)``; the checks launch it on two workers, count the
collectives, and compare with one process running the full block, on the lab's block and on one the learner
never sees (another width, batch and length, and an odd number of heads, which two ranks cannot share equally:
rank r computes heads floor(r*H/n) .. floor((r+1)*H/n) - 1, whole heads, so the ranks' shards differ in size;
code that fits one block only, or cuts the width into equal shares, fails it):

- ``check_heads``: rank r holds only what its heads need: the query, key and value rows of its heads in the
  fused ``qkv`` (a plain chunk of the fused weight, or equal shares of each of q, k and v when the heads do
  not split evenly, take the wrong rows), the matching input columns of ``proj``, and the output bias whole;
- ``check_forward``: both ranks' outputs equal the full block's, judged by their values (a bias added on every
  rank, no sum, a rank that splits its slice into every head, a softmax scaled by the full width, no causal
  mask: each named);
- ``check_backward``: the input gradient, every shard's gradient and the replicated norm's gradient equal the
  full block's (no ``f``, ``f`` before the norm, a ``g`` that all-reduces on the way back too: each named);
- ``check_communication``: one all-reduce forward and one backward, each of tokens x width values, and no
  other collective.

Every check first refuses the course's own split, lesson 07's ``TensorParallelAttention`` (even heads only, so
it fails the unseen block anyway): the class, a subclass, a forward or ``__init__`` that calls it, a module that
holds one, or an ``__init__`` or forward that copies its code with the names changed
(``copies_the_reference``): the lab asks for the learner's own split. It is imported only where a check needs
it (``_course_split``), so that the lab's namespace (``lab.<name>``) does not lead a learner to it.

One launch serves every check (its result is kept per class object).
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from typing import NamedTuple

import torch
import torch.distributed as dist
from torch import nn

from utils import models
from utils.checks import CheckFailed, expect, refers_to, run_check
from utils.launch import launch

SEED, WORLD = 0, 2
WIDTH, HEADS, BATCH, CONTEXT = 32, 4, 2, 8
LAUNCH_TIMEOUT_S = 120
ATOL = 1e-6  # float32 on the CPU: the split sums in another order, to about 1e-7
COLLECTIVES = ("all_reduce", "all_gather", "all_gather_into_tensor", "reduce", "broadcast", "reduce_scatter",
               "reduce_scatter_tensor", "all_to_all", "all_to_all_single", "send", "recv")
_LAUNCHES: dict[int, tuple] = {}  # id(attention class) -> (class, results or the exception)


class Case(NamedTuple):
    """A block the checks split: its width, heads, batch and length, and how a message names it."""

    width: int
    heads: int
    batch: int
    context: int
    name: str


CASES = (Case(WIDTH, HEADS, BATCH, CONTEXT, "the lab's block"),
         Case(40, 5, 3, 5, "a block you have not seen (width 40, 5 heads, 3 x 5 tokens)"))


def _course_split() -> type:
    """Lesson 07's own split (the class the checks refuse), imported where a check needs it, not held here."""
    from utils.lessons.tensor_parallel.attention_reference import TensorParallelAttention

    return TensorParallelAttention


def _head_range(heads: int, rank: int, world: int) -> tuple[int, int]:
    """Rank ``rank``'s heads, first and one past the last: whole heads, as even as they go."""
    return rank * heads // world, (rank + 1) * heads // world


def _columns(width: int, heads: int, rank: int, world: int) -> slice:
    """The channels of rank ``rank``'s heads in a (.., C) tensor whose C channels are H heads side by side."""
    first, end = _head_range(heads, rank, world)
    return slice(first * (width // heads), end * (width // heads))


def full_attention(case: Case = CASES[0], heads: int | None = None) -> models.Attention:
    """The case's attention block on one device, the same weights in every process (seeded)."""
    config = models.GPTConfig(vocab_size=16, context=case.context, width=case.width, depth=1,
                              heads=heads or case.heads)
    with models.seeded(SEED):
        return models.Attention(config)


def inputs(case: Case = CASES[0]) -> tuple[torch.Tensor, torch.Tensor]:
    """The input and the gradient that flows back into the output (a mean loss over the tokens)."""
    g = torch.Generator().manual_seed(SEED + 1)
    shape = (case.batch, case.context, case.width)
    return torch.randn(*shape, generator=g), torch.randn(*shape, generator=g) / (case.batch * case.context)


def _heads_rows(t: torch.Tensor, heads: int, rank: int, world: int) -> torch.Tensor:
    """Rank ``rank``'s rows of a fused (3C, ...) qkv tensor: its heads' queries, keys and values."""
    mine = _columns(t.shape[0] // 3, heads, rank, world)
    return torch.cat([part[mine] for part in t.chunk(3, dim=0)])


def _equal_shares(t: torch.Tensor, rank: int, world: int) -> torch.Tensor:
    """A classic mistake's rows: 1/world of each of q, k and v, right only where the heads split evenly."""
    return torch.cat([part.chunk(world, dim=0)[rank] for part in t.chunk(3, dim=0)])


def _counting(calls: dict):
    """Replace every collective of ``torch.distributed`` by a counting wrapper; returns a function that restores
    them."""
    plain = {name: getattr(dist, name) for name in COLLECTIVES if hasattr(dist, name)}

    def wrap(name):
        def counted(t, *args, **kwargs):
            calls.setdefault(name, []).append(t.numel() if isinstance(t, torch.Tensor) else 0)
            return plain[name](t, *args, **kwargs)
        return counted
    for name in plain:
        setattr(dist, name, wrap(name))
    return lambda: [setattr(dist, name, fn) for name, fn in plain.items()]


def _run_case(attention_cls, case: Case, rank: int, world: int) -> dict:
    """The learner's split block on one case: output, gradients, parameters, collectives counted."""
    out = {"forward": {}, "backward": {}, "params": {}}
    try:  # an __init__ that raises (on the unseen block's odd heads, say) is reported by the checks
        layer = attention_cls(full_attention(case), rank, world)
    except Exception as exc:  # noqa: BLE001 - reported by every check
        out["init error"] = exc
        return out
    x, dy = inputs(case)
    x.requires_grad_(True)
    course = _course_split()
    out["holds the course's block"] = isinstance(layer, nn.Module) and any(
        isinstance(m, course) for m in layer.modules())
    try:  # a forward that raises still leaves the shards to judge (exercise A)
        for way in ("forward", "backward"):
            restore = _counting(out[way])
            try:
                if way == "forward":
                    y = layer(x)
                    if not isinstance(y, torch.Tensor):  # judged here, not left to crash the check's own code
                        raise CheckFailed(f"rank {rank}'s forward returned a {type(y).__name__}: the block "
                                          "returns one tensor, its (B, T, C) update")
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


def _worker(attention_cls) -> list[dict]:
    """On each rank: the learner's split attention on every case, collectives counted forward and backward."""
    dist.init_process_group("gloo")
    try:
        rank, world = dist.get_rank(), dist.get_world_size()
        return [_run_case(attention_cls, case, rank, world) for case in CASES]
    finally:
        dist.destroy_process_group()


def _attend(full: models.Attention, x: torch.Tensor, scale=None, causal=True, rank=None):
    """The full block's arithmetic, with the knobs of the classic mistakes: ``scale`` (the full width's),
    ``causal`` (no mask), ``rank`` (only that rank's heads, its partial output before the sum, no bias)."""
    B, T, C = x.shape
    q, k, v = (t.view(B, T, full.heads, -1).transpose(1, 2) for t in full.qkv(full.norm(x)).split(C, dim=2))
    y = nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=scale)
    y = y.transpose(1, 2).reshape(B, T, C)
    if rank is None:
        return full.proj(y)
    cols = _columns(C, full.heads, rank, WORLD)
    return y[..., cols] @ full.proj.weight[:, cols].T


def _cut_into(full: models.Attention, x: torch.Tensor, cut: int) -> torch.Tensor | None:
    """The output when every rank holds its right rows but cuts its slice into ``cut`` heads (None where a
    slice does not divide into ``cut``): the sum of the ranks' partial outputs, plus the bias."""
    B, T, C = x.shape
    q, k, v = full.qkv(full.norm(x)).split(C, dim=2)
    out = full.proj.bias.expand(B, T, C)
    for rank in range(WORLD):
        cols = _columns(C, full.heads, rank, WORLD)
        if (cols.stop - cols.start) % cut:
            return None
        q_r, k_r, v_r = (t[..., cols].reshape(B, T, cut, -1).transpose(1, 2) for t in (q, k, v))
        y = nn.functional.scaled_dot_product_attention(q_r, k_r, v_r, is_causal=True)
        out = out + y.transpose(1, 2).reshape(B, T, -1) @ full.proj.weight[:, cols].T
    return out


@torch.no_grad()
def wrong_outputs(case: Case, rank: int) -> dict[str, torch.Tensor]:
    """The outputs of the classic mistakes on ``case``, rank ``rank``, keyed by the message that names each."""
    full, (x, _) = full_attention(case), inputs(case)
    right, bias = full(x), full.proj.bias
    partial = _attend(full, x, rank=rank)
    held = [end - first for first, end in (_head_range(case.heads, r, WORLD) for r in range(WORLD))]
    cuts = {n: _cut_into(full, x, n) for n in range(1, case.width // WORLD + 1) if held != [n] * WORLD}
    # Each message names the symptom and the idea behind it, as a question; the fix is the learner's to find.
    return {
        "is the full output plus one more bias: the bias went into the sum across the ranks with the partial "
        "outputs (how many times does one device add it?)": right + bias,
        "is only its own heads' share of the projection: the ranks' partial outputs were never added up":
            partial + bias,
        "is only its own heads' share of the projection (without the bias): the ranks' partial outputs were "
        "never added up": partial,
        "has a softmax scaled by the full width's square root (whose width does one head's dot product sum "
        "over?)": _attend(full, x, scale=case.width ** -0.5),
        "lets every token see the tokens after it (which tokens may a token attend to in this block?)":
            _attend(full, x, causal=False),
        **{f"is what ranks compute that each cut their slice into {n} heads: its heads are not the full "
           f"block's (how wide is one of the block's {case.heads} heads, and how many does a rank hold?)":
           output for n, output in cuts.items() if output is not None},
    }


def reference(case: Case = CASES[0]) -> dict:
    """One process, the full block: output, input gradient, every parameter and its gradient."""
    full = full_attention(case)
    x, dy = inputs(case)
    x.requires_grad_(True)
    y = full(x)
    y.backward(dy)
    return {"y": y.detach(), "dx": x.grad,
            "params": {k: (p.detach(), p.grad) for k, p in full.named_parameters()}}


def launched(attention_cls) -> list[list[dict]]:
    """The learner's layer on 2 workers, launched once per class object: per rank, one result per case."""
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


BORROWED = ("is the course's own split, the TensorParallelAttention lesson 07 runs{how}: the lab asks for "
            "your own split (and that one takes even heads only). Write __init__ and forward yourself, from "
            "utils.models.Attention and lesson 07's f and g")


def _uses_the_course_block(fn) -> bool:
    """Whether a method is the reference's, or its code names ``TensorParallelAttention`` (a call that
    delegates)."""
    course = _course_split()
    return refers_to(fn, {"TensorParallelAttention"}, targets=(course.__init__, course.forward))


class _Anonymous(ast.NodeTransformer):
    """Every name a function binds or reads (its arguments, locals, globals, ``self``'s attributes) becomes
    its order of first appearance, and docstrings go: two functions alike but for their names compare equal."""

    def __init__(self):
        self.names: dict[str, str] = {}

    def _rename(self, name: str) -> str:
        return self.names.setdefault(name, f"n{len(self.names)}")

    def visit_Name(self, node):
        return ast.copy_location(ast.Name(id=self._rename(node.id), ctx=node.ctx), node)

    def visit_arg(self, node):
        return ast.copy_location(ast.arg(arg=self._rename(node.arg)), node)

    def visit_Attribute(self, node):
        self.generic_visit(node)
        if isinstance(node.value, ast.Name) and node.value.id == "n0":  # the first argument, self by any name
            node.attr = self._rename("." + node.attr)  # self.qkv, self.my_qkv: the same slot
        return node

    def visit_FunctionDef(self, node):
        node.returns = None
        node.body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                                                  and isinstance(s.value.value, str))]  # the docstring
        node.name = "f"
        return self.generic_visit(node)


def _shape(fn) -> str | None:
    """A method's code with every name anonymous (``_Anonymous``); None where its source cannot be read."""
    fn = inspect.unwrap(fn) if callable(fn) else fn
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    functions = [node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if len(functions) != 1:
        return None
    for arg in functions[0].args.args + functions[0].args.kwonlyargs:
        arg.annotation = None
    return ast.dump(_Anonymous().visit(functions[0]), annotate_fields=False)


def copies_the_reference(fn, name: str) -> bool:
    """Whether method ``name`` (``__init__`` or ``forward``) is the reference's code under other names: the same
    statements, in the same order, calling the same methods. A method whose source cannot be read (defined
    where ``inspect`` finds no file) is not judged."""
    mine = _shape(fn)
    return mine is not None and mine == _shape(getattr(_course_split(), name))


def _own_split(attention_cls) -> None:
    """Refuse the lab's reference: the class itself, a subclass, methods that call it or copy its code, or a
    module that holds one (seen after the launch)."""
    course = _course_split()
    if isinstance(attention_cls, type) and issubclass(attention_cls, course):
        how = "" if attention_cls is course else " (your class inherits from it)"
        raise CheckFailed(f"HeadParallelAttention {BORROWED.format(how=how)}")
    for name in ("__init__", "forward"):
        method = getattr(attention_cls, name, None)
        if _uses_the_course_block(method):
            raise CheckFailed(f"HeadParallelAttention {BORROWED.format(how=f' (your {name} calls it)')}")
        if copies_the_reference(method, name):
            raise CheckFailed(f"HeadParallelAttention's {name} is the course's own split (lesson 07's) with "
                              "other names: the lab asks for your own split. Write it yourself, from "
                              "utils.models.Attention and lesson 07's f and g")
    if any(r.get("holds the course's block") for results in launched(attention_cls) for r in results):
        raise CheckFailed(f"HeadParallelAttention {BORROWED.format(how=' (your module holds one)')}")


def _cases(attention_cls, need_run: bool = False):
    """(case, rank, result) for every case and rank; with ``need_run``, a pass that raised raises here."""
    _own_split(attention_cls)
    for k, case in enumerate(CASES):
        for rank, results in enumerate(launched(attention_cls)):
            r, error = results[k], results[k].get("error")
            if "init error" in r:
                raise CheckFailed(_init_failed(case, rank, r["init error"]))
            if need_run and error is not None:
                ran_first = k and "error" not in results[0]
                if ran_first and not isinstance(error, (CheckFailed, NotImplementedError)):
                    first = (str(error).strip().splitlines() or [""])[0]
                    raise CheckFailed(f"on {case.name}, rank {rank}'s code raised {type(error).__name__}: {first}. "
                                      "It ran on the lab's block: does it take a size from the lab's settings "
                                      "rather than from its input and the full block it is given?")
                raise error
            yield case, rank, r


def _init_failed(case: Case, rank: int, error: Exception) -> str:
    """What to say when the learner's ``__init__`` raised on a case (the other cases may have run)."""
    first = (str(error).strip().splitlines() or [""])[0]
    said = f"on {case.name}, rank {rank}'s __init__ raised {type(error).__name__}: {first}"
    if isinstance(error, NotImplementedError) or case is CASES[0]:
        raise error
    if case.heads % WORLD:
        return (f"{said}. The lab gives each rank whole heads also where they do not split evenly over the "
                "ranks (the exercise's rule): count what a rank holds in heads")
    return f"{said}. It ran on the lab's block: does it take a size from the lab's settings?"


def _expected(ref: dict, heads: int, rank: int, world: int, grad: bool = False) -> dict[str, torch.Tensor]:
    """What rank ``rank`` must hold (or its gradients): its heads' qkv rows, proj's matching columns, proj's
    bias whole, and the norm whole."""
    k = 1 if grad else 0
    p = {name: value[k] for name, value in ref["params"].items()}
    cols = _columns(p["proj.weight"].shape[0], heads, rank, world)
    return {"qkv.weight": _heads_rows(p["qkv.weight"], heads, rank, world),
            "qkv.bias": _heads_rows(p["qkv.bias"], heads, rank, world),
            "proj.weight": p["proj.weight"][:, cols], "proj bias": p["proj.bias"],
            "norm.weight": p["norm.weight"], "norm.bias": p["norm.bias"]}


def _held(r: dict, width: int, grad: bool = False) -> dict[str, torch.Tensor]:
    """The learner's parameters by the names the spec fixes; the output bias is ``proj.bias`` or any other
    parameter of shape (C,) outside the norm."""
    k = 1 if grad else 0
    params = {name: value[k] for name, value in r["params"].items()}
    held = {name: params.get(name) for name in ("qkv.weight", "qkv.bias", "proj.weight", "norm.weight",
                                                "norm.bias")}
    biases = [v for name, v in params.items() if name not in held and "norm" not in name
              and r["params"][name][0].shape == (width,)]
    held["proj bias"] = biases[0] if biases else None
    return held


def _where(case: Case, rank: int) -> str:
    return f"rank {rank}" if case is CASES[0] else f"on {case.name}, rank {rank}"


def _differs(a: torch.Tensor, b: torch.Tensor, atol: float = ATOL) -> bool:
    return a.shape != b.shape or (a - b).abs().max().item() > atol


def check_heads(attention_cls):
    """Skill: rank r keeps only its heads' query, key and value rows, proj's matching columns, the bias once."""

    def body():
        for case, rank, r in _cases(attention_cls):
            ref, who = reference(case), _where(case, rank)
            want, held = _expected(ref, case.heads, rank, WORLD), _held(r, case.width)
            for name in ("qkv.weight", "proj.weight"):
                expect(held[name] is not None, f"{who} has no parameter {name}: keep the two linear layers as "
                                               "qkv and proj (the names the checks read)")
            qkv, proj, whole = held["qkv.weight"], held["proj.weight"], ref["params"]["qkv.weight"][0]
            expect(qkv.shape != whole.shape, f"{who} holds the whole qkv weight {tuple(qkv.shape)}: every "
                                             "head's. A rank keeps only its own heads' rows")
            if qkv.shape == want["qkv.weight"].shape and torch.equal(qkv, whole.chunk(WORLD, dim=0)[rank]):
                expect(False, f"{who}'s qkv is a plain 1/{WORLD} chunk of the fused weight, so it holds the "
                              "wrong rows: what does the fused weight hold, in what order, and where in it do "
                              "one head's rows lie?")
            if case.heads % WORLD and torch.equal(qkv, _equal_shares(whole, rank, WORLD)):
                expect(False, f"{who}'s qkv holds 1/{WORLD} of each of the query, key and value rows, but "
                              f"{case.heads} heads do not split evenly over {WORLD} ranks: a rank holds whole "
                              "heads (the exercise's rule), so count its rows in heads, not in equal shares")
            expect(not _differs(qkv, want["qkv.weight"], 0.0),
                   f"{who}'s qkv weight {tuple(qkv.shape)} does not hold the query, key and value rows of its "
                   "heads: which rows of each of the three belong to this rank's heads?")
            if held["qkv.bias"] is not None:
                expect(not _differs(held["qkv.bias"], want["qkv.bias"], 0.0),
                       f"{who}'s qkv bias is not its heads' entries: it is cut like the weight's rows")
            expect(proj.shape == want["proj.weight"].shape,
                   f"{who}'s proj weight has shape {tuple(proj.shape)}: proj meets this rank's heads in its input "
                   "features (the weight's second dimension)")
            expect(not _differs(proj, want["proj.weight"], 0.0),
                   f"{who}'s proj weight holds other columns than those that meet its heads' outputs")
            expect(held["proj bias"] is not None, f"{who} has no output bias: keep proj's bias, whole")
            expect(not _differs(held["proj bias"], want["proj bias"], 0.0),
                   f"{who}'s output bias is not proj's bias, whole")
        held = _held(launched(attention_cls)[0][0], WIDTH)  # rank 0 on the lab's block
        mine = sum(held[name].numel() for name in ("qkv.weight", "qkv.bias", "proj.weight", "proj bias")
                   if held[name] is not None)
        full = sum(v[0].numel() for name, v in reference()["params"].items() if not name.startswith("norm"))
        return (f"each rank holds its {HEADS // WORLD} heads: {mine:,} of the block's {full:,} parameters, "
                f"weights and biases (the norm left out: every rank holds it whole); right on {CASES[1].name} too")

    return run_check("each rank holds its heads", body,
                     hint="what does each row of the fused qkv layer compute, and which rows does one head use?")


def check_forward(attention_cls):
    """Skill: the heads' partial projections are summed across ranks, the bias added once, each head whole.
    Judged by the output's values: a rank whose output is right passes, however it communicated."""

    def body():
        for case, rank, r in _cases(attention_cls, need_run=True):
            ref, who, y = reference(case), _where(case, rank), r["y"]
            expect(y.shape == ref["y"].shape, f"{who}'s output has shape {tuple(y.shape)}: the block returns "
                                              "the full (B, T, C) update on every rank")
            if _differs(y, ref["y"]):
                for mistake, output in wrong_outputs(case, rank).items():
                    expect(_differs(y, output, 1e-5), f"{who}'s output {mistake}")
                expect(False, f"{who}'s output differs from the full block's by up to "
                              f"{(y - ref['y']).abs().max().item():.3g}: look at how the heads are cut from q, k "
                              "and v and laid side by side again")
        return f"both ranks' outputs equal the full block's to 1e-6, on {CASES[1].name} too"

    return run_check("forward equals one device", body,
                     hint="which of the block's layers produce a partial result, and how do partials combine?")


def check_backward(attention_cls):
    """Skill: ``f``'s backward sums the input gradients, after the norm; ``g``'s hands the gradient on
    unchanged."""

    def body():
        for case, rank, r in _cases(attention_cls, need_run=True):
            ref, who = reference(case), _where(case, rank)
            expect(not _differs(r["y"], ref["y"]), f"{who}'s forward output differs from one device's already: "
                                                    "its gradients cannot match until it does (the check above)")
            want, held = _expected(ref, case.heads, rank, WORLD, grad=True), _held(r, case.width, grad=True)
            proj, wanted = held["proj.weight"], want["proj.weight"]
            expect(proj is not None, f"{who}'s proj weight got no gradient: is it a parameter, used?")
            expect(proj.shape == wanted.shape, f"{who}'s proj weight gradient has shape {tuple(proj.shape)}: "
                                               "proj's weight is not this rank's share (exercise A's check)")
            ratio = (proj.norm() / wanted.norm()).item()
            expect(abs(ratio - WORLD) > 0.01,
                   f"{who}'s proj gradient is {WORLD}x one device's: the output's gradient was all-reduced on "
                   "its way back; the backward of a sum hands every term the gradient unchanged")
            if _differs(r["dx"], ref["dx"]):
                share = not r["backward"].get("all_reduce")
                expect(not share, f"{who}'s input gradient is only its own heads' share: every rank read the "
                                  "whole input, so the input's gradient is the sum over the ranks (lesson 07's f)")
                expect(False, f"{who}'s input gradient differs from one device's")
            for name, value in want.items():
                if held[name] is None:
                    expect(not name.startswith("norm"), f"{who} holds no parameter {name}: keep the norm, "
                                                        "whole, as norm (an optimizer trains only what the "
                                                        "module holds)")
                    expect(name == "qkv.bias", f"{who}'s {name} got no gradient")
                    continue
                if name.startswith("norm") and _differs(held[name], value):
                    expect(False, f"{who}'s norm got a gradient other than one device's: the norm is "
                                  "replicated and reads the whole input, so its gradient must include every "
                                  "rank's heads; where does the sum over the ranks happen in the backward pass?")
                expect(not _differs(held[name], value),
                       f"{who}'s gradient of {name} differs from one device's (its slice)")
        return ("the input gradient, every shard's gradient and the norm's equal the full block's to 1e-6, "
                f"on {CASES[1].name} too")

    return run_check("backward equals one device", body,
                     hint="every rank read the whole input; what is the gradient of a sum's terms?")


def _all_reduces(count: int) -> str:
    """"1 all-reduce", "2 all-reduces": a count of calls, as the check's messages print it."""
    return f"{count} all-reduce{'s' if count != 1 else ''}"


def check_communication(attention_cls):
    """Skill: one all-reduce forward (``g``) and one backward (``f``), of tokens x width values each."""

    def body():
        for case, rank, r in _cases(attention_cls, need_run=True):
            who, values = _where(case, rank), case.batch * case.context * case.width
            for way in ("forward", "backward"):
                others = {name: len(calls) for name, calls in r[way].items() if name != "all_reduce"}
                expect(not others, f"{who} ran {', '.join(f'{n} x {name}' for name, n in others.items())} in the "
                                   f"{way} pass: the heads never need each other's outputs, and proj's partial "
                                   "outputs combine in one all-reduce")
            fwd, bwd = r["forward"].get("all_reduce", []), r["backward"].get("all_reduce", [])
            expect(len(fwd) == 1, f"{who} ran {_all_reduces(len(fwd))} in the forward pass: the only sum the "
                                  "forward needs is of proj's partial outputs")
            expect(len(bwd) == 1, f"{who} ran {_all_reduces(len(bwd))} in the backward pass: the input's "
                                  "gradient (f) needs one; the output's sum needs none on the way back")
            expect(fwd == [values], f"{who} all-reduced {fwd[0]:,} values in the forward pass: not the block's "
                                    "whole output (tokens x width)")
        values = BATCH * CONTEXT * WIDTH
        return (f"one all-reduce forward and one backward, each of {values:,} values (tokens x width), on "
                f"{CASES[1].name} too")

    return run_check("the collectives", body,
                     hint="count the collectives a column-then-row split needs, and where each sits")


def take_aways(attention_cls) -> str:
    """The lab's take-aways, printed once every check passed, with the collectives counted in the learner's
    run (what they state, the checks measured)."""
    from utils import checks

    names = ("each rank holds its heads", "forward equals one device", "backward equals one device",
             "the collectives")
    if not all(name in checks.HISTORY and checks.HISTORY[name].passed for name in names):
        return "Take-aways appear once every check passes (each states what a check measured in your split)."
    ranks = launched(attention_cls)  # per rank: its results on the lab's block, then on the unseen one
    sent = [result["forward"]["all_reduce"][0] for result in ranks[0]]
    rows = [results[1]["params"]["qkv.weight"][0].shape[0] for results in ranks]  # on the unseen block
    even = "equal" if len(set(rows)) == 1 else "unequal"
    bullets = [
        "A fused weight is laid out by what it computes, not by who will compute it: your rank's share of qkv is "
        "its heads' rows from each of the query, key and value blocks, not a contiguous slice.",
        f"A rank's unit is a whole head: on the unseen block ({CASES[1].heads} heads over {WORLD} ranks) your "
        f"ranks held {' and '.join(f'{n:,}' for n in rows)} rows of qkv ({even} shares: 3 x the heads a rank "
        "computes x one head's width), and proj's matching columns.",
        "Attention splits like the MLP: into heads column-parallel, out of them row-parallel, and heads never need "
        f"each other. Your block all-reduced once each way, {sent[0]:,} values forward on the lab's block "
        f"({CASES[0].heads} heads) and {sent[1]:,} on the unseen one ({CASES[1].heads} heads): tokens x width "
        "each time, whatever the number of heads.",
        "A bias after a sum is added once; a head's scores are scaled by 1/√(one head's width), not the block's (your "
        "outputs equal the full block's, which a full-width scale does not); f sits after the replicated "
        "norm, so its backward sums the input's gradient over the ranks before the norm's backward, and the norm "
        "learns from every head.",
    ]
    return "\n".join(textwrap.fill(b, 110, initial_indent="- ", subsequent_indent="  ") for b in bullets)
