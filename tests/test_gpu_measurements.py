"""GPU measurements that are right the first time they run (issue 36), checked without a GPU: each test feeds
the code what a GPU gives (device times, CUDA events, NCCL's queued work) and asserts what it reads from it.
What only a GPU can confirm is a probe of ``make gpu-check`` (``utils/tools/gpu_probes.py``)."""

import contextlib
import json
from pathlib import Path

import pytest
import torch

from utils.lessons.ddp import overlap
from utils.lessons.why_slow import profile

ROOT = Path(__file__).resolve().parents[1]


# --- lesson 01's profiler: device self time on a GPU ---------------------------------------------------------


def test_on_a_gpu_the_categories_come_from_kernel_time_not_from_the_host_s_launches():
    """A GPU step of 10 ms: the host spends 0.2 ms launching aten::mm and waits 9 ms in the final synchronize;
    the GPU runs the mm's kernels 7 ms and others 1.5 ms. Host time would call the step mostly dispatch."""
    device = {"aten::mm": (0.007, 40), "aten::gelu": (0.001, 12), "aten::add_": (0.0005, 30)}
    host = {"aten::mm": (0.0002, 40), "aten::gelu": (0.0001, 12), "aten::add_": (0.0001, 30)}
    on_gpu = profile.categorise(device, wall=0.010, gpu_busy=0.0085)
    assert on_gpu == pytest.approx({"matmul": 0.007, "memory-bound": 0.0015, "Python & dispatch": 0.0015})
    assert on_gpu["matmul"] / 0.010 > 0.5  # "matmuls take most of a step" can hold
    wrong = profile.categorise(host, wall=0.010)  # what host self time says of the same step
    assert wrong["Python & dispatch"] / 0.010 > 0.9


def test_on_a_cpu_the_categories_stay_host_self_time_and_say_so(tmp_path):
    from utils.lessons.why_slow.step import training_step

    run = training_step(dict(context=16, width=32, depth=1, heads=2), 2)
    p = profile.profile_step(run.step, tmp_path)
    assert p.time_source == profile.HOST_TIME and "minus every operator's self time" in p.note
    assert sum(p.by_category.values()) == pytest.approx(p.wall_seconds, rel=1e-6) or p.by_category[
        "Python & dispatch"] == 0.0
    gpu = profile.StepProfile(0.01, {}, [], p.trace, 0.008, 0.002, profile.DEVICE_TIME)
    assert "GPU kernel time" in gpu.note


# --- lesson 03's overlap: NCCL kernels timed on the GPU, the slowest rank reported -------------------------------


class FakeGpu:
    """A GPU timeline (milliseconds) for CUDA events: an event on the compute stream fires at ``now``; one on a
    stream that waits for an NCCL kernel fires when that kernel ends."""

    def __init__(self):
        self.now, self.current = 0.0, None

    def Event(self, enable_timing=False):  # noqa: N802 (torch's name)
        gpu = self

        class Event:
            def record(self, stream=None):
                stream = stream or gpu.current
                self.t = stream.until if stream is not None else gpu.now

            def elapsed_time(self, other):
                return other.t - self.t

        return Event()

    def Stream(self, device=None):  # noqa: N802
        return type("Stream", (), {"until": None})()

    @contextlib.contextmanager
    def stream(self, s):
        self.current = s
        yield
        self.current = None


class QueuedNcclWork:
    """What ``dist.all_reduce(..., async_op=True)`` returns with NCCL: queued, its future done at once."""

    def __init__(self, gpu, tensor, kernel_ends_at):
        self.gpu, self.tensor, self.ends = gpu, tensor, kernel_ends_at

    def wait(self):  # the current stream waits for the kernel (NCCL's ncclEndEvent)
        self.gpu.current.until = self.ends

    def get_future(self):
        fut = torch.futures.Future()
        fut.set_result([self.tensor])  # complete as soon as it is queued: a host clock would read this
        return fut


@pytest.fixture
def fake_gpu(monkeypatch):
    gpu = FakeGpu()
    monkeypatch.setattr(torch.cuda, "Event", gpu.Event)
    monkeypatch.setattr(torch.cuda, "Stream", gpu.Stream)
    monkeypatch.setattr(torch.cuda, "stream", gpu.stream)
    monkeypatch.setattr(torch.cuda, "synchronize", lambda device=None: None)
    return gpu


def test_with_nccl_the_clock_is_the_gpu_s_and_with_gloo_the_host_s(monkeypatch, fake_gpu):
    monkeypatch.setattr(overlap.dist, "get_backend", lambda: "nccl")
    assert isinstance(overlap.clock_for(torch.device("cuda", 0)), overlap.GpuClock)
    assert isinstance(overlap.clock_for(torch.device("cpu")), overlap.HostClock)
    monkeypatch.setattr(overlap.dist, "get_backend", lambda: "gloo")  # 1gpu mode: two ranks share a GPU
    assert isinstance(overlap.clock_for(torch.device("cuda", 0)), overlap.HostClock)


def test_a_bucket_s_all_reduce_ends_when_its_nccl_kernel_ends_not_when_the_host_queued_it(monkeypatch, fake_gpu):
    """The bucket's gradients are ready on the GPU at 2 ms, its NCCL kernel ends at 9 ms; the host issues it
    and moves on at once. The span is 7 ms, and the hook still hands DDP the averaged bucket."""
    monkeypatch.setattr(overlap.dist, "get_world_size", lambda: 2)
    monkeypatch.setattr(overlap.dist, "all_reduce",
                        lambda t, async_op=False: QueuedNcclWork(fake_gpu, t, kernel_ends_at=9.0))
    clock = overlap.GpuClock("cuda:0")
    t0 = clock.start()
    marks = []
    hook = overlap._timed_allreduce_hook(clock, marks, "rank 0 all-reduce")
    bucket = type("Bucket", (), {"buffer": lambda self, b=torch.ones(4): b, "index": lambda self: 0})()
    fake_gpu.now = 2.0
    averaged = hook(None, bucket).wait()
    fake_gpu.now = 3.0  # the backward goes on
    clock.settle()
    (row, index, start, end), = marks
    assert clock.seconds(start) == pytest.approx(t0 + 2e-3) and clock.seconds(end) == pytest.approx(t0 + 9e-3)
    assert torch.equal(averaged, torch.full((4,), 0.5))


def test_the_table_reports_the_slowest_rank():
    ranks = [{"rank": 0, "step": 0.010, "exposed": 0.001}, {"rank": 1, "step": 0.013, "exposed": 0.004}]
    assert overlap.slowest(ranks)["rank"] == 1


def test_the_overlap_timeline_runs_on_cpu_workers_on_the_host_clock(cpu_mode_and_no_leftovers):
    from utils.launch import launch
    from utils.lessons.ddp.settings import Settings

    s = Settings(batch_per_worker=2, context=16, width=32, depth=1, heads=2, device="cpu", threads=1,
                 bucket_cap_mb=0.01)
    ranks = launch(overlap.timeline, s, True, 2, nprocs=2, timeout=120)
    r = overlap.slowest(ranks)
    assert r["clock"] == "host (Python's perf_counter)" and r["messages"] >= 1 and {x["rank"] for x in ranks} == {0, 1}
    assert 0 <= r["exposed"] <= r["step"] and r["compute"] <= r["step"]


# --- lesson 03's NCCL advice ------------------------------------------------------------------------------------


def test_the_lesson_states_torch_s_own_default_for_async_error_handling():
    header = Path(torch.__file__).parent / "include/torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp"
    if header.is_file():  # the installed torch says what its default is
        assert "SkipCleanUp = 3" in header.read_text() and "(3 - SkipCleanUp)" in header.read_text()
    nb = json.loads((ROOT / "notebooks/03_ddp.ipynb").read_text())
    text = " ".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert "`TORCH_NCCL_ASYNC_ERROR_HANDLING=1` (the default" not in text
    assert "`TORCH_NCCL_ASYNC_ERROR_HANDLING` at PyTorch's default, 3" in " ".join(text.split())


# --- lessons 02 and 03: the arithmetic a GPU trains in ---------------------------------------------------------


@pytest.mark.parametrize("cc, training, fp32", [(None, "fp32", "fp32"), ((6, 0), "fp32", "fp32"),
                                                ((7, 5), "fp16", "fp32"), ((8, 0), "bf16", "tf32"),
                                                ((9, 0), "bf16", "tf32")])
def test_the_regime_follows_the_compute_capability(cc, training, fp32):
    from utils import precision

    assert precision.training_regime(cc) == training and precision.fp32_regime(cc) == fp32


def test_fp32_means_ieee_fp32_and_tf32_is_only_where_asked():
    from utils import precision

    before = torch.backends.cuda.matmul.allow_tf32
    try:
        precision.use("tf32")
        assert torch.backends.cuda.matmul.allow_tf32
        precision.use("fp32")
        assert not torch.backends.cuda.matmul.allow_tf32 and not torch.backends.cudnn.allow_tf32
        assert precision.fp32_matmuls("cpu") == "fp32"
        with pytest.raises(ValueError, match="one of fp32, tf32, bf16, fp16"):
            precision.use("fp8")
    finally:
        torch.backends.cuda.matmul.allow_tf32 = before
    assert not torch.cuda.is_initialized()


def test_a_step_in_bf16_autocasts_its_matmuls_and_fp16_scales_its_loss():
    from utils import precision

    a = torch.randn(4, 4)
    with precision.autocast("bf16", "cpu"):
        assert (a @ a).dtype == torch.bfloat16
    with precision.autocast("fp32", "cpu"):
        assert (a @ a).dtype == torch.float32
    assert precision.grad_scaler("fp16", "cpu").is_enabled() and not precision.grad_scaler("bf16", "cpu").is_enabled()


def test_the_recipe_trains_in_the_regime_it_is_given(cpu_mode_and_no_leftovers):
    """bf16 on two CPU workers stands in for a GPU's bf16 here: the loss is finite and near fp32's."""
    from utils.launch import launch
    from utils.lessons.ddp.recipe import train
    from utils.lessons.ddp.settings import Settings

    s = Settings(steps=2, batch_per_worker=2, context=16, width=32, depth=1, heads=2, threads=1, max_chars=20_000)
    fp32, bf16 = (launch(train, s.scaled(precision=p), nprocs=2, timeout=120)[0] for p in ("fp32", "bf16"))
    assert abs(fp32["final_loss"] - bf16["final_loss"]) < 0.1 and bf16["final_loss"] == bf16["final_loss"]
