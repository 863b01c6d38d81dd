"""Lesson 08's hardware decisions, in one place from the device plan: the model, the batch, the steps, the
two model sizes the decision guide is shown for, and the labels. ``tests/test_modes_putting_it_together.py``
checks them on every fake machine.

    S = lesson_settings(devices.plan(2), devices.hardware())
    S.training          # the baseline's settings for the training script (script.Settings)

In cpu mode one worker process with one thread stands in for one GPU, and two such workers for two GPUs.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import math

from utils import devices, gpu_specs
from utils.lessons.memory.calculator import Shape
from utils.lessons.memory.plan import CPU_SHAPE, GPU_SHAPE
from utils.lessons.putting_it_together.script import Settings

# The size that does not fit one device anywhere in the course: a 7 B GPT (Llama-7B's width and depth with
# GPT-2's vocabulary), 16 sequences of 1024 tokens a step.
LARGE = Shape(vocab=50304, context=1024, width=4096, depth=32, heads=32)
LARGE_BATCH = 16

# The CPU model's width: bf16 pays only when the matmuls are wide enough for the bf16 units to beat the casts
# autocast adds. This lesson's step (one thread, 16 x 64 tokens) in bf16 against fp32, measured on an AMX-BF16
# CPU: 0.95x at width 128, 1.8x at 256 and 384; issue 35 reports 1.2x at 128 and 2.8x at 384 on AVX512-BF16.
# 256 is the narrowest width at which it paid; 384 costs 2.3x the time a step for no more gain.
BF16_WIDTH = 256
PLAIN_WIDTH = 128  # no bf16 units: the lesson's small model, fastest to run

RUN_STEPS = 5000  # the training run the steps are chosen for (compile's break-even); the ladder times a few
CPU_PROBE_N = 1024  # a CPU's peak probe: lesson 00's matmul size (machine.measure_profile's matmul_n)
GPU_PROBE_N = 8192  # a GPU's peak probe: n x n x n, compute-bound on every GPU (lesson 01's peak matmul)
GPU_PROBE_S = 0.01  # ... repeated inside one pair of CUDA events for at least this long at the datasheet peak


@dataclass(frozen=True)
class LessonSettings:
    training: Settings  # the baseline: one device, fp32, no loader workers, AdamW, no compile
    shape: Shape  # the same model, as lesson 06's calculator sees it (the guide's small size)
    steps_compared: int  # N: the loss at step N is compared with the baseline's
    loss_tolerance: dict  # per precision: how far the loss at step N may be from the baseline's
    label: str  # appended to figures of one or two workers: where they were measured
    one_label: str  # appended to a figure of one process (the baseline, serving): a real timing there
    width_why: str  # why the model has this width on this machine
    probe_n: int  # the peak probes' matmul: probe_n³ ...
    probe_iterations: int  # ... this many times inside one timing (one pair of CUDA events on a GPU)
    max_growth: int = 8  # the memory step grows the batch at most this much (cpu: 2, to stay under 150 s)
    rounds: int = 4  # paired rounds of each step against the kept steps (4: an interquartile spread; cpu: 3,
    #                  half their range, to stay under 150 s: each round launches both settings' workers)
    run_steps: int = RUN_STEPS


def cpu_width(features: devices.CpuFeatures) -> tuple[int, str]:
    """The CPU model's width, and why: wide enough for bf16 to pay where the CPU has bf16 units."""
    if features.bf16_units:
        return BF16_WIDTH, (f"width {BF16_WIDTH}: this CPU has bf16 units, and the wider its matmuls, the more "
                            "of a step bf16 can speed up against the casts autocast adds (the precision step "
                            "below measures what it buys in this run)")
    return PLAIN_WIDTH, (f"width {PLAIN_WIDTH}: this CPU has no bf16 units, so bf16 cannot pay at any width "
                         "(autocast converts to fp32 and back); the smallest model is the quickest to run")


def probe_size(plan: devices.Plan, hw: devices.Hardware | None) -> tuple[int, int]:
    """The peak probes' (n, iterations): on a CPU one 1024³ matmul, lesson 00's size (tens of milliseconds on
    one thread, no launch to hide; a 512³ one, timed fewer times, once gave a peak the step itself beat); on
    a GPU an n = 8192 matmul, compute-bound, repeated so that one pair of CUDA events holds at least
    GPU_PROBE_S at the device's fastest datasheet peak (a 512³ matmul: ~1 µs of work, 5-10 µs of launch)."""
    if plan.simulated or hw is None or not hw.gpus:
        return CPU_PROBE_N, 1
    spec = gpu_specs.spec_for(hw.gpus[0].name)
    floats = [f for d, f in (spec.peak_flops if spec else {}).items() if d in ("fp32", "bf16", "fp16")]
    fastest = max(floats, default=1e15)  # a GPU without a datasheet row: about an H100's bf16
    return GPU_PROBE_N, max(1, math.ceil(GPU_PROBE_S * fastest / (2 * GPU_PROBE_N**3)))


def lesson_settings(plan: devices.Plan, hw: devices.Hardware | None,
                    features: devices.CpuFeatures | None = None) -> LessonSettings:
    """CPU sizes in cpu mode (one thread a worker; the width from the CPU's bf16 units), lesson 06's GPU sizes
    on GPUs. ``features`` stands in for this CPU's in tests."""
    if plan.simulated:
        width, width_why = cpu_width(devices.cpu_features() if features is None else features)
        shape = Shape(vocab=CPU_SHAPE.vocab, context=CPU_SHAPE.context, width=width, depth=CPU_SHAPE.depth,
                      heads=CPU_SHAPE.heads)
    else:
        shape, width_why = GPU_SHAPE, f"width {GPU_SHAPE.width}: lesson 06's GPU-sized GPT"
    per_device = 16 if plan.simulated else 32
    probe_n, iterations = probe_size(plan, hw)
    # On a CPU 12 steps a launch (3 warm-up, 9 timed): the ladder launches each step 8 times, within the
    # notebook's time budget on 2 cores
    base = Settings(steps=12 if plan.simulated else 60, batch_per_worker=per_device, context=shape.context,
                    width=shape.width, depth=shape.depth, heads=shape.heads,
                    threads=1 if plan.simulated else None,
                    warmup_steps=3 if plan.simulated else 4, max_chars=200_000, lr=3e-3, hook="none")
    # the vocabulary the model is built with: the corpus's characters (95 in this run, not the calculator's
    # 96), so the shape printed on the page gives the FLOPs and the MFU printed from it
    shape = replace(shape, vocab=corpus_vocab(base))
    label = " (simulated on CPU: 1 thread a worker)" if plan.simulated else f" (on {', '.join(plan.devices)})"
    one_label = " (one CPU process, 1 thread)" if plan.simulated else f" (on {plan.devices[0]})"
    # fp32 sums in another order (DDP's all-reduce): 1e-3; bf16 rounds every matmul's inputs: 3e-2 (lesson 04)
    return LessonSettings(training=base, shape=shape, steps_compared=base.steps, label=label,
                          one_label=one_label, width_why=width_why, probe_n=probe_n,
                          probe_iterations=iterations,
                          loss_tolerance={"fp32": 1e-3, "bf16": 3e-2, "fp16": 3e-2},
                          max_growth=2 if plan.simulated else 8, rounds=3 if plan.simulated else 4)


def corpus_vocab(s: Settings) -> int:
    """The training corpus's characters: the model's vocabulary (``ladder.vocab_of``, without its import)."""
    from utils.lessons.ddp import settings as ddp_settings

    return ddp_settings.text_data(s).corpus.vocab_size


def current_settings() -> LessonSettings:
    return lesson_settings(devices.plan(2), devices.hardware())
