"""Where the monitor's numbers come from: samplers and the thread that calls them (lesson 00's monitor).

A *sampler* is any object with ``sample() -> dict``. ``Sampler`` is the real one: nvitop ``Device`` objects
for the GPUs (NVML underneath), psutil for the host and for the course's worker processes (the kernel's
children, labelled by the ``RANK`` they started with, or by the name the launcher gives them). Tests pass
fake GPU devices that replay recorded nvitop samples, so every path here runs without a GPU.

``SamplingThread`` calls a sampler at a fixed interval on a daemon thread and hands each sample on; every
live one is stopped at interpreter exit, so no thread outlives the kernel. ``utils.monitor`` builds the live
panel and the recordings on top of this module.
"""

from __future__ import annotations

import atexit
import math
import os
import threading
import time

import psutil

from utils import devices, nvml

# Sample keys of one GPU: (nvitop Device method, factor to the unit the panel uses).
GPU_METRICS = {
    "util": ("gpu_utilization", 1),  # percent
    "mem_used": ("memory_used", 1),  # bytes
    "mem_total": ("memory_total", 1),  # bytes
    "power": ("power_usage", 1e-3),  # milliwatts -> watts
    "temp": ("temperature", 1),  # degrees Celsius
}
# NVML measures PCIe traffic over a 20 ms window and blocks meanwhile: worth it at 1 Hz, not at 10 Hz.
PCIE_METRICS = {"pcie_rx": ("pcie_rx_throughput", 1024), "pcie_tx": ("pcie_tx_throughput", 1024)}  # KiB/s
# multiprocessing's helper processes are children of the kernel too, but they are not workers.
HELPER_MARKERS = ("resource_tracker", "semaphore_tracker", "forkserver")
THREAD_NAME = "twogpu-monitor"

# --- Samplers: where the numbers come from --------------------------------------------------------------


def _number(value) -> float | None:
    """A finite number, or None for nvitop's NA (a string), NaN and anything else that is not a number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def _ask(call) -> float | None:
    """One NVML question; an error (e.g. "not supported") hides that metric instead of breaking the panel."""
    try:
        return _number(call())
    except Exception:
        return None


def sample_gpu(device, index: int, throughput: bool = True) -> dict:
    """One GPU's metrics as a dict; a metric the driver does not report is left out."""
    metrics = {**GPU_METRICS, **(PCIE_METRICS if throughput else {})}
    row = {"index": index}
    for key, (method, factor) in metrics.items():
        value = _ask(getattr(device, method))
        if value is not None:
            row[key] = value * factor
    if throughput:
        try:  # non-blocking after the first call: nvitop compares NVLink counters between calls
            tx, rx = device.nvlink_total_throughput()
        except Exception:
            tx = rx = None
        for key, value in (("nvlink_tx", _number(tx)), ("nvlink_rx", _number(rx))):
            if value is not None:
                row[key] = value * 1024
    return row


def _worker_label(proc) -> str:
    """"rank 1" for a launcher worker (the launcher names it "twogpu-rank1"), or when the process started
    with RANK in its environment (torchrun, spawn); else its pid."""
    try:
        name = proc.name()
        if name.startswith("twogpu-rank"):
            return f"rank {name[len('twogpu-rank'):]}"
        rank = proc.environ().get("RANK")
    except Exception:  # no permission, or the process just ended
        rank = None
    return f"rank {rank}" if rank is not None else f"pid {proc.pid}"


class Sampler:
    """The real sampler: GPUs through nvitop, host and worker processes through psutil.

    ``gpus`` are nvitop ``Device`` objects (or fakes with the same methods); ``root_pid`` is the process
    whose children are the workers (default: this kernel). ``throughput=False`` skips PCIe/NVLink.
    """

    def __init__(self, gpus=(), no_gpu_reason: str | None = None, root_pid: int | None = None,
                 throughput: bool = True, rescan_seconds: float = 1.0):
        self.gpus = list(gpus)
        self.gpu_names = [_device_name(g, i) for i, g in enumerate(self.gpus)]
        self.no_gpu_reason = None if self.gpus else (no_gpu_reason or "no NVIDIA GPU found")
        self.throughput = throughput
        self.root = psutil.Process(root_pid or os.getpid())
        self.rescan_seconds = rescan_seconds  # listing processes reads all of /proc: not at every sample
        self._workers: dict[int, tuple[object, str]] = {}
        self._last_scan = -math.inf

    def sample(self) -> dict:
        with nvml.quiet_nvitop():  # keep nvitop's log lines out of the notebook
            gpus = [dict(sample_gpu(g, i, self.throughput), name=self.gpu_names[i])
                    for i, g in enumerate(self.gpus)]
        return {"t": time.perf_counter(), "gpus": gpus, "host": self.sample_host(),
                "workers": self.sample_workers()}

    def sample_host(self) -> dict:
        memory = psutil.virtual_memory()
        # Per thread in psutil >= 5.9.6: the CPU % since this thread's previous call.
        return {"cpu": psutil.cpu_percent(interval=None), "mem_used": memory.total - memory.available,
                "mem_total": memory.total}

    def sample_workers(self) -> list[dict]:
        now = time.perf_counter()
        if now - self._last_scan >= self.rescan_seconds:
            self._rescan()
            self._last_scan = now
        rows = []
        for pid, (proc, label) in list(self._workers.items()):
            try:
                rows.append({"pid": pid, "label": label, "cpu": proc.cpu_percent(interval=None),
                             "rss": proc.memory_info().rss})
            except Exception:  # it ended since the last scan
                del self._workers[pid]
        return sorted(rows, key=lambda r: (r["label"], r["pid"]))

    def _rescan(self) -> None:
        try:
            children = self.root.children(recursive=True)
        except psutil.Error:
            children = []
        alive = {}
        for proc in children:
            if proc.pid in self._workers:
                known, label = self._workers[proc.pid]  # keep the object: it holds the CPU % baseline
                if label.startswith("pid "):  # seen between fork and exec, before its RANK or name: ask again
                    label = _worker_label(known)
                alive[proc.pid] = (known, label)
            elif _is_worker(proc):
                proc.cpu_percent(interval=None)  # the first call only sets the baseline
                alive[proc.pid] = (proc, _worker_label(proc))
        self._workers = alive


def _is_worker(proc) -> bool:
    try:
        if proc.status() == "zombie":
            return False
        cmdline = " ".join(proc.cmdline())
    except Exception:
        return False
    return not any(marker in cmdline for marker in HELPER_MARKERS)


def _device_name(device, index: int) -> str:
    try:
        name = device.name()
    except Exception:
        name = None
    return f"GPU {index}" + (f" {name}" if isinstance(name, str) and name != "N/A" else "")


def gpu_devices() -> tuple[list, str | None]:
    """nvitop ``Device`` objects for the GPUs torch can use, or ([], why there are none).

    Asks ``nvml.real_layer()`` first: calling nvitop on a machine without the NVIDIA driver would print
    "FATAL ERROR: NVML not found" into the notebook.
    """
    layer, reason = nvml.real_layer()
    if layer is None:
        return [], reason
    n = devices.gpu_count()  # respects CUDA_VISIBLE_DEVICES, and does not start CUDA
    if n == 0:
        return [], devices.hardware(layer=layer, n_gpus=0).no_gpu_reason
    with nvml.quiet_nvitop():
        from nvitop import Device

        return [Device(i) for i in layer.visible_indices(n)], None


def default_sampler(throughput: bool = True) -> Sampler:
    gpus, reason = gpu_devices()
    return Sampler(gpus, no_gpu_reason=reason, throughput=throughput)


# --- The sampling thread ---------------------------------------------------------------------------------

_running: set["SamplingThread"] = set()  # every live sampling thread, so atexit can stop them all
_atexit_registered = False


def stop_all_threads() -> None:
    for thread in list(_running):
        thread.stop()


class SamplingThread:
    """Calls ``on_sample(sampler.sample())`` every ``interval`` seconds in a daemon thread until stop().

    ``cpu_seconds`` is the thread's own CPU time (``time.thread_time``): the monitor's overhead.
    """

    def __init__(self, sampler, interval: float, on_sample, name: str = THREAD_NAME):
        if interval <= 0:
            raise ValueError(f"interval must be positive, got {interval}")
        self.sampler, self.interval, self.on_sample, self.name = sampler, interval, on_sample, name
        self.cpu_seconds = 0.0
        self.wall_seconds = 0.0
        self.error: str | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        global _atexit_registered
        if self.alive:
            return
        if not _atexit_registered:  # registered on first use, not on import: importing utils does nothing
            atexit.register(stop_all_threads)
            _atexit_registered = True
        self._stop.clear()
        # Daemon: a kernel that exits without stop() is never held up by this thread.
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        _running.add(self)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
        _running.discard(self)

    def _run(self) -> None:
        cpu0, wall0 = time.thread_time(), time.perf_counter()
        deadline = wall0
        while not self._stop.is_set():
            try:
                self.on_sample(self.sampler.sample())
            except Exception as exc:  # one bad sample must not end the monitor; the panel shows it
                self.error = f"{type(exc).__name__}: {exc}"
            self.cpu_seconds = time.thread_time() - cpu0
            self.wall_seconds = time.perf_counter() - wall0
            deadline = max(deadline + self.interval, time.perf_counter())  # late: skip, never burst
            self._stop.wait(deadline - time.perf_counter())

    @property
    def cpu_percent(self) -> float:
        """The thread's CPU time in % of one core since it started."""
        return 100 * self.cpu_seconds / self.wall_seconds if self.wall_seconds else 0.0
