"""Run a function on several worker processes from a notebook cell: lesson 03, DDP from the notebook.

    from utils.launch import launch, process_group, current_device

    def train(steps):
        with process_group() as device:          # init with the planned backend, destroy at the end
            ...                                   # RANK, WORLD_SIZE, MASTER_ADDR/PORT are set
            return loss                           # comes back to the notebook

    losses = launch(train, 100, nprocs=2)         # one return value per rank, in rank order

What it does, and why:

* Workers are started by torch's own ``torch.multiprocessing.start_processes`` and get the same
  environment as under ``torchrun`` (RANK, LOCAL_RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT, ...), so a
  worker written like the PyTorch DDP tutorial (it calls ``dist.init_process_group`` itself, env:// init)
  works unchanged, and the same function runs under ``torchrun --nproc-per-node 2`` later.
* Each worker's device and backend come from ``utils.devices.plan`` (``current_device()``, ``TWOGPU_DEVICE``).
* Fork is the start method, so functions defined in the notebook work. If CUDA is already initialised in
  the notebook, forked children cannot use it: then workers start with spawn and the function travels by
  value (cloudpickle).
* Worker output appears in the cell as it happens, each line prefixed ``[rank r] ``.
* A failure is ONE ``WorkerError`` naming the rank that failed first, with its traceback; the other workers
  are stopped. ``timeout=`` ends a hung launch; Ctrl-C (kernel interrupt) stops every worker.
* ``max_restarts=k`` restarts the whole group after a failure (resume from ``utils.checkpoint``).
* Each worker gets its share of the cores as torch threads; more workers than cores gets one line of warning.

Nothing happens on import: no threads, no CUDA, no processes.
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import errno
import multiprocessing
import multiprocessing.connection
import os
import pickle
import signal
import socket
import sys
import tempfile
import threading
import time
import traceback

import torch
import torch.distributed as dist
import torch.multiprocessing as torch_mp

from utils import devices
from utils.relay import (  # noqa: F401 (the launcher's public errors live in relay)
    PEER_LOST_HINTS,
    LaunchError,
    LaunchTimeout,
    OutputRelay,
    ReturnValueError,
    WorkerError,
    death_error,
)

MASTER_ADDR = "127.0.0.1"
GRACE_S = 1.0  # after a failure, how long peers get to stop by themselves before SIGTERM
TERM_WAIT_S = 2.0  # how long SIGTERM gets before SIGKILL

# --- Inside a worker: device, backend and the process group ------------------------------------------
# These read only the torchrun environment contract (plus our TWOGPU_* hints, with a fallback), so a
# function launched here also runs unchanged under ``torchrun --nproc-per-node 2``.


def _local_plan() -> devices.Plan:
    return devices.plan(int(os.environ.get("LOCAL_WORLD_SIZE", "1")))


def current_device() -> torch.device:
    """The device of this worker: ``TWOGPU_DEVICE`` from ``launch``, else planned from ``LOCAL_RANK``."""
    name = os.environ.get("TWOGPU_DEVICE")
    if name is None:  # under torchrun: same plan, from the torchrun variables
        name = _local_plan().devices[int(os.environ.get("LOCAL_RANK", "0"))]
    return torch.device(name)


def current_backend() -> str:
    """The backend of this worker's group: ``TWOGPU_BACKEND`` from ``launch``, else planned (gloo or nccl)."""
    return os.environ.get("TWOGPU_BACKEND") or _local_plan().backend


_failure_started_at: float | None = None  # set in a worker when an exception leaves process_group()


@contextlib.contextmanager
def process_group(backend: str | None = None):
    """Join the process group for the body of a ``with`` block; yields this worker's device.

    Initialises with the planned backend (env:// init: RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT), selects
    the CUDA device when there is one, and destroys the group at the end.
    """
    global _failure_started_at
    device = current_device()
    if device.type == "cuda":
        torch.cuda.set_device(device)  # before init, so NCCL binds this rank to its own GPU
    dist.init_process_group(backend or current_backend(), device_id=device if device.type == "cuda" else None)
    try:
        yield device
    except BaseException:
        # Note when this rank failed BEFORE anything else happens: peers see the connection drop only
        # later, and the launcher reports whichever rank failed first.
        _failure_started_at = time.monotonic()
        raise  # the group is not destroyed: a broken NCCL group can block in destroy, and we exit anyway
    dist.destroy_process_group()


# --- Arguments, port, start method -------------------------------------------------------------------


def _check_arguments(fn, nprocs, timeout, max_restarts, start_method) -> None:
    if not callable(fn):
        raise TypeError(f"launch needs a function to run, got {type(fn).__name__} {fn!r}")
    if not isinstance(nprocs, int) or isinstance(nprocs, bool) or nprocs < 1:
        raise ValueError(f"nprocs must be a whole number >= 1, got {nprocs!r}")
    if timeout is not None and not timeout > 0:
        raise ValueError(f"timeout must be a positive number of seconds (or None), got {timeout!r}")
    if not isinstance(max_restarts, int) or max_restarts < 0:
        raise ValueError(f"max_restarts must be a whole number >= 0, got {max_restarts!r}")
    if start_method not in (None, "fork", "spawn"):
        raise ValueError(f"start_method must be 'fork', 'spawn' or None (choose for me), "
                         f"got {start_method!r}")


def oversubscription(nprocs: int, threads: int, cores: int) -> str | None:
    """The launcher's warning when ``nprocs`` workers of ``threads`` threads each ask for more than ``cores``
    cores, or None when they fit. The course's rule is workers x threads <= cores: beyond it the threads take
    turns on the cores, and every timing of the run is slower and noisier than the work itself. Lesson 03."""
    if nprocs * threads <= cores:
        return None
    return (f"[launch] oversubscribed: {nprocs} workers x {threads} thread(s) on {cores} core(s) take turns "
            f"and slow down; nprocs <= {max(1, cores // threads)} fits")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing uses right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((MASTER_ADDR, 0))
        return s.getsockname()[1]


def _check_port_free(port: int) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        # SO_REUSEADDR, as torch's TCPStore uses: a port left in TIME_WAIT by the last launch is free.
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((MASTER_ADDR, port))
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                raise
            raise LaunchError(f"port {port} on {MASTER_ADDR} is in use (another launch, a stuck worker, or "
                              f"another program). Leave port= out to let launch pick a free port, or pass "
                              f"another one.") from None


PROC_MAPS = "/proc/self/maps"  # the libraries this process has loaded (Linux)


def cuda_driver_started() -> bool:
    """Whether this process has started CUDA, including through ``torch.cuda.is_available()``.

    ``torch.cuda.is_initialized()`` alone misses that call: it loads and initialises the driver (libcuda)
    without setting torch's flag, and a child forked afterwards fails with "Cannot re-initialize CUDA in
    forked subprocess". The driver library in this process's memory map says it was loaded. (torch's NVML
    check, ``PYTORCH_NVML_BASED_CUDA_CHECK=1``, makes ``is_available()`` itself safe.)
    """
    if torch.cuda.is_initialized():  # asks torch's own flag; does not initialise CUDA
        return True
    try:
        with open(PROC_MAPS) as maps:
            return any("libcuda.so" in line for line in maps)
    except OSError:  # not Linux: only torch's flag can tell
        return False


def _choose_start_method(requested: str | None, say) -> str:
    if requested is not None:
        return requested
    if "fork" not in multiprocessing.get_all_start_methods():
        return "spawn"
    if cuda_driver_started():
        say("[launch] CUDA is already started in this process (by a CUDA tensor, or by "
            "torch.cuda.is_available()) and forked workers cannot use it: starting them with spawn (slower) "
            "and sending your function by value (cloudpickle).")
        return "spawn"
    return "fork"


def _pack(fn, args, start_method):
    """Fork copies the function; spawn needs it as bytes, by value, so notebook functions work too."""
    if start_method == "fork":
        return (fn, args)
    import cloudpickle

    try:
        return cloudpickle.dumps((fn, args))
    except Exception as exc:
        raise TypeError(f"launch cannot send {getattr(fn, '__name__', fn)!r} and its arguments to spawned "
                        f"workers: {type(exc).__name__}: {exc}") from exc


def _unpack(payload):
    if isinstance(payload, bytes):
        import cloudpickle

        return cloudpickle.loads(payload)
    return payload


# --- The worker side ---------------------------------------------------------------------------------


@dataclasses.dataclass
class _Job:
    """Everything a worker needs; pickled for spawn (the pipes travel as file descriptors)."""

    payload: object
    env: list[dict]
    threads: int
    results_dir: str
    stdout_pipes: list
    stderr_pipes: list


def _redirect_output(stdout_pipe, stderr_pipe) -> None:
    """Point file descriptors 1 and 2 at the pipes, so C-level output (gloo, NCCL) is relayed too."""
    os.dup2(stdout_pipe.fileno(), 1)
    os.dup2(stderr_pipe.fileno(), 2)
    # Fresh line-buffered streams: the notebook's own sys.stdout (ipykernel) does not work in a child.
    sys.stdout = open(1, "w", buffering=1, encoding="utf-8", errors="replace", closefd=False)
    sys.stderr = open(2, "w", buffering=1, encoding="utf-8", errors="replace", closefd=False)


def _write_record(results_dir: str, rank: int, record: dict) -> None:
    path = os.path.join(results_dir, f"rank-{rank}.pkl")
    with open(path + ".tmp", "wb") as f:
        pickle.dump(record, f)
    os.replace(path + ".tmp", path)  # the parent never reads half a record


def _error_record(exc: BaseException) -> dict:
    return {"error": type(exc).__name__, "message": str(exc), "traceback": traceback.format_exc(),
            "failed_at": _failure_started_at or time.monotonic()}


def on_cpu(value):
    """``value`` with every tensor in it (in lists, tuples, dicts) moved to the CPU.

    Why: a CUDA tensor sent back would be unpickled onto the GPU in the notebook process, starting CUDA
    there, and every later forked launch would then fail.
    """
    if isinstance(value, torch.Tensor):
        return value.detach().cpu()
    if isinstance(value, (list, tuple)) and type(value) in (list, tuple):
        return type(value)(on_cpu(v) for v in value)
    if isinstance(value, dict) and type(value) is dict:
        return {k: on_cpu(v) for k, v in value.items()}
    return value


def _result_record(value, rank: int) -> dict:
    try:
        return {"value": pickle.dumps(on_cpu(value))}
    except Exception as exc:
        try:
            raise ReturnValueError(
                f"rank {rank} returned a {type(value).__module__}.{type(value).__qualname__}, which cannot "
                f"be sent back to the caller ({type(exc).__name__}: {exc}). Return plain data: numbers, "
                f"lists, dicts, CPU tensors.") from exc
        except ReturnValueError as err:
            return _error_record(err)


_KEPT_UNTIL_EXIT: list = []  # in a worker: objects that keep_until_exit holds until the process ends


def keep_until_exit(obj):
    """Keep ``obj`` (a DDP model) alive until this worker process exits; returns ``obj``. Lesson 03.

    Why: a DDP model holds its process group. Freed right after its last all-reduce (a local variable at
    ``return``, after ``destroy_process_group``), the group's destructor runs on the main thread, holding
    Python's GIL, and waits for gloo's worker thread, which may still be freeing the finished all-reduce
    (Python tensors: it needs the GIL). Now and then that is a deadlock (seen with gdb in lesson 03).
    Workers of ``launch``, forked or spawned, end with ``os._exit`` (no interpreter teardown), so a model kept
    until then is never freed at the wrong moment. Under ``torchrun`` the list simply lives until interpreter exit.

        ddp_model = keep_until_exit(DDP(model))
    """
    _KEPT_UNTIL_EXIT.append(obj)
    return obj


PR_SET_NAME, PR_SET_PDEATHSIG = 15, 1  # prctl(2) options (linux/prctl.h)


def _prctl(option: int, value) -> None:
    """Linux ``prctl(option, value)`` through ctypes; a no-op elsewhere (macOS, Windows)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _name_process(name: str) -> None:
    """Name this process (Linux: /proc/PID/comm) so that the monitor, top and nvitop show "twogpu-rank0".

    A forked worker's RANK set through os.environ is invisible from outside (/proc/PID/environ keeps the
    environment the process started with), so the name is how other processes learn which rank it is.
    """
    _prctl(PR_SET_NAME, name.encode()[:15])


def pin_to_cores(rank: int, threads: int) -> set[int]:
    """Keep worker ``rank`` (and every thread it starts: torch's, gloo's) on its own ``threads`` cores, so that
    a worker's communication threads take turns with its own compute, not with the other worker's. Set
    ``TWOGPU_PIN_CORES=1`` to turn it on (lesson 02 measures what it changes). Returns the cores; unchanged
    (all of them) where the system cannot pin (macOS, Windows)."""
    if not hasattr(os, "sched_setaffinity"):
        return set()
    cores = sorted(os.sched_getaffinity(0))
    mine = {cores[(rank * threads + k) % len(cores)] for k in range(threads)}
    os.sched_setaffinity(0, mine)
    return mine


def _run_worker(rank: int, job: _Job) -> None:
    """Entry point of every worker (torch's start_processes calls it as ``_run_worker(rank, job)``)."""
    # Die with the launcher even if it is killed hard (torch sets SIGINT; we ignore SIGINT, see below).
    _prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL))
    # A kernel interrupt signals the whole process group. The launcher stops the workers itself, so
    # they ignore SIGINT instead of each printing a KeyboardInterrupt traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _redirect_output(job.stdout_pipes[rank], job.stderr_pipes[rank])
    os.environ.update(job.env[rank])
    _name_process(f"twogpu-rank{rank}")
    # Fork-safety of OpenMP, and fair sharing: the cores are split between the workers.
    torch.set_num_threads(job.threads)
    if os.environ.get("TWOGPU_PIN_CORES") == "1":
        pin_to_cores(rank, job.threads)
    try:
        fn, args = _unpack(job.payload)
        record = _result_record(fn(*args), rank)
    except SystemExit as exc:  # sys.exit(0) in a worker is a success, as under torchrun
        success = exc.code in (0, None)
        record = {"value": pickle.dumps(None)} if success else _error_record(exc)
    except BaseException as exc:  # reported once, by the launcher, in the caller's exception
        record = _error_record(exc)
    _write_record(job.results_dir, rank, record)
    sys.stdout.flush()
    sys.stderr.flush()
    # Forked and spawned workers end the same way: os._exit, with no interpreter teardown, where freeing a
    # process group while gloo's threads still run can deadlock (see keep_until_exit).
    os._exit(1 if "error" in record else 0)


# --- The caller side: the group of worker processes --------------------------------------------------


class _Group:
    """The workers of one launch attempt, started by ``torch.multiprocessing.start_processes``.

    They are started from a fresh thread that stays alive until they are gone. Why a thread: OpenMP (GNU
    libgomp) keeps its thread pool per calling thread; a child forked from the notebook's main thread after
    a multi-threaded torch op inherits a pool whose threads do not exist, and its first multi-threaded op
    hangs forever. A thread that never ran OpenMP forks clean children. Why alive: each child gets a signal
    (pdeathsig) when the thread that forked it ends.
    """

    def __init__(self, job: _Job, nprocs: int, start_method: str):
        self._release = threading.Event()
        started = threading.Event()
        outcome: dict = {}

        def start_and_hold():
            try:
                outcome["context"] = torch_mp.start_processes(
                    _run_worker, args=(job,), nprocs=nprocs, join=False, start_method=start_method)
            except BaseException as exc:
                outcome["error"] = exc
            started.set()
            self._release.wait()

        self._holder = threading.Thread(target=start_and_hold, name="launch-forker", daemon=True)
        self._holder.start()
        self.exited_at: dict[int, float] = {}
        self.stopped_by_us: set[int] = set()
        self._stopped = False
        try:
            while not started.wait(0.05):  # wait in short steps, so that Ctrl-C is seen
                pass
        except KeyboardInterrupt:
            started.wait()  # starting takes milliseconds; then stop the workers rather than orphan them
            if "context" in outcome:
                self._adopt(outcome["context"])
                self.stop()
            raise
        if "error" in outcome:
            self._release.set()
            raise outcome["error"]
        self._adopt(outcome["context"])

    def _adopt(self, context) -> None:
        self.context = context
        self.processes = context.processes

    def running(self) -> list[int]:
        return [r for r in range(len(self.processes)) if r not in self.exited_at]

    def wait(self, until: float | None) -> None:
        """Block until a worker exits or ``until`` (a time.monotonic() value) passes; note exit times."""
        sentinels = {self.processes[r].sentinel: r for r in self.running()}
        timeout = None if until is None else max(0.0, until - time.monotonic())
        for sentinel in multiprocessing.connection.wait(list(sentinels), timeout):
            rank = sentinels[sentinel]
            self.exited_at[rank] = time.monotonic()
            self.processes[rank].join()

    def failed(self) -> bool:
        return any(self.processes[r].exitcode != 0 for r in self.exited_at)

    def stop(self, grace_s: float = 0.0) -> None:
        """Give the workers ``grace_s`` to exit, then SIGTERM, then SIGKILL; reap all of them."""
        if self._stopped:
            return
        self._stopped = True
        end = time.monotonic() + grace_s
        while self.running() and time.monotonic() < end:
            self.wait(end)
        self.stopped_by_us = set(self.running())
        for rank in self.stopped_by_us:
            self.processes[rank].terminate()
        end = time.monotonic() + TERM_WAIT_S
        while self.running() and time.monotonic() < end:
            self.wait(end)
        for rank in self.running():
            self.processes[rank].kill()
            self.processes[rank].join()
            self.exited_at[rank] = time.monotonic()
        self._release.set()
        self._holder.join()
        for path in self.context.error_files:  # torch's own error files, if any were written
            with contextlib.suppress(OSError):
                os.unlink(path)


# --- Reading the outcome -----------------------------------------------------------------------------


def _read_record(results_dir: str, rank: int) -> dict | None:
    try:
        with open(os.path.join(results_dir, f"rank-{rank}.pkl"), "rb") as f:
            return pickle.load(f)
    except FileNotFoundError:
        return None


def _first_failure(group: _Group, results_dir: str) -> WorkerError:
    """The failure that came first; a 'peer is gone' error only when there is nothing else."""
    failures = []
    for rank, process in enumerate(group.processes):
        record = _read_record(results_dir, rank)
        if record and "error" in record:
            failures.append(WorkerError(rank, record["error"], record["message"], record["traceback"],
                                        exitcode=process.exitcode, failed_at=record["failed_at"]))
        elif process.exitcode != 0 and rank not in group.stopped_by_us:
            failures.append(death_error(rank, process.exitcode, group.exited_at[rank]))
        elif record is None and rank not in group.stopped_by_us:
            failures.append(WorkerError(rank, "exit", f"rank {rank} exited without returning (os._exit(0)?)",
                                        exitcode=process.exitcode, failed_at=group.exited_at[rank]))

    def order(err: WorkerError):
        peer_lost = any(hint in err.message.lower() for hint in PEER_LOST_HINTS)
        return (peer_lost, err.failed_at)

    return min(failures, key=order)


def _results(results_dir: str, nprocs: int) -> list:
    values = []
    for rank in range(nprocs):
        try:
            values.append(pickle.loads(_read_record(results_dir, rank)["value"]))
        except Exception as exc:
            raise LaunchError(f"the return value of rank {rank} could not be loaded here: "
                              f"{type(exc).__name__}: {exc}") from exc
    return values


# --- launch ------------------------------------------------------------------------------------------


def _worker_env(rank, nprocs, port, plan, threads, restart, max_restarts) -> dict:
    """The torchrun environment contract for one worker, plus the planned device and backend."""
    return {
        "RANK": str(rank), "LOCAL_RANK": str(rank), "GROUP_RANK": "0",
        "WORLD_SIZE": str(nprocs), "LOCAL_WORLD_SIZE": str(nprocs),
        "MASTER_ADDR": MASTER_ADDR, "MASTER_PORT": str(port),
        "TORCHELASTIC_RESTART_COUNT": str(restart), "TORCHELASTIC_MAX_RESTARTS": str(max_restarts),
        "OMP_NUM_THREADS": str(threads),
        "TWOGPU_DEVICE": plan.devices[rank], "TWOGPU_BACKEND": plan.backend,
    }


def _run_once(payload, plan, port, timeout, start_method, threads, restart, max_restarts) -> list:
    nprocs = plan.world_size
    if port is None:
        port = free_port()
    else:
        _check_port_free(port)
    with tempfile.TemporaryDirectory(prefix="twogpu-launch-") as results_dir:
        relay = OutputRelay(nprocs)
        env = [_worker_env(r, nprocs, port, plan, threads, restart, max_restarts) for r in range(nprocs)]
        job = _Job(payload, env, threads, results_dir, relay.stdout_pipes, relay.stderr_pipes)
        group = None
        deadline = None if timeout is None else time.monotonic() + timeout
        try:
            group = _Group(job, nprocs, start_method)
            relay.start()  # after the fork: a forked child must not inherit a thread mid-write
            while group.running() and not group.failed():
                if deadline is not None and time.monotonic() >= deadline:
                    running = group.running()
                    group.stop()
                    raise LaunchTimeout(timeout, running)
                group.wait(deadline)
            if group.failed():
                group.stop(GRACE_S)  # peers blocked in a collective see the failure and exit by themselves
                raise _first_failure(group, results_dir)
            return _results(results_dir, nprocs)
        except KeyboardInterrupt:
            began = time.monotonic()
            if group is not None:
                group.stop()
            print(f"[launch] interrupted: stopped {nprocs} workers in {time.monotonic() - began:.2f} s",
                  file=relay.stdout, flush=True)
            raise
        finally:
            if group is not None:
                group.stop()
            relay.close()


def launch(fn, *args, nprocs: int = 2, backend: str | None = None, port: int | None = None,
           timeout: float | None = None, max_restarts: int = 0, start_method: str | None = None) -> list:
    """Run ``fn(*args)`` in ``nprocs`` worker processes; return their return values in rank order.

    backend       "gloo" or "nccl"; None lets ``utils.devices.plan`` choose (nccl: one GPU per rank)
    port          MASTER_PORT; None picks a free port on 127.0.0.1 for each launch
    timeout       seconds for the whole launch; then ``LaunchTimeout`` names the ranks still running
    max_restarts  restart the whole group up to this many times after a worker fails
    start_method  None: fork, or spawn when CUDA is already initialised here; or force "fork"/"spawn"

    A failure raises one ``WorkerError`` naming the rank that failed first. Bad arguments (nprocs < 1, more
    NCCL ranks than GPUs, a non-callable, an explicit port in use) are errors before anything starts.
    """
    _check_arguments(fn, nprocs, timeout, max_restarts, start_method)
    plan = devices.plan(nprocs, backend=backend)  # DeviceError: e.g. more NCCL ranks than GPUs
    out = sys.stdout

    def say(line):
        print(line, file=out, flush=True)

    method = _choose_start_method(start_method, say)
    payload = _pack(fn, args, method)
    cores = devices.cpu_cores()
    threads = max(1, cores // nprocs)  # the cores shared out; at least one thread each, even when too few
    warning = oversubscription(nprocs, threads, cores)
    if warning:  # once per launch, not once per restart
        say(warning)
    for restart in range(max_restarts + 1):
        try:
            return _run_once(payload, plan, port, timeout, method, threads, restart, max_restarts)
        except WorkerError as err:
            if restart == max_restarts:
                raise
            say(f"[launch] rank {err.rank} failed ({err.summary}); restarting all {nprocs} workers "
                f"(restart {restart + 1} of {max_restarts})")
    raise AssertionError("unreachable")
