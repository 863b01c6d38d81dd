"""A live panel of the GPUs, the host and the course's worker processes, and recordings of a block of work.

Introduced in lesson 00's set-up cell; every later lesson starts one there:

    from utils import monitor
    mon = monitor.Monitor()                 # shows the panel, updates every second; mon.stop() ends it
    with monitor.record() as rec:           # samples at 10 Hz while the block runs
        train()
    rec.plot(); rec.summary()               # busy % and memory per device over time

The panel shows, per GPU, utilisation, memory, power, temperature, PCIe and NVLink throughput (each only
where the driver reports it), the host's CPU and memory, and the worker processes the course started: the
kernel's child processes, named by the ``RANK`` in the environment they started with (so a launcher sets
RANK before it starts each worker; a worker without one shows its pid). In cpu mode there are no GPUs: the
worker processes *are* the devices, and their CPU % shows one stage working while the other waits.

Where the numbers come from is a *sampler* (``utils.sampling``): any object with ``sample() -> dict``.
``Sampler`` is the real one (nvitop ``Device`` objects for the GPUs, psutil for the rest); tests pass fake GPU
devices that replay recorded nvitop samples, so every path here runs on a machine without a GPU.

One monitor at a time: a new ``Monitor()`` stops the previous one (re-running the set-up cell), and
``stop()``, the Stop button and the end of the kernel (atexit) leave no thread behind.
"""

from __future__ import annotations

import contextlib
import html
import math
from collections import deque
from dataclasses import dataclass, field

from utils import plots
from utils.plots import fmt_bytes
from utils.sampling import THREAD_NAME, SamplingThread, default_sampler
from utils.tables import Table

SPARK_BLOCKS = "▁▂▃▄▅▆▇█"
HISTORY_SECONDS = 60  # the sparklines show the last minute


# --- What the panel shows ---------------------------------------------------------------------------------


def sparkline(values, top: float = 100.0, width: int = 30) -> str:
    """Unicode blocks, one per value (the highest of each group when there are more than ``width``)."""
    values = list(values)
    if len(values) > width:
        step = len(values) / width
        values = [max(values[int(i * step):int((i + 1) * step)] or [0]) for i in range(width)]
    levels = len(SPARK_BLOCKS) - 1
    return "".join(SPARK_BLOCKS[max(0, min(levels, round(levels * v / top)))] for v in values)


class History:
    """The last minute of each busy % (GPU utilisation, host CPU, worker CPU), for the sparklines."""

    def __init__(self, interval: float):
        self.length = max(2, math.ceil(HISTORY_SECONDS / interval))
        self.series: dict[str, deque] = {}

    def add(self, sample: dict) -> None:
        for key, value in busy_values(sample).items():
            self.series.setdefault(key, deque(maxlen=self.length)).append(value)
        for key in set(self.series) - set(busy_values(sample)):
            del self.series[key]  # a worker that ended leaves the panel

    def spark(self, key: str) -> str:
        return sparkline(self.series.get(key, ()))


def busy_values(sample: dict) -> dict[str, float]:
    """Busy % per device in one sample: GPU utilisation, host CPU, and each worker's CPU (max 100)."""
    values = {gpu["name"]: gpu["util"] for gpu in sample.get("gpus", []) if "util" in gpu}
    if "host" in sample:
        values["host CPU"] = sample["host"]["cpu"]
    for w in sample.get("workers", []):
        values[w["label"]] = min(w["cpu"], 100.0)  # a worker with two threads is still one busy device
    return values


# Columns of the GPU table: (title, how to write a GPU's value or None when the driver does not report it).
GPU_COLUMNS = [
    ("utilisation", lambda g: f"{g['util']:.0f}%" if "util" in g else None),
    ("memory", lambda g: f"{fmt_bytes(g['mem_used'])} / {fmt_bytes(g.get('mem_total'))}"
     if "mem_used" in g else None),
    ("power", lambda g: f"{g['power']:.0f} W" if "power" in g else None),
    ("temp.", lambda g: f"{g['temp']:.0f} °C" if "temp" in g else None),
    ("PCIe rx / tx", lambda g: f"{fmt_bytes(g.get('pcie_rx'))}/s / {fmt_bytes(g.get('pcie_tx'))}/s"
     if "pcie_rx" in g or "pcie_tx" in g else None),
    ("NVLink rx / tx", lambda g: f"{fmt_bytes(g.get('nvlink_rx'))}/s / {fmt_bytes(g.get('nvlink_tx'))}/s"
     if "nvlink_rx" in g or "nvlink_tx" in g else None),
]


def gpu_rows(sample: dict) -> tuple[list[str], list[list[str]]]:
    """Titles and rows of the GPU table; a column no GPU reports is left out, a gap in one GPU is "–"."""
    gpus = sample.get("gpus", [])
    cells = [[fmt(g) for _, fmt in GPU_COLUMNS] for g in gpus]
    shown = [k for k in range(len(GPU_COLUMNS)) if any(row[k] is not None for row in cells)]
    titles = [GPU_COLUMNS[k][0] for k in shown]
    rows = [[g["name"]] + [row[k] or "–" for k in shown] for g, row in zip(gpus, cells)]
    return titles, rows


def no_gpu_line(reason: str | None, workers: bool = True) -> str:
    """The cpu-mode line. ``workers=False``: a lesson that starts no worker processes (lesson 04 times one
    device) says so, rather than describe workers it never shows."""
    said = f"No NVIDIA GPU here: {reason or 'no NVIDIA GPU found'}. "
    if not workers:
        return said + "This lesson times on this CPU and starts no worker processes."
    return said + ("When a cell starts worker processes, they stand in for the GPUs: their CPU % shows which one "
                   "works and which one waits.")


def _table_html(titles: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th style='text-align:left;padding-right:1em'>{html.escape(t)}</th>" for t in titles)
    body = "".join("<tr>" + "".join(f"<td style='padding-right:1em'>{c}</td>" for c in row) + "</tr>"
                   for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _spark_html(history: History, key: str) -> str:
    return f"<span style='font-family:monospace;color:#1f77b4'>{history.spark(key)}</span>"


def panel_html(sample: dict, history: History, no_gpu_reason: str | None = None, workers: bool = True) -> str:
    """The panel's body: GPUs (or the calm cpu-mode line), host, workers; sparklines of the last minute."""
    parts = []
    titles, rows = gpu_rows(sample)
    if rows:
        cells = [[html.escape(c) for c in row] for row in rows]
        if titles[:1] == ["utilisation"]:
            for row, html_row in zip(rows, cells):
                html_row[1] += " " + _spark_html(history, row[0])
        parts.append(_table_html(["GPU"] + titles, cells))
    else:
        parts.append(f"<div style='color:#555'>{html.escape(no_gpu_line(no_gpu_reason, workers))}</div>")
    host = sample.get("host", {})
    device_rows = [["host CPU", "", f"{host.get('cpu', 0):.0f}% {_spark_html(history, 'host CPU')}",
                    f"{fmt_bytes(host.get('mem_used'))} / {fmt_bytes(host.get('mem_total'))}"]]
    for w in sample.get("workers", []):
        device_rows.append([html.escape(w["label"]), str(w["pid"]),
                            f"{w['cpu']:.0f}% {_spark_html(history, w['label'])}", fmt_bytes(w["rss"])])
    if not sample.get("workers"):
        device_rows.append(["no worker processes yet" if workers else "no worker processes in this lesson",
                            "", "", ""])
    parts.append(_table_html(["process", "pid", "CPU % (one core = 100)", "memory"], device_rows))
    return "".join(parts)


def summary_text(sample: dict, no_gpu_reason: str | None = None, workers: bool = True) -> str:
    """A few plain lines: what a notebook viewer without widgets shows instead of the live panel."""
    lines = ["Monitor (live panel in JupyterLab; text snapshot here)"]
    titles, rows = gpu_rows(sample)
    lines += [f"  {row[0]}: " + ", ".join(f"{t} {v}" for t, v in zip(titles, row[1:])) for row in rows]
    if not rows:
        lines.append("  " + no_gpu_line(no_gpu_reason, workers))
    host = sample.get("host", {})
    lines.append(f"  host: CPU {host.get('cpu', 0):.0f}%, memory {fmt_bytes(host.get('mem_used'))} / "
                 f"{fmt_bytes(host.get('mem_total'))}")
    lines += [f"  {w['label']} (pid {w['pid']}): CPU {w['cpu']:.0f}%, memory {fmt_bytes(w['rss'])}"
              for w in sample.get("workers", [])]
    return "\n".join(lines)


# --- The live panel ---------------------------------------------------------------------------------------


class Panel:
    """The widgets: a Start/Stop toggle, a status line, and the HTML body that each sample rewrites."""

    def __init__(self, interval: float, no_gpu_reason: str | None = None, workers: bool = True):
        import ipywidgets as widgets

        self.no_gpu_reason = no_gpu_reason
        self.workers = workers  # False: the lesson starts no worker processes, and the panel says so
        self.history = History(interval)
        self.last_sample: dict = {}
        self.samples_seen = 0
        self.toggle = widgets.ToggleButton(value=False, description="▶ Start", tooltip="start/stop sampling",
                                           layout=widgets.Layout(width="7em"))
        self.status = widgets.Label()
        self.body = widgets.HTML()
        self.body.add_class("twogpu-monitor")  # the browser test finds the panel by this class
        self.widget = widgets.VBox([widgets.HBox([self.toggle, self.status]), self.body])

    def update(self, sample: dict) -> None:
        """Called from the sampling thread: a Label or HTML value set there re-renders live in JupyterLab."""
        self.last_sample = sample
        self.samples_seen += 1
        self.history.add(sample)
        self.body.value = panel_html(sample, self.history, self.no_gpu_reason, self.workers)

    def set_status(self, running: bool, interval: float, error: str | None = None) -> None:
        self.toggle.value = running
        self.toggle.description = "■ Stop" if running else "▶ Start"
        state = f"live, every {interval:g} s" if running else "stopped"
        self.status.value = f"Monitor {state}" + (f"; last sampling error: {error}" if error else "")

    def text(self) -> str:
        return summary_text(self.last_sample, self.no_gpu_reason, self.workers)


_current: "Monitor | None" = None  # the one running monitor: a new Monitor() replaces it


class Monitor:
    """The live panel. ``Monitor()`` shows it and starts sampling every ``interval`` seconds.

    ``sampler`` is for tests (default: the real GPUs, host and workers); ``show=False`` builds the panel
    without displaying it; ``workers=False`` for a lesson that starts no worker processes (its panel says so).
    Creating a Monitor stops the previous one.
    """

    def __init__(self, interval: float = 1.0, sampler=None, show: bool = True, start: bool = True,
                 workers: bool = True):
        global _current
        if _current is not None:
            _current.stop()  # re-running the set-up cell must not leave a second monitor running
        _current = self
        self.interval = interval
        self.sampler = sampler if sampler is not None else default_sampler()
        self.panel = Panel(interval, getattr(self.sampler, "no_gpu_reason", None), workers)
        self.thread = SamplingThread(self.sampler, interval, self.panel.update)
        self.panel.toggle.observe(self._on_toggle, names="value")
        self._shown = False
        self._first_sample()  # filled before it is shown (and for the text snapshot)
        if start:
            self.start()
        else:
            self._set_status()
        if show:
            self.show()

    # -- control
    def start(self) -> None:
        self.thread.start()
        self._set_status()

    def stop(self) -> None:
        """Stop sampling; the panel keeps its last numbers. No thread is left behind."""
        self.thread.stop()
        self._set_status()

    @property
    def running(self) -> bool:
        return self.thread.alive

    def _on_toggle(self, change) -> None:
        if change["new"] and not self.running:
            self.start()
        elif not change["new"] and self.running:
            self.stop()

    def _set_status(self) -> None:
        self.panel.set_status(self.running, self.interval, self.thread.error)

    def _first_sample(self) -> None:
        try:
            self.panel.update(self.sampler.sample())
        except Exception as exc:  # the thread will try again; the status line says what went wrong
            self.thread.error = f"{type(exc).__name__}: {exc}"

    # -- what tests and learners read
    @property
    def samples_seen(self) -> int:
        return self.panel.samples_seen

    @property
    def last_sample(self) -> dict:
        return self.panel.last_sample

    # -- display
    def text(self) -> str:
        return self.panel.text()

    def _repr_mimebundle_(self, **kwargs) -> dict:
        """The widget for JupyterLab, and a text snapshot for nbval, consoles and exported notebooks."""
        bundle = dict(self.panel.widget._repr_mimebundle_(**kwargs) or {})
        bundle["text/plain"] = self.text()
        return bundle

    def show(self) -> None:
        """Display the panel (again): in a notebook the live widget, elsewhere the text snapshot."""
        self._shown = True
        try:
            from IPython import get_ipython
            from IPython.display import display
        except ImportError:
            get_ipython = None
        if get_ipython is None or get_ipython() is None:
            print(self.text())
            return
        display(self._repr_mimebundle_(), raw=True)

    def _ipython_display_(self) -> None:
        # Monitor() already showed itself; as the cell's last value it must not appear a second time.
        if not self._shown:
            self.show()

    def __repr__(self) -> str:
        return self.text()


def current() -> Monitor | None:
    """The running (or last) monitor of this kernel, if any."""
    return _current


def stop() -> None:
    """Stop the current monitor, if there is one."""
    if _current is not None:
        _current.stop()


# --- Recordings ---------------------------------------------------------------------------------------------


@dataclass
class Recording:
    """Samples taken during a ``with record():`` block. ``plot()`` and ``summary()`` read them."""

    interval: float
    no_gpu_reason: str | None = None
    samples: list[dict] = field(default_factory=list)
    cpu_seconds: float = 0.0  # the sampling thread's own CPU time

    @property
    def simulated(self) -> bool:
        """True in cpu mode: the recorded "devices" are worker processes and the host CPU."""
        return not any(s.get("gpus") for s in self.samples)

    def series(self) -> dict[str, dict[str, list[float]]]:
        """Per device: times (s from the first sample), busy %, memory (bytes); NaN while it is absent."""
        if not self.samples:
            return {}
        t0 = self.samples[0]["t"]
        out: dict[str, dict[str, list[float]]] = {}
        for k, sample in enumerate(self.samples):
            for name, (busy, memory) in _devices_of(sample, self.simulated).items():
                s = out.setdefault(name, {"t": [], "busy": [math.nan] * k, "memory": [math.nan] * k})
                s["busy"].append(busy)
                s["memory"].append(memory)
            for s in out.values():  # a device missing from this sample gets a gap
                s["busy"] += [math.nan] * (k + 1 - len(s["busy"]))
                s["memory"] += [math.nan] * (k + 1 - len(s["memory"]))
        times = [s["t"] - t0 for s in self.samples]
        for s in out.values():
            s["t"] = times
        return out

    def summary(self) -> "Summary":
        """Mean busy % and peak memory per device."""
        rows = {}
        for name, s in self.series().items():
            busy = [b for b in s["busy"] if b == b]
            memory = [m for m in s["memory"] if m == m]
            rows[name] = {"mean_busy_pct": sum(busy) / len(busy) if busy else math.nan,
                          "peak_memory_bytes": max(memory) if memory else math.nan}
        return Summary(rows, simulated=self.simulated)

    def plot(self):
        """Busy % and memory per device over time (matplotlib figure)."""

        fig, (busy_ax, mem_ax) = plots.new_figure(rows=2)
        for i, (name, s) in enumerate(self.series().items()):
            color = plots.device_color(i)
            busy_ax.plot(s["t"], s["busy"], label=name, color=color)
            mem_ax.plot(s["t"], [m / 2**30 for m in s["memory"]], label=name, color=color)
        busy_ax.set_ylabel("CPU % (one core)" if self.simulated else "GPU utilisation %")
        busy_ax.set_ylim(0, 105)
        mem_ax.set_ylabel("memory (GiB)")
        mem_ax.set_xlabel("time (s)")
        busy_ax.legend(loc="upper right", fontsize=8, ncol=4)
        plots.stamp_simulated(fig, self.simulated)
        rate = f"{1 / self.interval:g} Hz"
        return plots.finish(fig, f"Busy % and memory per device, sampled at {rate}")


def _devices_of(sample: dict, simulated: bool) -> dict[str, tuple[float, float]]:
    """(busy %, memory bytes) per device of one sample: the GPUs, or in cpu mode the workers and host."""
    if not simulated:
        return {g["name"]: (g.get("util", math.nan), g.get("mem_used", math.nan)) for g in sample["gpus"]}
    out = {w["label"]: (min(w["cpu"], 100.0), float(w["rss"])) for w in sample.get("workers", [])}
    host = sample.get("host")
    if host:
        out["host CPU"] = (host["cpu"], float(host["mem_used"]))
    return out


class Summary(dict):
    """{device: {"mean_busy_pct", "peak_memory_bytes"}} that shows as a table."""

    def __init__(self, rows: dict, simulated: bool):
        super().__init__(rows)
        self.simulated = simulated

    def table(self):

        title = "Recording" + (" (simulated on CPU: workers and host CPU)" if self.simulated else "")
        return Table(["device", "mean busy %", "peak memory"],
                     [(name, round(v["mean_busy_pct"], 1), fmt_bytes(v["peak_memory_bytes"]))
                      for name, v in self.items()], title=title)

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()

    def __repr__(self) -> str:
        return self.table().to_text()


@contextlib.contextmanager
def record(hz: float = 10.0, sampler=None):
    """Sample at ``hz`` while the block runs; yields a ``Recording`` (complete once the block ends).

    The default sampler skips PCIe and NVLink: NVML blocks 20 ms per PCIe reading, too slow for 10 Hz.
    """
    sampler = sampler if sampler is not None else default_sampler(throughput=False)
    recording = Recording(interval=1 / hz, no_gpu_reason=getattr(sampler, "no_gpu_reason", None))
    thread = SamplingThread(sampler, 1 / hz, recording.samples.append, name=THREAD_NAME + "-record")
    thread.start()
    try:
        yield recording
    finally:
        thread.stop()
        recording.cpu_seconds = thread.cpu_seconds
