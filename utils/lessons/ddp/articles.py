"""The articles' DDP code with its mistakes fixed one at a time (lesson 03, section 1).

``utils/article.py`` rebuilds the two articles' DDP code as written (``ddp_loop_as_written``,
``cnn_case_study_as_written``). Here ``article_ddp(k)`` is that training with the first ``k`` fixes of
``ARTICLE_FIXES`` applied, and ``try_article_step(k)`` launches it on two workers and prints where it stops.
"""

from __future__ import annotations

import contextlib
import io
import os
import textwrap
import warnings

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler

from utils import article
from utils.launch import LaunchTimeout, current_backend, current_device, keep_until_exit, launch

WIDTH = 110  # the course's widest visible output line

# In the order the errors appear when the code runs. Article 1 ("distributed training") and article 2
# (the CNN case study) share most of them; article 2 adds device_ids=[rank] and .to(rank) after wrapping.
ARTICLE_FIXES = [
    ("launcher", "start the workers with a launcher (torchrun, or launch() here): it sets RANK, WORLD_SIZE, "
                 "MASTER_ADDR and MASTER_PORT, which init_process_group reads"),
    ("backend", "use the backend the plan picks (gloo on CPU or a shared GPU, NCCL for one GPU per rank), "
                "not NCCL whatever the hardware"),
    ("device", "put the model on the worker's own device, not .cuda() (on a GPU, set it as this rank's "
               "current device before anything touches CUDA)"),
    ("device_ids", "pass device_ids only for a CUDA module (article 2 passes [rank] whatever the device)"),
    ("no_move_after_wrap", "move the model before wrapping it, never after (article 2 calls ddp_model.to(rank))"),
    ("undefined", "define what the loop uses: a DataLoader of (x, target) pairs, each batch moved to the "
                  "model's device, and the loss function (criterion)"),
    ("optimizer", "create an optimizer and call optimizer.step(): DDP has no step()"),
    ("sampler", "give each rank its own share of the data with a DistributedSampler (and set_epoch)"),
]


def article_ddp(fixed: int, epochs: int = 2, batch_per_rank: int = 64) -> dict:
    """The articles' DDP training with the first ``fixed`` entries of ``ARTICLE_FIXES`` applied.

    Article 1's model (Linear 128->64->32) on ``article.regression_data()``. Each ``if`` below is one fix;
    its ``else`` is what the articles wrote. Returns this rank's final loss and a fingerprint of the batches
    it trained on (to see whether the ranks shared their data or trained on the same rows twice), the
    optimizer steps it took (``steps``) and the rows of the data set (``rows``) it read per epoch.
    """
    fix = {name for name, _ in ARTICLE_FIXES[:fixed]}
    if "launcher" not in fix:  # what `python train.py` sees: nobody set the rendezvous variables
        for name in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT"):
            os.environ.pop(name, None)
    device = current_device() if "device" in fix else torch.device("cuda")
    if device.type == "cuda" and "device" in fix:
        torch.cuda.set_device(device)  # this rank's GPU only: otherwise every rank also opens one on cuda:0
    with warnings.catch_warnings():  # a CPU build warns about NCCL's default timeout before it fails: the
        warnings.simplefilter("ignore")  # failure is the lesson, the warning only repeats it
        dist.init_process_group(backend=current_backend() if "backend" in fix else "nccl")
    rank = dist.get_rank()
    torch.manual_seed(0)
    model = article.ArticleModel().to(device)  # the articles: .cuda()
    cuda = device.type == "cuda"
    ddp_model = DDP(model, device_ids=[device.index] if cuda else None) if "device_ids" in fix \
        else DDP(model, device_ids=[rank])
    keep_until_exit(ddp_model)  # the course's launcher, not the articles: see lesson 03, section 2
    if "no_move_after_wrap" not in fix:
        ddp_model.to(rank)  # article 2: an int means cuda:<rank>, and it comes after wrapping
    dataset = article.regression_data()
    sampler = DistributedSampler(dataset, shuffle=True, seed=0) if "sampler" in fix else None
    if "undefined" in fix:
        data_loader = DataLoader(dataset, batch_size=batch_per_rank, sampler=sampler)
        criterion = nn.MSELoss()
    else:  # the articles loop over a data_loader that no line defines: Python stops at the loop
        raise NameError("name 'data_loader' is not defined")
    optimizer = torch.optim.SGD(ddp_model.parameters(), lr=0.05) if "optimizer" in fix else None
    fingerprint, steps = 0.0, 0
    for epoch in range(epochs):
        if sampler is not None:
            sampler.set_epoch(epoch)  # a new shuffle each epoch, the same on every rank
        for x, target in data_loader:
            x, target = x.to(device), target.to(device)
            fingerprint += x.sum().item()
            steps += 1
            ddp_model.zero_grad()
            loss = criterion(ddp_model(x), target)
            loss.backward()
            if optimizer is not None:
                optimizer.step()
            else:
                ddp_model.step()  # what the articles call: DistributedDataParallel has no step()
    dist.destroy_process_group()
    return {"rank": rank, "loss": loss.item(), "fingerprint": round(fingerprint, 3), "steps": steps,
            "rows": len(sampler) if sampler is not None else len(dataset), "data_rows": len(dataset),
            "full_steps": epochs * len(DataLoader(dataset, batch_size=batch_per_rank))}


def batch_left_behind(plan_devices: tuple[str, ...]) -> None:
    """The model on the second device, its batch left on the CPU: the error a GPU raises (lesson 03).

    Run it in a worker (``launch(batch_left_behind, PLAN.devices, nprocs=1)``): on GPUs it touches CUDA, and
    CUDA started in the notebook would stop every later forked launch. Where both workers share one
    device, the ``meta`` device stands in for the second one (``article.second_device``).
    """
    other = article.second_device(plan_devices)
    torch.nn.Linear(128, 32).to(other)(torch.randn(16, 128))


def ran_text(results: list[dict]) -> str:
    """What a run that finished says: each rank's final loss (its last batch's) and steps, whether the ranks
    trained on the same batches, and where each rank read only its share, why it took fewer steps."""
    same = results[0]["fingerprint"] == results[1]["fingerprint"]
    losses = ", ".join(f"{r['loss']:.4f}" for r in results)
    steps = ", ".join(str(r["steps"]) for r in results)
    text = f"final loss per rank {losses} (its last batch's), after {steps} optimizer steps per rank; the two ranks "
    if same:
        return text + "trained on THE SAME batches (each rank sees the whole data set)"
    one = results[0]
    return text + (f"trained on different batches. Each rank read {one['rows']} of the {one['data_rows']} rows "
                   f"an epoch, so over the same epochs it took {one['steps']} steps where a rank reading them "
                   f"all takes {one['full_steps']}: a final loss after fewer steps can be higher, and each step's "
                   "gradient now averages both ranks' different rows")


def try_article_step(fixed: int, timeout: float = 30) -> list | None:
    """Launch ``article_ddp(fixed)`` on 2 workers in a guarded block: print the fix and what happens next,
    every line wrapped to the course's 110 characters (errors of the distributed package run long)."""
    if fixed:
        name, what = ARTICLE_FIXES[fixed - 1]
        title = f"fix {fixed} ({name}): {what}"
    else:
        title = "as written, started like a plain script (no launcher)"
    out = io.StringIO()
    results = None
    with contextlib.redirect_stdout(out), article.shows_error(title):
        try:
            results = launch(article_ddp, fixed, nprocs=2, timeout=timeout)
        except LaunchTimeout:
            # Seen now and then on gloo here: a worker that has finished does not exit. Not the articles'
            # mistake, so say so and try once more rather than hide the step's real outcome.
            print("  (the launch timed out with a worker stuck after finishing; trying once more)")
            results = launch(article_ddp, fixed, nprocs=2, timeout=timeout)
    if results:
        print(f"  ran: {ran_text(results)}", file=out)
    for line in out.getvalue().splitlines():
        indent = " " * (len(line) - len(line.lstrip()))
        print(textwrap.fill(line, WIDTH, initial_indent="", subsequent_indent=indent + "  ") if line else line)
    return results
