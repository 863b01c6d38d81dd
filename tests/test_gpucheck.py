"""The GPU check (`make gpu-check`) on a machine without a GPU: it says so, fast, and exits 0; its probes
that need no GPU run; its phases are killed with everything they started."""

import os
import subprocess
import sys
import time
from pathlib import Path

from utils import devices
from utils.tools import gpu_probes, gpucheck

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


def test_replayed_topologies_probe_reports_each_machine_and_its_healthy_busbw_without_a_gpu():
    out = subprocess.run([sys.executable, "-m", "utils.tools.gpu_probes", "replayed_topologies"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120, check=True)
    assert "NVLink 4.0 x18 through NVSwitch (450 GB/s" in out.stdout
    assert "PCIe 3.0 x16" in out.stdout and "peer access no" in out.stdout
    assert "NVLink 3.0 x12 through NVSwitch" in out.stdout and "NVLink 4.0 x12 (300 GB/s" in out.stdout
    assert "busbw 35%-60% of the link (no peer access" in out.stdout  # Kaggle's 2 x T4: healthy, not broken


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


# --- The measurement probes' verdicts (issue 36), on given figures ----------------------------------------------


def _profile(matmul, other, dispatch, busy, source=None):
    from utils.lessons.why_slow import profile

    return profile.StepProfile(matmul + other + dispatch, {"matmul": matmul, "memory-bound": other,
                               "Python & dispatch": dispatch}, [], Path("t.json"), busy, 0.0,
                               source or profile.DEVICE_TIME)


def test_the_profiler_probe_says_sane_when_kernel_time_makes_most_of_the_step_and_not_otherwise():
    from utils.lessons.why_slow import profile

    good = gpu_probes.profile_verdicts(_profile(0.007, 0.002, 0.001, 0.009))
    assert all(ok for ok, _ in good) and "matmuls is 70% of the step" in good[-1][1]
    host = gpu_probes.profile_verdicts(_profile(0.0002, 0.0001, 0.0097, None, profile.HOST_TIME))
    assert [ok for ok, _ in host] == [False, True, True, False]  # host time on a GPU: mostly "dispatch"


def test_the_regime_probe_expects_tf32_to_pay_from_ampere_on_and_nothing_before():
    assert all(ok for ok, _ in gpu_probes.regime_verdicts((9, 0), 10.0, 2.0, 1.0, "bf16"))
    assert not gpu_probes.regime_verdicts((8, 0), 10.0, 9.0, 1.0, "bf16")[0][0]  # TF32 off where it should be on
    assert all(ok for ok, _ in gpu_probes.regime_verdicts((7, 5), 10.0, 10.0, 2.0, "fp16"))


def _rank(rank, step, exposed, comm, spans):
    return {"rank": rank, "step": step, "compute": 0.006, "exposed": exposed, "communication": comm,
            "messages": len(spans), "clock": "GPU (CUDA events)",
            "spans": [{"name": "backward", "start": 0.002, "end": 0.008}] +
                     [{"name": "all-reduce", "start": a, "end": b} for a, b in spans]}


def test_the_overlap_probe_wants_nccl_kernels_inside_the_backward_on_the_slowest_rank():
    hidden = [_rank(0, 0.010, 0.001, 0.004, [(0.004, 0.006), (0.007, 0.009)]),
              _rank(1, 0.011, 0.002, 0.004, [(0.005, 0.007), (0.008, 0.010)])]
    verdicts = gpu_probes.overlap_verdicts(hidden, peers=True)
    assert all(ok for ok, _ in verdicts) and "rank 1" in verdicts[1][1]
    after = [_rank(0, 0.012, 0.004, 0.004, [(0.008, 0.010), (0.010, 0.012)])]  # every all-reduce after backward
    assert not gpu_probes.overlap_verdicts(after, peers=True)[-1][0]
    assert len(gpu_probes.overlap_verdicts(after, peers=False)) == 2  # one GPU: no overlap to judge


def test_the_link_probe_wants_the_gloo_path_slower_than_a_pinned_copy():
    from utils import machine

    sizes = [4, 2**16, 2**20]
    gloo = machine.link_fit("gloo, 2 processes sharing GPU 0 (through host memory)", sizes,
                            [5e-5 + n / 2e9 for n in sizes])
    pinned = machine.link_fit("host to GPU 0, pinned", sizes, [1e-5 + n / 2.5e10 for n in sizes])
    assert gpu_probes.link_verdicts(gloo, pinned)[0][0] and not gpu_probes.link_verdicts(pinned, gloo)[0][0]


def test_the_check_runs_every_measurement_probe_of_issue_36():
    names = {p.name for p in gpucheck.phases(sys.executable, Path("/tmp"))}
    assert {"profiler", "regime", "overlap", "link", "regime_losses"} <= names
    assert {"profiler", "regime", "overlap", "link", "regime_losses"} <= set(gpu_probes.PROBES)
