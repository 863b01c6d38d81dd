"""Lab 07 (utils.labs.attention_by_heads.checks): the solution passes every check, and each plausible wrong
answer (a mutant, ``pytest -m mutants``) fails the check that measures its skill, with a message that names the
mistake. Every launch is bounded by a timeout and leaves no process behind.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import nbformat
import pytest
import torch
import torch.distributed as dist
from torch import nn

from utils import checks
from utils.labs.attention_by_heads import checks as lab
from utils.lessons.tensor_parallel.layers import CopyToParallel
from utils.lessons.tensor_parallel.layers import CopyToParallel as Copy
from utils.lessons.tensor_parallel.layers import ReduceFromParallel as Reduce
from utils.lessons.tensor_parallel.layers import shard as cut

LAB = Path(__file__).resolve().parents[1] / "labs" / "07_attention_by_heads.ipynb"


@pytest.fixture(autouse=True)
def _in_cpu_mode_leaving_nothing(cpu_mode_and_no_leftovers):
    yield


def attention(mistake: str | None = None):
    """The lab's solution, with at most one mistake switched on; a new class each time (one launch each)."""

    class Sum(torch.autograd.Function):
        @staticmethod
        def forward(ctx, partial):
            total = partial.clone()
            if mistake == "g as reduce then broadcast":  # the right sum, by two collectives
                dist.reduce(total, dst=0)
                dist.broadcast(total, src=0)
            elif mistake != "no g":
                dist.all_reduce(total)
            return total

        @staticmethod
        def backward(ctx, grad):
            if mistake == "g all-reduces backward too":
                grad = grad.clone()
                dist.all_reduce(grad)
            return grad

    class Heads(nn.Module):
        def __init__(self, full, rank, world):
            super().__init__()
            width, head = full.proj.out_features, full.proj.out_features // full.heads
            first, end = rank * full.heads // world, (rank + 1) * full.heads // world
            if mistake == "odd heads refused" and full.heads % world:
                raise ValueError(f"{full.heads} heads cannot be split evenly over {world} ranks")
            self.norm, self.heads = full.norm, end - first
            mine, local = slice(first * head, end * head), (end - first) * head
            if mistake in ("fused qkv chunked as one", "equal shares of q, k and v", "proj rows instead of columns"):
                self.heads, local = full.heads // world, width // world
            if mistake == "every head on each rank's slice":
                self.heads = full.heads
            if mistake == "heads per rank taken as the world size":  # right when heads = world x world only
                self.heads = world
            if mistake == "norm kept outside the module":  # never trained: the optimizer does not see it
                del self.norm
                self.norm = lambda x, norm=full.norm: norm(x)
            if mistake == "fused qkv chunked as one":
                rows = lambda t: t.chunk(world, 0)[rank]  # noqa: E731
            elif mistake == "equal shares of q, k and v":  # right where the heads split evenly only
                rows = lambda t: torch.cat([p.chunk(world, 0)[rank] for p in t.split(width, 0)])  # noqa: E731
            else:
                rows = lambda t: torch.cat([p[mine] for p in t.split(width, 0)])  # noqa: E731
            self.qkv = nn.Linear(width, 3 * local)
            self.qkv.weight = nn.Parameter(rows(full.qkv.weight.data).clone())
            self.qkv.bias = nn.Parameter(rows(full.qkv.bias.data).clone())
            on_bias = mistake == "bias on every rank"
            self.proj = nn.Linear(local, width, bias=on_bias)
            if mistake == "proj rows instead of columns":
                self.proj.weight = nn.Parameter(full.proj.weight.data.chunk(world, 0)[rank].clone())
            elif mistake == "equal shares of q, k and v":
                self.proj.weight = nn.Parameter(full.proj.weight.data.chunk(world, 1)[rank].clone())
            else:
                self.proj.weight = nn.Parameter(full.proj.weight.data[:, mine].clone())
            if on_bias:
                self.proj.bias = nn.Parameter(full.proj.bias.data.clone())
            else:
                self.out_bias = nn.Parameter(full.proj.bias.data.clone())

        def forward(self, x):
            B, T, C = x.shape
            if mistake == "sizes from the lab's settings":  # the lab's batch and length, whatever comes in
                B, T = lab.BATCH, lab.CONTEXT
            if mistake == "f before the norm":  # dx is right; the norm's gradient is this rank's share only
                h = self.norm(CopyToParallel.apply(x))
            else:
                h = self.norm(x) if mistake == "no f" else CopyToParallel.apply(self.norm(x))
            q, k, v = (t.reshape(B, T, self.heads, -1).transpose(1, 2) for t in self.qkv(h).chunk(3, dim=2))
            scale = C ** -0.5 if mistake == "softmax scaled by the full width" else None
            causal = mistake != "no causal mask"
            y = nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=scale)
            y = Sum.apply(self.proj(y.transpose(1, 2).reshape(B, T, -1)))
            y = y if mistake == "bias on every rank" else y + self.out_bias
            return (y, None) if mistake == "a tuple returned" else y

    return Heads


CHECKS = [lab.check_heads, lab.check_forward, lab.check_backward, lab.check_communication]


@pytest.mark.timeout(120)
def test_the_solution_passes_every_check():
    solution = attention()  # one class: one launch serves the checks and the take-aways
    verdicts = [check(solution) for check in CHECKS]
    assert all(v.passed for v in verdicts), [str(v) for v in verdicts]
    flat = " ".join(lab.take_aways(solution).split())  # the scale's take-away names what backs it
    assert "scaled by 1/√(one head's width), not the block's (your outputs equal the full block's, which a " \
           "full-width scale does not)" in flat, flat


# (mistake, the check that must catch it, what its message must say)
MUTANTS = [
    ("fused qkv chunked as one", lab.check_heads, "plain 1/2 chunk of the fused weight"),
    ("proj rows instead of columns", lab.check_heads, "input features"),
    ("bias on every rank", lab.check_forward, "plus one more bias"),
    ("no g", lab.check_forward, "never added up"),
    ("no g", lab.check_communication, "0 all-reduces in the forward pass"),
    ("every head on each rank's slice", lab.check_forward, "each cut their slice into 4 heads"),
    ("softmax scaled by the full width", lab.check_forward, "scaled by the full width's square root"),
    ("no f", lab.check_backward, "only its own heads' share"),
    ("no f", lab.check_communication, "0 all-reduces in the backward pass"),
    ("g all-reduces backward too", lab.check_backward, "2x one device's"),
    ("g all-reduces backward too", lab.check_communication, "2 all-reduces in the backward pass"),
    # Wrong answers the checks let pass before issue 38's review (one block only, forward-only, the norm unseen,
    # a message blaming a missing sum for a right output, a wrong type crashing the check's own code):
    ("heads per rank taken as the world size", lab.check_forward, "a block you have not seen"),
    ("heads per rank taken as the world size", lab.check_forward, "each cut their slice into 2 heads"),
    # Heads that do not split evenly (the unseen block's 5 over 2 ranks): equal shares of the width, or refusing
    ("equal shares of q, k and v", lab.check_heads, "not in equal shares"),
    ("odd heads refused", lab.check_heads, "whole heads also where they do not split evenly"),
    ("odd heads refused", lab.check_forward, "whole heads also where they do not split evenly"),
    ("sizes from the lab's settings", lab.check_forward, "take a size from the lab's settings"),
    ("f before the norm", lab.check_backward, "norm got a gradient other than one device's"),
    ("norm kept outside the module", lab.check_backward, "holds no parameter norm.weight"),
    ("no causal mask", lab.check_forward, "lets every token see the tokens after it"),
    ("no causal mask", lab.check_backward, "forward output differs from one device's already"),
    ("g as reduce then broadcast", lab.check_communication, "1 x reduce, 1 x broadcast in the forward pass"),
    ("a tuple returned", lab.check_forward, "forward returned a tuple"),
]


def test_a_right_output_by_other_collectives_passes_forward_and_fails_communication_only():
    """The forward check judges the output's values, so it does not blame a missing sum for a right output."""
    cls = attention("g as reduce then broadcast")
    assert lab.check_forward(cls).passed and lab.check_backward(cls).passed


@pytest.mark.mutants
@pytest.mark.timeout(120)
@pytest.mark.parametrize("mistake, check, says", MUTANTS, ids=[f"{m[0]}-{m[1].__name__}" for m in MUTANTS])
def test_a_mutant_fails_the_check_of_its_skill_saying_what_is_wrong(mistake, check, says):
    verdict = check(attention(mistake))
    assert verdict.status == checks.FAILED and says in verdict.message, str(verdict)
    assert "expected" not in verdict.message, str(verdict)  # the mistake named, never the value


def test_a_rank_holds_its_heads_rows_of_q_k_and_v():
    t = torch.arange(3 * lab.WIDTH).float()[:, None]
    rows = lab._heads_rows(t, lab.HEADS, 1, 2).flatten().tolist()
    half = lab.WIDTH // 2
    assert rows == [float(p * lab.WIDTH + half + i) for p in range(3) for i in range(half)]


def test_five_heads_split_two_and_three_whole_heads():
    """Width 40, 5 heads of 8 channels over 2 ranks: rank 0 holds heads 0-1 (16 rows of each of q, k, v),
    rank 1 heads 2-4 (24 rows of each)."""
    t = torch.arange(3 * 40).float()[:, None]
    rows = [lab._heads_rows(t, 5, rank, 2).flatten().tolist() for rank in range(2)]
    assert rows[0] == [float(p * 40 + i) for p in range(3) for i in range(16)]
    assert rows[1] == [float(p * 40 + 16 + i) for p in range(3) for i in range(24)]
    assert lab.CASES[1].heads % lab.WORLD  # the unseen block's heads do not split evenly


def test_the_course_split_is_not_in_the_labs_namespace():
    """The lab imports the checks as ``lab``: nothing there leads to lesson 07's split (the class the checks
    refuse), so ``show_source(lab.<name>)`` cannot show it."""
    assert not any(getattr(value, "__name__", "") in ("TensorParallelAttention", "attention_reference")
                   for value in vars(lab).values())


def test_the_whole_qkv_mutant_is_named():
    class Whole(attention()):
        def __init__(self, full, rank, world):
            super().__init__(full, rank, world)
            self.qkv = full.qkv
    assert "every head's" in lab.check_heads(Whole).message


class Pasted(nn.Module):
    """The reference's body pasted into the learner's class, every local, attribute and helper renamed."""

    def __init__(me, whole, r: int, n: int):
        super().__init__()
        if whole.heads % n:
            raise ValueError(f"{whole.heads} heads cannot be split evenly over {n} ranks")
        me.ln, me.h = whole.norm, whole.heads // n
        c = whole.proj.out_features
        wq, wk, wv = whole.qkv.weight.data.split(c, dim=0)
        bq, bk, bv = whole.qkv.bias.data.split(c, dim=0)
        me.qkv = nn.Linear(c, 3 * c // n)
        me.qkv.weight = nn.Parameter(torch.cat([cut(w, 0, r, n) for w in (wq, wk, wv)]))
        me.qkv.bias = nn.Parameter(torch.cat([cut(b, 0, r, n) for b in (bq, bk, bv)]))
        me.proj = nn.Linear(c // n, c, bias=False)
        me.proj.weight = nn.Parameter(cut(whole.proj.weight.data, 1, r, n))
        me.b = nn.Parameter(whole.proj.bias.data.clone())

    def forward(me, inp):
        z = Copy.apply(me.ln(inp))
        nb, nt, _ = z.shape
        qkv = me.qkv(z).view(nb, nt, 3, me.h, -1).permute(2, 0, 3, 1, 4)
        o = nn.functional.scaled_dot_product_attention(qkv[0], qkv[1], qkv[2], is_causal=True)
        part = me.proj(o.transpose(1, 2).flatten(2))
        return Reduce.apply(part) + me.b


def test_a_pasted_reference_is_refused_and_the_labs_solution_is_not(tmp_path, monkeypatch):
    """The structural comparison: the reference under other names is a copy; the lab's own solution (its cell,
    imported from a file so that its source can be read) is not, and neither is the test's solution."""
    for name in ("__init__", "forward"):
        assert lab.copies_the_reference(getattr(Pasted, name), name)
    cell = next(c for c in nbformat.read(LAB, as_version=4).cells if "class HeadParallelAttention" in c.source)
    (tmp_path / "lab07_solution.py").write_text(
        "import torch\nfrom torch import nn\nfrom utils import models\n"
        "from utils.lessons.tensor_parallel.layers import CopyToParallel, ReduceFromParallel\n\n" + cell.source)
    monkeypatch.syspath_prepend(str(tmp_path))
    solution = importlib.import_module("lab07_solution").HeadParallelAttention
    for name in ("__init__", "forward"):
        assert lab._shape(getattr(solution, name)) is not None  # read, so the comparison ran
        assert not lab.copies_the_reference(getattr(solution, name), name)
        assert not lab.copies_the_reference(getattr(attention(), name), name)


def _course_answer_in_disguise(how: str):
    """The lab's reference passed off as the learner's split, five ways."""
    from utils.lessons.tensor_parallel.attention_reference import TensorParallelAttention

    if how == "a pasted body with renamed names":
        return Pasted

    if how == "the class itself":
        return TensorParallelAttention
    if how == "a subclass":
        class HeadParallelAttention(TensorParallelAttention):
            pass
        return HeadParallelAttention

    class Delegating(attention()):
        def forward(self, x):
            return TensorParallelAttention.forward(self, x)

    class Holding(nn.Module):
        def __init__(self, full, rank, world):
            super().__init__()
            self.inner = TensorParallelAttention(full, rank, world)
            self.qkv, self.proj, self.norm = self.inner.qkv, self.inner.proj, self.inner.norm

        def forward(self, x):
            return self.inner(x)

    return {"a forward that delegates": Delegating, "a module that holds one": Holding}[how]


BORROWED = ["the class itself", "a subclass", "a forward that delegates", "a module that holds one",
            "a pasted body with renamed names"]


@pytest.mark.mutants
@pytest.mark.timeout(120)
@pytest.mark.parametrize("how", BORROWED)
def test_mutant_lesson_07s_answer_fails_every_check_saying_the_lab_asks_for_your_own_split(how):
    cls = _course_answer_in_disguise(how)
    for check in CHECKS:
        verdict = check(cls)
        assert verdict.status == checks.FAILED and "your own split" in verdict.message, str(verdict)
        assert "expected" not in verdict.message, str(verdict)



def test_the_wrong_output_messages_name_the_symptom_not_the_fix():
    """A failure message names what is wrong and the idea behind it (as a question), never the correction:
    exercise B asks where the bias goes and how the scores are scaled, so a message may not answer it."""
    messages = list(lab.wrong_outputs(lab.CASES[1], 0))
    assert any("plus one more bias" in m for m in messages)
    assert any("scaled by the full width's square root" in m for m in messages)
    assert any("lets every token see the tokens after it" in m for m in messages)
    fixes = ("add it once", "after the sum", "scales by one head's width", "is causal", "as many as it holds")
    for fix in fixes:
        assert not any(fix in m for m in messages), (fix, messages)
