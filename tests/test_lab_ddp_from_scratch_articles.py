"""Lab 03's exercise C (utils.labs.ddp_from_scratch.articles): article 2's CNN case study, fixed. Each
plausible wrong worker (``pytest -m mutants``) fails with a message that names the mistake (the solution runs
in the notebook, under nbval). It was lab 00's part C until issue 26 moved it where DDP is taught; article 1's
loop is repaired in lesson 03 §1.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler

from utils import checks, data, launch, models
from utils.labs.ddp_from_scratch import articles as lab


@pytest.fixture(autouse=True)
def _in_cpu_mode_leaving_nothing(cpu_mode_and_no_leftovers):
    yield


# --- Exercise C: article 2's CNN ------------------------------------------------------------------------------


def _cnn_worker(epochs, batch_per_rank, lr, mistake=None):
    """Exercise C's solution on the CPU, with at most one mistake switched on. Without DDP or without a sampler
    the ranks still end with equal weights (same seed, same data) and reach the accuracy: only the watch of
    what each rank sent and read tells them apart."""
    dist.init_process_group(launch.current_backend())
    model = models.ArticleCNN(seed=lab.SEED)
    net = model if mistake == "no DDP" else launch.keep_until_exit(DDP(model))
    train_set = data.digits_28("train")
    sampler = None if mistake in ("no sampler", "no DDP") else DistributedSampler(train_set, shuffle=True,
                                                                                   seed=lab.SEED)
    loader = DataLoader(train_set, batch_size=batch_per_rank, sampler=sampler, shuffle=sampler is None)
    optimizer = torch.optim.SGD(net.parameters(), lr=lr, momentum=0.9)
    before = {k: v.clone() for k, v in model.state_dict().items()}  # the mistake "state before training"
    torch.manual_seed(lab.SEED)  # the same shuffle on both ranks, where no sampler deals the data out
    for epoch in range(epochs):
        if sampler is not None:
            sampler.set_epoch(epoch)
        for images, labels in loader:
            optimizer.zero_grad()
            nn.functional.cross_entropy(net(images), labels).backward()
            optimizer.step()
    accuracy = models.accuracy(model, data.digits_28("test"))
    dist.destroy_process_group()
    state = before if mistake == "state before training" else model.state_dict()
    return {"accuracy": 100 * accuracy if mistake == "a percentage" else accuracy, "state": state}


CNN_MUTANTS = [
    ("no DDP", "never wrapped its model in DistributedDataParallel"),
    ("no sampler", "read no data through a DistributedSampler"),
    ("state before training", "short of the target"),  # the accuracy is measured from the returned weights
]


@pytest.mark.timeout(180)
def test_a_reported_accuracy_is_not_trusted_the_returned_weights_are_measured():
    verdict = lab.check_cnn(functools.partial(_cnn_worker, mistake="a percentage"))  # a wrong report only
    assert verdict.passed, str(verdict)


@pytest.mark.mutants
@pytest.mark.timeout(180)
@pytest.mark.parametrize("mistake, says", CNN_MUTANTS, ids=[m[0] for m in CNN_MUTANTS])
def test_a_wrong_cnn_worker_fails_saying_what_is_wrong(mistake, says):
    verdict = lab.check_cnn(functools.partial(_cnn_worker, mistake=mistake))
    assert verdict.status == checks.FAILED and says in verdict.message, str(verdict)


# --- The lab's source -------------------------------------------------------------------------------------


def test_the_solutions_bind_each_rank_to_its_own_gpu_before_joining_the_group():
    """On GPUs, init_process_group without set_device/device_id makes rank 1 open a context on GPU 0 too."""
    nb = json.loads((Path(__file__).resolve().parents[1] / "labs" / "03_ddp_from_scratch.ipynb").read_text())
    inits = ["".join(c["source"]) for c in nb["cells"]
             if c["cell_type"] == "code" and "init_process_group(" in "".join(c["source"])]
    assert len(inits) == 2  # exercise A and exercise C
    for source in inits:
        assert source.index("torch.cuda.set_device(device)") < source.index("dist.init_process_group(")
        assert "device_id=device if cuda else None" in source
