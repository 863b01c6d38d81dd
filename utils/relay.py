"""What the notebook sees of the launcher's workers (lesson 03's ``launch``): their errors, one readable
exception for a failure, and their output, in the cell, as it happens.

Each worker's stdout and stderr are pipes; one thread here reads them all and writes each complete line to
the caller's streams, prefixed ``[rank r] ``. The caller's ``sys.stdout`` is captured when the relay is made:
in Jupyter that object sends text to the cell that is running, even when written from another thread.
"""

from __future__ import annotations

import multiprocessing
import os
import selectors
import signal
import sys
import threading
import time

# Words in the error a rank gets when a PEER died under it (gloo, NCCL, sockets). Such an error is a
# consequence, not the cause, so it is never reported as the first failure when another one exists.
PEER_LOST_HINTS = ("closed by peer", "reset by peer", "broken pipe", "connection refused",
                   "remote process exited", "communicator was aborted", "socket closed")


class LaunchError(RuntimeError):
    """The launch could not run or finish (port in use, timeout, a worker failed)."""


class WorkerError(LaunchError):
    """A worker failed. Names the rank that failed first, its exception type, message and traceback."""

    def __init__(self, rank: int, exc_type: str, message: str, worker_traceback: str = "",
                 signal_name: str | None = None, exitcode: int | None = None, failed_at: float | None = None):
        self.rank = rank
        self.exc_type = exc_type
        self.message = message
        self.worker_traceback = worker_traceback
        self.signal_name = signal_name
        self.exitcode = exitcode
        self.failed_at = failed_at  # time.monotonic() in the worker (one clock for all processes on Linux)
        text = f"rank {rank} failed first: {self.summary}"
        if worker_traceback:
            text += f"\n\n--- traceback of rank {rank} ---\n{worker_traceback.rstrip()}"
        super().__init__(text)

    @property
    def summary(self) -> str:
        return f"{self.exc_type}: {self.message}" if self.message else self.exc_type


class LaunchTimeout(LaunchError):
    """``timeout=`` passed while some ranks were still running (often: waiting in a collective)."""

    def __init__(self, seconds: float, ranks: list[int]):
        self.seconds = seconds
        self.ranks = ranks
        names = ", ".join(map(str, ranks))
        super().__init__(f"launch timed out after {seconds:g} s; ranks still running: {names}. They were "
                         f"stopped. A rank that waits in a collective for a peer that never joins waits "
                         f"forever: check that every rank calls the same collectives in the same order.")


class ReturnValueError(TypeError):
    """Raised in a worker whose return value cannot be pickled back to the caller."""



def death_error(rank: int, exitcode: int, died_at: float) -> WorkerError:
    if exitcode < 0:
        name = signal.Signals(-exitcode).name
        hint = " (SIGKILL often means the out-of-memory killer)" if name == "SIGKILL" else ""
        return WorkerError(rank, name, f"rank {rank} was killed by signal {name}{hint}",
                           signal_name=name, exitcode=exitcode, failed_at=died_at)
    return WorkerError(rank, "exit", f"rank {rank} exited with code {exitcode} without a Python exception "
                       f"(os._exit, or a crash in C code)", exitcode=exitcode, failed_at=died_at)


class OutputRelay:
    """A thread that copies each worker's stdout/stderr to the caller's streams, line by line, prefixed.

    The caller's ``sys.stdout`` is captured when the relay is made: in Jupyter that object sends text to
    the cell that is running, even when written from this thread.
    """

    def __init__(self, nprocs: int):
        self._targets = (sys.stdout, sys.stderr)
        self.stdout_pipes, self.stderr_pipes = [], []
        self._selector = selectors.DefaultSelector()
        self._partial: dict[tuple[int, int], bytes] = {}
        for rank in range(nprocs):
            for which, pipes in enumerate((self.stdout_pipes, self.stderr_pipes)):
                reader, writer = multiprocessing.Pipe(duplex=False)
                pipes.append(writer)
                self._selector.register(reader, selectors.EVENT_READ, (rank, which))
        self._stop_at: float | None = None
        self._thread = threading.Thread(target=self._run, name="launch-output-relay", daemon=True)

    @property
    def stdout(self):
        """The caller's stdout, as captured when the relay was made (where the launcher's own notes go)."""
        return self._targets[0]

    def start(self) -> None:
        for writer in self.stdout_pipes + self.stderr_pipes:
            writer.close()  # the workers hold the write ends now; EOF comes when they exit
        self._thread.start()

    def _run(self) -> None:
        while self._selector.get_map():
            for key, _ in self._selector.select(timeout=0.1):
                data = os.read(key.fileobj.fileno(), 65536)
                self._emit(key.data, data, eof=not data)
                if not data:
                    self._selector.unregister(key.fileobj)
                    key.fileobj.close()
            if self._stop_at is not None and time.monotonic() > self._stop_at:
                break  # a grandchild process still holds a pipe: stop waiting for it

    def _emit(self, key: tuple[int, int], data: bytes, eof: bool) -> None:
        text = self._partial.pop(key, b"") + data
        lines = text.split(b"\n")
        rest = lines.pop()  # after the last newline: an unfinished line, kept for later
        if rest and not eof:
            self._partial[key] = rest
        elif rest:
            lines.append(rest)
        if lines:
            target = self._targets[key[1]]
            target.write("".join(f"[rank {key[0]}] {line.decode('utf-8', 'replace')}\n" for line in lines))
            target.flush()

    def close(self, drain_s: float = 1.0) -> None:
        """Relay what is left (the workers have exited), then stop the thread and close the pipes."""
        self._stop_at = time.monotonic() + drain_s
        if self._thread.is_alive():
            self._thread.join(drain_s + 1.0)
        for writer in self.stdout_pipes + self.stderr_pipes:
            writer.close()
        for key in list(self._selector.get_map().values()):
            key.fileobj.close()
        self._selector.close()
