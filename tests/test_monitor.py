"""utils.monitor: the GPU path on replayed nvitop samples, cpu mode with real worker processes, the panel's
text fallback in a real kernel, recordings, and that no monitor thread is ever left behind."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from utils import monitor, sampling

FIXTURES = Path(__file__).parent / "fixtures"
SAMPLES = json.loads((FIXTURES / "nvitop_samples.json").read_text())
GiB = 2**30


# --- A fake device layer: nvitop Device look-alikes that replay recorded readings ------------------------


class FakeNVMLError(Exception):
    pass


class ReplayDevice:
    """Answers nvitop's Device methods from one recorded frame; "N/A" is NA, {"error": ...} raises."""

    def __init__(self, record: dict):
        self.record, self.frame = record, 0

    def _answer(self, method: str):
        value = self.record["frames"][self.frame % len(self.record["frames"])].get(method, "N/A")
        if isinstance(value, dict) and "error" in value:
            raise FakeNVMLError(value["error"])
        return value

    def name(self):
        return self.record["name"]

    def nvlink_total_throughput(self):
        value = self._answer("nvlink_total_throughput")
        return (value["tx"], value["rx"]) if isinstance(value, dict) else ("N/A", "N/A")

    def __getattr__(self, method):  # gpu_utilization(), memory_used(), power_usage() ...
        if method.startswith("_") or method in ("record", "frame"):
            raise AttributeError(method)
        return lambda: self._answer(method)


class ReplaySampler(sampling.Sampler):
    """The real Sampler on fake GPUs: every sample() moves every GPU to its next recorded frame."""

    def __init__(self, **kwargs):
        self.fakes = [ReplayDevice(d) for d in SAMPLES["devices"]]
        self.frame = -1
        super().__init__(gpus=self.fakes, **kwargs)

    def sample(self) -> dict:
        self.frame += 1
        for fake in self.fakes:
            fake.frame = self.frame
        return super().sample()


class CountingSampler:
    """No GPU, no psutil: numbers that change at every sample (for the thread and panel tests)."""

    no_gpu_reason = "test: no GPU"

    def __init__(self):
        self.calls = 0

    def sample(self) -> dict:
        self.calls += 1
        busy = 100.0 * (self.calls % 2)
        host = {"cpu": 50.0, "mem_used": GiB, "mem_total": 8 * GiB}
        return {"t": time.perf_counter(), "gpus": [], "host": host,
                "workers": [{"pid": 11, "label": "rank 0", "cpu": busy, "rss": 100 * 2**20},
                            {"pid": 12, "label": "rank 1", "cpu": 100.0 - busy, "rss": 90 * 2**20}]}


def monitor_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith(monitor.THREAD_NAME)]


@pytest.fixture(autouse=True)
def no_monitor_left():
    yield
    monitor.stop()
    assert monitor_threads() == [], "a test left a monitor thread running"


@pytest.fixture
def workers():
    """Two child processes with RANK set, rank 0 busy and rank 1 asleep, plus a multiprocessing helper."""
    code = {"0": "while True: pass", "1": "import time; time.sleep(60)"}
    procs = [subprocess.Popen([sys.executable, "-c", code[rank]], env=dict(os.environ, RANK=rank))
             for rank in ("0", "1")]
    # multiprocessing's resource tracker is a child too, but not a worker: it must not be listed.
    helper = "import time; resource_tracker = 1; time.sleep(60)"
    procs.append(subprocess.Popen([sys.executable, "-c", helper]))
    yield procs
    for p in procs:
        p.kill()
        p.wait()


# --- The GPU path, on replayed samples ---------------------------------------------------------------------


@pytest.mark.timeout(30)
def test_gpu_sample_converts_units_and_leaves_out_what_the_driver_does_not_report():
    sampler = ReplaySampler()
    sampler.sample()  # frame 0: idle
    gpu0, gpu1 = sampler.sample()["gpus"]  # frame 1
    assert gpu0["name"] == "GPU 0 NVIDIA A100-SXM4-40GB"
    assert gpu0["util"] == 97 and gpu0["mem_total"] == 42_949_672_960
    assert gpu0["power"] == pytest.approx(352.118)  # mW -> W
    assert gpu0["pcie_rx"] == 1_436_220 * 1024 and gpu0["nvlink_tx"] == 18_874_368 * 1024  # KiB/s -> B/s
    assert "power" not in gpu1 and "nvlink_tx" not in gpu1  # NA, and an NVML "not supported" error
    assert gpu1["temp"] == 38
    gpu0, gpu1 = sampler.sample()["gpus"]  # frame 2: GPU 0's PCIe tx is NA, the rest is there
    assert "pcie_tx" not in gpu0 and "pcie_rx" in gpu0
    gpu0, gpu1 = sampler.sample()["gpus"]  # frame 3: GPU 1's temperature call raises once
    assert "temp" not in gpu1 and gpu1["util"] == 97


@pytest.mark.timeout(30)
def test_gpu_panel_hides_missing_metrics_and_survives_failing_calls():
    sampler = ReplaySampler()
    sampler.sample()
    sample = sampler.sample()
    titles, rows = monitor.gpu_rows(sample)
    assert titles == ["utilisation", "memory", "power", "temp.", "PCIe rx / tx", "NVLink rx / tx"]
    assert rows[0][1:3] == ["97%", "18.2 GiB / 40.0 GiB"]
    assert rows[1][3] == "–" and rows[1][6] == "–"  # GPU 1: no power, no NVLink
    # A metric that no GPU reports disappears from the table.
    no_power = {**sample, "gpus": [{k: v for k, v in g.items() if k != "power"} for g in sample["gpus"]]}
    assert "power" not in monitor.gpu_rows(no_power)[0]

    class Broken:  # every NVML call fails: the GPU still has a row, and nothing raises
        def __getattr__(self, name):
            def fail(*args):
                raise FakeNVMLError("NVMLError_GpuIsLost")
            return fail

    broken = sampling.Sampler(gpus=[Broken()]).sample()
    assert broken["gpus"] == [{"index": 0, "name": "GPU 0"}]
    assert "GPU 0" in monitor.panel_html(broken, monitor.History(1.0))


@pytest.mark.timeout(30)
def test_monitor_on_replayed_gpus_updates_live_with_sparklines():
    mon = monitor.Monitor(interval=0.05, sampler=ReplaySampler(), show=False)
    deadline = time.monotonic() + 5
    while mon.samples_seen < 8 and time.monotonic() < deadline:
        time.sleep(0.02)
    mon.stop()
    assert mon.samples_seen >= 8
    html = mon.panel.body.value
    assert "NVIDIA A100-SXM4-40GB" in html and "NVLink rx / tx" in html
    assert len(mon.panel.history.series["GPU 0 NVIDIA A100-SXM4-40GB"]) >= 8
    assert any(block in html for block in "▂▃▄▅▆▇█")  # the sparkline moved off its baseline
    assert "No NVIDIA GPU" not in html
    assert "GPU 1 NVIDIA A100-SXM4-40GB: utilisation" in mon.text()


@pytest.mark.timeout(30)
def test_recording_summary_and_plot_on_replayed_gpus():
    sampler = ReplaySampler()
    rec = monitor.Recording(interval=0.1, samples=[sampler.sample() for _ in range(6)])
    summary = rec.summary()
    assert not rec.simulated
    gpu0_util = [0, 97, 98, 12, 95, 99]  # the fixture's six frames
    assert summary["GPU 0 NVIDIA A100-SXM4-40GB"]["mean_busy_pct"] == pytest.approx(sum(gpu0_util) / 6)
    assert summary["GPU 1 NVIDIA A100-SXM4-40GB"]["peak_memory_bytes"] == int(17.7 * GiB)
    assert "GPU 0 NVIDIA A100-SXM4-40GB" in repr(summary) and "<table>" in summary._repr_html_()
    fig = rec.plot()
    busy_ax, mem_ax = fig.axes
    assert len(busy_ax.lines) == 2 and busy_ax.get_ylabel() == "GPU utilisation %"
    assert not any("simulated" in t.get_text() for t in fig.texts)


# --- cpu mode: the worker processes are the devices ---------------------------------------------------------


@pytest.mark.timeout(30)
def test_no_nvml_text_reaches_the_output_on_a_machine_without_the_driver(capfd):
    sampler = monitor.default_sampler()
    sampler.sample()
    out, err = capfd.readouterr()
    assert "NVML" not in out + err and "FATAL" not in out + err
    if not sampler.gpus:  # this machine (no NVIDIA driver): the calm line, once, and no GPU rows
        html = monitor.panel_html(sampler.sample(), monitor.History(1.0), sampler.no_gpu_reason)
        assert html.count("No NVIDIA GPU here") == 1
        assert "they stand in for the GPUs" in html


@pytest.mark.timeout(30)
def test_workers_are_the_kernels_children_labelled_by_rank(workers):
    sampler = sampling.Sampler(gpus=[], rescan_seconds=0.0)
    sampler.sample()
    time.sleep(1.0)
    ours = {p.pid for p in workers}  # other tests may have children of their own still ending
    rows = {w["label"]: w for w in sampler.sample()["workers"] if w["pid"] in ours}
    assert set(rows) == {"rank 0", "rank 1"}  # the resource-tracker look-alike is not a worker
    assert rows["rank 0"]["pid"] == workers[0].pid
    # busy vs asleep, visible without a GPU; relative, not absolute: on a loaded 2-core machine the busy
    # worker may get a third of a core
    assert rows["rank 0"]["cpu"] > max(20.0, 3 * rows["rank 1"]["cpu"])
    assert rows["rank 1"]["rss"] > 1e6


@pytest.mark.timeout(30)
def test_record_in_cpu_mode_plots_workers_and_host(workers):
    with monitor.record(hz=20, sampler=sampling.Sampler(gpus=[], rescan_seconds=0.0)) as rec:
        assert len(monitor_threads()) == 1
        time.sleep(1.2)
    assert monitor_threads() == []  # the block's end stops the sampling
    assert 12 <= len(rec.samples) <= 30  # ~24 at 20 Hz
    assert rec.simulated
    summary = rec.summary()
    assert {"rank 0", "rank 1", "host CPU"} <= set(summary)
    assert summary["rank 0"]["mean_busy_pct"] > max(20.0, 3 * summary["rank 1"]["mean_busy_pct"])  # relative
    assert summary["rank 0"]["peak_memory_bytes"] > 1e6
    fig = rec.plot()
    assert fig.axes[0].get_ylabel() == "CPU % (one core)"
    assert any("simulated on CPU" in t.get_text() for t in fig.texts)
    assert rec.cpu_seconds < 0.5  # the sampling's own cost, far below the work it watches


# --- Reliability: one monitor at a time, no thread left behind ----------------------------------------------


@pytest.mark.timeout(30)
def test_rerunning_the_setup_cell_replaces_the_monitor_and_stop_leaves_no_thread():
    first = monitor.Monitor(interval=0.05, sampler=CountingSampler(), show=False)
    assert len(monitor_threads()) == 1 and first.running
    second = monitor.Monitor(interval=0.05, sampler=CountingSampler(), show=False)  # the cell, again
    assert len(monitor_threads()) == 1
    assert not first.running and second.running and monitor.current() is second
    second.stop()
    assert monitor_threads() == [] and not second.running
    assert second.panel.status.value == "Monitor stopped"


@pytest.mark.timeout(30)
def test_toggle_button_stops_and_starts_and_atexit_stops_everything():
    mon = monitor.Monitor(interval=0.05, sampler=CountingSampler(), show=False)
    assert mon.panel.toggle.value and mon.panel.toggle.description == "■ Stop"
    mon.panel.toggle.value = False  # a click
    assert monitor_threads() == [] and mon.panel.toggle.description == "▶ Start"
    seen = mon.samples_seen
    time.sleep(0.2)
    assert mon.samples_seen == seen  # stopped means stopped
    mon.panel.toggle.value = True
    assert len(monitor_threads()) == 1
    time.sleep(0.2)
    assert mon.samples_seen > seen
    sampling.stop_all_threads()  # what atexit calls when the kernel shuts down
    assert monitor_threads() == []


@pytest.mark.timeout(30)
def test_a_failing_sampler_never_kills_the_thread():
    class Flaky(CountingSampler):
        def sample(self):
            sample = super().sample()
            if self.calls % 2:
                raise RuntimeError("NVML hiccup")
            return sample

    mon = monitor.Monitor(interval=0.02, sampler=Flaky(), show=False)
    time.sleep(0.3)
    assert mon.running and mon.samples_seen >= 3
    assert "NVML hiccup" in mon.thread.error
    mon.stop()


@pytest.mark.timeout(30)
def test_sparkline_levels_and_downsampling():
    assert monitor.sparkline([0, 50, 100, 250, -5]) == "▁▅██▁"
    assert monitor.sparkline(range(0, 120), width=30) == monitor.sparkline([i * 4 + 3 for i in range(30)])
    assert len(monitor.sparkline([10] * 600)) == 30


@pytest.mark.timeout(30)
def test_importing_utils_starts_nothing():
    code = ("import threading, sys; import utils.monitor, utils.timeline, utils.plots, utils.benchmarks.monitor; "
            "assert threading.active_count() == 1, threading.enumerate(); "
            "assert 'nvitop' not in sys.modules and 'ipywidgets' not in sys.modules; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "ok", out.stderr


# --- In a real kernel: one display, widget view plus a text summary, no NVML noise --------------------------


@pytest.mark.timeout(60)
def test_in_a_kernel_the_panel_shows_once_with_a_text_fallback():
    import nbformat
    from nbclient import NotebookClient

    cells = ["from utils import monitor\nmon = monitor.Monitor(interval=0.1)\nmon",  # shown once, not twice
             "import threading, time\ntime.sleep(0.3)\nmonitor.Monitor(interval=0.1)\n"
             "print(sum(t.name == 'twogpu-monitor' for t in threading.enumerate()), mon.running)",
             "monitor.stop()\nprint(sum(t.name.startswith('twogpu-monitor') for t in threading.enumerate()))"]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    where = {"metadata": {"path": str(FIXTURES)}}
    client = NotebookClient(nb, timeout=40, kernel_name="python3", resources=where)
    client.execute()
    first, second, third = (cell.outputs for cell in nb.cells)
    displays = [o for o in first if o.output_type in ("display_data", "execute_result")]
    assert len(displays) == 1
    data = displays[0].data
    assert "application/vnd.jupyter.widget-view+json" in data
    assert data["text/plain"].startswith("Monitor (live panel in JupyterLab; text snapshot here)")
    assert "host: CPU" in data["text/plain"]
    assert not [o for o in first + second + third if o.output_type == "stream" and o.name == "stderr"]
    assert "".join(o.text for o in second if o.output_type == "stream").split()[-2:] == ["1", "False"]
    assert "".join(o.text for o in third if o.output_type == "stream").strip() == "0"


# --- The overhead benchmark, shortened ----------------------------------------------------------------------


@pytest.mark.timeout(60)
def test_overhead_benchmark_is_registered_and_measures_thread_cpu_time():
    from utils import bench
    from utils.benchmarks import monitor as monitor_bench

    assert bench.discover("utils.benchmarks")["monitor"] is monitor_bench.monitor_overhead_bench
    percent = monitor_bench.overhead_percent(hz=10, seconds=1.0)
    assert 0 < percent < 25 and not math.isnan(percent)


def test_a_worker_first_seen_between_fork_and_exec_gets_its_rank_at_the_next_scan():
    """CI caught a worker labelled "pid N" for good: the first scan met it before exec, when its name and
    environment were still the parent's. A label by pid is asked again at every scan; a rank label is kept."""

    class Child:
        pid, name_now = 4242, "python"

        def name(self):
            return self.name_now

        def environ(self):
            return {}

        def cpu_percent(self, interval=None):
            return 0.0

    class Root:
        def children(self, recursive=True):
            return [child]

    child = Child()
    sampler = sampling.Sampler(gpus=[], rescan_seconds=0.0)
    sampler.root = Root()
    sampler._workers = {child.pid: (child, f"pid {child.pid}")}   # as the first scan left it
    child.name_now = "twogpu-rank1"                                 # after exec: the launcher's name
    sampler._rescan()
    assert sampler._workers[child.pid][1] == "rank 1"
    child.name_now = "python"                                       # a rank label is never asked again
    sampler._rescan()
    assert sampler._workers[child.pid][1] == "rank 1"


def test_a_lesson_without_workers_says_so_in_cpu_mode():
    """Lesson 04 times one device: its snapshot never describes worker processes it does not start (t33_0304)."""
    sample = {"gpus": [], "host": {"cpu": 10.0, "mem_used": 1 << 30, "mem_total": 8 << 30}, "workers": []}
    with_workers = monitor.summary_text(sample, "no NVIDIA driver")
    without = monitor.summary_text(sample, "no NVIDIA driver", workers=False)
    assert "When a cell starts worker processes" in with_workers
    assert "starts no worker processes" in without and "stand in for the GPUs" not in without
    html = monitor.panel_html(sample, monitor.History(1.0), "no NVIDIA driver", workers=False)
    assert "no worker processes in this lesson" in html and "no worker processes yet" not in html
