"""GPU-only checks, run by `make gpu-check` on a machine with a CUDA GPU (skipped elsewhere).

They exercise the real NVML path that the rest of the suite replays with a fake layer.
"""

import subprocess
import sys

import pytest

from utils import devices

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(devices.gpu_count() == 0, reason="needs a CUDA GPU (run `make gpu-check`)")]


def test_real_nvml_report_leaves_cuda_uninitialised():
    code = ("import torch; from utils import devices; devices.report(detail=True);"
            "assert not torch.cuda.is_initialized(), 'report initialised CUDA'; print(devices.mode())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] in devices.MODES[1:]
    assert "FATAL" not in out.stdout + out.stderr


def test_real_gpu_facts_are_found():
    hw = devices.hardware()
    g = hw.gpus[0]
    assert g.memory_total and g.compute_capability and g.name
    if len(hw.gpus) >= 2:
        assert hw.link is not None and hw.link.kind in ("NVLink", "PCIe")


def test_gpu_copies_run_in_a_child_and_reach_a_sane_fraction_of_their_bound():
    from utils.lessons.start_here import bandwidth

    points = bandwidth.measure_copies([2**26], repeats=3)
    assert {p.path for p in points} >= {"host to GPU 0, pinned", "GPU 0 to GPU 0"}
    for p in points:
        assert p.rate > 0
        if p.bound:
            assert p.fraction_of_bound < 1.2, f"{p.path} beat its bound: check the bound's arithmetic"
