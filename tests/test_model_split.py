"""Unit tests of utils.pipeline (lesson 02, model split and pipelining) and of lab 02's checks.

Correctness only, on the CPU: split and pipelined forward and backward equal the unsplit model (tolerances
stated next to each test), balancing on synthetic costs, activation bytes, and one deliberately wrong answer
per lab check. Speed claims are the ``pipeline`` and ``naive_split`` benchmarks, never a timed test.
"""

import itertools
import random

import pytest
import torch
import torch.distributed as dist
from torch import nn

from utils import bench, checks, launch, models
from utils import pipeline as pp

# Float32 sums taken in another order (micro-batches, another process) differ by ~1e-7 on these sizes.
ATOL = 1e-5


def tiny_gpt_task():
    """A GPT small enough to run a pipeline step in well under a second on one thread."""
    return pp.gpt_task(width=32, depth=2, heads=2)


# --- splitting ---------------------------------------------------------------------------------------


def test_stage_ranges_cover_every_layer_once():
    assert pp.stage_ranges(6, [3]) == [(0, 3), (3, 6)]
    assert pp.stage_ranges(5, [1, 4]) == [(0, 1), (1, 4), (4, 5)]
    for bad in ([0], [6], [3, 3], [4, 2]):
        with pytest.raises(ValueError, match="rise strictly"):
            pp.stage_ranges(6, bad)


def test_split_sequential_shares_the_layers_and_equals_the_model():
    model = models.small_gpt(pp.VOCAB, width=32, depth=2, heads=2).as_sequential()
    stages = pp.split_sequential(model, [2])
    assert [len(s) for s in stages] == [2, 2]
    assert stages[0][1] is model[1]  # the same module, not a copy
    x, _ = pp._token_batch(3, 0)
    assert torch.equal(stages[1](stages[0](x)), model(x))  # same operations in the same order: bitwise


def test_split_model_moves_the_activation_and_counts_its_bytes():
    model = models.small_gpt(pp.VOCAB, width=32, depth=2, heads=2).as_sequential()
    x, _ = pp._token_batch(3, 0)
    expected = model(x)
    split = pp.SplitModel(pp.split_sequential(model, [2]), ["cpu", "cpu"])
    assert torch.equal(split(x), expected)
    assert split.bytes_moved == 3 * pp.SEQ_LEN * 32 * 4  # one (B, T, C) float32 activation crossed


# --- theory ------------------------------------------------------------------------------------------


def test_bound_and_bubble():
    assert pp.pipeline_bound(1) == 1.0
    assert pp.pipeline_bound(4) == pytest.approx(1.6)
    assert pp.pipeline_bound(8) == pytest.approx(16 / 9)
    assert pp.pipeline_bound(4, p=4) == pytest.approx(16 / 7)
    assert pp.bubble_fraction(1) == 0.5 and pp.bubble_fraction(4) == pytest.approx(0.2)
    for m, p in itertools.product([1, 2, 4, 8], [2, 3, 4]):  # busy fraction x p = speedup bound
        assert (1 - pp.bubble_fraction(m, p)) * p == pytest.approx(pp.pipeline_bound(m, p))


# --- balancing on synthetic costs --------------------------------------------------------------------


def brute_force_best(costs, n_stages):
    best = None
    for points in itertools.combinations(range(1, len(costs)), n_stages - 1):
        slowest = max(pp.stage_costs(costs, points))
        if best is None or slowest < best - 1e-12:
            best = slowest
    return best


def test_balanced_split_on_known_costs():
    assert pp.balanced_split([1, 1, 1, 1]) == [2]
    assert pp.balanced_split([4, 1, 1, 1, 1]) == [1]
    assert pp.balanced_split([1, 1, 1, 1, 4]) == [4]
    assert pp.balanced_split([1, 2, 3, 4, 5, 6], 3) == [3, 5]  # 1+2+3 | 4+5 | 6: slowest 9
    assert pp.imbalance([1, 1, 1, 1], [2]) == 1.0
    assert pp.imbalance([3, 1], [1]) == 1.5
    with pytest.raises(ValueError):
        pp.balanced_split([1, 1], 3)


def test_balanced_split_matches_brute_force_on_random_costs():
    rng = random.Random(0)
    for _ in range(200):
        costs = [rng.uniform(0.1, 5) for _ in range(rng.randint(2, 9))]
        for n_stages in range(2, min(4, len(costs)) + 1):
            points = pp.balanced_split(costs, n_stages)
            assert len(points) == n_stages - 1
            assert max(pp.stage_costs(costs, points)) == pytest.approx(brute_force_best(costs, n_stages))


def test_profile_layers_gives_one_positive_cost_per_layer():
    task = pp.lab_task()
    model = task.build()
    x, y = task.make_batch(64, 0)
    costs = pp.profile_layers(model, x, task.loss_fn, y, repeats=2, threads=1)
    assert len(costs) == len(model) and all(c > 0 for c in costs)
    assert all(p.grad is None for p in model.parameters())  # profiling leaves no gradients behind


# --- activation memory -------------------------------------------------------------------------------


def test_saved_activations_counts_each_storage_once_and_sees_it_freed():
    model = nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(20, 5))
    x = torch.randn(8, 10)
    with pp.SavedActivations(exclude=model) as saved:
        out = model(x)
        # saved: x (8x10) for the first matmul, the ReLU output (8x20) for ReLU's and the second matmul's
        # backward (one storage, counted once); weights are parameters and are left out
        assert saved.live == 4 * (8 * 10 + 8 * 20)
        out.sum().backward()
    assert saved.peak == 4 * (8 * 10 + 8 * 20)
    del out
    assert saved.live == 0


# --- one process: GPipe by hand ----------------------------------------------------------------------


def test_gpipe_in_process_gradients_equal_the_unsplit_model():
    task = tiny_gpt_task()
    ref = pp.reference_step(task, 8)
    model = task.build()
    x, y = task.make_batch(8, 1)
    loss = pp.gpipe_in_process(pp.split_sequential(model, [2]), ["cpu", "cpu"], x, y, 4, task.loss_fn)
    assert float(loss) == pytest.approx(ref["loss"], abs=ATOL)
    got = {n: p.grad for n, p in model.named_parameters()}
    assert pp.max_gap(got, ref["grads"]) <= ATOL


def test_attention_ffn_stages_compute_the_same_model():
    model = tiny_gpt_task().build()
    x, _ = pp._token_batch(2, 0)
    out = x
    for stage in pp.attention_ffn_stages(model):
        out = stage(out)
    assert len(pp.attention_ffn_stages(model)) == 2 * 2  # attention and feed-forward of 2 blocks
    assert torch.allclose(out, model(x), atol=1e-6)  # x + attn, then + ffn: Block.forward's order


# --- two processes: torch.distributed.pipelining, launched --------------------------------------------


@pytest.mark.timeout(60)
@pytest.mark.parametrize("schedule", ["gpipe", "1f1b"])
def test_two_process_pipeline_equals_the_unsplit_model(schedule):
    task = tiny_gpt_task()
    ref = pp.reference_step(task, 8)
    stages = pp.split_sequential(ref["model"], [2])
    expected = pp.stage_grads_of(ref, stages, ref["model"])
    got = launch.launch(pp.pipeline_grads_worker, task, [2], 8, 4, schedule, nprocs=2, timeout=50)
    assert torch.allclose(got[1]["output"], ref["output"], atol=ATOL)
    assert got[1]["loss"] == pytest.approx(ref["loss"], abs=ATOL)
    for k in range(2):
        assert pp.max_gap(got[k]["grads"], expected[k]) <= ATOL


def _naive_grads_worker(task, batch):
    with launch.process_group():
        rank = dist.get_rank()
        stage = pp.split_sequential(task.build(), [2])[rank]
        x, y = task.make_batch(batch, 1)
        shape = pp.output_shape(pp.split_sequential(task.build(), [2])[0], x)
        pp.naive_step(stage, rank, torch.device("cpu"), x, y, task.loss_fn, shape)
        return {n: p.grad for n, p in stage.named_parameters()}


@pytest.mark.timeout(60)
def test_hand_written_naive_split_equals_the_unsplit_model():
    task = tiny_gpt_task()
    ref = pp.reference_step(task, 4)
    expected = pp.stage_grads_of(ref, pp.split_sequential(ref["model"], [2]), ref["model"])
    got = launch.launch(_naive_grads_worker, task, 4, nprocs=2, timeout=50)
    for k in range(2):
        assert pp.max_gap(got[k], expected[k]) <= ATOL


@pytest.mark.timeout(60)
def test_measure_pipeline_times_every_config_and_records_both_stages():
    configs = [pp.Config(4, 1, naive=True), pp.Config(4, 2), pp.Config(4, 2, "1f1b")]
    run = pp.measure_pipeline(tiny_gpt_task(), [2], configs, rounds=1)
    assert [(r.m, r.schedule, r.naive) for r in run.rows] == [(1, "gpipe", True), (2, "gpipe", False),
                                                              (2, "1f1b", False)]
    assert all(r.seconds > 0 and r.baseline > 0 for r in run.rows)
    spans = run.spans(configs[1])
    assert {s.device for s in spans} == {"stage 0", "stage 1"}
    assert sorted((s.name, s.index) for s in spans if s.device == "stage 0") == [
        ("backward", 0), ("backward", 1), ("forward", 0), ("forward", 1)]


@pytest.mark.timeout(60)
def test_one_f_one_b_keeps_fewer_activations_than_gpipe():
    per_stage = pp.measure_memory(tiny_gpt_task(), [2], batch=8, m=4)
    for stage in per_stage:
        assert 0 < stage["1f1b"]["saved"] < stage["gpipe"]["saved"]
    # stage 0 keeps all m micro-batches under GPipe, at most p = 2 under 1F1B
    assert per_stage[0]["1f1b"]["saved"] == pytest.approx(per_stage[0]["gpipe"]["saved"] / 2, rel=0.05)


@pytest.mark.timeout(60)
def test_attention_ffn_placement_crosses_twice_per_block():
    task = tiny_gpt_task()
    layers = pp.measure_placement(task, "layers", 4, [2], rounds=1)
    article = pp.measure_placement(task, "attn/ffn", 4, rounds=1)
    activation = 4 * pp.SEQ_LEN * 32 * 4  # (B, T, C) float32
    assert layers["crossings"] == 1 and layers["bytes"] == 2 * activation  # forward and backward
    assert article["crossings"] == 3 and article["bytes"] == 2 * 3 * activation


# --- lab 02's checks: the solution passes, one deliberately wrong answer per check fails -------------


@pytest.mark.timeout(60)
def test_check_split_passes_the_solution_and_fails_a_dropped_layer():
    assert pp.check_split(pp.split_sequential).status == checks.PASSED

    def drops_a_layer(model, points):  # off by one: layer `points[0]` is in neither stage
        return [model[:points[0]], model[points[0] + 1:]]

    verdict = pp.check_split(drops_a_layer)
    assert verdict.status == checks.FAILED and "differs" in verdict.message


def test_check_split_reports_not_done_for_the_stub():
    def stub(model, points):
        raise NotImplementedError("slice the model")

    assert pp.check_split(stub).status == checks.NOT_DONE


def _fake_run(speedups):
    """A measure_pipeline stand-in: rows with the given speedup per config key (baseline 1 s)."""

    def fake(task, split_points, configs, rounds=5, record=True, seed=0, timeout=600):
        rows = [pp.Row(c.batch, c.m, c.schedule, 1.0 / speedups(c), 1.0, [0.5, 0.5], c.naive,
                       c.split_points) for c in configs]
        return pp.PipelineRun(rows, [], tuple(split_points), 1, True)

    return fake


def test_check_throughput_fails_an_unbalanced_split(monkeypatch):
    costs = [4, 4, 4, 4, 2] + [1] * 8  # balanced at [3]; half the layers, [6], is far from it
    # what a quiet 2-core machine measures: the balanced split near its bound, the unbalanced one far below
    monkeypatch.setattr(pp, "measure_pipeline", _fake_run(lambda c: 1.5 if c.split_points == (3,) else 0.9))
    verdict = pp.check_throughput(lambda c: ([6], 4), costs=costs)  # half the layers per stage
    assert verdict.status == checks.FAILED and "60%" in verdict.message
    assert pp.check_throughput(lambda c: ([3], 4), costs=costs).status == checks.PASSED
    assert pp.check_throughput(([3], 8), costs=costs).status == checks.PASSED  # a pair works too


def test_check_throughput_rejects_impossible_answers_before_timing(monkeypatch):
    monkeypatch.setattr(pp, "measure_pipeline", None)  # would raise if it were reached
    assert pp.check_throughput(([0], 4), costs=[1] * 13).status == checks.FAILED
    verdict = pp.check_throughput(([3], 3), costs=[1] * 13)  # 3 does not divide the batch of 512
    assert verdict.status == checks.FAILED and "divide" in verdict.message


def test_check_throughput_reports_not_done_for_the_stub():
    def stub(costs):
        raise NotImplementedError("choose a split")

    assert pp.check_throughput(stub, costs=[1] * 13).status == checks.NOT_DONE


# --- benchmarks --------------------------------------------------------------------------------------


def test_benchmarks_are_registered():
    assert {"pipeline", "naive_split"} <= set(bench.REGISTRY)


# --- stage devices, in-worker profile, row diagnostics, the throughput check's comparisons ----------


def test_stage_devices_are_the_cpu_unless_every_worker_has_a_gpu(monkeypatch):
    from utils import devices

    monkeypatch.setattr(devices, "gpu_count", lambda: 1)
    monkeypatch.setenv("TWOGPU_MODE", "1gpu")
    assert pp.stage_devices(2) == ("cpu", "cpu")  # gloo workers sharing one GPU run their stages on the CPU


@pytest.mark.timeout(60)
def test_profile_on_stage_device_runs_in_a_worker_with_the_given_threads():
    got = pp.profile_on_stage_device(tiny_gpt_task(), 4, repeats=2, threads=1, device="cpu")
    assert len(got["costs"]) == 4 and all(c > 0 for c in got["costs"])
    assert got["threads"] == 1 and got["device"] == "cpu" and all(s >= 0 for s in got["spread"])


def test_row_diagnostics_from_cpu_times():
    r = pp.Row(8, 4, "gpipe", 1.0, 1.5, [0.8, 0.8], cpu=[0.4, 0.4], baseline_cpu=0.8, speedups=[1.4, 1.5, 1.6])
    assert r.speedup_range == (1.4, 1.6)
    assert r.work_inflation == pytest.approx(1.0)
    assert r.cpu_share == [pytest.approx(0.5)] * 2  # busy 0.8 s by the wall clock, 0.4 s on the CPU
    assert r.cpu_predicted == pytest.approx(0.8 / (0.2 + 3 * 0.1))
    assert "contention" in pp.explain_row(r)
    assert pp.Row(8, 1, "gpipe", 1.0, 1.0, [0.5, 0.5], naive=True).bound == 1.0


def test_check_throughput_equal_to_a_reference_is_that_measurement(monkeypatch):
    costs = [4, 4, 4, 4, 2] + [1] * 8
    calls = []

    def fake(task, split_points, configs, rounds=5, record=True, seed=0, timeout=600):
        calls.append([c.key for c in configs])
        return _fake_run(lambda c: 1.5 if c.m == 4 else 1.4)(task, split_points, configs)

    monkeypatch.setattr(pp, "measure_pipeline", fake)
    verdict = pp.check_throughput(([3], 4), costs=costs)
    assert verdict.status == checks.PASSED and "100%" in verdict.message and len(calls) == 1


def test_check_throughput_re_measures_the_winner_before_failing(monkeypatch):
    costs = [4, 4, 4, 4, 2] + [1] * 8
    calls = []

    def fake(task, split_points, configs, rounds=5, record=True, seed=0, timeout=600):
        calls.append(len(configs))  # first run: a lucky m=8 round; the fresh pair shows them equal
        speed = (lambda c: 1.8 if c.m == 8 else 1.5) if len(calls) == 1 else (lambda c: 1.5)
        return _fake_run(speed)(task, split_points, configs)

    monkeypatch.setattr(pp, "measure_pipeline", fake)
    verdict = pp.check_throughput(([3], 4), costs=costs)
    assert verdict.status == checks.PASSED and calls == [3, 2] and "timed again" in verdict.message


def test_check_throughput_notes_when_every_config_is_below_one_worker(monkeypatch):
    monkeypatch.setattr(pp, "measure_pipeline", _fake_run(lambda c: 0.9))
    verdict = pp.check_throughput(([3], 4), costs=[4, 4, 4, 4, 2] + [1] * 8)
    assert verdict.status == checks.PASSED and "contention" in verdict.message and "bound" in verdict.message
