"""Lesson 08's decision guide (utils.lessons.putting_it_together.guide and .fit) on given figures: the memory
margin, what DDP with autocast, FSDP2 and AdamW really hold, the Amdahl and break-even rules, the answers on
the course's reference machines, and three mutants of the guide that these checks must catch.

Nothing here runs a model or starts CUDA: machines are replayed through the fake NVIDIA driver.
"""

from __future__ import annotations

import pytest

from utils import claims, devices
from utils.lessons.memory.calculator import estimate
from utils.lessons.memory.plan import CPU_SHAPE, GPU_SHAPE
from utils.lessons.putting_it_together import fit, guide
from utils.lessons.putting_it_together.plan import LARGE, LARGE_BATCH
from utils.tools.fake_nvml import A100, H100, T4, fake_layer

# The reference machines of lesson 08's "Your two GPUs" (the README's table).
REFERENCE = {"T4": (1, [T4], {}), "2xT4 PCIe": (2, [T4, T4], dict(p2p_read=False, ancestor=50)),
             "2xA100 NVLink": (2, [A100, A100], dict(fabric="bridge", lanes=12, version_enum=4)),
             "2 of 8 H100": (2, [H100] * 8, dict(fabric="switch", lanes=18, version_enum=6))}
BF16_CPU = devices.cpu_features(flags={"avx2", "avx512f", "avx512_bf16", "amx_bf16"}, capability="AVX512",
                                onednn_max="")
AVX2_CPU = devices.cpu_features(flags={"avx2"}, capability="AVX2", onednn_max="")
# One profiled CPU step of the small GPT, as lesson 08 measured it: matmuls 62 %, bf16 peak 6.87x fp32.
CPU_PROFILE = guide.Profile({"load": 1e-4, "matmul": 0.062, "memory-bound": 0.03, "Python & dispatch": 0.0079},
                            peak_ratio=6.87)


def answers(name: str, size: str, profile=None) -> dict[str, guide.Step]:
    n, gpus, links = REFERENCE[name]
    hw = devices.hardware(layer=fake_layer(gpus, **links), n_gpus=n)
    plan = devices.plan(2, mode_name="1gpu" if n == 1 else "2gpu", n_gpus=n)
    shape, batch = (GPU_SHAPE, 64) if size == "small" else (LARGE, LARGE_BATCH)
    return {s.step: s for s in guide.guide(shape, batch, plan, hw, profile)}


def cpu_answers(size: str, features=BF16_CPU, profile=CPU_PROFILE) -> dict[str, guide.Step]:
    shape, batch = (CPU_SHAPE, 16) if size == "small" else (LARGE, LARGE_BATCH)
    plan = devices.plan(2, mode_name="cpu", n_gpus=0)
    steps = guide.guide(shape, batch, plan, None, profile, run_steps=24, measured_link=1e9, features=features,
                        host_bytes=32e9)
    return {s.step: s for s in steps}


# --- The checks the mutants must fail (each also a test below) ----------------------------------------------

def check_the_7b_keeps_a_margin_on_80_gb():
    """7B on two 80 GB GPUs: FSDP without checkpointing holds 80 GB of 85.9: it fits only without a margin."""
    for name in ("2xA100 NVLink", "2 of 8 H100"):
        steps = answers(name, "7B")
        assert steps["two devices"].choice == "FSDP over 2"
        assert steps["memory"].choice == "selective checkpointing", steps["memory"].why
        assert "less 1 GB for the CUDA context" in steps["memory"].why


def check_fp32_gradients_are_counted():
    """DDP with autocast and FSDP2 keep fp32 gradients (4 B a parameter), DDP a bucket copy of them."""
    p, n = LARGE.parameters(), 2
    ddp = fit.held(GPU_SHAPE, 32, "bf16", "ddp", n)
    assert ddp.lines["gradients"] == 4 * GPU_SHAPE.parameters() == ddp.lines["communication"]
    fsdp = fit.held(LARGE, 8, "bf16", "fsdp", n, "selective")
    assert fsdp.lines["gradients"] == pytest.approx(4 * p / n)
    assert fsdp.state == pytest.approx(16 * p / n)


def check_checkpointing_only_to_fit():
    """The small GPT fits every device whole: no checkpointing anywhere (it would cost a third more compute)."""
    for name in REFERENCE:
        assert not answers(name, "small")["memory"].applies, name
    assert not cpu_answers("small")["memory"].applies


def test_the_7b_keeps_a_margin_on_80_gb():
    check_the_7b_keeps_a_margin_on_80_gb()


def test_fp32_gradients_are_counted():
    check_fp32_gradients_are_counted()


def test_checkpointing_only_to_fit():
    check_checkpointing_only_to_fit()


def _no_margin(monkeypatch):
    monkeypatch.setattr(fit, "GPU_MARGIN", fit.Margin(0.0, 0.0, "no margin"))
    monkeypatch.setattr(fit, "CPU_MARGIN", fit.Margin(0.0, 0.0, "no margin"))


def _bf16_gradients(monkeypatch):
    real = fit.held

    def held(shape, batch, precision="bf16", strategy="ddp", n=2, checkpointing=False, optimizer="fused"):
        h = real(shape, batch, precision, strategy, n, checkpointing, optimizer)
        lines = dict(h.lines, gradients=h.lines["gradients"] / 2)  # 2 B a parameter, as "bf16 mixed" has it
        if strategy == "ddp":
            lines["communication"] /= 2
        peak, moment = fit._moments(lines)
        return fit.Held(lines, peak, moment, h.layout)

    monkeypatch.setattr(fit, "held", held)


def _checkpointing_always(monkeypatch):
    monkeypatch.setattr(guide, "FIT_ORDER", [o for o in guide.FIT_ORDER if o[1] is True])
    monkeypatch.setattr(guide, "ONE_DEVICE_ORDER", [o for o in guide.ONE_DEVICE_ORDER if o[1] is True])


@pytest.mark.parametrize("mutant", [_no_margin, _bf16_gradients, _checkpointing_always])
def test_every_mutant_of_the_guide_fails_a_check(monkeypatch, mutant):
    mutant(monkeypatch)
    failed = []
    for check in (check_the_7b_keeps_a_margin_on_80_gb, check_fp32_gradients_are_counted,
                  check_checkpointing_only_to_fit):
        try:
            check()
        except AssertionError:
            failed.append(check.__name__)
    assert failed, f"{mutant.__name__} passed every check"


# --- The memory terms ---------------------------------------------------------------------------------------

def test_the_margin_is_stated_and_leaves_room_for_context_and_fragmentation():
    assert fit.usable(85.9e9, gpu=True) == pytest.approx(85.9e9 - 1e9 - 8.59e9)
    assert fit.usable(16e9, gpu=False) == pytest.approx(16e9 - 0.5e9 - 1.6e9)
    assert "CUDA context" in fit.GPU_MARGIN.why and "fragmentation" in fit.GPU_MARGIN.why


def test_ddp_with_autocast_holds_fp32_gradients_and_their_bucket_copy():
    s, p = GPU_SHAPE, GPU_SHAPE.parameters()
    autocast = fit.held(s, 32, "bf16", "ddp", 2)
    mixed = estimate(s, 32, "bf16 mixed", strategy="ddp", n=2)
    grads = lambda b: b.lines["gradients"] + b.lines["communication"]  # noqa: E731
    assert grads(autocast) - grads(mixed) == pytest.approx(4 * p)  # fp32 gradients (+2 B), fp32 buckets (+2 B)
    # fp32 weights without a master copy: 2 B a parameter fewer; a 16-bit copy of each matmul weight instead
    assert autocast.state + autocast.lines["communication"] - mixed.state - mixed.lines["communication"] == \
        pytest.approx(2 * p)
    assert autocast.lines["weight copies"] == 2 * s.matmul_weights()


def test_adamw_foreach_makes_a_temporary_the_size_of_the_parameters_and_fused_none():
    p = GPU_SHAPE.parameters()
    assert fit.optimizer_temporary(GPU_SHAPE, p, "foreach") == 4 * p
    assert fit.optimizer_temporary(GPU_SHAPE, p, "fused") == 0
    fused, foreach = (fit.held(LARGE, 8, "bf16", "fsdp", 2, "selective", impl) for impl in ("fused", "foreach"))
    assert foreach.lines["optimizer temporary"] == pytest.approx(4 * LARGE.parameters() / 2)
    assert foreach.peak >= fused.peak


def test_fsdp2_gathers_16_bit_weights_of_the_root_and_two_blocks_and_one_blocks_gradient():
    block = LARGE.block_parameters()
    root = LARGE.parameters() - LARGE.depth * block
    h = fit.held(LARGE, 8, "bf16", "fsdp", 2, True)
    assert h.lines["communication"] == 2 * (root + 3 * block)
    assert h.lines["weight copies"] == 0 and h.lines["master weights"] == 0


def test_when_nothing_fits_each_option_shows_its_bytes_and_the_gpus_needed():
    room = fit.usable(15 * 2**30, gpu=True)
    options = {o.name: o for o in fit.options_when_nothing_fits(LARGE, 1, room)}
    assert options["QLoRA r=16 (4-bit weights)"].fits and not options["8-bit AdamW"].fits
    assert "GB" in options["QLoRA r=16 (4-bit weights)"].arithmetic
    need = fit.devices_needed(LARGE, room)
    assert 16 * LARGE.parameters() / need < room <= 16 * LARGE.parameters() / (need - 1) + room


# --- Amdahl, feeding and break-even ---------------------------------------------------------------------

def test_the_precision_bound_is_amdahls():
    assert guide.amdahl(0.62, 6.87) == pytest.approx(1 / (0.38 + 0.62 / 6.87))
    assert guide.amdahl(0.62, 6.87) == pytest.approx(2.12, abs=0.01)
    why = cpu_answers("small")["precision"].why
    assert "Amdahl's bound 1/(0.38 + 0.62/6.87) = 2.1" in why


def test_feeding_only_when_the_data_share_buys_more_than_the_noise():
    assert guide.feeding_bound(0.001, 0.1) == pytest.approx(0.1 / 0.099)
    assert not cpu_answers("small")["feeding"].applies  # 0.1 % of a step
    slow = guide.Profile({"load": 0.04, "matmul": 0.06}, 6.87)
    assert cpu_answers("small", profile=slow)["feeding"].choice == "loader workers"


def test_compile_pays_back_by_the_break_even_formula():
    assert guide.break_even_steps(6.0, 0.10, 0.08) == pytest.approx(300)
    assert guide.break_even_steps(6.0, 0.10, 0.11) == float("inf")
    measured = guide.Profile({"matmul": 0.1}, 2.0, compile_s=6.0, compiled_step_s=0.08)
    assert not guide.compile_step(measured, 299).applies and guide.compile_step(measured, 300).applies
    same = guide.Profile({"matmul": 0.1}, 2.0, compile_s=6.0, compiled_step_s=0.099)
    assert not guide.compile_step(same, 10**6).applies  # 1 % saved: within the noise
    assert "not measured" in guide.compile_step(None, 10**6).why


# --- The reference machines (README's "Your two GPUs") ----------------------------------------------

def test_precision_per_device():
    assert answers("T4", "small")["precision"].choice == "fp16 autocast + GradScaler"
    assert answers("2xA100 NVLink", "small")["precision"].choice == "TF32, then bf16 autocast"
    h100 = answers("2 of 8 H100", "small")["precision"]
    assert h100.choice == "TF32, then bf16 autocast" and "FP8" in h100.why
    assert cpu_answers("small")["precision"].choice == "bf16 autocast"
    plain = cpu_answers("small", AVX2_CPU)["precision"]
    assert not plain.applies and "no bf16 units" in plain.why


def test_the_7b_on_t4s_gets_parameter_efficient_training_and_the_gpus_it_needs_never_a_smaller_batch():
    for name in ("T4", "2xT4 PCIe"):
        steps = answers(name, "7B")
        memory = steps["memory"]
        assert memory.choice.startswith("does not fit: ") and "LoRA" in memory.choice
        assert "no batch size fits" in memory.why and "Full training needs 10 such devices" in memory.why
        assert "shrink the batch" not in memory.why and "NVLink" not in steps["two devices"].why
    assert not answers("T4", "7B")["two devices"].applies   # one device: nothing to add
    # session 48's reader: the row said "skip" for two devices beside memory's "..., DDP over 2"
    two, memory = (answers("2xT4 PCIe", "7B")[k] for k in ("two devices", "memory"))
    assert memory.choice.endswith("DDP over 2") and two.choice == "as memory says: DDP over 2" and two.applies


def test_the_small_gpt_gets_ddp_with_the_links_bytes_against_compute():
    assert not answers("T4", "small")["two devices"].applies
    for name in ("2xT4 PCIe", "2xA100 NVLink", "2 of 8 H100"):
        two = answers(name, "small")["two devices"]
        assert two.choice == "DDP over 2" and "all-reduce 2(n-1)/n x 4 B" in two.why and "ms of compute" in two.why
    # 0.35 x 15.76 = 5.52; session 49's reader: the share is labelled as the guide's planning assumption
    why = answers("2xT4 PCIe", "small")["two devices"].why
    assert "no peer access: the guide's planning assumption, 35% of the datasheet's 15.76 GB/s" in why


def test_fsdp_moves_two_all_gathers_and_a_reduce_scatter():
    why = answers("2 of 8 H100", "7B")["two devices"].why
    assert "two all-gathers + a reduce-scatter, 3 x (n-1)/n x 2 B" in why and "(DDP with the same: " in why


def test_fused_adamw_on_gpus_with_the_foreach_temporary_it_saves():
    assert answers("2 of 8 H100", "7B")["optimizer"].choice == "fused AdamW"
    assert "13.7 GB a device" in answers("2 of 8 H100", "7B")["optimizer"].why
    assert not cpu_answers("small")["optimizer"].applies


# --- Fixed after the senior's second reading: each fails on the guide's earlier answer ---------------------

def test_two_t4s_without_peer_access_choose_qlora_with_ddp_by_the_links_bytes():
    """LoRA on FSDP gathers the 16-bit base twice a micro-batch over PCIe through the host (seconds); QLoRA
    with DDP keeps a 4-bit base on each T4 and all-reduces the adapters only. The earlier guide took LoRA."""
    memory = answers("2xT4 PCIe", "7B")["memory"]
    assert memory.choice == "does not fit: QLoRA r=16 (4-bit weights), DDP over 2", memory.why
    assert "two all-gathers, 2 x (n-1)/n x 2 B x 6.86 bn = 13.7 GB = 2.48 s" in memory.why
    assert "all-reduce 2(n-1)/n x 4 B x 33.6 M = 0.134 GB" in memory.why and "s of compute" in memory.why


def test_the_adapters_print_to_3_figures_so_their_products_divide_out():
    """Fifth reader: "4 B x 34 M = 0.134 GB" (4 x 34 M is 0.136 GB); the adapters are 2**25, 33.6 M."""
    memory = answers("2xT4 PCIe", "7B")["memory"]
    assert "16 B x 33.6 M adapter" in memory.why and "34 M" not in memory.why


def test_a_fast_link_keeps_lora_on_fsdp_when_its_gathers_hide_behind_backward():
    # t32_0708 #3: LoRA's compute is 4·P·tokens, its backward 2 of the 4. On two T4s (only LoRA and QLoRA
    # fit) a 100 GB/s link moves LoRA's gathers in 0.137 s, behind its 0.216 s backward
    hw = devices.hardware(layer=fake_layer([T4, T4], p2p_read=False, ancestor=50), n_gpus=2)
    plan = devices.plan(2, mode_name="2gpu", n_gpus=2)
    memory = {s.step: s for s in guide.guide(LARGE, LARGE_BATCH, plan, hw,
                                             measured_link=guide.KnownLink(100e9, "a faster link"))}["memory"]
    assert memory.choice == "does not fit: LoRA r=16 on 16-bit weights, FSDP over 2", memory.why
    assert "= 0.137 s against 0.432 s of compute (4·P·tokens), its backward (2 of the 4) 0.216 s" in memory.why
    assert "LoRA r=16 on 16-bit weights, FSDP over 2 is the first whose traffic hides behind backward" in memory.why
    # on two 40 GB A100s over NVLink's planning 210 GB/s, LoRA's gathers (0.0652 s) miss its own backward
    # (0.0451 s; at full training's 6·P they seemed to hide behind 0.09 s), and 8-bit AdamW's miss its
    a100_40 = dict(A100, name="NVIDIA A100-SXM4-40GB", memory=40 * 2**30)
    nvlink = fake_layer([a100_40] * 2, fabric="bridge", lanes=12, version_enum=4)
    planned = {s.step: s for s in guide.guide(LARGE, LARGE_BATCH, plan, devices.hardware(layer=nvlink, n_gpus=2))}
    why = planned["memory"].why
    assert "= 0.0652 s against 0.0901 s of compute (4·P·tokens), its backward (2 of the 4) 0.0451 s" in why
    assert planned["memory"].choice.startswith("does not fit: QLoRA")


def test_the_8_bit_optimizer_keeps_the_autocast_layout_fp32_weights_and_gradients():
    p = LARGE.parameters()
    one = {o.kind: o for o in fit.options_when_nothing_fits(LARGE, 1, 1e12)}["8-bit"]
    two = {o.kind: o for o in fit.options_when_nothing_fits(LARGE, 2, 1e12)}["8-bit"]
    act = fit._frozen_activations(LARGE, 1)
    assert one.per_device == pytest.approx(12 * p + act)  # 4 fp32 + 2 16-bit copies + 4 fp32 grads + 2 states
    assert two.per_device == pytest.approx(10 * p / 2 + act)  # FSDP2: fp32 weights and grads, sharded


def test_fsdp_backward_holds_the_sharded_gradients_of_the_blocks_done():
    """With full checkpointing the activations are small: backward's end, all sharded gradients and the
    recomputed block's temporaries, is the peak, above the optimizer step (gradients, no temporary)."""
    h = fit.held(LARGE, 1, "bf16", "fsdp", 2, True)
    static = h.lines["parameters"] + h.lines["optimizer"] + h.lines["communication"]
    assert h.moment == "backward"
    assert h.peak == pytest.approx(static + h.lines["gradients"] + h.lines["temporary"])


def test_under_lora_the_optimizer_step_is_not_advice():
    for name in ("T4", "2xT4 PCIe"):
        optimizer = answers(name, "7B")["optimizer"]
        assert not optimizer.applies and "adapters" in optimizer.why


def test_fused_adamw_on_a_cpu_only_when_its_share_buys_more_than_the_noise():
    share = guide.Profile(CPU_PROFILE.parts, 6.87, optimizer_share=0.07)
    fused = cpu_answers("small", profile=share)["optimizer"]
    assert fused.choice == "fused AdamW" and "1/(1 - 0.070) = 1.075x" in fused.why
    small = guide.Profile(CPU_PROFILE.parts, 6.87, optimizer_share=0.03)
    assert not cpu_answers("small", profile=small)["optimizer"].applies


def test_an_unmeasured_compile_reads_measure_first_not_skip():
    step = guide.compile_step(None, 10**6)
    assert step.choice == guide.MEASURE and not step.applies


# --- Fixed after session 45's readers ------------------------------------------------------------------------

def test_under_ddp_every_rank_holds_the_foreach_temporary_for_all_the_parameters():
    """DDP: each rank runs AdamW on every parameter (4 B x P a device); FSDP: on its shard (4 B x P/n). The
    earlier guide divided by n under DDP too."""
    p = GPU_SHAPE.parameters()
    for name in ("2xT4 PCIe", "2xA100 NVLink", "2 of 8 H100"):
        ddp = answers(name, "small")
        assert ddp["two devices"].choice == "DDP over 2"
        assert f"4 B x {p / 1e9:.3g} bn parameters" in ddp["optimizer"].why, ddp["optimizer"].why
        assert f"= {4 * p / 1e9:.3g} GB a device" in ddp["optimizer"].why
    fsdp = answers("2xA100 NVLink", "7B")
    assert fsdp["two devices"].choice == "FSDP over 2"
    assert f"4 B x {LARGE.parameters() / 2 / 1e9:.3g} bn parameters" in fsdp["optimizer"].why


def test_a_slow_link_under_ddp_also_offers_the_fp16_compression_hook():
    why = answers("2xT4 PCIe", "small")["two devices"].why
    assert "longer than backward" in why and "--hook fp16" in why
    assert f"2(n-1)/n x 2 B x {GPU_SHAPE.parameters() / 1e6:.2f} M" in why   # as the model line prints it


def test_another_shape_than_the_profiled_one_gets_no_profiled_shares_but_a_step_time():
    """The CPU's 7 B row: the small model's matmul share says nothing about it; a step at the measured peak
    (100 % MFU) says whether a run is practical at all."""
    profiled = guide.Profile(CPU_PROFILE.parts, 6.87, optimizer_share=0.07, low_peak=1e12, shape=CPU_SHAPE)
    large = cpu_answers("7B", profile=profiled)
    assert "Amdahl" not in large["precision"].why and "waits for the profile" in large["precision"].why
    # the row's QLoRA plan: 4 FLOPs a weight a token, not full training's 6 (t30_0708 #2)
    step_min = 4 * LARGE.parameters() * LARGE_BATCH * LARGE.context / (2 * 1e12) / 60
    assert f"= {claims.sig_text(step_min, 3)} min" in large["memory"].why   # 3 figures (t24_0708 other 3) and "impractical on this machine" in large["memory"].why
    small = cpu_answers("small", profile=profiled)
    assert "Amdahl" in small["precision"].why  # the profiled shape keeps its shares


def test_the_precision_bound_uses_the_matmuls_own_time_against_their_flops_at_the_low_peak():
    """Matmuls of 0.1 s doing 10 GFLOP ran at 100 GFLOP/s; at a 1 TFLOP/s bf16 peak they take 10 ms, whatever
    the probes' peak ratio: T / ((1 - f)T + FLOPs/peak) = 0.15 / (0.05 + 0.01) = 2.5x."""
    p = guide.Profile({"matmul": 0.1, "memory-bound": 0.05}, peak_ratio=5.0, matmul_flops=10e9, low_peak=1e12)
    assert p.matmul_speedup == pytest.approx(10.0)
    step = cpu_answers("small", profile=p)["precision"]
    assert "= 2.50x" in step.why and "an estimate" in step.why


# --- Fixed after session 47's readers ------------------------------------------------------------------------

def test_a_link_rate_from_the_machine_profile_is_named_and_set_against_a_devices_share_of_the_step():
    """On a CPU the guide used to say "the link's rate is unknown" though lesson 00 kept gloo's beta in the
    machine profile: given it (``guide.KnownLink``), it names the source and says whether the all-reduce can
    hide behind backward, against one device's share of the profiled step (DDP: half the batch each)."""
    plan = devices.plan(2, mode_name="cpu", n_gpus=0)
    link = guide.KnownLink(2e9, "machine profile, lesson 00, gloo loopback, 2 processes")
    steps = {s.step: s for s in guide.guide(CPU_SHAPE, 16, plan, None, CPU_PROFILE, run_steps=24,
                                            measured_link=link, features=BF16_CPU, host_bytes=32e9)}
    why = steps["two devices"].why
    assert "unknown" not in why and "over 2 GB/s (machine profile, lesson 00" in why, why
    half = CPU_PROFILE.step_s / 2  # 8 of the profiled 16 sequences on each device
    assert f"against {half * 1e3:.3g} ms of compute" in why and "x 512 / 1,024 tokens" in why
    assert "it could hide behind backward" in why and "CPU workers share the cores" in why  # not "it can"
    unknown = {s.step: s for s in guide.guide(CPU_SHAPE, 16, plan, None, CPU_PROFILE, features=BF16_CPU,
                                              host_bytes=32e9)}
    assert "the link's rate is unknown" in unknown["two devices"].why  # no profile's link: said so


def test_the_profile_link_is_read_from_the_machine_profile_for_the_plans_own_path(tmp_path):
    import json

    from utils import machine
    from utils.lessons.putting_it_together import profile

    plan = devices.plan(2, mode_name="cpu", n_gpus=0)
    sizes = [4096, 2**20, 2**24]
    seconds = [1e-4 + n / 2e9 for n in sizes]  # alpha 100 µs, beta 2 GB/s
    stored = tmp_path / "profile.json"
    assert profile.profile_link(plan, path=stored) is None  # no profile yet: the guide says unknown
    entry = {"link": {"name": machine.link_route(plan)[0], "sizes": sizes, "seconds": seconds, "date": "x"}}
    stored.write_text(json.dumps({machine.machine_key("cpu"): entry}))
    link = profile.profile_link(plan, path=stored)
    assert link.rate == pytest.approx(2e9, rel=1e-3) and link.what.startswith("machine profile, lesson 00")
    entry["link"]["name"] = "another path"
    stored.write_text(json.dumps({machine.machine_key("cpu"): entry}))
    assert profile.profile_link(plan, path=stored) is None  # another path's beta is not this link's


def test_a_known_link_without_a_compute_time_hides_nothing_it_picks_the_fewest_bytes():
    """The CPU's 7 B row has no datasheet peak: a link rate alone cannot say the traffic hides behind backward."""
    plan = devices.plan(2, mode_name="cpu", n_gpus=0)
    link = guide.KnownLink(3e9, "machine profile, lesson 00, gloo loopback, 2 processes")
    steps = {s.step: s for s in guide.guide(LARGE, LARGE_BATCH, plan, None, measured_link=link, features=BF16_CPU,
                                            host_bytes=32e9)}
    why = steps["memory"].why
    assert "no compute time to set it against" not in why   # t32_0708 #2: the row prints its own step time
    assert "CPU workers share the cores the link uses, so no traffic is taken to hide behind backward" in why, why
    assert "QLoRA" in steps["memory"].choice  # the fewest bytes on the link


def test_the_decision_table_words_a_skipped_memory_step_as_fitting():
    """Session 48's reader: "skip" beside "DDP over 2" on one row read as contradictory advice."""
    steps = answers("2xA100 NVLink", "small")
    assert steps["two devices"].choice == "DDP over 2" and steps["memory"].choice == "skip"
    assert guide.shown(steps["memory"]) == "none needed: it fits"
    assert guide.shown(steps["two devices"]) == "DDP over 2"


# --- Fixed after session 51's reader: every quotient worked from its operands as printed -----------------

def test_the_precision_bound_is_worked_from_the_flops_and_peak_as_printed():
    """Reader: 20.4 GFLOP at the 222.3 GFLOP/s peak printed 91.6 ms (unrounded); 20.4/222.3 = 91.8."""
    p = guide.Profile({"load": 0.0002, "matmul": 0.2209, "memory-bound": 0.0273, "Python & dispatch": 0.0074},
                      peak_ratio=2.14, matmul_flops=20.38e9, low_peak=222.34e9)
    why = cpu_answers("small", profile=p)["precision"].why
    assert "their 20.38 GFLOP at the measured bf16 peak (222.3 GFLOP/s) take 91.7 ms" in why   # 4 figures now
    # seventh reading: T and M in ms to 0.1 as section 2's table prints them (0.2558 s, 0.2209 s), not whole ms
    assert "matmuls take 220.9 of a step's 255.8 ms (section 2's table)" in why
    assert f"= 255.8/(34.9 + 91.7) = {255.8 / (34.9 + 91.7):.2f}x" in why


def test_section_2_s_rate_divides_out_of_the_guide_s_flops_and_the_table_s_seconds():
    """Fifth reader: section 2's 94.8 GFLOP/s against the guide's "20.4 GFLOP" and the table's 0.2148 s
    (20.4/0.2148 = 95.0). The GFLOP now print to 4 figures, and the rate is worked from them."""
    from utils.lessons.putting_it_together import profile_words

    p = guide.Profile({"load": 0.0003, "matmul": 0.2148, "memory-bound": 0.0277, "Python & dispatch": 0.0074},
                      peak_ratio=2.15, matmul_flops=20.3649e9, low_peak=222.34e9)
    why = cpu_answers("small", profile=p)["precision"].why
    assert "their 20.36 GFLOP at the measured bf16 peak (222.3 GFLOP/s) take 91.6 ms" in why   # 20.36/222.3
    said = profile_words.matmul_rate(20.3649e9, 0.2148, {"fp32": 103.4e9, "bf16": 222.34e9})
    assert "20.36 GFLOP in 0.2148 s, ran at 94.8 GFLOP/s" in said and round(20.36 / 0.2148, 1) == 94.8
    assert guide.matmul_gflops(20.3649e9, 0.21484) == 94.8 and f"take {222.3 / 94.8:.2f}x less time" in said


def test_the_links_milliseconds_are_the_printed_gb_over_the_printed_rate():
    """Reader: 0.0509 GB / 5.52 GB/s printed 9.23 ms, 13.7 GB / 5.52 GB/s 2.49 s (unrounded operands)."""
    two = answers("2xT4 PCIe", "small")["two devices"].why
    assert "= 0.102 GB a step over 5.52 GB/s" in two and f"= {0.102 / 5.52 * 1e3:.3g} ms on the link against" in two
    assert f"= 0.0509 GB = {0.0509 / 5.52 * 1e3:.3g} ms on the link" in two
    assert f"13.7 GB = {13.7 / 5.52:.3g} s" in answers("2xT4 PCIe", "7B")["memory"].why


def test_a_thousand_ms_and_more_print_whole_with_a_comma_never_in_e_notation():
    """Reader: "against 1.08e+03 ms of compute" on the A100 7 B row."""
    why = answers("2xA100 NVLink", "7B")["two devices"].why
    assert "e+0" not in why and "against 1,080 ms of compute" in why and f"= {20.6 / 210 * 1e3:.3g} ms" in why
    assert guide._figure(1083.4) == "1,083" and guide._figure(98.09) == "98.1"
    assert guide._figure(0.0243) == "0.0243"


def test_the_run_s_hours_are_the_printed_step_minutes_times_the_steps():
    """Reader: 25.3 min x 5,000 steps printed 2,106.6 h; from the printed minutes it is 2,108 h."""
    profiled = guide.Profile(CPU_PROFILE.parts, 6.87, optimizer_share=0.07, low_peak=222.34e9,
                             shape=CPU_SHAPE)
    plan = devices.plan(2, mode_name="cpu", n_gpus=0)
    steps = guide.guide(LARGE, LARGE_BATCH, plan, None, profiled, run_steps=5000, measured_link=1e9,
                        features=BF16_CPU, host_bytes=32e9)
    memory = next(s for s in steps if s.step == "memory").why
    assert "(2 x 222.3 GFLOP/s, the measured peak) = 16.9 min" in memory   # QLoRA: 4 x   # the peak as every cell prints it
    assert f"(5,000 steps: at least {16.9 * 5000 / 60:,.0f} h); rent GPUs" in memory   # 1,408 h
    short = guide.guide(LARGE, LARGE_BATCH, plan, None, profiled, run_steps=24, measured_link=1e9,
                        features=BF16_CPU, host_bytes=32e9)
    assert f"(24 steps: at least {16.9 * 24 / 60:.1f} h)" in next(s for s in short if s.step == "memory").why


def test_the_optimizer_s_bound_is_one_over_one_less_the_printed_share():
    """0.0716 prints as 0.072: the bound is 1/(1 - 0.072) = 1.078x, not 1.077x from the unrounded share."""
    why = guide.optimizer_step(devices.plan(2, mode_name="cpu", n_gpus=0), CPU_SHAPE, 1,
                               guide.Profile(CPU_PROFILE.parts, 6.87, optimizer_share=0.0716)).why
    assert f"1/(1 - 0.072) = {1 / (1 - 0.072):.3f}x" in why
