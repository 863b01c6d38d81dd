"""utils.launch from a real Jupyter kernel: functions defined in the notebook, output in the cell, errors,
interrupt. The kernel runs this interpreter (a kernelspec made in tmp, pointing at sys.executable).

Each scenario checks afterwards that the kernel has no worker process left, that the launcher left nothing
in the kernel's TMPDIR, and that the next launch in the same kernel works.
"""

from __future__ import annotations

import time
from pathlib import Path

import nbformat
import psutil
import pytest

import helpers_launch as h

REPO = Path(__file__).resolve().parents[1]

SETUP = """
import os, signal, time, torch, torch.distributed as dist
from utils.launch import launch, process_group, WorkerError, LaunchTimeout
a = torch.randn(600, 600); (a @ a).sum()   # a multi-threaded op first: the fork trap is armed

def add_ranks():                            # defined in the notebook: fork makes it work
    with process_group():
        t = torch.tensor([float(dist.get_rank() + 1)])
        dist.all_reduce(t)
        print("sum is", t.item())
        return t.item()

def fail_on_rank_1():
    with process_group():
        if dist.get_rank() == 1:
            raise ValueError("boom in the notebook")
        dist.all_reduce(torch.ones(1))

def kill_rank_1():
    with process_group():
        if dist.get_rank() == 1:
            os.kill(os.getpid(), signal.SIGKILL)
        dist.all_reduce(torch.ones(1))

def hang():
    with process_group():
        if dist.get_rank() == 0:
            dist.all_reduce(torch.ones(1))
        time.sleep(60)

def sleep_forever(folder):
    open(os.path.join(folder, os.environ["RANK"] + ".pid"), "w").write(str(os.getpid()))
    time.sleep(600)

def give_a_lock():
    import threading
    return threading.Lock()
"""


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    folder = tmp_path_factory.mktemp("kernel")
    kernel_tmp = folder / "tmp"
    kernel_tmp.mkdir()
    km = h.kernel_manager(folder, {"TMPDIR": str(kernel_tmp), "TWOGPU_MODE": "cpu"})
    km.start_kernel(cwd=str(REPO))
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=60)
        assert h.run_cell(kc, SETUP)["status"] == "ok"
        yield km, kc, kernel_tmp
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def assert_clean_and_usable(km, kc, kernel_tmp):
    kernel_process = psutil.Process(km.provisioner.process.pid)
    assert h.workers_of(kernel_process) == [], "a worker process was left behind"
    left = [p.name for p in kernel_tmp.iterdir() if p.name.startswith(("twogpu-launch-", "pytorch-err"))]
    assert left == []
    again = h.run_cell(kc, "print(launch(add_ranks))")
    if again["status"] == "aborted":
        # ipykernel aborts requests that arrive while it still handles the interrupt's error (a loaded
        # machine widens that window): the kernel is usable if the request sent after it runs
        again = h.run_cell(kc, "print(launch(add_ranks))")
    assert again["status"] == "ok" and "[3.0, 3.0]" in again["stdout"], again


@pytest.mark.timeout(60)
def test_a_notebook_function_runs_and_its_output_appears_in_the_cell(kernel):
    km, kc, kernel_tmp = kernel
    out = h.run_cell(kc, "print(launch(add_ranks))")
    assert out["status"] == "ok", out
    assert "[rank 0] sum is 3.0\n" in out["stdout"] and "[rank 1] sum is 3.0\n" in out["stdout"]
    assert out["stdout"].rstrip().endswith("[3.0, 3.0]")
    assert_clean_and_usable(km, kc, kernel_tmp)


@pytest.mark.timeout(60)
def test_a_raising_worker_is_one_error_in_the_cell(kernel):
    km, kc, kernel_tmp = kernel
    out = h.run_cell(kc, "launch(fail_on_rank_1)")
    assert out["ename"] == "WorkerError"
    assert out["evalue"].startswith("rank 1 failed first: ValueError: boom in the notebook")
    assert "fail_on_rank_1" in out["evalue"]  # the worker's traceback is in the message
    assert "Connection closed" not in out["evalue"] + out["stderr"]
    assert_clean_and_usable(km, kc, kernel_tmp)


@pytest.mark.timeout(60)
def test_a_killed_worker_is_named_with_its_signal(kernel):
    km, kc, kernel_tmp = kernel
    out = h.run_cell(kc, "launch(kill_rank_1)")
    assert out["ename"] == "WorkerError" and "rank 1 was killed by signal SIGKILL" in out["evalue"]
    assert_clean_and_usable(km, kc, kernel_tmp)


@pytest.mark.timeout(60)
def test_a_hung_collective_ends_at_the_timeout(kernel):
    km, kc, kernel_tmp = kernel
    out = h.run_cell(kc, "launch(hang, timeout=2)")
    assert out["ename"] == "LaunchTimeout" and "ranks still running: 0, 1" in out["evalue"]
    assert_clean_and_usable(km, kc, kernel_tmp)


@pytest.mark.timeout(60)
def test_bad_arguments_and_an_unsendable_return_value(kernel):
    km, kc, kernel_tmp = kernel
    out = h.run_cell(kc, "launch(add_ranks, nprocs=0)")
    assert out["ename"] == "ValueError" and "nprocs must be" in out["evalue"]
    out = h.run_cell(kc, "launch(give_a_lock)")
    assert out["ename"] == "WorkerError" and "ReturnValueError" in out["evalue"]
    assert "returned a _thread.lock" in out["evalue"]
    assert_clean_and_usable(km, kc, kernel_tmp)


@pytest.mark.timeout(60)
def test_interrupting_the_kernel_stops_every_worker_within_5_s(kernel, tmp_path):
    km, kc, kernel_tmp = kernel
    msg_id = kc.execute(f"launch(sleep_forever, {str(tmp_path)!r})")
    deadline = time.monotonic() + 30
    while len(list(tmp_path.glob("*.pid"))) < 2:
        assert time.monotonic() < deadline, "the workers did not start"
        time.sleep(0.05)
    pids = [int(p.read_text()) for p in tmp_path.glob("*.pid")]
    sent = time.monotonic()
    km.interrupt_kernel()  # SIGINT to the kernel's process group, as the Jupyter stop button does
    reply = kc.get_shell_msg(timeout=10)
    returned = time.monotonic()
    assert reply["parent_header"]["msg_id"] == msg_id
    assert reply["content"]["ename"] == "KeyboardInterrupt"
    assert returned - sent < 5
    assert not any(psutil.pid_exists(p) for p in pids)
    print(f"interrupt: workers gone and the cell returned {returned - sent:.2f} s after SIGINT")
    while kc.iopub_channel.msg_ready():  # drop the interrupted cell's output
        kc.get_iopub_msg(timeout=1)
    assert_clean_and_usable(km, kc, kernel_tmp)


def results(cell) -> list[str]:
    return [o["data"]["text/plain"] for o in cell.outputs if o.output_type == "execute_result"]


@pytest.mark.timeout(90)
def test_a_notebook_built_with_nbformat_runs_under_nbclient(tmp_path):
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(SETUP),
                nbformat.v4.new_code_cell("launch(add_ranks)"),
                nbformat.v4.new_code_cell("launch(fail_on_rank_1)"),
                nbformat.v4.new_code_cell("launch(add_ranks)")]
    kernel_tmp = tmp_path / "tmp"
    kernel_tmp.mkdir()
    km = h.kernel_manager(tmp_path, {"TMPDIR": str(kernel_tmp), "TWOGPU_MODE": "cpu"})
    where = {"metadata": {"path": str(REPO)}}  # the kernel's working folder
    client = NotebookClient(nb, km=km, timeout=60, allow_errors=True, resources=where)
    try:
        client.execute()
    finally:  # nbclient leaves a kernel manager it was given running: shut it down here
        if km.has_kernel:
            km.shutdown_kernel(now=True)
    ok, failed, again = nb.cells[1], nb.cells[2], nb.cells[3]
    streams = "".join(o.get("text", "") for o in ok.outputs if o.output_type == "stream")
    assert "[rank 0] sum is 3.0" in streams and "[rank 1] sum is 3.0" in streams
    assert results(ok) == ["[3.0, 3.0]"]
    (error,) = [o for o in failed.outputs if o.output_type == "error"]
    assert error.ename == "WorkerError" and "rank 1 failed first: ValueError" in error.evalue
    assert results(again) == ["[3.0, 3.0]"]
    assert [p.name for p in kernel_tmp.iterdir() if p.name.startswith("twogpu-launch-")] == []
