"""Lesson 03 (utils.lessons.ddp): the training function under launch and torchrun (one and two "nodes"), DDP's
gradient against the full batch's, PowerSGD on gloo, the command line, and the sampler replay of the references.

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
from torch.utils.data import DataLoader, DistributedSampler

from utils.launch import launch
from utils.lessons.ddp import allreduce, cli, gradients, hooks, recipe, replay
from utils.lessons.ddp.settings import Settings

REPO = Path(__file__).resolve().parents[1]
# Small enough for seconds on 2 CPU cores; the same on every path so the final losses can be compared.
TINY = Settings(steps=6, batch_per_worker=8, context=32, width=64, depth=2, heads=4, max_chars=50_000,
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
    return launch(recipe.train, TINY, nprocs=2, timeout=120)


# --- The same function under torchrun -----------------------------------------------------------------------


@pytest.mark.timeout(90)
def test_torchrun_single_node_gives_the_notebook_launch_final_loss(tmp_path, launched_tiny):
    out = tmp_path / "result.json"
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2",
               "-m", "utils.lessons.ddp", *TINY_FLAGS, "--out", str(out)]
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
                         "-m", "utils.lessons.ddp", *TINY_FLAGS, "--out", str(tmp_path / f"node-{node}.json")])
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
    grads = launch(gradients.ddp_gradients, s, nprocs=2, timeout=50)
    reference = gradients.full_batch_gradient(s)
    assert torch.equal(grads[0], grads[1])
    assert (grads[0] - reference).abs().max().item() < 1e-6


@pytest.mark.timeout(60)
def test_powersgd_with_explicit_bucket_cap_finishes_on_gloo_and_sends_less():
    plain, compressed = (launch(recipe.train, TINY.scaled(**kw), nprocs=2, timeout=50)[0]
                         for kw in ({}, {"hook": "powersgd", "bucket_cap_mb": 25}))
    assert compressed["bytes_per_step"] < plain["bytes_per_step"] / 5
    assert abs(compressed["final_loss"] - plain["final_loss"]) < 0.2


def test_busbw_factor_and_command_line_settings():
    assert allreduce.busbw_factor(2) == 1.0 and allreduce.busbw_factor(8) == pytest.approx(1.75)
    s, out = cli.parse_settings(TINY_FLAGS + ["--hook", "fp16", "--progress", "--out", "x.json"])
    assert s == TINY.scaled(hook="fp16", progress=True) and out == "x.json"


def test_an_unknown_hook_is_named_before_anything_runs():
    with pytest.raises(ValueError, match="hook must be one of .*'powersgd'.*got 'int8'"):
        hooks.register_hook(None, "int8")


# --- The sampler replay that single-process references train on (labs 00 and 03) -------------------------------


@pytest.mark.parametrize("n_items, batch_size", [(100, 8), (37, 4)])
def test_replayed_batches_are_what_each_ranks_loader_hands_out(n_items, batch_size):
    """Rank by rank, epoch after epoch: DistributedSampler + set_epoch + DataLoader(drop_last=True)."""
    count, world, seed = 20, 2, 3  # 20 batches: more than three epochs of either size
    loaded = []
    for rank in range(world):
        sampler = DistributedSampler(range(n_items), num_replicas=world, rank=rank, shuffle=True, seed=seed,
                                     drop_last=True)
        loader = DataLoader(range(n_items), batch_size=batch_size, sampler=sampler, drop_last=True)
        rows = []
        for epoch in range(8):
            sampler.set_epoch(epoch)
            rows += [batch.tolist() for batch in loader]
        loaded.append(rows[:count])
        assert replay.sampler_batches(n_items, batch_size, rank, world, seed, count) == rows[:count]
    assert replay.global_batches(n_items, batch_size, world, seed, count) == [a + b for a, b in zip(*loaded)]


def test_micro_batches_resumed_at_a_step_continue_the_uninterrupted_stream():
    """A restart that resumes at micro-batch 7 (mid-epoch 1 here) sees what the uninterrupted run saw next."""
    sampler = DistributedSampler(range(50), num_replicas=2, rank=1, shuffle=True, seed=0, drop_last=True)
    loader = DataLoader(range(50), batch_size=4, sampler=sampler, drop_last=True)  # 25 items: 6 batches an epoch
    stream = recipe.micro_batches(loader, sampler)
    uninterrupted = [next(stream).tolist() for _ in range(15)]
    resumed = recipe.micro_batches(loader, sampler, start=7)
    assert [next(resumed).tolist() for _ in range(8)] == uninterrupted[7:]
