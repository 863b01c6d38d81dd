"""Lesson 08's hardware decisions, in one place from the device plan: the model, the batch, the steps, the
two model sizes the decision guide is shown for, and the labels. ``tests/test_modes_putting_it_together.py``
checks them on every fake machine.

    S = lesson_settings(devices.plan(2), devices.hardware())
    S.training          # the baseline's settings for the training script (script.Settings)

In cpu mode one worker process with one thread stands in for one GPU, and two such workers for two GPUs.
"""

from __future__ import annotations

from dataclasses import dataclass

from utils import devices
from utils.lessons.memory.calculator import Shape
from utils.lessons.memory.plan import CPU_SHAPE, GPU_SHAPE
from utils.lessons.putting_it_together.script import Settings

# The size that does not fit one device anywhere in the course: a 7 B GPT (Llama-7B's width and depth with
# GPT-2's vocabulary), 16 sequences of 1024 tokens a step.
LARGE = Shape(vocab=50304, context=1024, width=4096, depth=32, heads=32)
LARGE_BATCH = 16


@dataclass(frozen=True)
class LessonSettings:
    training: Settings  # the baseline: one device, fp32, no loader workers, AdamW, no compile
    shape: Shape  # the same model, as lesson 06's calculator sees it (the guide's small size)
    steps_compared: int  # N: the loss at step N is compared with the baseline's
    loss_tolerance: dict  # per precision: how far the loss at step N may be from the baseline's
    label: str  # appended to figures: where they were measured
    max_growth: int = 8  # the memory step grows the batch at most this much (cpu: 2, to stay under 150 s)


def lesson_settings(plan: devices.Plan, hw: devices.Hardware | None) -> LessonSettings:
    """CPU sizes in cpu mode (one thread a worker), lesson 06's GPU sizes on GPUs."""
    shape = CPU_SHAPE if plan.simulated else GPU_SHAPE
    per_device = 16 if plan.simulated else 32
    base = Settings(steps=24 if plan.simulated else 60, batch_per_worker=per_device, context=shape.context,
                    width=shape.width, depth=shape.depth, heads=shape.heads,
                    threads=1 if plan.simulated else None,
                    warmup_steps=4, max_chars=200_000, lr=3e-3, hook="none")
    label = " (simulated on CPU: 1 thread a worker)" if plan.simulated else f" (on {', '.join(plan.devices)})"
    # fp32 sums in another order (DDP's all-reduce): 1e-3; bf16 rounds every matmul's inputs: 3e-2 (lesson 04)
    return LessonSettings(training=base, shape=shape, steps_compared=base.steps, label=label,
                          loss_tolerance={"fp32": 1e-3, "bf16": 3e-2, "fp16": 3e-2},
                          max_growth=2 if plan.simulated else 8)


def current_settings() -> LessonSettings:
    return lesson_settings(devices.plan(2), devices.hardware())
