"""utils/lessons/memory (lesson 06): the calculator's formulas against the model and against measurement (a grid
of small configurations), checkpointing and accumulation keep the arithmetic, the strategies divide the right
lines, FSDP2 against DDP on two CPU workers (half the state, the same losses, the bytes of the formulas), the
widget, the allocator's CPU path, and the benchmarks.
Lab 06's checks are tested in tests/test_lab_fit_the_budget.py; the per-mode decisions in test_modes_memory.py.
"""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest
import torch

from utils import bench, models
from utils.launch import launch
from utils.lessons.memory import allocator, calculator, measure, offload, report, sharding, summary, tricks, validate, widget
from utils.lessons.memory.calculator import Shape, activation_bytes, estimate
from utils.lessons.memory.plan import lesson_settings

TINY = Shape(vocab=48, context=16, width=32, depth=2, heads=4)
SMALL = Shape(vocab=96, context=32, width=64, depth=3, heads=4)


@pytest.fixture(autouse=True)
def one_thread():
    with bench.threads(1):
        yield


@pytest.mark.parametrize("shape", [TINY, SMALL, replace(SMALL, mlp_ratio=2), replace(SMALL, vocab=1000)])
def test_the_parameter_count_is_the_models(shape):
    assert shape.parameters() == models.count_parameters(models.small_gpt(**shape.gpt_kwargs()))


@pytest.mark.parametrize("shape,batch", [(TINY, 2), (SMALL, 4), (replace(SMALL, heads=8, vocab=500), 3)])
def test_the_activation_formula_is_what_autograd_saves_layer_by_layer(shape, batch):
    model, _ = measure.new_model(shape, "cpu")
    x, y = measure.batch_of(shape, batch, "cpu")
    saved = measure.saved_by_layer(model, x, y)
    formula = activation_bytes(shape, batch, act=4)
    assert saved["embedding"] == formula["embedding"] and saved["head + loss"] == formula["head + loss"]
    assert sum(v for k, v in saved.items() if k.startswith("block")) == formula["blocks"]
    assert [k for k in saved if k.startswith("block")] == [f"block {i}" for i in range(shape.depth)]


GRID = {f"{name} / {shape_name}": config
        for shape_name, (shape, batch) in {"tiny": (TINY, 4), "small": (SMALL, 8)}.items()
        for name, config in validate.configurations(shape, batch).items()}


@pytest.mark.timeout(120)
def test_the_calculator_is_within_ten_percent_of_the_measured_peak_on_a_grid():
    errors = validate.estimate_errors(GRID, "cpu")
    worst = max(errors.items(), key=lambda kv: abs(kv[1][2]))
    assert abs(worst[1][2]) <= 0.10, f"{worst[0]}: estimate {worst[1][0]:.0f}, measured {worst[1][1]:.0f}"
    assert all(m > 0 for _, m, _ in errors.values())


def test_checkpointing_gives_the_same_loss_and_gradients():
    model, _ = measure.new_model(SMALL, "cpu")
    x, y = measure.batch_of(SMALL, 4, "cpu")
    plain = measure.plain_loss(model, x, y)
    plain.backward()
    grads = [p.grad.clone() for p in model.parameters()]
    model.zero_grad(set_to_none=True)
    ckpt = measure.checkpointed_loss(model, x, y)
    ckpt.backward()
    assert torch.equal(plain, ckpt)
    assert all(torch.allclose(a, p.grad, atol=1e-7) for a, p in zip(grads, model.parameters()))


def test_accumulation_gives_the_whole_batchs_step_and_measures_with_several_forwards():
    (one, opt1), (split, opt2) = measure.new_model(SMALL, "cpu"), measure.new_model(SMALL, "cpu")
    x, y = measure.batch_of(SMALL, 8, "cpu")
    loss_one = measure.training_step(one, opt1, x, y)()
    loss_split = measure.training_step(split, opt2, x, y, micro_batches=4)()
    assert loss_one == pytest.approx(loss_split, rel=1e-6)
    gap = max((a - b).abs().max().item() for a, b in zip(one.parameters(), split.parameters()))
    assert gap < 1e-4
    m = measure.measure_peak(measure.training_step(split, opt2, x, y, micro_batches=4), split, opt2, "cpu")
    assert m.peak > 0 and m.lines["gradients"] > 0  # gradients live across the micro-batches


def test_strategies_divide_the_lines_they_shard():
    one = estimate(SMALL, 8)
    z1, z2, z3 = (estimate(SMALL, 8, strategy=s, n=4) for s in ("zero1", "zero2", "fsdp"))
    assert z1.lines["optimizer"] == one.lines["optimizer"] / 4 and z1.lines["gradients"] == one.lines["gradients"]
    assert z2.lines["gradients"] == one.lines["gradients"] / 4 and z2.lines["parameters"] == one.lines["parameters"]
    assert z3.lines["parameters"] == one.lines["parameters"] / 4 and z3.state == pytest.approx(one.state / 4)
    assert z3.lines["communication"] > 0
    ddp = estimate(SMALL, 8, strategy="ddp", n=2)
    assert ddp.state == one.state and ddp.lines["communication"] == one.lines["gradients"]
    pipe = estimate(SMALL, 8, strategy="pipeline", n=2)
    assert pipe.lines["activations"] == pytest.approx(one.lines["activations"] / 2)
    tp = estimate(SMALL, 8, strategy="tensor parallel", n=2)
    assert one.lines["parameters"] / 2 < tp.lines["parameters"] < one.lines["parameters"]
    assert tp.lines["activations"] < one.lines["activations"]
    with pytest.raises(ValueError, match="strategy must be one of"):
        estimate(SMALL, 8, strategy="magic")


def test_precision_checkpointing_and_accumulation_take_bytes_off_their_lines():
    fp32 = estimate(SMALL, 16)
    assert estimate(SMALL, 16, precision="bf16").lines["parameters"] == fp32.lines["parameters"] / 2
    mixed = estimate(SMALL, 16, precision="bf16 mixed")
    assert mixed.state == fp32.state  # 2 + 2 + 4 + 8 bytes per parameter, as fp32's 4 + 4 + 8
    assert 0.5 < mixed.lines["activations"] / fp32.lines["activations"] < 0.52  # norm statistics stay fp32
    assert estimate(SMALL, 16, checkpointing=True).lines["activations"] < fp32.lines["activations"] / 2
    acc = estimate(SMALL, 16, micro_batches=4)
    assert acc.at_peak["gradients"] == fp32.lines["gradients"] and acc.peak < fp32.peak
    int8 = estimate(SMALL, 16, precision="int8 weights")
    assert int8.lines["gradients"] == 0 and int8.peak_moment == "forward" and int8.notes
    assert estimate(SMALL, 2, optimizer="sgd").lines["optimizer"] == 0


def test_fits_gives_the_headroom_and_the_verdict_says_it():
    b = estimate(Shape(vocab=50257, context=1024, width=768, depth=12, heads=12), 16)
    fits, headroom = b.fits(80e9)
    assert fits and headroom == pytest.approx(80e9 - b.peak)
    assert "does NOT fit" in widget.verdict(b, 16e9, "a T4") and "to spare" in widget.verdict(b, 80e9, "an H100")
    assert b.config["batch"] == 16 and b.config["strategy"] == "one device"


def test_the_widget_builds_and_the_plot_stacks_every_line():
    box = widget.calculator_widget(TINY, batch=2)
    assert len(box.children) == 2
    fig = widget.plot_budgets({"a": estimate(TINY, 2), "b": estimate(TINY, 2, checkpointing=True)},
                              measured={"a": 1e5}, capacity=2e6, simulated=True)
    assert "simulated on CPU" in fig.texts[0].get_text()


def test_the_tables_compare_estimate_and_measurement():
    b = estimate(TINY, 2)
    m = measure.Measured(b.peak * 1.02, {"parameters": b.lines["parameters"]}, "test")
    # 0.51 MB against 0.52 MB as printed: -1.9%, a reader's division (not the unrounded bytes' -2.0%)
    assert "-1.9%" in report.compare_table({"x": (b, m)}, title="t").to_text()
    total = "total (peak; its own figure, lines rounded apart)"
    assert total in report.lines_table(b, m, title="t").to_text()


def test_errors_and_per_call_times_follow_from_the_figures_printed_beside_them():
    # lesson 06's fourth reader: 32.77 MB against 32.53 MB is +0.7% (unrounded bytes gave +0.8%)
    assert f"{report.relative_error(32.7749e6, 32.5251e6):+.1%}" == "+0.7%"
    assert f"{report.relative_error(32.5251e6, 32.7749e6):+.1%}" == "-0.7%"   # the other side
    # a line of 2.10 MB against 2.88 MB is 0.78 MB under, as a reader subtracts the printed lines
    assert report.line_error(2.0951e6, 2.8849e6) == "-0.78 MB (-27%)"
    assert report.line_error(6.6149e6, 6.6051e6) == "+0.00 MB (0%)"
    # 13.3 ms inside 2 calls prints 6.65 ms a call (unrounded 13.34 ms gave 6.67)
    runs = {"ddp": [{"collective_seconds_per_step": {"all-reduce": 0.01334},
                     "calls_per_step": {"all-reduce": 2},
                     "sent_per_step": {"all-reduce": 3.3e6}}]}
    (row,) = summary.collectives_table(runs).rows
    assert row[4:] == ("13.3", "6.65")


def test_the_allocator_and_the_snapshot_say_no_on_the_cpu():
    assert allocator.fragmentation("cpu") is None and "malloc" in allocator.CPU_NOTE
    assert measure.record_snapshot(lambda: None, "cpu") is None


def test_collective_formulas():
    expected = sharding.expected_inputs(SMALL, "fsdp", n=2)
    total = SMALL.parameters() * 4
    assert expected["reduce-scatter"] == total and total / 2 < expected["all-gather"] < total
    assert sharding.expected_inputs(SMALL, "ddp") == {"all-reduce": total}
    assert sharding.wire_bytes("all-reduce", 100, 2) == 100 and sharding.wire_bytes("reduce-scatter", 100, 2) == 50
    assert sharding.wire_bytes("all-gather", 50, 2) == 50


@pytest.mark.timeout(180)
def test_fsdp2_holds_half_of_ddps_state_with_the_same_losses_and_the_bytes_of_the_formulas(
        cpu_mode_and_no_leftovers):
    s = replace(lesson_settings(__import__("utils.devices", fromlist=["plan"]).plan(2), None),
                shard_shape=SMALL, shard_batch=4, steps=2)
    runs = {k: launch(sharding.train_sharded, s, k, nprocs=2, timeout=150) for k in sharding.STRATEGIES}
    ddp, fsdp = runs["ddp"], runs["fsdp"]
    assert max(r["state_bytes"] for r in fsdp) / ddp[0]["state_bytes"] <= 0.55
    assert ddp[0]["state_bytes"] == estimate(SMALL, 4, strategy="ddp", n=2).state
    gap = max(abs(a - b) for r1, r2 in zip(ddp, fsdp) for a, b in zip(r1["losses"], r2["losses"]))
    assert gap <= 1e-5
    for name, r in runs.items():
        assert r[0]["sent_per_step"] == pytest.approx(sharding.expected_inputs(SMALL, name, 2))
    # one all-gather per block before its forward and again before its backward, one for the root; one
    # reduce-scatter per unit; every collective timed on CPU workers
    assert fsdp[0]["calls_per_step"] == {"all-gather": 2 * SMALL.depth + 1, "reduce-scatter": SMALL.depth + 1}
    assert all(v >= 0 for v in fsdp[0]["collective_seconds_per_step"].values())
    text = summary.collectives_sentence(runs)
    assert "FSDP2" in text and summary.collectives_table(runs).rows
    # lesson 06's reader: the table's MB a step (inputs) added up to ~2x, the sentence said 1.48x unnamed
    assert "the bytes a ring sends" in text and "what each rank hands its collectives" in text


@pytest.mark.timeout(120)
def test_the_memory_estimate_benchmark_is_registered_and_under_its_bound(monkeypatch):
    from utils.benchmarks import memory_estimate

    monkeypatch.setattr(memory_estimate, "configurations", lambda shape, batch: validate.configurations(TINY, 4))
    monkeypatch.setenv("TWOGPU_MODE", "cpu")
    result = memory_estimate.bench_memory_estimate()
    assert result.name == "memory_estimate" and result.bound == 0.10 and result.measured <= 0.10
    assert {"memory_estimate", "fsdp"} <= set(bench.discover("utils.benchmarks"))


def test_held_bytes_counts_weights_gradients_and_optimizer_state():
    model, optimizer = measure.new_model(TINY, "cpu")
    p = TINY.parameters() * 4
    assert measure.held_bytes(model, optimizer) == p
    x, y = measure.batch_of(TINY, 2, "cpu")
    measure.plain_loss(model, x, y).backward()
    optimizer.step()
    assert measure.held_bytes(model, optimizer) >= 4 * p  # weights, gradients, AdamW's two states (+ steps)


@pytest.mark.parametrize("loss_fn", [tricks.selective_loss, tricks.chunked_loss, tricks.autocast_loss("bf16")])
def test_the_memory_tricks_keep_the_loss_and_its_gradients(loss_fn):
    model, _ = measure.new_model(SMALL, "cpu")
    x, y = measure.batch_of(SMALL, 4, "cpu")
    plain = measure.plain_loss(model, x, y)
    plain.backward()
    grads = [p.grad.clone() for p in model.parameters()]
    model.zero_grad(set_to_none=True)
    other = loss_fn(model, x, y)
    other.backward()
    loose = loss_fn not in (tricks.selective_loss, tricks.chunked_loss)  # autocast: bf16 rounding
    assert torch.allclose(plain, other, rtol=2e-2 if loose else 1e-5)
    for a, p in zip(grads, model.parameters()):
        assert torch.allclose(a, p.grad, atol=5e-3 if loose else 1e-6)


def test_selective_and_chunked_estimates_sit_between_their_neighbours():
    plain, full = estimate(SMALL, 8), estimate(SMALL, 8, checkpointing=True)
    selective = estimate(SMALL, 8, checkpointing="selective")
    assert full.peak < selective.peak < plain.peak
    big = replace(SMALL, vocab=4000)
    assert estimate(big, 8, loss_chunks=4).peak < estimate(big, 8).peak


def test_offload_counts_each_direction_and_the_cpu_step():
    cost = offload.offload_cost(1000, n=2, adamw_params_per_s=100.0, link_bytes_per_s=1000.0)
    assert cost.host_to_device == 2 * 500 * 4 and cost.device_to_host == 500 * 4
    # the gradients' copy to the host is on the critical path too: 4 s + 2 s of copies, then the CPU step
    assert cost.copy_seconds == 6.0 and cost.adamw_seconds == 5.0 and cost.seconds == 11.0
    assert offload.adamw_rate(numel=2**12, repeats=1) > 0


# --- issue 39: autocast as it is, GPT-2's real count, the snapshot's picture, the out-of-memory message


def test_the_autocast_layout_is_what_autograd_saves_under_autocast():
    model, _ = measure.new_model(SMALL, "cpu")
    x, y = measure.batch_of(SMALL, 4, "cpu")
    saved = measure.saved_by_layer(model, x, y, loss_fn=tricks.autocast_loss("bf16"))
    b = estimate(SMALL, 4, precision="bf16 autocast")
    copies = b.lines["weight copies"]  # 16-bit weight copies: saved for backward, so counted by the hook
    assert sum(saved.values()) == sum(b.activations_by_layer.values()) + copies
    assert copies == 2 * SMALL.matmul_weights()
    fp32 = estimate(SMALL, 4)
    assert b.state == fp32.state and b.lines["master weights"] == 0  # fp32 weights and state, no master copy
    for precision in ("fp32", "bf16", "bf16 mixed"):  # the others have no copies, and are unchanged by them
        assert estimate(SMALL, 4, precision=precision).lines["weight copies"] == 0


def test_the_weight_copies_are_measured_apart_from_the_activations():
    # lesson 06's reader: the tracker files autocast's copies among the activations; the lesson measures them
    model, _ = measure.new_model(SMALL, "cpu")
    x, y = measure.batch_of(SMALL, 4, "cpu")
    copies = measure.saved_weight_copies(model, x, y, tricks.autocast_loss("bf16"))
    assert copies == estimate(SMALL, 4, precision="bf16 autocast").lines["weight copies"]
    assert measure.saved_weight_copies(model, x, y, measure.plain_loss) == 0   # fp32: no copies


def test_gpt2_smalls_tied_head_gives_its_real_parameter_count():
    gpt2 = Shape(vocab=50257, context=1024, width=768, depth=12, heads=12, tied_head=True)
    assert gpt2.parameters() == 124_439_808  # GPT-2 small's count
    assert replace(gpt2, tied_head=False).parameters() - gpt2.parameters() == 50257 * 768
    with pytest.raises(ValueError, match="untied head"):
        gpt2.gpt_kwargs()  # the course's GPT cannot build it


def test_the_memory_timeline_adds_up_to_the_measured_peak_and_marks_the_phases():
    from utils.lessons.memory import snapshot

    model, optimizer = measure.new_model(TINY, "cpu")
    x, y = measure.batch_of(TINY, 4, "cpu")
    step = measure.training_step(model, optimizer, x, y)
    series = snapshot.memory_timeline(step, model, optimizer, "cpu")
    totals = [sum(v for k, v in s.items() if k != "phase") for s in series]
    peak = measure.measure_peak(step, model, optimizer, "cpu").peak
    assert max(totals) == pytest.approx(peak, rel=0.01)
    phases = [s["phase"] for s in series]
    assert phases[0] == "forward" and "backward" in phases and phases[-1] == "optimizer step"
    assert phases[totals.index(max(totals))] in ("forward", "backward")  # the peak: where backward starts
    fig = snapshot.plot_timeline(series, "t", simulated=True)
    assert "simulated on CPU" in fig.texts[0].get_text()


def test_an_out_of_memory_message_reads_field_by_field():
    from utils.lessons.memory import snapshot

    real = ("CUDA out of memory. Tried to allocate 1.22 GiB. GPU 0 has a total capacity of 15.77 GiB of "
            "which 959.44 MiB is free. Process 12447 has 14.83 GiB memory in use. Of the allocated memory "
            "14.01 GiB is allocated by PyTorch, and 472.05 MiB is reserved by PyTorch but unallocated. If "
            "reserved but unallocated memory is large try setting "
            "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True")
    values = {field: value for field, value, _ in snapshot.read_oom(real)}
    assert values == {"tried to allocate": "1.22 GiB", "total capacity": "15.77 GiB", "free": "959.44 MiB",
                      "this process": "14.83 GiB", "allocated by PyTorch": "14.01 GiB",
                      "reserved but unallocated": "472.05 MiB",
                      "the allocator's advice": "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True"}
    assert "does not fit" not in snapshot.diagnosis(real) and "needs more memory" in snapshot.diagnosis(real)
    simulated = snapshot.simulated_oom(3 * 2**30, 14.75 * 2**30, 13 * 2**30, reserved_unused=4 * 2**30)
    fields = {field: value for field, value, _ in snapshot.read_oom(simulated)}
    assert fields["tried to allocate"] == "3.00 GiB" and fields["reserved but unallocated"] == "4.00 GiB"
    assert "fragmentation" in snapshot.diagnosis(simulated)
    # lesson 06's reader: the allocator's own advice is read too, and said to apply only where it does
    assert fields["the allocator's advice"] == "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True"
    assert "expandable_segments:True" in snapshot.diagnosis(real)
    assert "does not apply" in snapshot.diagnosis(real)
    assert "advice (PYTORCH" in snapshot.diagnosis(simulated) and "applies" in snapshot.diagnosis(simulated)
    assert [f for f, *_ in snapshot.read_oom(simulated)] == [f for f, *_ in snapshot.read_oom(real)]
    assert snapshot.real_oom("cpu") is None
    # lesson 06's reader: a real process holds its CUDA context on top of what PyTorch allocates
    with_context = snapshot.read_oom(snapshot.simulated_oom(3 * 2**30, 14.75 * 2**30, 13 * 2**30,
                                                            reserved_unused=2**28, context=2**29))
    assert {f: v for f, v, _ in with_context}["this process"] == "13.75 GiB"
    assert snapshot.format_size(512) == "512 bytes" and snapshot.format_size(3 * 2**20) == "3.00 MiB"
    # fifth reading: "14.75 GiB of which 784.85 MiB is free ... 13.98 GiB in use"; 14.75 - 13.98 = 0.77 GiB
    seen = {f: v for f, v, _ in snapshot.read_oom(snapshot.simulated_oom(
        2**30, 14.75 * 2**30, 13.5 * 2**30, reserved_unused=0.3 * 2**30, context=0.1834 * 2**30))}
    assert seen["this process"] == "13.98 GiB" and seen["free"] == "788.48 MiB"   # 0.77 x 1024
    full = {f: v for f, v, _ in snapshot.read_oom(snapshot.simulated_oom(2**30, 14.75 * 2**30, 15 * 2**30))}
    assert full["free"] == "0 bytes"   # more in use than the capacity: nothing free, never a negative


def test_the_gpt2_oom_walk_fails_where_the_memory_runs_out():
    from utils.lessons.memory import snapshot

    gpt2 = Shape(vocab=50257, context=1024, width=768, depth=12, heads=12, tied_head=True)
    request, allocated, what = snapshot.first_failure(gpt2, 16, 14.75 * 2**30)
    assert allocated + request > 14.75 * 2**30 >= allocated
    assert what in ("the logits", "the logits' log-softmax", "the logits' gradient")
    assert snapshot.first_failure(gpt2, 1, 80e9) is None  # fits an 80 GB GPU


def test_selective_pays_for_what_matmuls_do_not_take():
    model, _ = measure.new_model(TINY, "cpu")
    x, _ = measure.batch_of(TINY, 2, "cpu")
    share = tricks.matmul_share(measure.blocks_forward(model, x), "cpu")
    assert 0 < share < 1


def test_paired_spread_pairs_each_rounds_two_times():
    rounds = {"a": [2.0, 2.2, 2.0, 2.0, 2.4], "b": [1.0, 1.0, 1.25, 1.0, 1.0]}  # ratios 2, 2.2, 1.6, 2, 2.4
    assert measure.paired_spread(rounds, "a", "b") == pytest.approx((2.2 - 2.0) / 2)


def test_the_claims_call_the_calculators_ten_percent_a_tolerance_and_never_say_holds():
    b = estimate(TINY, 2)
    m = lambda peak: measure.Measured(peak, {}, "test")  # noqa: E731
    budgets = {"fp32": b, "fp32 + checkpointing": estimate(TINY, 2, checkpointing=True),
               "fp32 + selective checkpointing": estimate(TINY, 2, checkpointing="selective"),
               "fp32, 4 micro-batches": estimate(TINY, 2, micro_batches=4),
               "bf16 autocast": estimate(TINY, 2, precision="bf16 autocast")}
    measured = {name: (budget, m(budget.peak * 1.05)) for name, budget in budgets.items()}
    runs = {"ddp": [{"state_bytes": 2.0e6}] * 2, "fsdp": [{"state_bytes": 1.0e6}] * 2}   # two ranks each
    times = {"step": 1.0, "checkpointed step": 1.3, "selective step": 1.2, "blocks' forward": 0.33}
    full = (1.30, 0.02, [1.30])   # full's step x the plain one, read pair by pair (measure.step_ratio)
    rows = summary.lesson_claims(measured, times, {"p": (b, m(b.peak)), "c": (b, m(b.peak))}, runs,
                                 full_time=full, selective_gain=(1.08, 0.02, [1.08]))
    assert rows[0].against == "tolerance 10%" and rows[0].verdict == "within the tolerance"
    # lesson 06's reader: 1/N read "100% of the bound"; a share equal to 1/N agrees with a prediction
    share = rows[-1]
    assert share.against == "prediction 1/2 = 0.500 x DDP" and "bound" not in share.verdict
    assert share.verdict == "agrees with the prediction 1/2 (within 1%)"
    # the share from the totals as section 6's table prints them: 1.00 / 2.00 MB, not 1.0049 / 2.004 (0.501)
    printed = {"ddp": [{"state_bytes": 2.004e6}] * 2, "fsdp": [{"state_bytes": 1.0049e6}] * 2}
    as_printed = summary.lesson_claims(measured, times, {"p": (b, m(b.peak)), "c": (b, m(b.peak))}, printed,
                                       full_time=full, selective_gain=(1.08, 0.02, [1.08]))
    assert as_printed[-1].measured == "0.500 x DDP"
    assert all("holds" not in r.verdict for r in rows)
    selective = rows[2]
    assert selective.measured == "1.08x ± 0.02" and selective.verdict.startswith("faster")
    # 1.04x with a noise printed as 0.04: the ± reaches 1x
    rows = summary.lesson_claims(measured, times, {"p": (b, m(b.peak)), "c": (b, m(b.peak))}, runs,
                                 full_time=full, selective_gain=(1.04, 0.0351, [1.04]))
    assert rows[2].measured == "1.04x ± 0.04" and rows[2].verdict.startswith("within noise")


def test_the_savings_in_the_claims_come_from_the_peaks_as_printed():
    b = estimate(TINY, 2)
    m = lambda peak: measure.Measured(peak, {}, "test")  # noqa: E731
    peaks = {"fp32": 1.004e6, "fp32 + checkpointing": 0.5e6, "fp32 + selective checkpointing": 0.605032e6,
             "fp32, 4 micro-batches": 0.9e6, "bf16 autocast": 0.8e6}
    measured = {name: (b, m(peak)) for name, peak in peaks.items()}
    runs = {"ddp": [{"state_bytes": 2.0e6}] * 2, "fsdp": [{"state_bytes": 1.0e6}] * 2}
    times = {"step": 1.0, "checkpointed step": 1.3, "selective step": 1.2, "blocks' forward": 0.33}
    rows = summary.lesson_claims(measured, times, {"p": (b, m(b.peak)), "c": (b, m(b.peak))}, runs,
                                 full_time=(1.30, 0.02, [1.30]), selective_gain=(1.08, 0.02, [1.08]))
    (saves,) = [r for r in rows if r.claim == "selective saves less memory than full"]
    # 0.61 MB against 1.00 MB as printed: 39% off (the unrounded bytes give 39.7%, printed 40%)
    assert saves.measured == "39% off the peak" and saves.against == "full: 50% off"
    assert saves.verdict == "saves 39% vs 50%: less, as expected"


def test_a_share_off_one_over_n_is_a_finding():
    assert summary.share_verdict(0.503, 2).startswith("agrees with the prediction 1/2")
    assert summary.share_verdict(0.52, 2) == "off the prediction 1/2 by +4.0%: a finding to explain"
    assert summary.share_verdict(0.24, 4).startswith("off the prediction 1/4 by -4.0%")


def test_a_ratio_is_judged_as_printed():
    assert summary.as_shown(1.0449, 0.0351) == (1.04, pytest.approx(0.04))
    assert summary.as_shown(1.2, 0.0) == (1.2, 0.0)  # no rounds, no noise


def test_the_selective_forward_runs_the_blocks_under_the_policy():
    model, _ = measure.new_model(TINY, "cpu")
    x, _ = measure.batch_of(TINY, 2, "cpu")
    tricks.selective_forward(model, x)()  # runs: the policy's forward, nothing recomputed


def test_the_offload_model_is_named_once_for_its_class_and_its_count():
    # lesson 06 said "7-billion-parameter" beside a printed 6.7 B: one name, introduced with its real count
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "notebooks" / "06_memory.ipynb"
    sources = [" ".join("".join(c["source"]).split()) for c in json.loads(path.read_text())["cells"]]
    text = " ".join(sources)
    assert "7-billion" not in text and "7 B-class GPT" in text
    first = next(s for s in sources if "7 B-class" in s)
    assert "6.7 B parameters" in first  # introduced with the count the shape gives
    big = Shape(vocab=32000, context=2048, width=4096, depth=32, heads=32)
    assert round(big.parameters() / 1e9, 1) == 6.7


def test_a_checkpointed_steps_extra_time_splits_into_parts_that_add_up():
    # lesson 06's reader: selective below the sum of its parts, unexplained; the parts are now measured, and
    # they add up to the step's extra time by construction
    plain, variant = {"forward": 0.030, "step": 0.100}, {"forward": 0.025, "step": 0.120}
    text = summary.step_parts("Full checkpointing", plain, variant, {"forward": 0.0, "rest": 0.030}, 0.002)
    assert "+20.0 ms" in text and "its forward -5.0 ms" in text and "+25.0 ms" in text
    assert "its forward 5.0 ms under the prediction" in text and "saves fewer activations" in text
    assert "(a hypothesis, not timed apart here: it runs" in text   # a cause the run does not time
    assert "backward and AdamW 5.0 ms under" in text and "cost less than" not in text
    # fifth reading: the key prediction missed with no reason given; one candidate, flagged as a hypothesis
    assert "took less than the plain backward plus the same forward timed alone; a hypothesis" in text
    assert set(summary.parts_off(plain, variant, {"forward": 0.0, "rest": 0.030}, 0.002)) == {
        "forward", "backward and AdamW"}
    near = summary.step_parts("Selective", plain, {"forward": 0.030, "step": 0.131},
                              {"forward": 0.0, "rest": 0.030}, 0.002)
    # lesson 06's reader: "the parts say where" beside parts all within noise
    assert "each part within 2.0 ms of its prediction" in near and "cannot say where" in near
    assert summary.parts_off(plain, {"forward": 0.030, "step": 0.131}, {"forward": 0.0, "rest": 0.030},
                             0.002) == {}
    # lesson 06's reader: "cannot say where it differs" right after "the step is within noise of it"
    agree = summary.step_parts("Selective", plain, {"forward": 0.030, "step": 0.131},
                               {"forward": 0.0, "rest": 0.030}, 0.002, step_off=False, forward_basis=" (same)")
    assert "cannot say where" not in agree and "agree with the prediction" in agree and "there (same)" in agree


def test_the_rounds_noise_in_ms_is_worked_from_the_printed_spread():
    # fifth reading: "1.22x ± 0.02" on a 78.0 ms step printed a noise of 1.8 ms (0.023 unrounded); a reader
    # finds 0.02 x 78.0 = 1.6 ms
    assert f"{summary.noise_seconds(0.023, 0.078, floor=0.02) * 1e3:.1f}" == "1.6"
    assert f"{summary.noise_seconds(0.046, 0.078, floor=0.02) * 1e3:.1f}" == "3.9"   # 0.05 x 78.0, above the floor
    assert summary.noise_seconds(0.004, 0.078, floor=0.02) == pytest.approx(0.02 * 0.078)   # the floor
    assert summary.noise_seconds(0.004, 0.078) == 0.0   # prints 0.00: no noise shown, no floor asked


def test_the_noise_beside_the_step_parts_names_the_floor_where_the_floor_set_it():
    # lesson 06's seventh reader: "more than the rounds' noise (1.6 ms)" beside "1.21x ± 0.01" on an 81.0 ms
    # step (0.8 ms): 1.6 ms was the 2 % floor, so the line names the floor
    plain, variant = {"forward": 0.0261, "step": 0.0810}, {"forward": 0.0259, "step": 0.0984}
    floor = summary.noise_name(0.01, floor=0.02)
    tolerance = summary.noise_seconds(0.01, 0.0810, floor=0.02)
    text = summary.step_parts("Full checkpointing", plain, variant, {"forward": 0.0, "rest": 0.0248}, tolerance,
                              noise=floor)
    assert ("Off the prediction by more than 1.6 ms (the noise floor, 2% of the plain step, used as it exceeds "
            "the rounds' own ± 0.010); its backward and AdamW 7.2 ms under") in text
    assert "the rounds' noise (1.6 ms)" not in text
    # the other branch: the rounds' ± above the floor sets it, and is named
    rounds = summary.noise_name(0.06, floor=0.02)
    assert rounds == "the rounds' noise, their ± 0.06 of the plain step"
    wide = summary.step_parts("Full checkpointing", plain, variant, {"forward": 0.0, "rest": 0.0248},
                              summary.noise_seconds(0.06, 0.0810, floor=0.02), noise=rounds)
    assert "more than 4.9 ms (the rounds' noise, their ± 0.06 of the plain step); its backward" in wide
    within = summary.step_parts("Full checkpointing", plain, variant, {"forward": 0.0, "rest": 0.0176}, 0.0016,
                                noise=floor)
    assert "each part within 1.6 ms of its prediction (the noise floor, 2% of the plain step" in within


def test_accumulations_step_time_reads_every_outcome():
    # lesson 06's reader: the summary said accumulation "can take longer", the run measured it faster
    assert summary.accumulation_verdict(1.01, 0.02).startswith("within noise")
    assert summary.accumulation_verdict(0.95, 0.02) == "faster beyond noise"
    assert summary.accumulation_verdict(1.10, 0.02) == "slower beyond noise"


def test_every_step_ratio_in_the_peaks_table_carries_its_spread():
    b = m = type("Peak", (), {"peak": 1e6})()   # a budget and a measurement of the same peak
    table = summary.peaks_table({"fp32": (b, m), "bf16": (b, m)}, {"fp32": 0.1, "bf16": 0.12}, relative_to="fp32",
                                spreads={"bf16": 0.03})
    text = table.to_text()
    assert "1.20x ± 0.03" in text and "1 (reference)" in text and "1.00x" not in text


def test_selectives_share_of_the_gain_carries_its_range_and_the_summary_prints_the_run():
    # lesson 06's reader: "80% of its gain" at 1.12x ± 0.04 against 1.15x spans 53% to 100%
    assert summary.gain_range("faster, under the bound: 80% of its gain", 1.12, 0.04, 1.15).endswith(
        "(53%-100% across its ±)")
    assert summary.gain_range("within noise: no effect shown", 1.02, 0.04, 1.15) == "within noise: no effect shown"
    times = {"step": 0.0734, "checkpointed step": 0.0842, "blocks' forward": 0.0207}
    text = summary.checkpointing_summary(times, (1.15, 0.05, [1.15]))
    assert "1.15x ± 0.05 the plain step's time (above 1: slower)" in text and "1.28x" in text
    assert "less than the predicted forward" in text


def test_step_times_print_at_0_1_ms_and_their_ratios_divide_the_printed_ms():
    # the sixth reader: the table printed 136 and 138 ms beside "1.02x", which 138 / 136 does not give (1.01x);
    # the tables now print 0.1 ms, the precision the sentences work in, and every ratio divides those figures
    b = m = type("Peak", (), {"peak": 1e6})()
    text = summary.peaks_table({"plain": (b, m), "chunked": (b, m)}, {"plain": 0.13624, "chunked": 0.13846}).to_text()
    assert "136.2" in text and "138.5" in text and " 136 " not in text
    # 10.5 / 10.0 ms as printed: 1.05x (the unrounded 0.01046 / 0.01004 s give 1.04x), in the table and in
    # step_ratio, which the sentence and the claims row print
    rounds = {"fp32": [0.01004, 0.0102, 0.0103], "auto": [0.01046, 0.0107, 0.0108]}
    ratio, _, _ = measure.step_ratio(rounds, "auto", "fp32")
    assert f"{ratio:.2f}" == "1.05"
    table = summary.peaks_table({"fp32": (b, m), "auto": (b, m)}, {k: min(v) for k, v in rounds.items()},
                                relative_to="fp32", spreads={"auto": 0.02}).to_text()
    assert "1.05x ± 0.02" in table


def test_a_step_time_ratio_uses_one_spread_and_the_claims_noise_rule():
    # lesson 06's readers: autocast's table said ± 0.00 where its sentence said ± 0.02 (one spread, the floored
    # one), and bf16's 1.02x ± 0.02 was called "beyond noise" (its ± reaches 1.00x: within noise)
    rounds = {"fp32": [1.0, 1.0, 1.0], "auto": [1.13, 1.13, 1.13]}
    ratio, noise, each = measure.step_ratio(rounds, "auto", "fp32")
    assert ratio == pytest.approx(1.13) and noise == pytest.approx(0.02 * 1) and len(each) == 3
    assert summary.time_verdict(1.02, 0.02, "fp32") == "within noise: no effect shown"
    assert summary.time_verdict(1.13, 0.02, "fp32") == "slower than fp32 beyond noise"
    assert summary.time_verdict(0.96, 0.02, "fp32") == "faster than fp32 beyond noise"
    one_side = summary.time_verdict(1.02, 0.02, "fp32", [1.01, 1.03, 1.02])
    assert one_side.startswith("slower than fp32 (its ± reaches 1.00x, but all 3 rounds lie above it")
    assert "beyond noise" not in one_side
    assert summary.time_verdict(1.02, 0.02, "fp32", [0.99, 1.03, 1.02]).startswith("within noise")


def test_the_chunked_losss_step_time_is_named_for_every_outcome():
    # lesson 06's reader: the chunked loss's measured step time (0.96x) was not in the summary
    assert "not the small cost the theory expects" in summary.chunked_cost(0.96, 0.02)
    assert "the expected cost" in summary.chunked_cost(1.08, 0.02)
    assert summary.chunked_cost(1.01, 0.02).startswith("within noise")
    b = estimate(TINY, 2)
    m = lambda peak: measure.Measured(peak, {}, "test")  # noqa: E731
    budgets = {"fp32": b, "fp32 + checkpointing": estimate(TINY, 2, checkpointing=True),
               "fp32 + selective checkpointing": estimate(TINY, 2, checkpointing="selective"),
               "fp32, 4 micro-batches": estimate(TINY, 2, micro_batches=4),
               "bf16 autocast": estimate(TINY, 2, precision="bf16 autocast")}
    measured = {name: (budget, m(budget.peak)) for name, budget in budgets.items()}
    runs = {"ddp": [{"state_bytes": 2.0e6}] * 2, "fsdp": [{"state_bytes": 1.0e6}] * 2}
    times = {"step": 1.0, "checkpointed step": 1.3, "selective step": 1.2, "blocks' forward": 0.33}
    rows = summary.lesson_claims(measured, times, {"p": (b, m(b.peak)), "c": (b, m(b.peak))}, runs,
                                 full_time=(1.30, 0.02, [1.30]), selective_gain=(1.08, 0.02, [1.08]),
                                 chunked_time=(0.96, 0.02, [0.95, 0.96, 0.97]))
    row = [r for r in rows if "chunked cross-entropy: its step time" in r.claim][0]
    assert row.measured == "0.96x ± 0.02" and row.verdict.startswith("faster than the plain loss")


def test_part_over_whole_notes_only_a_part_longer_than_its_whole():
    assert summary.part_over_whole("blocks' forward", 0.0247, "forward", 0.0270) == ""
    note = summary.part_over_whole("selective blocks' forward", 0.0310, "selective forward", 0.0303)
    assert "took longer than the selective forward" in note and "0.7 ms gap comes from timing them apart" in note


def test_threads_reading_decides_from_the_paired_rounds():
    above = summary.threads_reading([2.3, 2.4, 2.5], 2, 1.0)
    assert "above the bound: a finding to explain" in above and "every round passed it" in above
    under = summary.threads_reading([1.5, 1.6, 1.7], 2, 1.0)
    assert "faster, under the bound" in under and "more threads divide the step" in under
    none = summary.threads_reading([0.9, 1.0, 1.2], 2, 3.5)
    assert "within noise: no effect shown" in none and "load average was 3.5 on 2 cores" in none
    slower = summary.threads_reading([0.7, 0.8, 0.85], 2, 3.5)
    assert "slower than one thread beyond noise: no speed-up" in slower and "load average was 3.5 on 2 cores" in slower


def test_threads_reading_names_a_round_past_the_bound_and_judges_the_others():
    # the eleventh reader: "1.46x ± 1.13 (1.44-3.70x) ... at the bound (within noise)", the ± and the verdict
    # lifted by one round past the 2x that 2 threads allow: that round is a finding, the verdict reads the others
    said = summary.threads_reading([1.44, 3.70, 1.46], 2, 1.0)
    assert "2 threads ran at 1.46x one thread's rate (the median of each round's own ratio, 1.44-3.70x)" in said
    assert "± 1.13" not in said and "within noise" not in said
    assert "round 2's 3.70x passes the 2x that equal work on 2 threads allows, a finding to explain" in said
    assert "the verdict reads the other rounds (1.44x, 1.46x: 1.45x ± 0.01): faster, under the bound: 45% of its " \
           "gain (44%-46% across its ±); more threads divide the step" in said
    # the other outcomes of the rounds left: one round at the bound; two no faster (the load is said)
    at = summary.threads_reading([2.0, 2.3, 2.5], 2, 1.0)
    assert "2 of 3 rounds (round 2's 2.30x and round 3's 2.50x) pass the 2x" in at
    assert "the rounds disagree, no verdict from this run (load 1.0)" in at and "within noise" not in at
    slow = summary.threads_reading([0.9, 0.95, 2.3], 2, 3.5)
    assert "round 3's 2.30x passes the 2x" in slow and "(0.90x, 0.95x: 0.93x ± 0.03): slower than one thread beyond noise" in slow
    assert "load average was 3.5 on 2 cores" in slow
    # a round printed 2.00x does not pass 2x: no round past, the course's verdict on all three
    near = summary.threads_reading([1.9, 1.96, 2.0], 2, 1.0)
    assert "1.96x ± 0.05" in near and "at the bound (within noise)" in near and "passes" not in near


def test_threads_reading_spread_is_the_courses_spread_of_the_printed_rounds():
    # the sixth reader: "1.53x ± 0.36 (... 1.50-1.90x)" where 1.90 - 1.53 = 0.37; the ± is now the course's one
    # spread of rounds (claims.printed_spread): with 3 rounds half their printed range, (1.90 - 1.50) / 2 = 0.20
    said = summary.threads_reading([1.5049, 1.5312, 1.8951], 2, 1.0)
    assert "2 threads ran at 1.53x ± 0.20 one thread's rate" in said and "1.50-1.90x; ± half their range" in said
    assert "faster, under the bound: 53% of its gain" in said
    # a tie as printed rounds half up, as a reader does: (1.61 - 1.50) / 2 = 0.055 reads 0.06
    assert "± 0.06" in summary.threads_reading([1.50, 1.55, 1.61], 2, 1.0)


def test_precision_lines_reads_the_calculators_bars():
    fp32 = estimate(TINY, 2)
    said = summary.precision_lines(fp32, {"bf16": estimate(TINY, 2, precision="bf16"),
                                          "bf16 autocast": estimate(TINY, 2, precision="bf16 autocast"),
                                          "fp32 again": fp32})
    assert said.startswith("In the calculator's lines at the peak")
    assert "bf16 shrinks parameters" in said and "adds weight copies" in said and "keeps parameters" in said
    assert "fp32 again shrinks no line; keeps" in said


def _runs(fsdp_range, ddp_range=(0.05, 0.06)):
    """Two strategies' rank-0 records, as train_sharded returns them (figures made up for the sentence)."""
    def run(calls, step, sent, rng, inside):
        return [{"calls_per_step": calls, "mean_step_seconds": step, "sent_per_step": sent, "step_range": rng,
                 "collective_seconds_per_step": inside}]
    return {"ddp": run({"all-reduce": 2}, 0.057, {"all-reduce": 100.0}, ddp_range, {"all-reduce": 0.013}),
            "fsdp": run({"all-gather": 9, "reduce-scatter": 5}, 0.100, {"all-gather": 100.0, "reduce-scatter": 100.0},
                        fsdp_range, {"all-gather": 0.02, "reduce-scatter": 0.014})}


def test_collectives_sentence_gives_the_step_ratios_noise_verdict_and_waiting_caveat():
    slower = summary.collectives_sentence(_runs((0.08, 0.12)))
    assert "slower in every pairing of steps, beyond their noise" in slower
    assert "cannot tell the per-call start-up cost (alpha, lesson 00) from waiting" in slower
    overlap = summary.collectives_sentence(_runs((0.05, 0.12)))
    assert "spans 1x, so no difference is shown" in overlap
    faster = summary.collectives_sentence(_runs((0.02, 0.04)))
    assert "faster in every pairing of steps" in faster


def test_threads_reading_names_the_fastest_rounds_ratio_apart_from_the_paired_verdict():
    # lesson 06's reader: "465 M parameters/s on one thread, 649 M on 2" (1.40x) beside "1.19x", the bound unsaid
    said = summary.threads_reading([1.09, 1.19, 1.73], 2, 1.0,
                                   fastest=([465e6, 300e6, 310e6], [500e6, 649e6, 530e6]))
    assert said.startswith("those fastest rounds give 1.40x; the two come from different rounds (1 thread's from "
                           "round 1, 2 threads' from round 2), each at its own moment of the machine's load")
    assert "2 threads ran at 1.19x ± 0.32 one thread's rate" in said and "against the bound 2.00x" in said
    assert "faster, under the bound: 19% of its gain" in said
    past = summary.threads_reading([1.5, 1.6, 1.7], 2, 1.0, fastest=([200e6, 300e6], [650e6, 400e6]))   # 2.17x
    assert "2.17x, above the 2x bound, but the two come from different rounds" in past
    assert "2 threads ran at 1.60x" in past and "finding" not in past   # the verdict reads the pairs
    assert not summary.threads_reading([1.5, 1.6, 1.7], 2, 1.0).startswith("those fastest")
    # lesson 06's seventh reader: "they come from different rounds" was said unchecked, where 435 and 119 M/s
    # (0.27x, the largest round's own ratio) most likely came from one round: now checked, both branches
    same = summary.threads_reading([0.15, 0.16, 0.27], 2, 3.0,
                                   fastest=([400e6, 410e6, 435e6], [62e6, 66e6, 119e6]))
    assert same.startswith("those fastest rounds give 0.27x, both from round 3, so that is that round's own ratio;")
    assert "different rounds" not in same and "0.15-0.27x" in same


@pytest.mark.parametrize("verdict, said", [
    ("faster than fp32 beyond noise", "what the 16-bit path saved outweighed the casts"),
    ("faster than fp32 (every round below 1.00x, though its ± reaches it)", "outweighed the casts"),
    ("slower than fp32 beyond noise", "the 16-bit path did not pay: the step was slower"),
    ("within noise: no effect shown", "neither outweighed the other beyond noise"),
])
def test_the_autocast_reading_follows_the_timed_step_and_names_the_units_used(verdict, said):
    # lesson 06's reader: "bf16 units: yes" (AVX512-BF16) and 0.92x, beside "16-bit units (...; a CPU's AMX)"
    from utils import devices
    from utils.lessons.memory.report import autocast_time_reading, sixteen_bit_units

    avx512_bf16 = devices.cpu_features({"avx512f", "avx512_bf16"}, "AVX512", "")
    units = sixteen_bit_units(avx512_bf16, on_cpu=True)
    assert units == "this CPU's bf16 instructions (AVX512-BF16)"
    reading = autocast_time_reading(verdict, 128, units)
    assert said in reading and "with this CPU's bf16 instructions (AVX512-BF16)" in reading
    assert reading.startswith("Autocast saves time") and "width (128)" in reading and "AMX" not in reading
    none = sixteen_bit_units(devices.cpu_features({"avx2"}, "AVX2", ""), on_cpu=True)
    assert none == "" and "no 16-bit units" in autocast_time_reading(verdict, 128, none)
    assert "tensor cores" in sixteen_bit_units(avx512_bf16, on_cpu=False)


def test_the_weights_gap_is_printed_in_lr_at_a_precision_that_shows_it():
    # lesson 06's reader: a 4.5e-06 gap with lr 1e-3 printed "(0.00 lr)" beside "the weights magnify rounding"
    import json
    from pathlib import Path

    notebook = json.loads((Path(__file__).parents[1] / "notebooks" / "06_memory.ipynb").read_text())
    code = "".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code")
    assert "{gap / lr:.1e} lr" in code and "{gap / lr:.2f} lr" not in code
    assert f"{4.5e-06 / 1e-3:.1e} lr" == "4.5e-03 lr"


def test_collectives_sentence_works_its_gap_ratio_and_share_from_the_figures_as_printed():
    # the reader's run: steps 54.6 and 101.1 ms, inside 10.46 ms for DDP and 18.14 + 11.64 for FSDP2; the
    # sentence said "DDP 10 ms, FSDP2 30 ms (2.84x) ... (19 ms) ... gap (47 ms)" beside a table of 10.5, 18.1, 11.6
    runs = _runs((0.08, 0.12))
    runs["ddp"][0].update(mean_step_seconds=0.05464, collective_seconds_per_step={"all-reduce": 0.01046})
    runs["fsdp"][0].update(mean_step_seconds=0.10114,
                           collective_seconds_per_step={"all-gather": 0.01814, "reduce-scatter": 0.01164})
    said = summary.collectives_sentence(runs)
    assert "DDP 54.6 ms, FSDP2 101.1 ms (1.85x" in said  # 101.1 / 54.6
    assert "DDP 10.5 ms, FSDP2 29.7 ms (2.83x" in said  # the table's rows: 18.1 + 11.6; 29.7 / 10.5
    assert "(19.2 ms) is 41% of the gap in step time (46.5 ms)" in said
    # the other outcome: FSDP2's step no slower, its figures printed the same way
    runs["fsdp"][0].update(mean_step_seconds=0.05461)
    said = summary.collectives_sentence(runs)
    assert "DDP 10.5 ms, FSDP2 29.7 ms. FSDP2's step was not slower" in said
    assert "gap in step time" not in said


def test_printed_gaps_parts_and_headroom_follow_from_the_figures_printed_beside_them():
    # lesson 06's reader (s3): each figure below was off a reader's own arithmetic in its last digit
    note = summary.part_over_whole("blocks' forward", 0.02644, "forward", 0.02536)
    assert "(26.4 ms)" in note and "(25.4 ms)" in note and "the 1.0 ms gap" in note   # not 1.1 (unrounded)
    assert summary.part_over_whole("blocks' forward", 0.02541, "forward", 0.02536) == ""   # both print 25.4
    # the step-times table prints 25.4 / 77.3 (plain) and 24.8 / 97.2 (checkpointed): -0.6 and +20.5 ms
    plain, ckpt = {"forward": 0.025365, "step": 0.077326}, {"forward": 0.024836, "step": 0.097246}
    text = summary.step_parts("Full", plain, ckpt, {"forward": 0.0, "rest": 0.02644}, 0.002)
    assert "+19.9 ms" in text and "its forward -0.6 ms" in text and "AdamW +20.5 ms" in text
    assert "5.9 ms under the prediction" in text   # 26.4 - 20.5
    # 0.84 + 0.42 + 11.10 = 12.36 s: the step is the sum of its parts as printed
    cost = offload.OffloadCost(host_to_device=0.8449 * 32e9, device_to_host=0.4224 * 32e9,
                               link_bytes_per_s=32e9, adamw_seconds=11.104)
    assert offload.printed_parts(cost) == pytest.approx((0.84, 0.42, 11.10, 12.36))
    # lesson 06's fourth reader: 3.36 B parameters at 321.5 M/s (half of 643 M) is 10.45 s, not 10.44
    shard = offload.offload_cost(6.7109e9, n=2, adamw_params_per_s=321.5e6, link_bytes_per_s=32e9)
    assert offload.printed_parts(shard)[2] == pytest.approx(10.45) and f"{shard.adamw_seconds:.2f}" == "10.44"
    # 15.84 GB - 21.15 GB: short by 5.31 GB, with the capacity printed to the peaks' two decimals
    budget = SimpleNamespace(peak=21.1549e9, peak_moment="backward", fits=lambda c: (False, c - 21.1549e9))
    line = widget.verdict(budget, calculator.T4_BYTES, "a T4 15.8 GB")
    assert line.endswith("does NOT fit a T4 15.8 GB (15.84 GB), short by 5.31 GB")
    small = SimpleNamespace(peak=12.7149e9, peak_moment="backward", fits=lambda c: (True, c - 12.7149e9))
    assert "fits a T4 15.8 GB (15.84 GB), 3.13 GB (20%) to spare" in widget.verdict(small, calculator.T4_BYTES,
                                                                                     "a T4 15.8 GB")
    assert "fits an L4 24 GB, 11.29 GB" in widget.verdict(small, 24e9, "an L4 24 GB")   # 24 GB: nothing to add


def test_a_16_bit_steps_losses_are_checked_against_fp32s_end_to_end():
    """Lesson 06's reader (session 51): the bf16 and autocast rows showed memory and time, not whether the
    steps train alike. measure_peak keeps the two losses its runs return; loss_check reads them against
    fp32's, as printed, with a stated tolerance and its reason, both outcomes said."""
    x, y = measure.batch_of(TINY, 4, "cpu")
    runs = {}
    for name, dtype, loss_fn in (("fp32", torch.float32, measure.plain_loss),
                                 ("bf16", torch.bfloat16, measure.plain_loss),
                                 ("autocast", torch.float32, tricks.autocast_loss("bf16"))):
        model, optimizer = measure.new_model(TINY, "cpu", dtype=dtype)
        runs[name] = measure.measure_peak(measure.training_step(model, optimizer, x, y, loss_fn=loss_fn),
                                          model, optimizer, "cpu").losses
    assert len(runs["fp32"]) == 2 and runs["fp32"][1] < runs["fp32"][0]   # one AdamW step lowered it
    for name in ("bf16", "autocast"):
        said = report.loss_check(name, runs[name], runs["fp32"])
        assert f"within the {report.LOSS_TOLERANCE:.0%} allowed" in said and "saving counts" in said, said
    # as printed: 4.562 and 4.344 against 4.593 and 4.331 is 0.7 % off at most
    said = report.loss_check("bf16", (4.5625, 4.34375), (4.593011856, 4.330698013))
    assert "4.562, then 4.344" in said and "4.593 and 4.331" in said and "0.7% off at most" in said, said
    assert "8 significant bits" in said and all(len(line) <= 110 for line in summary.fill(said).splitlines())
    far = report.loss_check("bf16", (4.70, 4.50), (4.593, 4.331))
    assert "beyond the 2% allowed" in far and "does not count as it stands" in far and "counts (" not in far, far
    assert report.loss_check("bf16", (), (4.593, 4.331)) == ""   # a step that returned no loss: nothing said


def test_the_claims_give_fsdp2s_step_time_beside_its_bytes_on_every_outcome():
    # lesson 06's fourth reader: section 7 asks what FSDP2 costs; the claims table now answers with its step
    def run(mean, spread, sent):
        return [{"mean_step_seconds": mean, "step_range": (mean - spread, mean + spread),
                 "sent_per_step": sent}]
    slower = {"ddp": run(0.02004, 0.001, {"all-reduce": 4e6}),
              "fsdp": run(0.03004, 0.001, {"all-gather": 4e6, "reduce-scatter": 4e6})}
    row = summary.fsdp_step_claim(slower)
    assert row.measured == "1.50x (30.0 / 20.0 ms)" and row.verdict == "slower in every pairing of steps"
    assert row.against.startswith("reference 1x (DDP); the ring's bytes: ")
    close = {"ddp": run(0.020, 0.004, {"all-reduce": 4e6}), "fsdp": run(0.021, 0.004, {"all-reduce": 4e6})}
    assert summary.fsdp_step_claim(close).verdict == "within the steps' noise: their range spans 1x"
    faster = {"ddp": run(0.030, 0.001, {"all-reduce": 4e6}), "fsdp": run(0.020, 0.001, {"all-reduce": 4e6})}
    assert summary.fsdp_step_claim(faster).verdict == "faster in every pairing of steps"
    assert summary.fsdp_step_claim({"ddp": [{}], "fsdp": [{}]}) is None   # not timed: no row


def test_collectives_sentence_works_its_bytes_ratios_from_the_mb_as_printed():
    runs = _runs((0.08, 0.12))
    runs["ddp"][0]["sent_per_step"] = {"all-reduce": 3.004e6}   # 3.00 MB (a ring sends it all: 2 ranks)
    runs["fsdp"][0]["sent_per_step"] = {"all-gather": 4.515002e6, "reduce-scatter": 2.0e6}
    wire = sum(summary.wire_bytes(c, v) for c, v in runs["fsdp"][0]["sent_per_step"].items())
    text = summary.collectives_sentence(runs)
    # the ring's bytes as cell 38 prints them; the table's rows (4.52 + 2.00 over 3.00) as a reader adds them
    assert f"it moves {round(wire / 1e6, 2) / 3.00:.2f}x the bytes" in text
    assert "add up to 2.17x" in text


def test_selectives_share_of_full_checkpointings_extra_time_moves_both_steps_plus_minus():
    # ninth reading: the range moved selective's ± alone; both steps' ± move it now. Fourteenth reading: in
    # ms as the parts print them (the ratios 1.13x and 1.21x rounded the extra times a second time)
    plain, full, selective = 80.3, 97.5, 90.4   # ms, as the table printed them
    part, whole = selective - plain, full - plain   # +10.1 and +17.2 ms
    low, high = summary.share_range(part, whole, 0.03 * plain, 0.01 * plain)   # ± 2.4 and 0.8 ms as printed
    assert f"{low:.3f}-{high:.3f}" == "0.428-0.762"   # 7.7 / 18.0 and 12.5 / 16.4
    line = summary.share_with_range(part, whole, 0.03 * plain, 0.01 * plain,
                                    "of full checkpointing's extra time")
    assert line == ("59% of full checkpointing's extra time (10.1 / 17.2 ms; 43%-76% within both steps' "
                    "± 2.4 and 0.8 ms)")
    assert summary.share_range(10.0, 20.0, 30.0, 0.0)[0] == 0.0   # never under nothing
    # the other outcome: full's own extra time within its ± of zero, so no share can be read
    assert summary.share_range(4.0, 0.8, 2.4, 1.6) == (0.0, float("inf"))
    unread = summary.share_with_range(4.0, 0.8, 2.4, 1.6, "of full checkpointing's extra time")
    assert unread.startswith("an unread share of full") and "+0.8 ms, is within its ± 1.6 ms of zero" in unread


def test_selectives_share_and_its_range_are_worked_from_the_steps_as_printed():
    # a share that ties at half a percent as printed rounds up, as a reader rounds: 13 / 20 = 65%,
    # 10 / 23 = 43.48%, 16 / 17 = 94.12%; and 33 / 40 = 82.5% -> 83%
    within = "within both steps' ±"
    assert (summary.share_with_range(33.0, 40.0, 0.0, 0.0, "of it")
            == f"83% of it (33.0 / 40.0 ms; 83%-83% {within} 0.0 and 0.0 ms)")
    assert (summary.share_with_range(13.0, 20.0, 3.0, 3.0, "of it")
            == f"65% of it (13.0 / 20.0 ms; 43%-94% {within} 3.0 and 3.0 ms)")


def test_checkpointings_printed_plus_minus_keeps_the_lessons_2_percent_floor():
    # ninth reading: checkpointing printed "1.21x ± 0.01" (its rounds' spread alone) in its line and the claims,
    # where bf16, autocast and accumulation print "± the rounds' spread, at least 2 %"
    import json
    from pathlib import Path

    notebook = json.loads((Path(__file__).parents[1] / "notebooks" / "06_memory.ipynb").read_text())
    code = "\n".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code")
    # twenty-sixth reading: the ratios are read pair by pair (step_ratio, whose ± has the 2 % floor), never the
    # fastest of each divided
    assert "FULL_TIME, SEL_TIME, SEL_OVER_FULL = (step_ratio(CKPT_ROUNDS, *pair) for pair in STEP_PAIRS)" in code
    assert "(full_x, full_noise, full_each), (sel_x, sel_noise, sel_each) = FULL_TIME, SEL_TIME" in code
    # the claims and the summary read the same floored ±, never the raw spread again
    assert "full_time=FULL_TIME, selective_gain=SEL_OVER_FULL" in code
    assert "checkpointing_summary(CKPT_TIMES, FULL_TIME, S.label, CKPT_ROUNDS)" in code
    assert "ckpt_step / plain_step" not in code and "ckpt_step / sel_step" not in code
    # the details still say which set it: a raw ± 0.01 under the floor is named as the floor
    assert summary.noise_name(0.01, floor=0.02).startswith("the noise floor, 2% of the plain step")
    assert summary.noise_name(0.03, floor=0.02) == "the rounds' noise, their ± 0.03 of the plain step"
    ckpt = {"step": 0.0803, "checkpointed step": 0.0975, "blocks' forward": 0.0244}
    assert "1.21x ± 0.02 the plain step's time" in summary.checkpointing_summary(ckpt, (1.21, max(0.01, 0.02), []))


def test_the_policys_cost_is_a_reason_only_where_selectives_forward_was_slower_beyond_its_noise():
    # tenth reading: "its whole forward alone took 0.97x the plain one (the policy deciding ...)" was set among
    # the reasons selective cost so much; 0.97x (28.6 / 29.4 ms) is no cost
    text = summary.policy_clause(28.6 / 29.4, 0.02)
    assert text.startswith("its whole forward alone took 0.97x ± 0.02 the plain one: no cost of the policy")
    assert "extra time lies in its backward and AdamW" in text and "deciding" not in text
    assert "no cost" in summary.policy_clause(1.02, 0.02)   # 1.02 - 0.02 reaches 1: within noise, no cost shown
    text = summary.policy_clause(1.06, 0.02)   # the other outcome: slower beyond its ±
    assert text == ("its whole forward alone took 1.06x ± 0.02 the plain one (the policy deciding, operation by "
                    "operation, what to keep): slower beyond its ±")
