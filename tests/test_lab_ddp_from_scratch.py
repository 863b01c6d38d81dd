"""Lab 03 (utils.labs.ddp_from_scratch.checks): each check fails a deliberately wrong answer, and the same
function with the mistake switched off passes.

Every test bounds its processes (pytest timeout, launch timeout) and leaves none behind.
"""

from __future__ import annotations

import contextlib

import pytest
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler

from utils import checks
from utils.labs.ddp_from_scratch import checks as lab
from utils.launch import current_backend, keep_until_exit


@pytest.fixture(autouse=True)
def _in_cpu_mode_leaving_nothing(cpu_mode_and_no_leftovers):
    yield


def _lab_worker(steps, micro_batch, accumulate, lr, wrap=True, divide=True, destroy=True):
    """The lab's solution with one switch per mistake (wrap in DDP, divide by accumulate, destroy the group)."""
    dist.init_process_group(current_backend())
    dataset = lab.text()
    model = lab.build_model(dataset.corpus.vocab_size)
    net = keep_until_exit(DDP(model)) if wrap else model  # freed at return, DDP could deadlock gloo
    sampler = DistributedSampler(dataset, shuffle=True, seed=lab.SEED, drop_last=True)
    batches = iter(DataLoader(dataset, batch_size=micro_batch, sampler=sampler, drop_last=True))
    optimizer = torch.optim.AdamW(net.parameters(), lr=lr)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        total = 0.0
        for k in range(accumulate):
            x, y = next(batches)
            sync = net.no_sync() if wrap and k < accumulate - 1 else contextlib.nullcontext()
            with sync:
                loss = net(x, y)[1] / (accumulate if divide else 1)
                loss.backward()
            total += loss.item()
        optimizer.step()
        losses.append(total)
    result = {"losses": losses, "grads": lab.flat_grad(model), "state": model.state_dict()}
    if destroy:
        dist.destroy_process_group()
    return result


def _without_ddp(*args):
    return _lab_worker(*args, wrap=False)


def _without_dividing_by_accumulate(*args):
    return _lab_worker(*args, divide=False)


def _without_destroy(*args):
    return _lab_worker(*args, destroy=False)


@pytest.mark.timeout(60)
def test_lab_gradient_check_fails_ranks_that_train_without_ddp():
    verdict = lab.check_gradients(_without_ddp)
    assert verdict.status == checks.FAILED and "is the model wrapped in DDP?" in verdict.message


@pytest.mark.timeout(60)
def test_lab_loss_check_fails_accumulation_without_dividing_the_loss():
    verdict = lab.check_final_loss(_without_dividing_by_accumulate)
    assert verdict.status == checks.FAILED and "differs from the reference" in verdict.message


@pytest.mark.timeout(60)
def test_lab_clean_up_check_fails_a_function_that_leaves_the_group_open():
    verdict = lab.check_clean_up(_without_destroy)
    assert verdict.status == checks.FAILED and "destroy_process_group" in verdict.message
    assert lab.check_gradients(_lab_worker).passed  # the same function, fixed, passes (sanity of the switches)


def test_the_solution_binds_each_rank_to_its_own_gpu_and_reads_the_loss_once_per_step():
    """On GPUs, init_process_group without set_device/device_id makes rank 1 open a context on GPU 0 too; and
    a .item() per micro-batch would wait for the GPU each time."""
    import json
    from pathlib import Path

    nb = json.loads((Path(__file__).resolve().parents[1] / "labs" / "03_ddp_from_scratch.ipynb").read_text())
    (source,) = ["".join(c["source"]) for c in nb["cells"] if "def train_gpt(" in "".join(c["source"])]
    assert source.index("torch.cuda.set_device(device)") < source.index("dist.init_process_group(")
    assert "device_id=device if cuda else None" in source
    code = "\n".join(line.split("#")[0] for line in source.splitlines())  # without the comments
    assert code.count(".item()") == 1 and "step_loss += loss.detach()" in code
