"""Article 2's DDP case study (row B17), rebuilt here with its own mistakes, and fixed one at a time.

Introduced in lesson 09. Article 1's DDP snippet has its walk in lesson 03 (``utils/lessons/ddp/articles.py``);
article 2's code differs, and meets its errors in another order: its entry point reads RANK and WORLD_SIZE
from ``os.environ`` before anything else, and never imports ``os``. The rebuild states the code's facts, in
the order it runs them (the course does not copy the article's text):

1. under ``__main__``: ``rank, world_size`` from ``os.environ``, with no ``import os``;
2. ``init_process_group('nccl', init_method='env://', world_size=..., rank=...)``;
3. the digit CNN (``utils.models.ArticleCNN``) put on the GPU with ``.cuda()``;
4. ``DDP(model, device_ids=[rank])``, then ``ddp_model.to(rank)`` after wrapping;
5. ten epochs over ``dataloader`` with ``criterion``, neither defined; the batch is never moved to the GPU;
6. ``ddp_model.step()``, which DDP does not have (no optimizer is created).

``case_study(k)`` runs it with the first ``k`` fixes of ``FIXES``; ``walk()`` launches it with 0, 1, 2, ...
fixes on two workers and keeps each error the first time it appears, with the fix that answers it.
"""

from __future__ import annotations

import os
import warnings

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, Subset

from utils.data import digits_28
from utils.launch import LaunchTimeout, WorkerError, current_backend, current_device, keep_until_exit, launch
from utils.lessons.articles_checked.snippets import first_line
from utils.models import ArticleCNN

ENTRY_POINT = "int(os.environ['RANK']), int(os.environ['WORLD_SIZE'])"  # the article's first two lines run
LAUNCHER_VARIABLES = ("RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT")
EPOCHS, IMAGES, BATCH = 10, 128, 64  # the article's ten epochs; a small slice of the digits keeps them quick

# In the order the code meets them (on a CPU; on GPUs some of them do not raise, see walk()).
FIXES = [
    ("import os", "import os: the entry point reads os.environ and nothing imports os"),
    ("launcher", "start it with a launcher (torchrun, or launch() here): it sets RANK, WORLD_SIZE, "
                 "MASTER_ADDR and MASTER_PORT"),
    ("backend", "the backend the plan picks (gloo on a CPU or a shared GPU), not NCCL whatever the hardware"),
    ("device", "the model on this worker's own device, set as current, not .cuda() (cuda:0 on every rank)"),
    ("device_ids", "device_ids=[this worker's GPU] only for a model on a GPU, not [rank] whatever the device"),
    ("no .to(rank)", "no ddp_model.to(rank) after wrapping (an int means cuda:<rank>)"),
    ("dataloader", "define dataloader: (image, label) batches of digits"),
    ("criterion", "define criterion: cross-entropy"),
    ("target on the device", "move each label batch to the model's device (DDP moves only the inputs)"),
    ("optimizer", "create an optimizer and call optimizer.step(): DDP has no step()"),
    ("sampler", "a DistributedSampler, so that each rank trains on its own share of the data"),
]


def case_study(fixed: int) -> dict:
    """Article 2's case study with the first ``fixed`` entries of ``FIXES`` applied; each ``if`` is one fix,
    its ``else`` what the article does. Returns this rank's last loss and a fingerprint of its batches."""
    fix = {name for name, _ in FIXES[:fixed]}
    if "launcher" not in fix:  # what `python train.py` sees: nobody set the rendezvous variables
        for name in LAUNCHER_VARIABLES:
            os.environ.pop(name, None)
    names = {"os": os} if "import os" in fix else {}  # the article imports torch and DDP, never os
    rank, world_size = eval(ENTRY_POINT, names)  # a NameError without os, a KeyError without a launcher
    torch.manual_seed(0)
    device = current_device() if "device" in fix else torch.device("cuda")  # .cuda(): cuda:0 on every rank
    if device.type == "cuda" and "device" in fix:
        torch.cuda.set_device(device)
    with warnings.catch_warnings():  # a CPU build warns about NCCL before it fails: the error is the lesson
        warnings.simplefilter("ignore")
        dist.init_process_group(backend=current_backend() if "backend" in fix else "nccl",
                                init_method="env://", world_size=world_size, rank=rank)
    model = ArticleCNN(seed=0).to(device)
    if "device_ids" in fix:
        ddp_model = DDP(model, device_ids=[device.index] if device.type == "cuda" else None)
    else:
        ddp_model = DDP(model, device_ids=[rank])
    keep_until_exit(ddp_model)  # the course's launcher, not the article: see lesson 03, section 2
    if "no .to(rank)" not in fix:
        ddp_model.to(rank)
    return _train(ddp_model, fix, device, rank, world_size)


def _train(ddp_model, fix: set, device: torch.device, rank: int, world_size: int) -> dict:
    """The article's ten epochs: ``dataloader`` and ``criterion`` exist only once fixed."""
    digits = Subset(digits_28("train"), range(IMAGES))  # (1, 28, 28) images, labels 0..9
    sampler = DistributedSampler(digits, world_size, rank, seed=0) if "sampler" in fix else None
    if "dataloader" not in fix:
        raise NameError("name 'dataloader' is not defined")  # the loop's first line: nothing defines it
    dataloader = DataLoader(digits, batch_size=BATCH, sampler=sampler)
    criterion = nn.CrossEntropyLoss() if "criterion" in fix else None
    optimizer = torch.optim.SGD(ddp_model.parameters(), lr=0.05) if "optimizer" in fix else None
    fingerprint = 0.0
    for epoch in range(EPOCHS):
        if sampler is not None:
            sampler.set_epoch(epoch)
        for data, target in dataloader:  # on the CPU, as a DataLoader gives them
            if "target on the device" in fix:
                target = target.to(device)
            fingerprint += data.sum().item()
            ddp_model.zero_grad()
            output = ddp_model(data)  # DDP moves data to its device_ids[0], never target
            if criterion is None:
                raise NameError("name 'criterion' is not defined")  # the loss line: nothing defines it
            loss = criterion(output, target)
            loss.backward()
            if optimizer is not None:
                optimizer.step()
            else:
                ddp_model.step()  # what the article calls: DistributedDataParallel has no step()
    dist.destroy_process_group()
    return {"rank": rank, "loss": loss.item(), "fingerprint": round(fingerprint, 3)}


def walk(timeout: float = 30) -> list[tuple[str, str]]:
    """``case_study`` launched on 2 workers with 0, 1, 2, ... fixes: (the fix that comes next, what the run
    meets), each outcome once. A fix whose run meets the same error as before was not needed on this
    machine (on GPUs, NCCL is a right backend): the error stays listed with the fix that answers it."""
    steps: list[tuple[str, str]] = []
    for k in range(len(FIXES) + 1):
        name = FIXES[k][0] if k < len(FIXES) else "ran"
        outcome = _outcome(k, timeout)
        if steps and steps[-1][1] == outcome:
            steps.pop()  # the previous fix changed nothing here: this fix answers the error
        steps.append((name, outcome))
    return steps


def _outcome(fixed: int, timeout: float) -> str:
    """What one launch with ``fixed`` fixes meets: an error's first line, or how it trained."""
    try:
        try:
            results = launch(case_study, fixed, nprocs=2, timeout=timeout)
        except LaunchTimeout:  # seen now and then on gloo (lesson 03): a finished worker that does not exit
            results = launch(case_study, fixed, nprocs=2, timeout=timeout)
    except WorkerError as err:
        return first_line(err)
    losses = ", ".join(f"{r['loss']:.3f}" for r in results)
    if results[0]["fingerprint"] == results[1]["fingerprint"]:  # a silent mistake: no error, wrong work
        return f"no error, but both ranks train on the same batches (losses {losses})"
    return f"runs: last loss per rank {losses}, each rank its own batches"
