"""Worker functions and a Jupyter kernel helper for tests/test_launch.py and tests/test_launch_kernel.py."""

from __future__ import annotations

import json
import os
import queue
import signal
import sys
import time
from pathlib import Path

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from utils import checkpoint
from utils.launch import current_backend, keep_until_exit, process_group

ENV_CONTRACT = ("RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT")


# --- Workers -------------------------------------------------------------------------------------------


def report_env_and_all_reduce() -> dict:
    """Reads only the torchrun contract (through process_group/current_device), so torchrun runs it too."""
    with process_group() as device:
        t = torch.tensor([float(dist.get_rank() + 1)])
        dist.all_reduce(t)
        env = {k: os.environ[k] for k in ENV_CONTRACT}
        return {"env": env, "device": str(device), "backend": current_backend(), "sum": t.item(),
                "threads": torch.get_num_threads()}


def tutorial_worker() -> float:
    """Written like the PyTorch DDP tutorial (torchrun version): env:// init, DDP, destroy; plus the course's one
    line, ``keep_until_exit``, without which a DDP model freed at ``return`` can now and then deadlock gloo's
    teardown (seen once in a CI run of this very test)."""
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(0)
    model = keep_until_exit(DDP(torch.nn.Linear(4, 1)))
    loss = model(torch.full((2, 4), float(rank))).sum()
    loss.backward()
    grad = model.module.weight.grad.clone()
    dist.destroy_process_group()
    return grad.sum().item()


def print_lines() -> None:
    print(f"hello from rank {os.environ['RANK']}")
    print(f"warning from rank {os.environ['RANK']}", file=sys.stderr)
    os.write(1, b"raw fd write\n")  # C-level output (gloo, NCCL) goes through fd 1 too


def print_then_wait(seconds: float) -> None:
    print("early line", flush=True)
    time.sleep(seconds)


def matmul_threads() -> int:
    a = torch.randn(400, 400)
    (a @ a).sum().item()
    return torch.get_num_threads()


def raise_on(rank_to_fail: int, message: str) -> None:
    with process_group():
        if dist.get_rank() == rank_to_fail:
            raise ValueError(message)
        dist.all_reduce(torch.ones(1))  # the peer waits here and then sees "Connection closed by peer"


def raise_in_order(delays: dict) -> None:
    """Both ranks raise, rank r after delays[r] seconds: the report must name the one that raised first."""
    rank = int(os.environ["RANK"])
    time.sleep(delays[rank])
    raise RuntimeError(f"rank {rank} raised after {delays[rank]} s")


def raise_while_peer_sleeps() -> None:
    if os.environ["RANK"] == "1":
        raise KeyError("missing")
    time.sleep(60)  # not in a collective: the launcher must stop this rank itself


def kill_self(sig: int) -> None:
    with process_group():
        if dist.get_rank() == 1:
            os.kill(os.getpid(), sig)
        dist.all_reduce(torch.ones(1))


def hang_in_collective() -> None:
    with process_group():
        if dist.get_rank() == 0:
            dist.all_reduce(torch.ones(1))  # rank 1 never joins: waits forever
        else:
            time.sleep(60)


def rank_1_sleeps() -> None:
    if os.environ["RANK"] == "1":
        time.sleep(60)


def write_pid_and_sleep(folder: str) -> None:
    Path(folder, f"{os.environ['RANK']}.pid").write_text(str(os.getpid()))
    time.sleep(60)


def return_unpicklable():
    if os.environ["RANK"] == "1":
        return (x for x in range(3))  # a generator cannot be pickled
    return 0


def always_fail() -> None:
    raise RuntimeError(f"failure in restart {os.environ['TORCHELASTIC_RESTART_COUNT']}")


# --- Fault tolerance: tiny deterministic DDP training ---------------------------------------------------


def _batch(step: int, rank: int) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(1000 * step + rank)  # the data depend on (step, rank) only
    x = torch.randn(8, 4, generator=g)
    return x, x.sum(dim=1, keepdim=True) * 0.5


def train(ckpt_path: str, total_steps: int, fail_at: int | None, marker: str | None) -> dict:
    """DDP on gloo; rank 0 checkpoints every step; rank 1 dies once after step ``fail_at``."""
    with process_group():
        rank = dist.get_rank()
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
        optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
        start = checkpoint.resume(ckpt_path, model, optimizer)
        ddp = keep_until_exit(DDP(model))  # freed at return, it could deadlock gloo's teardown
        for step in range(start, total_steps):
            x, y = _batch(step, rank)
            loss = torch.nn.functional.mse_loss(ddp(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if rank == 0:
                checkpoint.save(ckpt_path, model, optimizer, step + 1)
            dist.barrier()  # the checkpoint of this step exists before anyone goes on
            if rank == 1 and step + 1 == fail_at and not os.path.exists(marker):
                Path(marker).touch()  # fail only once: the restarted group must get through
                os._exit(1)
        return {"start": start, "state": {k: v.clone() for k, v in model.state_dict().items()}}


def workers_of(process) -> list:
    """Child processes of ``process`` (a psutil.Process), leaving out multiprocessing's resource tracker:
    spawn starts that helper once and it lives as long as its parent, by design."""
    import psutil

    found = []
    for child in process.children(recursive=True):
        try:
            if "multiprocessing.resource_tracker" not in " ".join(child.cmdline()):
                found.append(child)
        except psutil.NoSuchProcess:
            pass
    return found


# --- A Jupyter kernel from this interpreter ---------------------------------------------------------------


def write_kernelspec(folder: Path, env: dict) -> str:
    """A kernelspec that starts ipykernel with sys.executable (not whatever "python3" is on PATH)."""
    name = "twogpu-launch-test"
    spec = folder / "kernels" / name
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "launch tests", "language": "python", "env": env,
    }))
    return name


def kernel_manager(folder: Path, env: dict):
    from jupyter_client import KernelManager
    from jupyter_client.kernelspec import KernelSpecManager

    name = write_kernelspec(folder, env)
    specs = KernelSpecManager(kernel_dirs=[str(folder / "kernels")])
    return KernelManager(kernel_name=name, kernel_spec_manager=specs)


def run_cell(kc, code: str, timeout: float = 60, on_sent=None) -> dict:
    """Execute ``code``; collect stdout, stderr, the error (if any) and the reply status."""
    msg_id = kc.execute(code)
    if on_sent:
        on_sent()
    out = {"stdout": "", "stderr": "", "ename": None, "evalue": "", "traceback": ""}
    deadline = time.monotonic() + timeout
    while True:
        try:
            msg = kc.get_iopub_msg(timeout=max(0.1, deadline - time.monotonic()))
        except queue.Empty:
            raise TimeoutError(f"cell did not finish in {timeout} s:\n{code}") from None
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        kind, content = msg["msg_type"], msg["content"]
        if kind == "stream":
            out[content["name"]] += content["text"]
        elif kind == "error":
            out.update(ename=content["ename"], evalue=content["evalue"],
                       traceback="\n".join(content["traceback"]))
        elif kind == "status" and content["execution_state"] == "idle":
            break
    out["status"] = kc.get_shell_msg(timeout=10)["content"]["status"]
    return out


def send_sigint_after(pid: int, seconds: float):
    """A started timer that sends SIGINT to ``pid``; ``timer.sent_at`` is when (time.monotonic())."""
    import threading

    def interrupt():
        timer.sent_at = time.monotonic()
        os.kill(pid, signal.SIGINT)

    timer = threading.Timer(seconds, interrupt)
    timer.sent_at = None
    timer.start()
    return timer
