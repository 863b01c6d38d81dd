"""Lesson 03 (utils.ddp) and lab 03 (utils.ddp_lab): the training function under launch and torchrun (one and
two "nodes"), DDP's gradient against the full batch's, PowerSGD on gloo, and the lab's checks failing wrong answers.

Every test bounds its processes (pytest timeout, launch timeout, subprocess timeout) and leaves none behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import psutil
import pytest
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler

from utils import checks, ddp
from utils.launch import launch

REPO = Path(__file__).resolve().parents[1]
# Small enough for seconds on 2 CPU cores; the same on every path so the final losses can be compared.
TINY = ddp.Settings(steps=6, batch_per_worker=8, context=32, width=64, depth=2, heads=4, max_chars=50_000,
                    threads=1)
TINY_FLAGS = ["--steps", "6", "--batch-per-worker", "8", "--context", "32", "--width", "64", "--depth", "2",
              "--heads", "4", "--max-chars", "50000", "--threads", "1"]


@pytest.fixture(autouse=True)
def cpu_mode_and_no_leftovers(monkeypatch):
    monkeypatch.setenv("TWOGPU_MODE", "cpu")
    yield
    left = [p for p in psutil.Process().children(recursive=True) if p.status() != psutil.STATUS_ZOMBIE
            and "resource_tracker" not in " ".join(p.cmdline())]
    assert left == [], f"processes left behind: {left}"


def torchrun_env() -> dict:
    env = {**os.environ, "PYTHONPATH": str(REPO), "TWOGPU_MODE": "cpu"}
    for name in ("TWOGPU_DEVICE", "TWOGPU_BACKEND", "RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"):
        env.pop(name, None)
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def processes(commands: list[list[str]]):
    """Start the commands; on the way out, kill any still running (a failed test leaves nothing)."""
    procs = [subprocess.Popen(c, cwd=REPO, env=torchrun_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for c in commands]
    try:
        yield procs
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
            p.communicate()


@pytest.fixture(scope="module")
def launched_tiny():
    """The reference: the lesson's function launched from Python, as the notebook does."""
    os.environ["TWOGPU_MODE"] = "cpu"
    return launch(ddp.train, TINY, nprocs=2, timeout=120)


# --- The same function under torchrun -----------------------------------------------------------------------


@pytest.mark.timeout(90)
def test_torchrun_single_node_gives_the_notebook_launch_final_loss(tmp_path, launched_tiny):
    out = tmp_path / "result.json"
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2",
               "-m", "utils.ddp", *TINY_FLAGS, "--out", str(out)]
    with processes([command]) as (proc,):
        _, stderr = proc.communicate(timeout=80)
    assert proc.returncode == 0, stderr[-3000:]
    result = json.loads(out.read_text())
    assert result["world_size"] == 2
    assert result["final_loss"] == pytest.approx(launched_tiny[0]["final_loss"], abs=1e-6)
    assert result["losses"] == pytest.approx(launched_tiny[0]["losses"], abs=1e-6)


@pytest.mark.timeout(90)
def test_two_torchrun_agents_as_two_nodes_give_the_same_result(tmp_path, launched_tiny):
    port = free_port()
    commands = []
    for node in (0, 1):
        commands.append([sys.executable, "-m", "torch.distributed.run", "--nnodes", "2", "--node-rank", str(node),
                         "--nproc-per-node", "1", "--rdzv-backend", "c10d", "--rdzv-endpoint", f"127.0.0.1:{port}",
                         "--rdzv-id", "test-two-nodes", "--rdzv-conf", f"is_host={'true' if node == 0 else 'false'}",
                         "-m", "utils.ddp", *TINY_FLAGS, "--out", str(tmp_path / f"node-{node}.json")])
    with processes(commands) as procs:
        outputs = [p.communicate(timeout=80) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], "\n".join(err[-2000:] for _, err in outputs)
    written = list(tmp_path.glob("node-*.json"))
    assert len(written) == 1  # only global rank 0 writes, wherever it ran
    result = json.loads(written[0].read_text())
    assert result["world_size"] == 2
    assert result["final_loss"] == pytest.approx(launched_tiny[0]["final_loss"], abs=1e-6)


# --- Gradients, hooks --------------------------------------------------------------------------------------


@pytest.mark.timeout(60)
def test_ddp_gradients_equal_single_process_full_batch_gradients():
    s = TINY.scaled(batch_per_worker=4, accumulate=2, device="cpu")
    grads = launch(ddp.ddp_gradients, s, nprocs=2, timeout=50)
    reference = ddp.full_batch_gradient(s)
    assert torch.equal(grads[0], grads[1])
    assert (grads[0] - reference).abs().max().item() < 1e-6


@pytest.mark.timeout(60)
def test_powersgd_with_explicit_bucket_cap_finishes_on_gloo_and_sends_less():
    plain, compressed = (launch(ddp.train, TINY.scaled(**kw), nprocs=2, timeout=50)[0]
                         for kw in ({}, {"hook": "powersgd", "bucket_cap_mb": 25}))
    assert compressed["bytes_per_step"] < plain["bytes_per_step"] / 5
    assert abs(compressed["final_loss"] - plain["final_loss"]) < 0.2


def test_busbw_factor_and_command_line_settings():
    assert ddp.busbw_factor(2) == 1.0 and ddp.busbw_factor(8) == pytest.approx(1.75)
    s, out = ddp.parse_settings(TINY_FLAGS + ["--hook", "fp16", "--progress", "--out", "x.json"])
    assert s == TINY.scaled(hook="fp16", progress=True) and out == "x.json"


# --- Lab 03: each check fails a deliberately wrong answer ------------------------------------------------------


def _lab_worker(steps, micro_batch, accumulate, lr, wrap=True, divide=True, destroy=True):
    """The lab's solution with one switch per mistake (wrap in DDP, divide by accumulate, destroy the group)."""
    from utils import ddp_lab as lab
    from utils.launch import current_backend

    dist.init_process_group(current_backend())
    dataset = lab.text()
    model = lab.build_model(dataset.corpus.vocab_size)
    net = DDP(model) if wrap else model
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
    from utils import ddp_lab as lab

    verdict = lab.check_gradients(_without_ddp)
    assert verdict.status == checks.FAILED and "is the model wrapped in DDP?" in verdict.message


@pytest.mark.timeout(60)
def test_lab_loss_check_fails_accumulation_without_dividing_the_loss():
    from utils import ddp_lab as lab

    verdict = lab.check_final_loss(_without_dividing_by_accumulate)
    assert verdict.status == checks.FAILED and "differs from the reference" in verdict.message


@pytest.mark.timeout(60)
def test_lab_clean_up_check_fails_a_function_that_leaves_the_group_open():
    from utils import ddp_lab as lab

    verdict = lab.check_clean_up(_without_destroy)
    assert verdict.status == checks.FAILED and "destroy_process_group" in verdict.message
    assert lab.check_gradients(_lab_worker).passed  # the same function, fixed, passes (sanity of the switches)
