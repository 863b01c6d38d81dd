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


def in_process_pipeline_gaps(devs: list[str], m: int = 4, batch: int = 32) -> tuple[float, float]:
    """Lesson 02's one-process GPipe on ``devs`` against the unsplit model on the CPU: (loss gap, grad gap)."""
    import torch

    from utils.lessons.model_split import plan, schedules, split

    sizes = plan.CPU_SIZES  # small: this checks correctness, not speed
    task = plan.task_for(sizes)
    points = list(plan.balanced_for(sizes))
    ref = split.reference_step(task, batch)
    expected = split.stage_grads_of(ref, split.split_sequential(ref["model"], points), ref["model"])
    stages = [s.to(d) for s, d in zip(split.split_sequential(task.build(), points), devs)]
    x, y = task.make_batch(batch, 1)
    loss = schedules.gpipe_in_process(stages, devs, x, y, m, task.loss_fn)
    grads = [{k: v.cpu() for k, v in split.grads_of(s).items()} for s in stages]
    torch.cuda.synchronize() if any(d.startswith("cuda") for d in devs) else None
    return abs(float(loss) - ref["loss"]), max(split.max_gap(g, e) for g, e in zip(grads, expected))


def test_pipeline_stages_on_the_gpu_equal_the_cpu_reference():
    """fp32 on the GPU (no TF32 for matmuls by default) against the CPU: sums in another order, ~1e-6."""
    import torch

    devs = ["cuda:0", "cuda:1" if torch.cuda.device_count() > 1 else "cuda:0"]
    loss_gap, grad_gap = in_process_pipeline_gaps(devs)
    assert loss_gap < 1e-4 and grad_gap < 1e-4, (loss_gap, grad_gap)
