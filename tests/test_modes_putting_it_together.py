"""Lesson 08's decision guide and sizes on every fake machine (``pytest -m modes``), for two model sizes: the
lesson's small GPT (fits one device everywhere) and a 7 B GPT (fits no single device of the course)."""

import pytest

from utils import devices
from utils.lessons.memory.calculator import estimate
from utils.lessons.putting_it_together import fit
from utils.lessons.putting_it_together.guide import Profile, capacity, guide
from utils.lessons.putting_it_together.plan import LARGE, LARGE_BATCH, current_settings, lesson_settings

pytestmark = pytest.mark.modes
ORDER = ["feeding", "precision", "optimizer", "two devices", "memory", "compile"]
BF16_CPU = devices.cpu_features(flags={"avx2", "avx512f", "avx512_bf16", "amx_bf16"}, capability="AVX512",
                                onednn_max="")
PLAIN_CPU = devices.cpu_features(flags={"avx2"}, capability="AVX2", onednn_max="")


def steps_for(machine, size, features=BF16_CPU, profile=None, run_steps=1000):
    S = lesson_settings(devices.plan(2), machine.hw)
    shape, batch = (S.shape, 2 * S.training.batch_per_worker) if size == "small" else (LARGE, LARGE_BATCH)
    steps = guide(shape, batch, devices.plan(2), machine.hw, profile, run_steps, features=features)
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
        plain = steps_for(machine, size, features=PLAIN_CPU)[0]["precision"]
        assert not plain.applies and "no bf16 units" in plain.why
    elif "T4" in machine.name:
        assert steps["precision"].choice == "fp16 autocast + GradScaler"  # compute capability 7.5: no bf16
    else:
        assert steps["precision"].choice == "TF32, then bf16 autocast"
        assert ("FP8" in steps["precision"].why) == ("H100" in machine.name or "H200" in machine.name)


def test_the_small_model_gets_ddp_wherever_there_is_a_second_device(machine):
    steps, _, _ = steps_for(machine, "small")
    if two_distinct_devices(machine):
        assert steps["two devices"].choice.startswith("DDP")
    else:
        assert not steps["two devices"].applies and "share" in steps["two devices"].why
    assert not steps["memory"].applies  # it fits whole: checkpointing would cost compute for nothing


def test_the_large_model_never_gets_plain_ddp_and_what_it_gets_fits(machine):
    steps, shape, batch = steps_for(machine, "large")
    cap, _ = capacity(devices.plan(2), machine.hw)
    assert not estimate(shape, batch, "bf16 mixed").fits(cap)[0]  # the size is what its name says
    two = steps["two devices"]
    assert not two.choice.startswith("DDP")
    if two.choice.startswith("as memory says"):  # full training fits nowhere: LoRA's own DDP or FSDP
        assert steps["memory"].choice.startswith("does not fit") and two.choice.split(": ")[1] in \
            steps["memory"].choice
    elif two.applies:  # sharded, and then checkpointing if the strategy needs it
        assert two.choice.startswith("FSDP") and two_distinct_devices(machine)
        assert steps["memory"].choice in ("skip", "selective checkpointing", "activation checkpointing") \
            or "micro-batches" in steps["memory"].choice
    elif steps["memory"].choice.startswith("does not fit"):  # what does, with its bytes; never a smaller batch
        assert "no batch size fits" in steps["memory"].why and "shrink the batch" not in steps["memory"].why
    else:  # one big GPU (an H200) holds it whole, checkpointed
        assert "checkpointing" in steps["memory"].choice and cap > 140e9
    if steps["memory"].choice.startswith("does not fit") or not two.applies:
        return
    room = fit.usable(cap, not devices.plan(2).simulated)
    assert fit.held(shape, batch // 2, "bf16", "fsdp", 2, {"skip": False}.get(steps["memory"].choice,
                    "selective" if "selective" in steps["memory"].choice else True)).peak <= room


def test_two_80_gb_gpus_shard_the_large_model_and_checkpoint_within_the_margin(machine):
    if machine.mode != "2gpu" or "SXM" not in machine.name:
        pytest.skip("the large model fits two devices only on 80 GB GPUs")
    steps, _, _ = steps_for(machine, "large")
    assert steps["two devices"].choice == "FSDP over 2"
    assert steps["memory"].choice == "selective checkpointing"  # without it: 80.2 GB, past the margin


def test_compile_only_when_the_run_pays_it_back(machine):
    assert not steps_for(machine, "small")[0]["compile"].applies  # not measured: the guide says so
    measured = Profile({"matmul": 0.1}, 4.0, compile_s=6.0, compiled_step_s=0.08)  # break-even: 300 steps
    assert not steps_for(machine, "small", profile=measured, run_steps=299)[0]["compile"].applies
    assert steps_for(machine, "small", profile=measured, run_steps=300)[0]["compile"].applies


def test_sizes_one_thread_a_worker_on_cpu_and_gpu_sizes_on_gpus(machine):
    S = lesson_settings(devices.plan(2), machine.hw)
    assert current_settings() == S
    base = S.training
    off = (base.precision, base.loader_workers, base.compile, base.checkpointing)
    assert off == ("fp32", 0, False, False)
    if machine.mode == "cpu":
        assert base.threads == 1 and "simulated" in S.label
        assert "simulated" not in S.one_label and "1 thread" in S.one_label  # one process: a real CPU timing
    else:
        assert base.threads is None and "cuda:0" in S.label and S.shape.parameters() > 20e6
        assert S.one_label == " (on cuda:0)"


def test_the_ladder_turns_the_guides_choices_into_script_settings(machine):
    from utils.lessons.putting_it_together import ladder

    S = lesson_settings(devices.plan(2), machine.hw)
    steps, _, _ = steps_for(machine, "small")
    peaks = {"fp32": 1e12, "bf16": 8e12, "fp16": 8e12}  # what profile_worker measures on that device
    kept = ladder.Rung("baseline", S.training, 1, None, "")
    low = ladder.next_rung("precision", kept, steps, peaks, 1.01, S.shape.vocab, S.max_growth)
    assert low.settings.precision == ("fp16" if "T4" in machine.name else "bf16") and low.bound == 8.0
    share = ladder.next_rung("precision", kept, steps, peaks, 1.01, S.shape.vocab, S.max_growth, matmul_share=0.62)
    assert share.bound == pytest.approx(1 / (0.38 + 0.62 / 8.0))  # Amdahl: only the matmuls speed up
    two = ladder.next_rung("two devices", low, steps, peaks, 1.01, S.shape.vocab, S.max_growth)
    assert bool(two.skipped) != two_distinct_devices(machine)
    half = S.training.batch_per_worker // 2
    assert two.skipped or (two.workers, two.settings.batch_per_worker) == (2, half)


def test_the_cpu_model_is_wide_enough_for_bf16_where_the_cpu_has_bf16_units(machine):
    if machine.mode != "cpu":
        pytest.skip("the width is chosen from the CPU's bf16 units in cpu mode only")
    wide = lesson_settings(devices.plan(2), machine.hw, features=BF16_CPU)
    plain = lesson_settings(devices.plan(2), machine.hw, features=PLAIN_CPU)
    assert wide.shape.width == wide.training.width > plain.shape.width == plain.training.width
    assert "bf16 units" in wide.width_why and "cannot pay" in plain.width_why
    assert wide.rounds >= 3 and wide.run_steps > wide.training.steps


def test_the_peak_probes_are_sized_for_the_device(machine):
    """A GPU's probe is compute-bound and repeated inside one pair of CUDA events for at least 10 ms at the
    datasheet peak (one 512³ matmul is ~1 µs of work in 5-10 µs of launch); a CPU's is one 1024³ matmul,
    lesson 00's size (a 512³ one gave a peak the step beat: t23_0708 #1)."""
    from utils import gpu_specs
    from utils.lessons.putting_it_together.plan import GPU_PROBE_S

    S = lesson_settings(devices.plan(2), machine.hw)
    if machine.mode == "cpu":
        assert (S.probe_n, S.probe_iterations) == (1024, 1)
        return
    spec = gpu_specs.spec_for(machine.hw.gpus[0].name)
    fastest = max(f for d, f in spec.peak_flops.items() if d in ("fp32", "bf16", "fp16"))
    work = S.probe_iterations * 2 * S.probe_n**3
    assert S.probe_n >= 4096 and work / fastest >= GPU_PROBE_S
    assert (S.probe_iterations - 1) * 2 * S.probe_n**3 / fastest < GPU_PROBE_S  # no more than it needs


def test_the_foreach_temporary_a_device_holds_follows_the_strategy(machine):
    """DDP: every rank runs AdamW on all the parameters, so its foreach list is 4 B x P on each device; FSDP:
    on its shard, 4 B x P/n. (The guide once divided by n under DDP too: half the DDP rows' temporary.)"""
    for size in ("small", "large"):
        steps, shape, _ = steps_for(machine, size)
        optimizer, two = steps["optimizer"], steps["two devices"]
        if machine.mode == "cpu" or not optimizer.applies:
            continue  # a CPU's fused AdamW saves time, no temporary; under LoRA the guide gives no advice
        sharded = 2 if two.choice.startswith("FSDP") else 1
        assert f"4 B x {shape.parameters() / sharded / 1e9:.3g} bn parameters" in optimizer.why, optimizer.why
