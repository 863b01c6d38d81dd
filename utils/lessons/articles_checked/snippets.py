"""The articles' four code blocks, run as written (each stops at an error) and as fixed (each runs).

Introduced in lesson 09. The rebuilds are the course's own (``utils/article.py``, lesson 03's
``articles.article_ddp``): they keep the articles' mistakes as facts, in the order Python meets them.
Everything that could touch CUDA runs in a worker process (``article.run_in_worker`` or ``launch``), so
that the notebook never initialises it.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import textwrap

import torch
from torch import nn

from utils import article
from utils.launch import LaunchTimeout, WorkerError, launch
from utils.lessons.ddp.articles import ARTICLE_FIXES, article_ddp


MESSAGE_WIDTH = 260  # characters of an error's first line kept: room for the longest the rows print whole


def first_line(exc: BaseException) -> str:
    """``Type: first line of the message`` (a worker's error: its own type and message, not the wrapper's),
    whole up to ``MESSAGE_WIDTH`` characters: torch's launcher and DDP errors run to some 220, and a message cut
    before what it names (RANK "expected, but not set"; DDP's "single-device ..." modules) says nothing."""
    kind = getattr(exc, "exc_type", None) or getattr(exc, "type_name", None) or type(exc).__name__
    text = str(getattr(exc, "message", None) or exc).strip()
    first = text.splitlines()[0] if text else ""
    return f"{kind}: {textwrap.shorten(first, MESSAGE_WIDTH, placeholder=' ...')}"


def split_steps(plan_devices: tuple[str, ...]) -> list[str]:
    """Article 1's model split: its device call as written, its shapes, its missing transfer; then fixed."""
    dev0, dev1 = plan_devices[0], article.second_device(plan_devices)
    steps = []
    for title, fn, args in (("as written, .cuda(0) and .cuda(1)", _cuda_pair, ()),
                            ("on this machine's devices", article.split_as_written, (dev0, dev1)),
                            ("shapes fixed, no transfer", article.split_shapes_fixed_only, (dev0, dev1)),
                            ("fixed: one model, its output moved", _split_fixed, (dev0, plan_devices[1]))):
        try:
            out = article.run_in_worker(fn, *args)
            steps.append(f"{title}: runs" + (f", output {tuple(out)}" if out is not None else ""))
        except article.RaisedInWorker as err:
            steps.append(f"{title}: {first_line(err)}")
    return steps


def _cuda_pair():
    """The article's first lines: a model on GPU 0 and a copy on GPU 1 (needs a CUDA build and two GPUs)."""
    article.ArticleModel().cuda(0)
    article.ArticleModel().cuda(1)


def _split_fixed(dev0: str, dev1: str) -> tuple[int, ...]:
    layer1, layer2 = nn.Linear(128, 64).to(dev0), nn.Linear(64, 32).to(dev1)
    x = torch.randn(100, 128, device=dev0)
    return tuple(layer2(layer1(x).to(dev1)).shape)  # (100, 32): the activation crosses once


def conv_steps(plan_devices: tuple[str, ...]) -> list[str]:
    """Article 1's "simplified model": one convolution on GPU 0, as written and on this machine's device."""
    steps = []
    for title, device in (("as written, .cuda(0)", None), ("on this machine's device", plan_devices[0])):
        try:
            shape = article.run_in_worker(_conv, device)
            steps.append(f"{title}: runs, output {shape}")
        except article.RaisedInWorker as err:
            steps.append(f"{title}: {first_line(err)}")
    return steps


def _conv(device: str | None) -> tuple[int, ...]:
    """One 3x3 convolution, 3 -> 16 channels, on a 10 x 3 x 224 x 224 batch; ``None``: ``.cuda(0)``, as written."""
    conv = nn.Conv2d(3, 16, kernel_size=3, stride=1, padding=1)
    conv = conv.cuda(0) if device is None else conv.to(device)
    x = torch.randn(10, 3, 224, 224)
    return tuple(conv(x.cuda(0) if device is None else x.to(device)).shape)


def ddp_walk(timeout: float = 30) -> list[tuple[str, str]]:
    """Lesson 03's rebuild of the articles' DDP training, launched with 0, 1, 2, ... fixes: (fix that comes
    next, the error it answers), in the order Python meets them; the last entry is the fixed run's losses."""
    walk = []
    for k in range(len(ARTICLE_FIXES) + 1):
        try:
            results = _launch_once_more_if_stuck(k, timeout)
        except WorkerError as err:
            walk.append((ARTICLE_FIXES[k][0], first_line(err)))
            continue
        losses = ", ".join(f"{r['loss']:.4f}" for r in results)
        if results[0]["fingerprint"] == results[1]["fingerprint"]:  # a silent mistake: no error, wrong work
            walk.append((ARTICLE_FIXES[k][0], "no error, but both ranks train on the same batches "
                                              f"(no DistributedSampler; losses {losses})"))
            continue
        walk.append(("ran", f"runs: final loss per rank {losses}, each rank its own batches"))
    return walk


def _launch_once_more_if_stuck(fixed: int, timeout: float) -> list:
    """Seen now and then on gloo (lesson 03): a worker that has finished does not exit. Not the articles'
    mistake: try once more rather than report it as theirs."""
    try:
        return launch(article_ddp, fixed, nprocs=2, timeout=timeout)
    except LaunchTimeout:
        return launch(article_ddp, fixed, nprocs=2, timeout=timeout)


def missing_pieces(rebuild) -> dict:
    """What an article's training loop (its rebuild in ``utils/article.py``) uses and never defines, found by
    reading the code as a linter does (names loaded, never assigned, imported or built in), in the order they
    appear; and whether it creates an optimizer at all (it calls ``step()`` on the model instead)."""
    source = textwrap.dedent(inspect.getsource(rebuild))
    tree = ast.parse(source)
    names = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Name)), key=lambda n: (n.lineno, n.col_offset))
    defined = {n.id for n in names if not isinstance(n.ctx, ast.Load)}
    defined |= {a.arg for a in ast.walk(tree) if isinstance(a, ast.arg)}
    known = defined | set(vars(inspect.getmodule(rebuild))) | set(dir(builtins))
    undefined = [n.id for n in names if isinstance(n.ctx, ast.Load) and n.id not in known]
    return {"undefined": list(dict.fromkeys(undefined)), "optimizer": "optim" in source.split('"""')[-1]}

