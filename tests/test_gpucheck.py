"""The GPU check (`make gpu-check`) on a machine without a GPU: it says so, fast, and exits 0; its probes
that need no GPU run; its phases are killed with everything they started."""

import os
import subprocess
import sys
import time
from pathlib import Path

from utils import devices
from utils.tools import gpucheck

ROOT = Path(__file__).resolve().parents[1]


def test_without_a_gpu_the_check_says_so_in_one_line_and_exits_0_within_30_s(tmp_path):
    if devices.gpu_count():
        return  # on a GPU machine `make gpu-check` is the test
    start = time.monotonic()
    out = subprocess.run([sys.executable, "-m", "utils.tools.gpucheck"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60, env=dict(os.environ, OUT=str(tmp_path)))
    assert out.returncode == 0 and time.monotonic() - start < 30
    report = (tmp_path / "gpu-check.md").read_text()
    assert "No CUDA GPU found here" in report and report.count("\n") <= 4


def test_replayed_topologies_probe_reports_three_machines_without_a_gpu():
    out = subprocess.run([sys.executable, "-m", "utils.tools.gpu_probes", "replayed_topologies"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120, check=True)
    assert "NVLink 4.0 x18 through NVSwitch (450 GB/s" in out.stdout
    assert "PCIe 3.0 x16" in out.stdout and "peer access no" in out.stdout and "NVLink 3.0 x12" in out.stdout


def test_a_phase_that_overruns_is_killed_with_its_children():
    child = "import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); time.sleep(60)"
    phase = gpucheck.Phase("sleeper", [sys.executable, "-c", child], 1)
    start = time.monotonic()
    verdict, _, seconds = gpucheck.run_phase(phase, dict(os.environ), limit=1)
    assert verdict.startswith("TIMED OUT") and time.monotonic() - start < 10
    left = subprocess.run(["pgrep", "-f", "time.sleep\\(60\\)"], capture_output=True, text=True).stdout.split()
    assert not [p for p in left if int(p) != os.getpid()]


def test_every_phase_is_given_a_timeout_and_the_notebooks_are_kept_beside_the_report(tmp_path):
    found = gpucheck.phases(sys.executable, tmp_path)
    assert all(0 < p.seconds <= 150 for p in found)
    assert sum(p.seconds for p in found) >= 450  # the total limit, not the sum, is what ends a long run
    kept = [p.command[-1] for p in found if p.name.startswith("notebook")]
    assert kept and all(Path(k).parent == tmp_path for k in kept)
