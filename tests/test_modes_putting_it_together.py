"""Lesson 08's decision guide and sizes on every fake machine (``pytest -m modes``), for two model sizes: the
lesson's small GPT (fits one device everywhere) and a 7 B GPT (fits no single device of the course)."""

import pytest

from utils import devices
from utils.lessons.memory.calculator import estimate
from utils.lessons.putting_it_together.guide import capacity, guide
from utils.lessons.putting_it_together.plan import LARGE, LARGE_BATCH, current_settings, lesson_settings

pytestmark = pytest.mark.modes
ORDER = ["feeding", "precision", "compile", "two devices", "memory"]
BF16_ISA = "AVX512; AVX512-BF16, AMX-BF16"
PLAIN_ISA = "AVX2; no VNNI, BF16 or AMX instructions reported"


def steps_for(machine, size, isa=BF16_ISA, run_seconds=60.0):
    S = lesson_settings(devices.plan(2), machine.hw)
    shape, batch = (S.shape, 2 * S.training.batch_per_worker) if size == "small" else (LARGE, LARGE_BATCH)
    steps = guide(shape, batch, devices.plan(2), machine.hw, run_seconds, isa=isa)
    return {s.step: s for s in steps}, shape, batch


def two_distinct_devices(machine) -> bool:
    plan = devices.plan(2)
    return plan.simulated or len(set(plan.devices)) == 2


@pytest.mark.parametrize("size", ["small", "large"])
def test_every_step_is_answered_in_order_with_a_reason(machine, size):
    steps, _, _ = steps_for(machine, size)
    assert list(steps) == ORDER
    assert all(s.why and s.choice for s in steps.values())


@pytest.mark.parametrize("size", ["small", "large"])
def test_precision_follows_the_device(machine, size):
    steps, _, _ = steps_for(machine, size)
    if machine.mode == "cpu":
        assert steps["precision"].choice == "bf16 autocast"
        assert not steps_for(machine, size, isa=PLAIN_ISA)[0]["precision"].applies
    elif "T4" in machine.name:
        assert steps["precision"].choice == "fp16 autocast + GradScaler"  # compute capability 7.5: no bf16
    else:
        assert steps["precision"].choice == "bf16 autocast"


def test_the_small_model_gets_ddp_wherever_there_is_a_second_device(machine):
    steps, _, _ = steps_for(machine, "small")
    if two_distinct_devices(machine):
        assert steps["two devices"].choice.startswith("DDP")
    else:
        assert not steps["two devices"].applies and "share" in steps["two devices"].why
    assert steps["memory"].choice.startswith("checkpointing, batch x")  # bf16 + checkpointing buy memory back


def test_the_large_model_never_gets_plain_ddp_and_what_it_gets_fits(machine):
    steps, shape, batch = steps_for(machine, "large")
    cap, _ = capacity(devices.plan(2), machine.hw)
    assert not estimate(shape, batch, "bf16 mixed").fits(cap)[0]  # the size is what its name says
    two = steps["two devices"]
    assert not two.choice.startswith("DDP")
    if two.applies:  # sharded, and then checkpointing if the strategy needs it
        assert two.choice.startswith(("FSDP", "pipeline")) and two_distinct_devices(machine)
    else:
        assert not steps["memory"].applies or steps["memory"].choice == "activation checkpointing"


def test_two_h100s_shard_the_large_model_and_checkpoint(machine):
    if "H100" not in machine.name or machine.mode != "2gpu":
        pytest.skip("the large model fits two devices only on 80 GB GPUs")
    steps, _, _ = steps_for(machine, "large")
    assert steps["two devices"].choice == "FSDP over 2"
    assert "checkpointing" in steps["memory"].choice


def test_compile_only_when_the_run_pays_it_back(machine):
    assert not steps_for(machine, "small", run_seconds=60)[0]["compile"].applies
    assert steps_for(machine, "small", run_seconds=3600)[0]["compile"].applies


def test_sizes_one_thread_a_worker_on_cpu_and_gpu_sizes_on_gpus(machine):
    S = lesson_settings(devices.plan(2), machine.hw)
    assert current_settings() == S
    base = S.training
    off = (base.precision, base.loader_workers, base.compile, base.checkpointing)
    assert off == ("fp32", 0, False, False)
    if machine.mode == "cpu":
        assert base.threads == 1 and "simulated" in S.label
    else:
        assert base.threads is None and "cuda:0" in S.label and S.shape.parameters() > 20e6


def test_the_ladder_turns_the_guides_choices_into_script_settings(machine):
    from utils.lessons.putting_it_together import ladder

    S = lesson_settings(devices.plan(2), machine.hw)
    steps, _, _ = steps_for(machine, "small")
    peaks = {"fp32": 1e12, "bf16": 8e12, "fp16": 8e12}  # what profile_worker measures on that device
    kept = ladder.Rung("baseline", S.training, 1, None, "")
    low = ladder.next_rung("precision", kept, steps, peaks, 1.01, S.shape.vocab, S.max_growth)
    assert low.settings.precision == ("fp16" if "T4" in machine.name else "bf16") and low.bound == 8.0
    two = ladder.next_rung("two devices", low, steps, peaks, 1.01, S.shape.vocab, S.max_growth)
    assert bool(two.skipped) != two_distinct_devices(machine)
    half = S.training.batch_per_worker // 2
    assert two.skipped or (two.workers, two.settings.batch_per_worker) == (2, half)
