"""Lab 00 (utils.labs.fix_the_article.checks): each check fails a deliberately wrong answer.

The launched workers are module-level functions (a launch pickles them by name). Every worker that builds a
DDP model keeps it until the process exits (``launch.keep_until_exit``), as the lab's solutions do.
"""

from __future__ import annotations

import os

import pytest
import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader

from utils import article, checks, data, launch, models
from utils.labs.fix_the_article import checks as lab


@pytest.fixture(autouse=True)
def cpu_mode(monkeypatch):
    monkeypatch.setenv("TWOGPU_MODE", "cpu")


def test_check_split_fails_two_copies_and_a_missing_transfer():
    class TwoCopies(nn.Module):  # the article's mistake: a whole model per device
        def __init__(self, dev0, dev1):
            super().__init__()
            self.first, self.second = article.ArticleModel().to(dev0), article.ArticleModel().to(dev1)

        def forward(self, x):
            return self.second(self.first(x))

    class NoTransfer(nn.Module):
        def __init__(self, dev0, dev1):
            super().__init__()
            self.layer1, self.layer2 = nn.Linear(128, 64).to(dev0), nn.Linear(64, 32).to(dev1)

        def forward(self, x):
            return self.layer2(self.layer1(x))

    assert "do not match article 1's" in lab.check_split(TwoCopies).message
    assert "forward pass fails" in lab.check_split(NoTransfer).message


def _worker_without_sampler(steps, batch_per_rank, lr):
    """Every rank trains on the same first batches: DDP runs, but the global batch is not the reference's."""
    dist.init_process_group(launch.current_backend())
    torch.manual_seed(0)
    model = article.ArticleModel()
    ddp = launch.keep_until_exit(DDP(model))  # freed at return, it could deadlock gloo's teardown
    rows = article.regression_data()
    opt = torch.optim.SGD(ddp.parameters(), lr=lr)
    losses = []
    for step in range(steps):
        x, y = rows[step * batch_per_rank:(step + 1) * batch_per_rank]
        opt.zero_grad()
        loss = nn.functional.mse_loss(ddp(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    dist.destroy_process_group()
    return {"losses": losses, "state": model.state_dict()}


@pytest.mark.timeout(120)
def test_check_ddp_fails_a_loop_without_distributed_sampler():
    verdict = lab.check_ddp(_worker_without_sampler)
    assert verdict.status == checks.FAILED and "differs from the reference" in verdict.message


def _cnn_worker_without_ddp(epochs, batch_per_rank, lr):
    """Each rank trains its own model on its own shard and never syncs: weights drift apart."""
    rank = int(os.environ["RANK"])
    model = models.ArticleCNN(seed=0)
    shard = torch.utils.data.Subset(data.digits_28("train"), range(rank, 256, 2))
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for x, y in DataLoader(shard, batch_size=batch_per_rank):
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
    return {"accuracy": models.accuracy(model, data.digits_28("test")), "state": model.state_dict()}


def _cnn_worker_reporting_a_percentage(epochs, batch_per_rank, lr):
    """A percentage where the check wants a fraction: 90.0 would pass a target of 0.85 if taken as it is."""
    return {"accuracy": 90.0, "state": models.ArticleCNN(seed=0).state_dict()}


@pytest.mark.timeout(120)
def test_check_cnn_fails_ranks_that_never_synchronise():
    verdict = lab.check_cnn(_cnn_worker_without_ddp)
    assert verdict.status == checks.FAILED and "gradients not synchronised" in verdict.message


@pytest.mark.timeout(120)
def test_check_cnn_fails_an_accuracy_given_as_a_percentage():
    verdict = lab.check_cnn(_cnn_worker_reporting_a_percentage)
    assert verdict.status == checks.FAILED and "a fraction between 0 and 1" in verdict.message


def test_the_solutions_bind_each_rank_to_its_own_gpu_before_joining_the_group():
    """On GPUs, init_process_group without set_device/device_id makes rank 1 open a context on GPU 0 too."""
    import json
    from pathlib import Path

    nb = json.loads((Path(__file__).resolve().parents[1] / "labs" / "00_fix_the_article.ipynb").read_text())
    inits = ["".join(c["source"]) for c in nb["cells"] if "init_process_group(" in "".join(c["source"])
             and c["cell_type"] == "code"]
    assert len(inits) == 2
    for source in inits:
        assert source.index("torch.cuda.set_device(device)") < source.index("dist.init_process_group(")
        assert "device_id=device if cuda else None" in source


def test_no_cell_runs_the_device_demos_in_the_notebook_process():
    """On GPUs they start CUDA, and CUDA started in the notebook stops every later forked launch."""
    import json
    from pathlib import Path

    nb = json.loads((Path(__file__).resolve().parents[1] / "labs" / "00_fix_the_article.ipynb").read_text())
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    assert "article.split_as_written(" not in code and "article.split_shapes_fixed_only(" not in code
    assert code.count("article.run_in_worker(article.split_") == 2
