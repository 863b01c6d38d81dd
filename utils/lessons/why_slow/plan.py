"""Lesson 01's hardware decisions, in one place (checked on every fake machine by
``tests/test_modes_why_slow.py``): where the measurements run, the sizes of every measurement, which dtypes
the peak is measured in, where the peak FLOP/s come from, and the label every figure carries.

    S = lesson_settings(devices.plan(1), devices.hardware(), devices.cpu_features())
    S.device, S.model, S.batch, S.peak_dtypes      # "cpu", small_gpt's sizes, 16, ("fp32", "bf16", "int8")

Everything in lesson 01 runs in one process on one device (the first of the plan): its subject is what one
device does with one step, before lessons 02-07 split the work over two. Nothing here touches CUDA.
"""

from __future__ import annotations

from dataclasses import dataclass

from utils import devices, gpu_specs

MIB, GIB = 2**20, 2**30
BF16_CUDA_CC = (8, 0)  # bf16 tensor cores from the A100 on; older GPUs (T4, V100) get fp16 instead
INT8_CUDA_CC = (7, 5)  # torch._int_mm (int8 tensor cores) from the T4 on

CPU_MODEL = dict(context=64, width=128, depth=4, heads=4)  # small_gpt's defaults: ~70 ms a step on 2 cores
GPU_MODEL = dict(context=512, width=768, depth=12, heads=12)  # GPT-2 small's body: enough work to fill a GPU
# Section 4: one axis grows at a time from the base model (the others stay at their base value).
CPU_GRID = dict(width=(64, 128, 192, 256), depth=(1, 2, 4, 6), context=(32, 64, 128, 256))
GPU_GRID = dict(width=(256, 512, 768, 1024), depth=(2, 4, 8, 12), context=(256, 512, 1024, 2048))


@dataclass(frozen=True)
class LessonSettings:
    device: str  # where every measurement runs: "cpu", or the plan's first GPU
    model: dict  # GPT sizes of sections 1 and 6: context, width, depth, heads
    batch: int  # sequences per training step
    step_dtype: str  # the dtype the training step computes in: fp32 on CPU, bf16/fp16 autocast on a GPU
    peak_dtypes: tuple[str, ...]  # dtypes whose large-matmul FLOP/s the machine profile measures
    peak_matmul: int  # n of the n x n x n matmul that measures a dtype's peak (the profile's ``matmul_n``)
    stream_bytes: int  # bytes of each STREAM array that measures memory bandwidth (the profile's, the roof's):
    # the size of the elementwise ops' operands, three of them far beyond the caches
    profile_peaks: dict  # {threads: dtypes} of the machine profile (None: torch's own thread count)
    bandwidth_threads: tuple  # thread counts of the profile's memory bandwidth (None: torch's own)
    datasheet: gpu_specs.GpuSpec | None  # this GPU's datasheet entry (None on a CPU or an unknown GPU)
    matmul_sizes: tuple[int, ...]  # square matmuls of the roofline (section 2)
    token_matrix: tuple[int, int, int]  # (tokens, width, 4 x width): the GPT's first feed-forward matmul
    elementwise_numel: int  # elements of each elementwise/softmax/layer-norm operand (section 2)
    matvec: int  # n of the (1 x n) @ (n x n) matrix-vector product of section 2: its matrix far beyond the caches
    measure_threads: int | None  # torch threads of the timings set beside a ceiling or each other: MFU (section
    # 1), the roofline (2), the scaling (4), the comparisons (5) and lab 01 (None: leave torch's own)
    transfer_sizes: tuple[int, ...]  # bytes of the messages over the two workers' link (section 3)
    grid: dict  # section 4: the values each axis takes
    grid_batch: int
    attention: dict  # section 5: batch, heads, tokens, head_dim of the attention compared
    compile_fusion: bool  # section 5: compile the op-by-op GELU with torch.compile (and time the compile)
    trace_dir: str  # section 6: where the profiler's trace goes (git-ignored)
    label: str  # appended to every figure: where it was measured
    simulated: bool  # the plan's cpu mode (single-process timings here are real CPU timings)

    @property
    def on_gpu(self) -> bool:
        return self.device.startswith("cuda")


def peak_dtypes(plan: devices.Plan, hw: devices.Hardware, cpu: devices.CpuFeatures | None) -> tuple[str, ...]:
    """fp32 everywhere; bf16 on CPUs (oneDNN's AMX/AVX-512 BF16 or an emulation, measured either way) and on
    GPUs from compute capability 8.0, else fp16; int8 where the CPU has exact int8 dot products
    (``devices.cpu_features().int8_dot``: VNNI or AMX, what lesson 04's int8 layers use; without them an int8
    matmul adds its products in 16 bits and saturates) or the GPU has int8 tensor cores."""
    if plan.simulated:
        return ("fp32", "bf16") + (("int8",) if cpu is not None and cpu.int8_dot else ())
    cc = tuple(hw.gpus[0].compute_capability or (0, 0)) if hw.gpus else (0, 0)
    half = "bf16" if cc >= BF16_CUDA_CC else "fp16"
    return ("fp32", half) + (("int8",) if cc >= INT8_CUDA_CC else ())


def _label(plan: devices.Plan, hw: devices.Hardware) -> str:
    if plan.simulated:
        return f" (this CPU, {hw.cpu_cores} cores)"
    name = hw.gpus[0].name if hw.gpus else "GPU"
    return f" (on {plan.devices[0]}, {name})"


def timing_label(S: LessonSettings, threads: int | None) -> str:
    """The label of a figure timed on ``threads`` torch threads (``torch.get_num_threads()`` read inside the
    timing's ``bench.threads`` block): on a CPU the threads it ran on, not the cores the machine has."""
    if not S.simulated or not threads:
        return S.label
    return f" (this CPU, {threads} thread{'s' * (threads != 1)}, not pinned to a core)"


def lesson_settings(plan: devices.Plan, hw: devices.Hardware, cpu: devices.CpuFeatures | str | None = None
                    ) -> LessonSettings:
    """Every hardware-dependent choice of lesson 01 for ``plan`` (its first device is used) on ``hw``.

    ``cpu``: ``devices.cpu_features()`` (None: this machine's; passed in so tests can fake it). A string is
    read as torch's capability name (``torch.backends.cpu.get_cpu_capability()``) with this machine's flags.
    """
    gpu = not plan.simulated
    if cpu is None or isinstance(cpu, str):
        cpu = devices.cpu_features(capability=cpu)
    dtypes = peak_dtypes(plan, hw, cpu)
    spec = gpu_specs.spec_for(hw.gpus[0].name) if gpu and hw.gpus else None
    numel = 2**26 if gpu else 2**23  # fp32 elements of each elementwise operand: 256 MiB / 32 MiB
    return LessonSettings(
        device=plan.devices[0], model=dict(GPU_MODEL if gpu else CPU_MODEL), batch=16,
        step_dtype=dtypes[1] if gpu else "fp32", peak_dtypes=dtypes,
        peak_matmul=8192 if gpu else 1024, stream_bytes=4 * numel, datasheet=spec,
        # The machine profile (utils.machine), measured once at the start: on a CPU, fp32 on one thread (where the
        # lesson's work is timed) and every dtype on all of torch's threads (oneDNN's bf16 and int8 kernels ignore
        # a smaller thread count: one thread would measure the same as two); the bandwidth on both. A GPU has one
        # figure per dtype.
        profile_peaks={None: dtypes} if gpu else {1: ("fp32",), None: dtypes},
        bandwidth_threads=(None,) if gpu else (1, None),
        matmul_sizes=(256, 1024, 4096, 8192) if gpu else (64, 256, 1024),
        token_matrix=(16 * 512, 768, 3072) if gpu else (16 * 64, 128, 512),
        elementwise_numel=numel,
        matvec=16384 if gpu else 4096,  # a 1 GiB / 64 MiB matrix: streamed from memory, not served by a cache
        # On a CPU those timings run on one thread, ceilings and work alike (section 1's peak table uses both): two threads
        # on two shared cores wait for each other's slower half, so a step or an op timed on both is slowed by
        # anything else that runs (by 3-5x, measured), a ceiling measured in a quieter moment is not. One core's
        # peak is lower, and the work is set beside it just the same.
        measure_threads=None if gpu else 1,
        # 4 KiB .. 256 MiB on a GPU's link, .. 16 MiB through gloo (bandwidth-dominated already; larger costs time)
        transfer_sizes=tuple(2**12 * 4**k for k in range(9 if gpu else 7)),
        grid=dict(GPU_GRID if gpu else CPU_GRID), grid_batch=8,
        attention=dict(batch=8, heads=16, tokens=2048, head_dim=64) if gpu
        else dict(batch=4, heads=4, tokens=256, head_dim=32),
        # torch.compile's first call costs seconds (tracing, Inductor, a C++ or Triton compiler): measured in the
        # run on every device, with the calls it takes to pay back. Turn it off where a compiler is missing.
        compile_fusion=True,
        trace_dir="results/traces", label=_label(plan, hw), simulated=plan.simulated)
