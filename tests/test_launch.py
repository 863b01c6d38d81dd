"""utils.launch and utils.checkpoint in this process (the notebook kernel tests are in test_launch_kernel.py).

After every test, the autouse fixture checks that no worker process and no temporary folder is left, and
that the next launch in the same process works.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
import pytest
import torch

import helpers_launch as h
from utils import checkpoint, devices, launch as launch_module
from utils.launch import LaunchError, LaunchTimeout, WorkerError, launch

REPO = Path(__file__).resolve().parents[1]


def children() -> list[psutil.Process]:
    return h.workers_of(psutil.Process())


@pytest.fixture(autouse=True)
def clean_launches(tmp_path, monkeypatch):
    """Each test: temp files in its own folder; afterwards no workers, no temp folder, launch still works."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    monkeypatch.setenv("TWOGPU_MODE", "cpu")
    assert children() == []
    yield temp
    assert children() == [], "a worker process was left behind"
    # torch itself may leave caches here (torchinductor_*); the launcher's own files must be gone
    left = [p.name for p in temp.iterdir() if p.name.startswith(("twogpu-launch-", "pytorch-errorfile-"))]
    assert left == [], "a temporary file or folder of the launcher was left behind"
    assert launch(os.getpid, nprocs=1) != [os.getpid()]  # the next launch in the same process works


# --- Success ------------------------------------------------------------------------------------------


@pytest.mark.timeout(60)
def test_returns_values_in_rank_order_with_the_torchrun_environment():
    first = launch(h.report_env_and_all_reduce, nprocs=2)
    second = launch(h.report_env_and_all_reduce, nprocs=2)
    assert [r["env"]["RANK"] for r in first] == ["0", "1"]
    assert [r["env"]["LOCAL_RANK"] for r in first] == ["0", "1"]
    assert {r["env"]["WORLD_SIZE"] for r in first} == {"2"}
    assert {r["env"]["MASTER_ADDR"] for r in first} == {"127.0.0.1"}
    assert len({r["env"]["MASTER_PORT"] for r in first}) == 1  # all ranks meet on one port
    assert [r["sum"] for r in first] == [3.0, 3.0]  # 1 + 2, all-reduced
    assert [(r["device"], r["backend"]) for r in first] == [("cpu", "gloo")] * 2  # from devices.plan
    assert first[0]["env"]["MASTER_PORT"] != second[0]["env"]["MASTER_PORT"]  # a fresh port per launch


@pytest.mark.timeout(60)
def test_a_worker_written_like_the_ddp_tutorial_works_with_one_line_added():
    grads = launch(h.tutorial_worker, nprocs=2)
    assert grads[0] == grads[1]  # DDP averaged the gradients of the two ranks


@pytest.mark.timeout(60)
def test_worker_output_reaches_the_caller_prefixed_with_the_rank(capsys):
    launch(h.print_lines, nprocs=2)
    out, err = capsys.readouterr()
    for rank in (0, 1):
        assert f"[rank {rank}] hello from rank {rank}\n" in out
        assert f"[rank {rank}] raw fd write\n" in out
        assert f"[rank {rank}] warning from rank {rank}\n" in err


class TimedStream:
    """A stand-in for the cell's sys.stdout that notes when each piece of text arrives."""

    def __init__(self):
        self.arrivals: list[tuple[float, str]] = []

    def write(self, text):
        self.arrivals.append((time.monotonic(), text))

    def flush(self):
        pass


@pytest.mark.timeout(60)
def test_worker_output_appears_while_the_worker_still_runs(monkeypatch):
    stream = TimedStream()
    monkeypatch.setattr(sys, "stdout", stream)
    launch(h.print_then_wait, 1.5, nprocs=1)
    finished = time.monotonic()
    (arrived, text), = [a for a in stream.arrivals if "early line" in a[1]]
    assert text == "[rank 0] early line\n"
    assert finished - arrived > 1.0  # printed during the 1.5 s wait, not at the end


@pytest.mark.timeout(60)
def test_forked_workers_do_not_hang_after_a_multithreaded_op_in_the_caller():
    torch.set_num_threads(2)
    a = torch.randn(600, 600)
    (a @ a).sum().item()  # the caller's OpenMP pool now exists; a naive fork would hang in the child
    cores = devices.cpu_cores()
    assert launch(h.matmul_threads, nprocs=1, timeout=30) == [max(1, cores)]
    assert launch(h.matmul_threads, nprocs=2, timeout=30) == [max(1, cores // 2)] * 2


@pytest.mark.timeout(90)
def test_spawn_sends_a_locally_defined_function_by_value():
    offset = 10.0

    def local_worker():  # not importable: only cloudpickle by value can send it
        with launch_module.process_group():
            t = torch.tensor([offset])
            torch.distributed.all_reduce(t)
            return t.item()

    assert launch(local_worker, nprocs=2, start_method="spawn") == [20.0, 20.0]


def test_cuda_initialised_in_the_caller_switches_to_spawn_and_says_so(monkeypatch, tmp_path):
    lines = []
    monkeypatch.setattr(launch_module, "PROC_MAPS", str(tmp_path / "maps"))  # no driver library loaded
    (tmp_path / "maps").write_text("7f00-7f01 r-xp 0 08:01 1 /usr/lib/libc.so.6\n")
    monkeypatch.setattr(torch.cuda, "is_initialized", lambda: True)
    assert launch_module._choose_start_method(None, lines.append) == "spawn"
    assert len(lines) == 1 and "spawn" in lines[0] and "CUDA" in lines[0]
    monkeypatch.setattr(torch.cuda, "is_initialized", lambda: False)
    assert launch_module._choose_start_method(None, lines.append) == "fork"
    assert launch_module._choose_start_method("spawn", lines.append) == "spawn"
    assert len(lines) == 1


def test_cuda_started_by_is_available_alone_also_switches_to_spawn(monkeypatch, tmp_path):
    """torch.cuda.is_available() loads the driver without setting torch.cuda.is_initialized()."""
    maps = tmp_path / "maps"
    maps.write_text("7f00-7f01 r-xp 0 08:01 1 /usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15\n")
    monkeypatch.setattr(launch_module, "PROC_MAPS", str(maps))
    monkeypatch.setattr(torch.cuda, "is_initialized", lambda: False)
    lines = []
    assert launch_module._choose_start_method(None, lines.append) == "spawn"
    assert "is_available()" in lines[0]
    assert launch_module.cuda_driver_started() is True


def _tensor_with_grad():
    return {"w": [torch.ones(2, requires_grad=True) * 2], "n": 3}


def test_returned_tensors_come_back_detached_on_the_cpu():
    """A CUDA tensor unpickled in the notebook would start CUDA there: workers send CPU tensors."""
    (value,) = launch(_tensor_with_grad, nprocs=1)
    assert value["n"] == 3 and value["w"][0].device.type == "cpu" and not value["w"][0].requires_grad
    assert launch_module.on_cpu((torch.ones(1), [torch.zeros(1)]))[1][0].device.type == "cpu"


def _register_teardown_marker(path):
    import atexit

    atexit.register(lambda: open(path, "w").write("interpreter teardown ran"))
    return "done"


@pytest.mark.parametrize("start_method", ["fork", "spawn"])
def test_forked_and_spawned_workers_end_the_same_way_without_interpreter_teardown(tmp_path, start_method):
    marker = tmp_path / "teardown"
    assert launch(_register_teardown_marker, str(marker), nprocs=1, start_method=start_method) == ["done"]
    assert not marker.exists()


# --- Failures -----------------------------------------------------------------------------------------


@pytest.mark.timeout(60)
def test_a_raising_worker_gives_one_error_naming_the_rank_type_message_and_traceback():
    t0 = time.monotonic()
    with pytest.raises(WorkerError) as info:
        launch(h.raise_on, 1, "boom at step 3", nprocs=2)
    assert time.monotonic() - t0 < 5
    err = info.value
    assert (err.rank, err.exc_type, err.message) == (1, "ValueError", "boom at step 3")
    assert "in raise_on" in err.worker_traceback and "ValueError: boom at step 3" in err.worker_traceback
    assert str(err).startswith("rank 1 failed first: ValueError: boom at step 3")
    assert "Connection closed" not in str(err)  # rank 0's secondary error is not the report


@pytest.mark.timeout(60)
@pytest.mark.parametrize("delays, first", [({0: 0.0, 1: 0.4}, 0), ({0: 0.4, 1: 0.0}, 1)])
def test_the_rank_that_failed_first_is_reported(delays, first):
    with pytest.raises(WorkerError) as info:
        launch(h.raise_in_order, delays, nprocs=2)
    assert info.value.rank == first
    assert info.value.message == f"rank {first} raised after 0.0 s"


@pytest.mark.timeout(60)
def test_peers_that_are_not_in_a_collective_are_stopped_within_5_s():
    t0 = time.monotonic()
    with pytest.raises(WorkerError) as info:
        launch(h.raise_while_peer_sleeps, nprocs=2)
    assert time.monotonic() - t0 < 5
    assert (info.value.rank, info.value.exc_type) == (1, "KeyError")


@pytest.mark.timeout(60)
def test_a_worker_killed_by_a_signal_is_named_with_the_signal():
    with pytest.raises(WorkerError) as info:
        launch(h.kill_self, signal.SIGKILL, nprocs=2)
    assert (info.value.rank, info.value.signal_name) == (1, "SIGKILL")
    assert "rank 1" in str(info.value) and "SIGKILL" in str(info.value)


@pytest.mark.timeout(60)
def test_timeout_ends_a_hung_collective_and_names_the_ranks_still_running():
    t0 = time.monotonic()
    with pytest.raises(LaunchTimeout) as info:
        launch(h.hang_in_collective, nprocs=2, timeout=2)
    assert 2 <= time.monotonic() - t0 < 6
    assert info.value.ranks == [0, 1]
    assert "ranks still running: 0, 1" in str(info.value)
    with pytest.raises(LaunchTimeout, match="ranks still running: 1\\.") as info:
        launch(h.rank_1_sleeps, nprocs=2, timeout=1)
    assert info.value.ranks == [1]


@pytest.mark.timeout(60)
def test_keyboard_interrupt_stops_every_worker_within_5_s(tmp_path, capsys):
    timer = h.send_sigint_after(os.getpid(), 1.5)
    try:
        with pytest.raises(KeyboardInterrupt):
            launch(h.write_pid_and_sleep, str(tmp_path), nprocs=2)
        stopped = time.monotonic()
    finally:
        timer.cancel()
    pids = [int(p.read_text()) for p in sorted(tmp_path.glob("*.pid"))]
    assert len(pids) == 2  # both workers were running when the interrupt came
    assert not any(psutil.pid_exists(p) for p in pids)
    assert stopped - timer.sent_at < 5
    assert "[launch] interrupted: stopped 2 workers" in capsys.readouterr().out


@pytest.mark.timeout(30)
def test_bad_arguments_are_errors_before_anything_starts(monkeypatch):
    with pytest.raises(ValueError, match="nprocs must be"):
        launch(h.matmul_threads, nprocs=0)
    with pytest.raises(TypeError, match="needs a function"):
        launch("not a function")
    with pytest.raises(ValueError, match="timeout"):
        launch(h.matmul_threads, timeout=0)
    with pytest.raises(devices.DeviceError, match="nccl"):
        launch(h.matmul_threads, nprocs=2, backend="nccl")  # cpu mode: no GPU for NCCL
    with monkeypatch.context() as two_gpus:
        two_gpus.delenv("TWOGPU_MODE")
        two_gpus.setattr(devices, "gpu_count", lambda: 2)
        with pytest.raises(devices.DeviceError, match="3 NCCL ranks need 3 GPUs"):
            launch(h.matmul_threads, nprocs=3, backend="nccl")
    assert children() == []


@pytest.mark.timeout(30)
def test_an_explicit_port_in_use_is_a_clear_error():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(LaunchError, match=f"port {port} on 127.0.0.1 is in use.*Leave port= out"):
            launch(h.matmul_threads, nprocs=2, port=port)
    assert children() == []
    free = launch_module.free_port()
    assert launch(h.report_env_and_all_reduce, nprocs=2, port=free)[0]["env"]["MASTER_PORT"] == str(free)


@pytest.mark.timeout(60)
def test_a_return_value_that_cannot_be_sent_back_names_the_rank_and_the_type():
    with pytest.raises(WorkerError) as info:
        launch(h.return_unpicklable, nprocs=2)
    assert (info.value.rank, info.value.exc_type) == (1, "ReturnValueError")
    assert "rank 1 returned a builtins.generator" in info.value.message


# --- Restarts and checkpoints ---------------------------------------------------------------------------


@pytest.mark.timeout(60)
def test_max_restarts_restarts_the_group_and_prints_one_line_per_restart(capsys):
    with pytest.raises(WorkerError, match="failure in restart 2"):
        launch(h.always_fail, nprocs=2, max_restarts=2)
    lines = [line for line in capsys.readouterr().out.splitlines() if "restarting" in line]
    assert len(lines) == 2
    assert "(restart 1 of 2)" in lines[0] and "(restart 2 of 2)" in lines[1]
    assert "RuntimeError: failure in restart 0" in lines[0]


@pytest.mark.timeout(90)
def test_a_run_that_loses_a_worker_resumes_to_the_same_final_weights(tmp_path, capsys):
    steps, fail_at = 6, 3
    clean = launch(h.train, str(tmp_path / "clean.pt"), steps, None, None, nprocs=2)
    marker = tmp_path / "failed-once"
    resumed = launch(h.train, str(tmp_path / "ft.pt"), steps, fail_at, str(marker), nprocs=2, max_restarts=1)
    assert marker.exists()
    assert "[launch] rank 1 failed" in capsys.readouterr().out
    assert [r["start"] for r in resumed] == [fail_at, fail_at]  # resumed, not started again from 0
    for name, weight in clean[0]["state"].items():
        assert torch.equal(weight, resumed[0]["state"][name]), name  # bitwise
        assert torch.equal(weight, resumed[1]["state"][name]), name


def test_checkpoint_roundtrip_restores_model_optimizer_step_and_rng(tmp_path):
    folder = tmp_path / "ckpt"
    folder.mkdir()
    path = folder / "ckpt.pt"
    assert checkpoint.resume(path, torch.nn.Linear(2, 2)) == 0  # nothing to resume
    torch.manual_seed(1)
    model = torch.nn.Linear(2, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    model(torch.ones(1, 2)).sum().backward()
    opt.step()
    checkpoint.save(path, model, opt, step=7)
    expected = torch.rand(3)
    other = torch.nn.Linear(2, 2)
    other_opt = torch.optim.SGD(other.parameters(), lr=0.1, momentum=0.9)
    assert checkpoint.resume(path, other, other_opt) == 7
    assert torch.equal(torch.rand(3), expected)  # the RNG continues where it was saved
    assert all(torch.equal(a, b) for a, b in zip(model.state_dict().values(), other.state_dict().values()))
    assert torch.equal(opt.state_dict()["state"][0]["momentum_buffer"],
                       other_opt.state_dict()["state"][0]["momentum_buffer"])
    assert sorted(p.name for p in folder.iterdir()) == ["ckpt.pt"]


def test_a_save_that_fails_midway_keeps_the_previous_checkpoint(tmp_path, monkeypatch):
    folder = tmp_path / "ckpt"
    folder.mkdir()
    path = folder / "ckpt.pt"
    model = torch.nn.Linear(2, 2)
    checkpoint.save(path, model, None, step=1)

    def broken_save(obj, f):
        f.write(b"half a checkpoint")
        raise OSError("disk full")

    monkeypatch.setattr(torch, "save", broken_save)
    with pytest.raises(OSError, match="disk full"):
        checkpoint.save(path, model, None, step=2)
    monkeypatch.undo()
    assert checkpoint.resume(path, torch.nn.Linear(2, 2)) == 1
    assert sorted(p.name for p in folder.iterdir()) == ["ckpt.pt"]  # no temporary file left


# --- torchrun and the benchmark -----------------------------------------------------------------------


@pytest.mark.timeout(90)
def test_the_same_function_runs_under_torchrun_unchanged(tmp_path):
    script = REPO / "tests" / "fixtures" / "launch_torchrun_job.py"
    env = {**os.environ, "PYTHONPATH": f"{REPO}{os.pathsep}{REPO / 'tests'}", "TWOGPU_MODE": "cpu"}
    env.pop("TWOGPU_DEVICE", None)
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2",
               str(script), str(tmp_path)]
    proc = subprocess.run(command, env=env, capture_output=True, text=True, timeout=80)
    assert proc.returncode == 0, proc.stderr[-3000:]
    under_torchrun = sorted(p.read_text() for p in tmp_path.glob("rank-*.txt"))
    assert under_torchrun == ["0 cpu gloo 3.0", "1 cpu gloo 3.0"]
    under_launch = launch(h.report_env_and_all_reduce, nprocs=2)
    lines = [f"{r['env']['RANK']} {r['device']} {r['backend']} {r['sum']}" for r in under_launch]
    assert lines == under_torchrun


@pytest.mark.timeout(60)
def test_the_launch_benchmark_is_registered_and_times_against_1_s():
    from utils import bench
    from utils.benchmarks import launch as launch_bench

    assert bench.discover("utils.benchmarks")["launch"] is launch_bench.bench_launch
    result = launch_bench.bench_launch()
    assert (result.name, result.unit, result.bound) == ("launch", "s", 1.0)
    assert result.ratio_to_bound == pytest.approx(1.0 / result.measured)
    assert 0 < result.extra["failure_report_s"] < 5
    assert result.measured > 0


def _torch_as_shipped_and_kept():
    import utils.launch as launcher
    from torch.nn.parallel import DistributedDataParallel

    patched = DistributedDataParallel.__init__.__module__ != "torch.nn.parallel.distributed"
    model = torch.nn.Linear(2, 2)
    return patched, launcher.keep_until_exit(model) is model, any(m is model for m in launcher._KEPT_UNTIL_EXIT)


def test_workers_run_torch_unpatched_and_keep_until_exit_holds_what_it_is_given():
    """The DDP teardown fix is one explicit call (keep_until_exit), not a patch of torch in every worker."""
    assert launch(_torch_as_shipped_and_kept, nprocs=1) == [(False, True, True)]


def test_pin_to_cores_gives_each_rank_its_own_cores(monkeypatch):
    import os

    from utils import launch as launcher

    asked = []
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3})
    monkeypatch.setattr(os, "sched_setaffinity", lambda pid, cores: asked.append(set(cores)))
    assert [launcher.pin_to_cores(rank, 2) for rank in (0, 1)] == [{0, 1}, {2, 3}]
    assert launcher.pin_to_cores(2, 2) == {0, 1} and asked[-1] == {0, 1}  # more ranks than cores: wrap around
