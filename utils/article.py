"""The articles' approaches, rebuilt in the course's own code with their mistakes kept, and the fixes.

Introduced in ``labs/00_fix_the_article.ipynb``; lessons 02 (model split) and 03 (DDP) start from the same
rebuilds. The course states facts about the two articles (layer sizes, calls, omissions); it does not copy
their text or code, and nothing here reads the articles.

Facts the rebuilds keep:
- Article 1, "parallel computing": a model of Linear(128→64) then Linear(64→32) is instantiated twice, one
  copy per GPU, and the first copy's 32-wide output is fed straight into the second copy, which expects
  128 inputs; the output is never moved to the second GPU. It is also sequential, not parallel.
- Article 1, "distributed training": ``init_process_group('nccl')`` with no launcher, ``model.cuda()``,
  a loop over an undefined ``data_loader`` with undefined ``criterion`` and ``target``, and
  ``ddp_model.step()``, which does not exist (the optimizer steps, not the model).
- Article 2, case study: a CNN for 28×28 digits trained for 10 epochs with DDP: ``os`` used but never
  imported, ``device_ids=[rank]`` (CUDA only), ``ddp_model.to(rank)`` after wrapping, no sampler, no
  optimizer, undefined ``dataloader`` and ``criterion``, and ``ddp_model.step()`` again.
"""

from __future__ import annotations

import contextlib
import os
import re
import traceback
import warnings

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

from utils.models import ArticleCNN

IN_FEATURES, HIDDEN, OUT_FEATURES = 128, 64, 32


class ArticleModel(nn.Module):
    """Article 1's model: Linear(128→64) then Linear(64→32), with the article's layer names."""

    def __init__(self):
        super().__init__()
        self.layer1 = nn.Linear(IN_FEATURES, HIDDEN)
        self.layer2 = nn.Linear(HIDDEN, OUT_FEATURES)

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (N, 128) -> (N, 32)
        return self.layer2(self.layer1(x))


def second_device(plan_devices: tuple[str, ...]) -> str:
    """The device that stands for "the other GPU". Where both stages share one device (cpu and 1gpu
    modes), the ``meta`` device stands in: tensors without storage, so that forgetting to move a tensor
    raises the same "not on the expected device" error a second GPU would."""
    return plan_devices[1] if plan_devices[1] != plan_devices[0] else "meta"


def split_as_written(dev0: str, dev1: str, batch: int = 100) -> torch.Tensor:
    """Article 1's model split as it was written: two whole copies, output fed on without moving it."""
    model1 = ArticleModel().to(dev0)
    model2 = ArticleModel().to(dev1)
    data = torch.randn(batch, IN_FEATURES, device=dev0)
    output1 = model1(data)  # (100, 32) on dev0
    return model2(output1)  # expects (N, 128) on dev1: shape error first, device error next


def split_shapes_fixed_only(dev0: str, dev1: str, batch: int = 100) -> torch.Tensor:
    """The shape mistake fixed (one model, its two layers on two devices), the transfer still missing."""
    layer1 = nn.Linear(IN_FEATURES, HIDDEN).to(dev0)
    layer2 = nn.Linear(HIDDEN, OUT_FEATURES).to(dev1)
    data = torch.randn(batch, IN_FEATURES, device=dev0)
    return layer2(layer1(data))  # layer1's output stays on dev0


class RaisedInWorker(Exception):
    """What a worker of ``run_in_worker`` raised: its exception type, message, and where it was raised."""

    def __init__(self, type_name: str, message: str, worker_traceback: str = ""):
        super().__init__(message)
        self.type_name = type_name
        frames = re.findall(r'File "[^"]*", line \d+, in (\S+)\n\s+(.+)', worker_traceback)
        self.where = frames[-1] if frames else None  # (function, source line) of the innermost frame


def run_in_worker(fn, *args, timeout: float = 60):
    """``fn(*args)`` in one worker process: its return value, or what it raised, as ``RaisedInWorker``.

    Why a worker: on a GPU these demos start CUDA, and CUDA started in the notebook process would stop
    every later launch that forks its workers ("Cannot re-initialize CUDA in forked subprocess").
    """
    from utils.launch import WorkerError, launch

    try:
        return launch(fn, *args, nprocs=1, timeout=timeout)[0]
    except WorkerError as err:
        raise RaisedInWorker(err.exc_type, err.message, err.worker_traceback) from None


@contextlib.contextmanager
def shows_error(title: str):
    """Run the block; print its error in two lines instead of stopping the notebook (a *guarded* cell).

    A notebook committed with an error output fails the course's hygiene tests, and a learner reading it
    should see the error the article's code gives, not a wall of traceback.
    """
    print(f"{title}:")
    try:
        yield
    except Exception as exc:  # noqa: BLE001 - the point is to show whatever the article's code raises
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        print(f"  raised {getattr(exc, 'type_name', type(exc).__name__)}: {first[:300]}")
        if isinstance(exc, RaisedInWorker):  # where the worker raised it
            if exc.where:
                print(f"  (in {exc.where[0]}, at: {exc.where[1].strip()})")
        elif not hasattr(exc, "rank"):  # a launch's error already names its rank; a local one names its line
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            print(f"  (in {frame.name}, at: {frame.line})")
    else:
        print("  ran without an error")


def regression_data(n: int = 512, seed: int = 0) -> torch.utils.data.TensorDataset:
    """A synthetic regression task for article 1's model: y = tanh(x @ W) + noise, W fixed by ``seed``.

    Shapes: x (n, 128), y (n, 32). Small and seeded, so every rank builds the same data set.
    """
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, IN_FEATURES, generator=g)
    w = torch.randn(IN_FEATURES, OUT_FEATURES, generator=g) / IN_FEATURES**0.5
    y = torch.tanh(x @ w) + 0.05 * torch.randn(n, OUT_FEATURES, generator=g)
    return torch.utils.data.TensorDataset(x, y)


def ddp_loop_as_written():
    """Article 1's distributed-training snippet, rebuilt: run it on workers to see where it stops first.

    Its mistakes, in order of appearance: the NCCL backend whatever the hardware (a CPU build of torch has
    none), ``.cuda()`` whatever the hardware, a loop over ``data_loader`` that is never defined (nor are
    ``criterion`` and ``target``), no DistributedSampler, and ``ddp_model.step()``, which does not exist.
    """
    with warnings.catch_warnings():  # a CPU build warns about NCCL before it fails: the error is the lesson
        warnings.simplefilter("ignore")
        dist.init_process_group(backend="nccl")
    model = ArticleModel().cuda()
    ddp_model = DDP(model)
    for data in data_loader:  # noqa: F821 - undefined in the article too
        ddp_model.zero_grad()
        output = ddp_model(data)
        loss = criterion(output, target)  # noqa: F821
        loss.backward()
        ddp_model.step()


def cnn_case_study_as_written():
    """Article 2's case study, rebuilt: the CNN is fine, the training around it is not.

    Its entry point reads RANK and WORLD_SIZE from ``os.environ`` without importing ``os`` (kept here as
    a fact, not reproduced: the import is there so the later mistakes can be seen), the backend
    is NCCL, ``device_ids=[rank]`` only works for CUDA modules, ``ddp_model.to(rank)`` comes after wrapping,
    and the loop uses undefined ``dataloader`` and ``criterion``, no sampler, no optimizer, and
    ``ddp_model.step()``.
    """
    rank, world_size = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dist.init_process_group(backend="nccl", init_method="env://", world_size=world_size, rank=rank)
    model = ArticleCNN().cuda()
    ddp_model = DDP(model, device_ids=[rank])
    ddp_model.to(rank)
    for epoch in range(10):
        for data, target in dataloader:  # noqa: F821
            ddp_model.zero_grad()
            loss = criterion(ddp_model(data), target)  # noqa: F821
            loss.backward()
            ddp_model.step()
