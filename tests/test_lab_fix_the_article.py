"""Lab 00 (utils.labs.fix_the_article.checks): the solutions pass, and each plausible wrong answer (a mutant,
``pytest -m mutants``) fails the check that measures its skill, with a message that says what is wrong.

The launched workers are module-level functions (a launch pickles them by name). Every worker that builds a
DDP model keeps it until the process exits (``launch.keep_until_exit``), as the lab's solutions do.
"""

from __future__ import annotations

import functools

import pytest
import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler

from utils import article, checks, data, launch, models
from utils.labs.fix_the_article import checks as lab


@pytest.fixture(autouse=True)
def _in_cpu_mode_leaving_nothing(cpu_mode_and_no_leftovers):
    yield


# --- Part A: the split ------------------------------------------------------------------------------------


class Split(nn.Module):
    """Article 1's split, right, or with one mistake (``placement``: where each layer goes and what moves)."""

    def __init__(self, dev0, dev1, placement="right"):
        super().__init__()
        self.dev0, self.dev1, self.placement = dev0, dev1, placement
        first, second = (dev1, dev0) if placement == "swapped" else (dev0, dev1)
        if placement == "layer2 on the first device":
            second = dev0
        self.layer1, self.layer2 = nn.Linear(128, 64).to(first), nn.Linear(64, 32).to(second)

    def forward(self, x):
        if self.placement == "layer2 on the first device":  # computes on dev0, then moves only the output
            return self.layer2(self.layer1(x)).to(self.dev1)
        if self.placement == "swapped":
            return self.layer2(self.layer1(x.to(self.dev1)).to(self.dev0))
        if self.placement == "no transfer":
            return self.layer2(self.layer1(x))
        return self.layer2(self.layer1(x).to(self.dev1))


class TwoCopies(nn.Module):  # the article's mistake: a whole model per device
    def __init__(self, dev0, dev1):
        super().__init__()
        self.first, self.second = article.ArticleModel().to(dev0), article.ArticleModel().to(dev1)

    def forward(self, x):
        return self.second(self.first(x))


def _split(placement):
    return type(f"Split_{placement.replace(' ', '_')}", (Split,),
                {"__init__": lambda self, d0, d1: Split.__init__(self, d0, d1, placement)})


@pytest.mark.timeout(60)
def test_the_right_split_passes_and_its_layers_are_recorded_where_they_ran():
    assert lab.check_split(_split("right")).passed
    out, layers = lab.where_layers_ran(Split("cpu", "meta"), torch.randn(3, 128))
    assert out.device.type == "meta" and layers["layer1"] == {"parameters": "cpu", "input": "cpu", "output": "cpu"}
    assert layers["layer2"] == {"parameters": "meta", "input": "meta", "output": "meta"}


SPLIT_MUTANTS = [
    (TwoCopies, "do not match article 1's"),
    (_split("no transfer"), "forward pass fails"),
    (_split("layer2 on the first device"), "layer2's parameters are on cpu, expected meta"),
    (_split("swapped"), "layer1's parameters are on meta, expected cpu"),
]


@pytest.mark.mutants
@pytest.mark.timeout(60)
@pytest.mark.parametrize("model_cls, says", SPLIT_MUTANTS, ids=lambda m: getattr(m, "__name__", "says"))
def test_a_wrong_split_fails_saying_where_a_layer_ran(model_cls, says):
    verdict = lab.check_split(model_cls)
    assert verdict.status == checks.FAILED and says in verdict.message, str(verdict)


# --- Part B: article 1's DDP loop -------------------------------------------------------------------------


def _ddp_worker(steps, batch_per_rank, lr, mistake=None):
    """Part B's solution on the CPU, with at most one mistake switched on."""
    dist.init_process_group(launch.current_backend())
    torch.manual_seed(lab.SEED)
    model = article.ArticleModel()
    net = model if mistake == "no DDP" else launch.keep_until_exit(DDP(model))  # freed at return: deadlock
    rows = article.regression_data()
    sampler = None if mistake == "no sampler" else DistributedSampler(rows, shuffle=True, seed=lab.SEED,
                                                                       drop_last=True)
    loader = DataLoader(rows, batch_size=batch_per_rank, sampler=sampler, drop_last=True)
    optimizer = torch.optim.SGD(net.parameters(), lr=lr)
    losses, epoch = [], 0
    while len(losses) < steps:
        if sampler is not None and mistake != "no set_epoch":
            sampler.set_epoch(epoch)
        for x, y in loader:
            if len(losses) == steps:
                break
            optimizer.zero_grad()
            loss = nn.functional.mse_loss(net(x), y)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        epoch += 1
    dist.destroy_process_group()
    return {"losses": losses, "state": model.state_dict()}


DDP_MUTANTS = [
    ("no sampler", "read no data through a DistributedSampler"),
    ("no set_epoch", "reshuffles only when told each new epoch"),
    ("no DDP", "never wrapped its model in DistributedDataParallel"),
]


@pytest.mark.timeout(120)
def test_the_ddp_loop_solution_passes():
    verdict = lab.check_ddp(_ddp_worker)
    assert verdict.passed, str(verdict)


@pytest.mark.mutants
@pytest.mark.timeout(120)
@pytest.mark.parametrize("mistake, says", DDP_MUTANTS, ids=[m[0] for m in DDP_MUTANTS])
def test_a_wrong_ddp_loop_fails_saying_what_is_wrong(mistake, says):
    verdict = lab.check_ddp(functools.partial(_ddp_worker, mistake=mistake))
    assert verdict.status == checks.FAILED and says in verdict.message, str(verdict)


# --- Part C: article 2's CNN ------------------------------------------------------------------------------


def _cnn_worker(epochs, batch_per_rank, lr, mistake=None):
    """Part C's solution on the CPU, with at most one mistake switched on. Without DDP or without a sampler
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
    return {"accuracy": 100 * accuracy if mistake == "a percentage" else accuracy, "state": model.state_dict()}


CNN_MUTANTS = [
    ("no DDP", "never wrapped its model in DistributedDataParallel"),
    ("no sampler", "read no data through a DistributedSampler"),
    ("a percentage", "a fraction between 0 and 1"),
]


@pytest.mark.mutants
@pytest.mark.timeout(180)
@pytest.mark.parametrize("mistake, says", CNN_MUTANTS, ids=[m[0] for m in CNN_MUTANTS])
def test_a_wrong_cnn_worker_fails_saying_what_is_wrong(mistake, says):
    verdict = lab.check_cnn(functools.partial(_cnn_worker, mistake=mistake))
    assert verdict.status == checks.FAILED and says in verdict.message, str(verdict)


# --- The lab's source ---------------------------------------------------------------------------------------


def _code_cells():
    import json
    from pathlib import Path

    nb = json.loads((Path(__file__).resolve().parents[1] / "labs" / "00_fix_the_article.ipynb").read_text())
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


def test_the_solutions_bind_each_rank_to_its_own_gpu_before_joining_the_group():
    """On GPUs, init_process_group without set_device/device_id makes rank 1 open a context on GPU 0 too."""
    inits = [source for source in _code_cells() if "init_process_group(" in source]
    assert len(inits) == 2
    for source in inits:
        assert source.index("torch.cuda.set_device(device)") < source.index("dist.init_process_group(")
        assert "device_id=device if cuda else None" in source


def test_no_cell_runs_the_device_demos_in_the_notebook_process():
    """On GPUs they start CUDA, and CUDA started in the notebook stops every later forked launch."""
    code = "\n".join(_code_cells())
    assert "article.split_as_written(" not in code and "article.split_shapes_fixed_only(" not in code
    assert code.count("article.run_in_worker(article.split_") == 2
