"""Lesson 07 (utils.lessons.tensor_parallel): the split layers against one device (MLP, attention by heads,
torch's parallelize_module, the small GPT), the all-reduces per step, the timelines and the cost model.

Every launch is bounded by a timeout and leaves no process behind (the autouse fixture checks).
"""

from __future__ import annotations

import statistics

import pytest
import torch
import torch.distributed as dist

from utils import timeline
from utils.launch import launch, process_group
from utils.lessons.tensor_parallel import (cost, equality, inference, layers, report, sequence, timelines,
                                          torch_api)
from utils.linkmodel import fit_alpha_beta

SMALL = equality.Check(width=32, heads=4, batch=2, context=8)


@pytest.fixture(autouse=True)
def _in_cpu_mode_leaving_nothing(cpu_mode_and_no_leftovers):
    yield


@pytest.mark.parametrize("kind", ["mlp", "block"])
def test_the_split_equals_one_device_in_outputs_and_gradients(kind):
    s = equality.Check(width=32, heads=4, batch=2, context=8, kind=kind)
    ranks = launch(equality.scratch_worker, s, nprocs=2, timeout=60)
    errors = equality.compare(ranks, equality.reference(s), kind=kind)
    assert set(errors) == {"output", "input gradient", "weight gradients"}
    assert max(errors.values()) < 1e-6, errors


def test_each_rank_holds_half_of_the_large_weights():
    ranks = launch(equality.scratch_worker, SMALL, nprocs=2, timeout=60)
    ref = equality.reference(SMALL)
    assert ranks[0]["shapes"]["fc.weight"] == (64, 32) and ref["shapes"]["fc.weight"] == (128, 32)
    assert ranks[1]["shapes"]["proj.weight"] == (32, 64)
    assert 0.5 < equality.held_fraction(ranks[0], ref) < 0.55  # halves, plus the replicated norm and bias


def test_compare_catches_a_wrong_shard():
    ranks = launch(equality.scratch_worker, SMALL, nprocs=2, timeout=60)
    ref = equality.reference(SMALL)
    ranks[1]["grads"]["fc.weight"] = ranks[0]["grads"]["fc.weight"]  # rank 1 reports rank 0's slice
    assert equality.compare(ranks, ref)["weight gradients"] > 1e-4


def _count_all_reduces(s: equality.Check) -> dict:
    with process_group("gloo"):
        block = layers.TensorParallelMLP(equality.full_block(s), dist.get_rank(), dist.get_world_size())
        x, dy = equality.inputs(s)
        x.requires_grad_(True)
        plain, calls = dist.all_reduce, []
        dist.all_reduce = lambda t, *a, **k: (calls.append(t.numel()), plain(t, *a, **k))[1]
        try:
            y = block(x)
            forward = list(calls)
            y.backward(dy)
        finally:
            dist.all_reduce = plain
        return {"forward": forward, "backward": calls[len(forward):]}


def test_one_all_reduce_forward_and_one_backward_of_tokens_by_width():
    counts = launch(_count_all_reduces, SMALL, nprocs=2, timeout=60)[0]
    values = SMALL.batch * SMALL.context * SMALL.width
    assert counts == {"forward": [values], "backward": [values]}


def test_torch_api_equals_one_device_and_the_scratch_split():
    api = launch(torch_api.api_mlp_worker, SMALL, nprocs=2, timeout=60)
    scratch = launch(equality.scratch_worker, SMALL, nprocs=2, timeout=60)
    assert max(equality.compare(api, equality.reference(SMALL)).values()) < 1e-6
    assert max((a["y"] - b["y"]).abs().max().item() for a, b in zip(api, scratch)) < 1e-6
    assert "DTensor" in api[0]["types"] and api[0]["shapes"]["fc.weight"] == (64, 32)


def test_the_gpt_with_split_feedforwards_gives_the_same_logits():
    tokens = torch.randint(0, 20, (2, 8), generator=torch.Generator().manual_seed(0))
    split = launch(torch_api.api_gpt_worker, 20, 1, 0, tokens, nprocs=2, timeout=60)
    one = torch_api.gpt_logits(20, 1, 0, tokens, parallel=False)
    assert max((s - one).abs().max().item() for s in split) < 1e-5


def test_the_timelines_record_both_ranks_and_the_all_reduces():
    b = timelines.Blocks(width=32, heads=4, depth=2, batch=2, context=8, rounds=2, threads=1)
    article = launch(timelines.article_worker, b, nprocs=2, timeout=60)
    names = {(s["device"].split()[1], s["name"]) for r in article for s in r["spans"]}
    assert names == {("0", "attention"), ("1", "ffn")}  # attention only on rank 0, FFN only on rank 1
    assert len([s for s in article[0]["spans"] if s["name"] == "attention"]) == b.depth * b.rounds
    parallel = launch(timelines.parallel_worker, b, nprocs=2, timeout=60)
    for r in parallel:
        kinds = [s["name"] for s in r["spans"]]
        assert kinds.count("all-reduce") == 2 * b.depth * b.rounds  # one per sub-layer, forward only
        # each sub-layer's compute is cut around its all-reduce: before it and after it (bias, residual)
        assert kinds.count("attention") == kinds.count("ffn") == 2 * b.depth * b.rounds
        ordered = sorted(r["spans"], key=lambda s: s["start"])
        assert all(a["end"] <= b_["start"] for a, b_ in zip(ordered, ordered[1:]))  # no two spans overlap
    assert article[0]["alone"] > 0 and parallel[0]["split"] > 0
    assert parallel[0]["others"] >= 0  # other programs' CPU while the passes were drawn, in cores
    counter = parallel[0]["counter"]   # how finely that reading reads: the window, the tick, the cores
    assert counter["window"] > 0 and 0 < counter["tick"] <= 0.1 and counter["cpus"] >= 1
    parts = timelines.allreduce_parts(timeline.flatten([r["spans"] for r in parallel]))
    together = parts["both_inside"]   # one figure a call
    assert len(together) == 2 * b.depth * b.rounds and min(together) >= 0


def test_the_cost_sweep_and_the_model():
    t = cost.Timing(widths=(16, 32), tokens=16, sizes=(4096, 65536, 262144), repeats=2, warmup=1, threads=1)
    got = launch(cost.cost_worker, t, nprocs=2, timeout=120)[0]
    assert got["sizes"] == list(t.sizes) and len(got["seconds"]) == 3 and min(got["seconds"]) > 0
    # The fit's arithmetic on exact alpha-beta times: three small all-reduces timed twice on a busy 2-core
    # machine need not grow with their size (linkmodel then refuses to fit), and a unit test must not hang on it.
    got = {**got, "seconds": [1e-4 + n / 1e9 for n in got["sizes"]]}
    a = cost.analyse(got)
    assert a["model"].link.alpha == pytest.approx(1e-4) and a["model"].link.beta == pytest.approx(1e9)
    assert [r["width"] for r in a["rows"]] == [16, 32]
    r = a["rows"][0]
    # the speed-up and its spread are one statistic: the paired rounds' median ratio (lesson 07's reader)
    ratios = [x / y for x, y in zip(r["one_rounds"], r["two_rounds"])]
    assert r["speedup"] == pytest.approx(statistics.median(ratios))
    assert r["bytes"] == 16 * 16 * 4 and r["flops"] == 48 * 16 * 16**2
    # the model's step from its terms as printed (ms, 2 decimals): within a rounding step of the sum
    assert r["predicted"] == pytest.approx(r["one"] / 2 + 2 * a["model"].link.time(r["bytes"]), abs=1e-5)
    assert r["predicted"] * 1e3 == pytest.approx(cost.model_ms(r["one"], r["comm"]), abs=1e-9)


def test_the_model_and_crossover_arithmetic():
    link = fit_alpha_beta([1000, 2000, 4000], [1e-6 + n / 1e9 for n in (1000, 2000, 4000)])
    model = cost.Model(link)
    assert model.predict(1e-3, 1000) == pytest.approx(0.5e-3 + 2 * 2e-6)
    rows = [{"width": 8, "s": 0.5}, {"width": 16, "s": 1.2}, {"width": 32, "s": 0.9}, {"width": 64, "s": 1.5}]
    assert cost.crossover(rows, "s") == 64 and cost.crossover(rows[:2], "s") == 16
    assert cost.crossover([{"width": 8, "s": 0.9}], "s") is None
    # At the crossover width, saved compute equals the communication: 24 N w^2 / F = 2 (alpha + N w b / beta)
    F, beta, alpha, N = 1e12, 1e10, 1e-5, 1024
    w = cost.crossover_width(F, beta, alpha, N, 4)
    assert 24 * N * w**2 / F == pytest.approx(2 * (alpha + N * w * 4 / beta))
    assert cost.crossover_width(989e12, 450e9, 0.0, N, 2) == pytest.approx(989e12 / (6 * 450e9))


def test_generation_gives_the_same_tokens_on_one_device_tensor_parallel_and_pipeline():
    g = inference.Generation(width=32, depth=2, heads=4, vocab=20, prompt=6, new_tokens=3, batches=(1, 3),
                             micro_batches=2, rounds=1, threads=1)
    got = launch(inference.inference_worker, g, nprocs=2, timeout=120)[0]
    assert [r["batch"] for r in got["rows"]] == [1, 3] and got["new_tokens"] == 3
    for r in got["rows"]:
        assert r["same_tokens"] and all(r[m] > 0 for m in ("one device", "tensor parallel", "pipeline"))
    expected = inference.greedy(g.gpt().eval(), g.prompts(3), 3)
    assert expected.shape == (3, 9)


def test_sequence_parallel_keeps_less_and_gives_the_same_outputs():
    s = equality.Check(width=32, heads=4, batch=2, context=16)
    got = launch(sequence.sp_worker, s, nprocs=2, timeout=60)
    x, _ = equality.inputs(s)
    y, one = sequence.saved_bytes(equality.full_block(s), x.clone().requires_grad_(True))
    unit = x.numel() * 4
    for rank, r in enumerate(got):
        tp, sp = r["tensor parallel"], r["sequence parallel"]
        assert sp["input"] == (2, 8, 32) and tp["input"] == (2, 16, 32)
        assert (tp["y"] - y).abs().max() < 1e-6 and (sp["y"] - y.chunk(2, dim=1)[rank]).abs().max() < 1e-6
        # by count, in (B, T, C) units: 10 on one device, 6 tensor parallel, 5.5 sequence parallel (+ stats)
        assert [b / unit for b in (one, tp["bytes"], sp["bytes"])] == pytest.approx([10, 6, 5.5], abs=0.15)
        assert sp["bytes"] < tp["bytes"] < one


# --- issue 39: the cost model's miss measured, speed-ups against their noise, the decode's launch floor -----


def test_every_split_step_records_where_its_time_went():
    t = cost.Timing(widths=(16, 32), tokens=16, sizes=(4096, 65536), repeats=3, warmup=1, threads=1)
    got = launch(cost.cost_worker, t, nprocs=2, timeout=120)[0]
    assert len(got["peer_rows"]) == 2 and got["cores"] >= 1 and len(got["load"]) == 2
    for row in got["rows"] + got["peer_rows"]:
        split = row["split_round"]
        assert 0 < split["allreduce"] < split["wall"]  # gloo: host time inside the all-reduces is their time
        assert split["thread_cpu"] >= 0 and split["process_cpu"] >= split["thread_cpu"] * 0.5
        assert len(row["two_rounds"]) == 3 and row["threads"] >= 1
    assert got["rows"][0]["alone_round"]["wall"] > 0 and got["peer_rows"][0]["waiting_round"]["wall"] > 0
    assert got["corun"]["alone"] > 0 and got["corun"]["together"] > 0 and got["corun"]["together_core"] > 0
    assert got["rows"][0]["window"]["machine_busy"] >= 0 and got["rows"][0]["window"]["steal"] >= 0


def _row(width, one, two, allreduce, cpu, **extra):
    split = {"wall": two, "thread_cpu": cpu, "process_cpu": cpu + 0.001, "allreduce": allreduce}
    return {"width": width, "one": one, "two": two, "one_rounds": [one] * 5, "two_rounds": [two] * 5,
            "split_round": split, "alone_round": {"wall": one, "thread_cpu": one}, "threads": 6,
            "waiting_round": {"wall": one, "process_cpu": 0.02 * one}, "bytes": 4096, "flops": 1.0,
            "window": {"wall": 1.0, "thread_cpu": 0.5, "process_cpu": 0.6, "machine_busy": 1.5, "steal": 0.1},
            **extra}


def test_the_miss_names_the_term_that_missed_and_the_cpu_behind_it():
    sizes = [4096, 65536, 262144]
    got = {"rows": [_row(512, 0.020, 0.016, 0.002, 0.007)],
           "peer_rows": [_row(512, 0.020, 0.017, 0.001, 0.008)],
           "sizes": sizes, "seconds": [1e-4 + n / 1e9 for n in sizes], "load": (4.9, 4.9), "cores": 2,
           "corun": {"alone": 0.011, "together": 0.014, "together_core": 0.99}}
    m = cost.miss(cost.analyse(got))
    assert m["model_compute"] == pytest.approx(0.010) and len(m["ranks"]) == 2
    assert m["others"] == pytest.approx(0.3) and m["steal"] == pytest.approx(0.1)  # 1.5 - 0.6 - 0.6 cores
    slow = max(m["ranks"], key=lambda r: r["step"])
    assert slow["compute"] == pytest.approx(0.016) and slow["thread_cpu"] == 0.008
    story = " ".join(report.miss_story(m, ""))
    # lesson 07's reader (session 48): no verdict on "most of the miss" before the parts are weighed; without
    # both ranks' calls the wait stays inside the all-reduces, said as such
    assert "most of the miss" not in story and "cannot cut the wait out" in story
    assert "The largest, the compute beyond t1/2 and its 5 %, is" in story
    assert "ran at most 50% of its compute time" in story and "at least 50% of the compute, so it lost" in story
    assert "other programs used 0.30 of a core" in story and "What would show" in story
    assert "both computing at once (1.27x the first" in story and "memory bandwidth" in story
    # lesson 07's reader: a shard faster side by side than alone is a finding, and the conclusion about half a
    # block reads the faster of the two shards
    got["corun"] = {"alone": 0.0098, "together": 0.0090, "together_core": 0.99}
    faster = " ".join(report.miss_story(cost.miss(cost.analyse(got)), ""))
    assert "faster side by side than alone" in faster and "half a block takes more" not in faster
    got["corun"] = {"alone": 0.011, "together": 0.014, "together_core": 0.99}
    got["corun"]["together_core"] = 0.6
    assert "ran only 60% of the time" in " ".join(report.miss_story(cost.miss(cost.analyse(got)), ""))
    assert "rank 1" in report.miss_table(m, "").to_text()
    # lesson 07's reader: CPU time that includes the all-reduces (1 ms) cannot show 16 ms of compute on its
    # core when it is only 16 ms: "not ruled out"; 17 ms can
    got["peer_rows"][0]["split_round"]["thread_cpu"] = 0.016
    open_ = " ".join(report.miss_story(cost.miss(cost.analyse(got)), ""))
    assert "held its core" not in open_ and "whether it lost its core this run cannot tell" in open_
    # one measure of the time off the core, said once and quoted with the same bounds wherever it returns
    assert "off its core between 0.00 ms" in open_ and "does not show it off its core" not in open_
    got["peer_rows"][0]["split_round"]["thread_cpu"] = 0.017
    # eleventh reading: within the lesson's 5 % is a tolerance, not a thread shown on its core all through
    assert "within the tolerance this lesson allows" in " ".join(report.miss_story(cost.miss(cost.analyse(got)), ""))
    for r in got["rows"] + got["peer_rows"]:
        r["split_round"]["allreduce"] = None  # NCCL: host time is not the all-reduce's time
    assert "gloo only" in report.miss_story(cost.miss(cost.analyse(got)), "")[0]
    got["rows"][0]["one"] = got["rows"][0]["one_rounds"][0] = 0.060  # t1 slowed: the split beats the model
    for r in got["rows"] + got["peer_rows"]:
        r["split_round"]["allreduce"] = 0.001
    assert "No slower than the model" in report.miss_story(cost.miss(cost.analyse(got)), "")[0]


def test_the_measured_crossover_needs_a_speedup_beyond_the_noise():
    rows = [{"width": 128, "speedup": 1.03, "spread": 0.05}, {"width": 256, "speedup": 1.03, "spread": 0.04},
            {"width": 512, "speedup": 1.32, "spread": 0.05}]
    assert cost.crossover(rows, "speedup") == 128 and cost.crossover(rows, "speedup", noise=True) == 512


def test_static_decode_gives_the_cached_decodes_tokens_and_the_launch_floor_adds_up():
    from utils.lessons.tensor_parallel import decode

    g = inference.Generation(width=32, depth=2, heads=4, vocab=20, prompt=6, new_tokens=5, batches=(1,),
                             rounds=1, threads=1)
    with torch.inference_mode():
        model, idx = g.gpt().eval(), g.prompts(2)
        eager, _ = decode.cached_greedy(model, idx, g.new_tokens)
        static, seconds = decode.static_greedy(model, idx, g.new_tokens)
        assert torch.equal(eager, static) and seconds > 0
        ops = decode.ops_per_token(model, idx)
    assert 20 < ops < 200  # norms, matmuls, attention and the head of 2 blocks: dozens of operations
    assert 0 < decode.per_op_seconds("cpu", n=200) < 1e-3
    assert decode.launch_floor({"ops": 100, "per_op": 5e-6}) == pytest.approx(5e-4)


def test_the_decode_worker_counts_operations_and_graphs_only_on_a_gpu():
    from utils.lessons.tensor_parallel import decode

    g = inference.Generation(width=32, depth=2, heads=4, vocab=20, prompt=6, new_tokens=3, batches=(1,),
                             rounds=1, threads=1)
    got = launch(decode.decode_worker, g, nprocs=2, timeout=120)[0]
    assert got["same_tokens"] and got["ops"] > 0 and got["per_op"] > 0
    assert got["graph"] is None and got["graph_same_tokens"] is None  # no CUDA graph on the CPU


def test_the_all_reduces_are_cut_at_both_ranks_arrivals():
    # rank 0 arrives at 0.0 and 10.0, rank 1 at 0.3 and 10.0; both return at 0.5 and 10.2 (one clock)
    mine, theirs = [(0.0, 0.5), (10.0, 10.2)], [(0.3, 0.5), (10.0, 10.2)]
    assert cost.arrivals(mine, theirs) == pytest.approx({"waited": 0.3, "after_both": 0.4, "after_other": 0})
    assert cost.arrivals(theirs, mine) == pytest.approx({"waited": 0.0, "after_both": 0.4, "after_other": 0})
    # session 48's reader: a rank that returns after its partner has returned is not summing then
    late = cost.arrivals([(0.0, 0.9)], [(0.3, 0.5)])
    assert late == pytest.approx({"waited": 0.3, "after_both": 0.6, "after_other": 0.4})
    sizes = [4096, 65536, 262144]
    got = {"rows": [_row(512, 0.020, 0.016, 0.004, 0.012)],
           "peer_rows": [_row(512, 0.020, 0.016, 0.004, 0.012)],
           "sizes": sizes, "seconds": [1e-4 + n / 1e9 for n in sizes], "load": (0.1, 0.1), "cores": 2,
           "corun": {"alone": 0.010, "together": 0.010, "together_core": 1.0}}
    got["rows"][0]["window"]["machine_busy"] = 1.2  # nothing else ran: 1.2 - 0.6 - 0.6
    got["rows"][0]["window"]["steal"] = 0.0
    for row, calls in ((got["rows"][0], [(0.0, 0.003), (0.010, 0.011)]),
                       (got["peer_rows"][0], [(0.0025, 0.003), (0.010, 0.011)])):
        row["split_rounds"] = [{**row["split_round"], "calls": calls}]
    m = cost.miss(cost.analyse(got))
    assert m["paired"] and m["ranks"][0]["waited"] == pytest.approx(0.0025)
    story = " ".join(report.miss_story(m, ""))
    assert "2.50 ms waiting for it to arrive (no byte moves then" in story and "waiting for the other rank" in story
    # the first sentence cuts the all-reduces into the wait and the sum, and leaves the verdict to the parts
    first = report.miss_story(m, "")[0]
    assert "2.50 ms waiting" in first and "1.50 ms after both had arrived" in first
    assert "the sum" not in first and "0.00 ms of it came after the other rank had returned" in first
    assert "most of the miss" not in first
    assert "not known" in story and "Ruled out" in story  # nothing measured explains the wait
    table = report.miss_table(m, "").to_text()
    assert "between the ranks' arrivals (waiting)" in table and "after the other had returned" in table


def test_the_models_crossover_is_one_width_between_the_swept_ones():
    from utils.linkmodel import AlphaBeta  # noqa: F401  (the fit's type)

    sizes = [4096, 65536, 262144]
    link = cost.fit_alpha_beta(sizes, [1e-4 + n / 1e9 for n in sizes])
    rows = [{"width": w, "one": t, "bytes": 4 * 64 * w} for w, t in ((32, 1e-4), (64, 4e-4), (128, 1.6e-3))]
    x = cost.model_crossover(rows, link)
    assert 32 < x < 128
    assert cost.model_crossover(rows, link, 2.0) > x > cost.model_crossover(rows, link, 0.5)  # dearer: later
    assert cost.model_crossover(rows[:1], link) is None  # never wins


def test_the_article_split_reads_the_verdict_words_and_its_bound_only_beside_them():
    slower = report.article_claim("split", [0.020] * 4, [0.022, 0.0221, 0.0222, 0.0223])
    assert slower.verdict == "slower than one device: no speed-up"   # the course's words, not "as its bound says"
    assert report.bound_says(slower.verdict) == ("slower than one device: no speed-up; its bound, 1x, says none "
                                                 "was possible")
    mixed = report.article_claim("split", [0.020] * 4, [0.019, 0.021, 0.0195, 0.0205])
    assert mixed.verdict.startswith("within noise") and report.bound_says(mixed.verdict) == mixed.verdict
    above = report.article_claim("split", [0.020] * 4, [0.016, 0.0161, 0.0162, 0.0163])
    assert "a finding" in above.verdict


def test_the_models_crossover_prints_two_figures_and_its_miss_as_a_factor():
    assert report.two_figures(1651.3) == "1,700" and report.two_figures(687.0) == "690"
    assert report.two_figures(32.0) == "32" and report.two_figures(4.0) == "4.0"
    widths = [32, 64, 128, 256, 512]
    later = report.crossover_miss(32.0, 128, 256, widths)   # the model at the smallest width, measured 128-256
    assert "4.0x to 8.0x the model's, or more" in later
    assert "agree" in report.crossover_miss(100.0, 64, 128, widths)
    assert "the model's width is 2.0x to 4.0x the measured one" == report.crossover_miss(256.0, 64, 128, widths)
    assert "never" in report.crossover_miss(64.0, None, None, widths)
    assert "never" in report.crossover_miss(None, 64, 128, widths)


def test_a_share_of_the_bounds_gain_is_printed_with_its_range():
    said = report.gain_range("faster, under the bound: 24% of its gain", 1.24, 0.23, 2.0)
    assert said == "faster, under the bound: 24% of its gain (1%-47% across its ±)"   # claims.gain_share_range
    assert report.gain_range("within noise: no effect shown", 1.1, 0.2, 2.0) == "within noise: no effect shown"
    assert report.gain_range("faster, under the bound: 90% of its gain", 1.9, 0.2, 2.0).endswith("-100% across "
                                                                                                "its ±)")


def _lesson_cells():
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "notebooks" / "07_tensor_parallel.ipynb"
    return [(c["cell_type"], "".join(c["source"])) for c in json.loads(path.read_text())["cells"]]


def test_the_lesson_counts_two_all_reduces_per_block_never_per_token():
    # Megatron's split: one all-reduce after attention, one after the MLP, in every block's forward
    import re

    text = " ".join(" ".join(source.split()) for _, source in _lesson_cells())
    assert not re.search(r"two (all-reduces )?a token", text), "two all-reduces per block, not per token"
    assert "two all-reduces forward (one after attention, one after the MLP)" in text


@pytest.mark.parametrize("term, meaning", [("DeviceMesh", "devices that share the work"),
                                           ("DTensor", "distributed tensors"), ("KV cache", "keys and values")])
def test_torch_and_serving_terms_are_defined_where_they_first_appear(term, meaning):
    first = next(" ".join(source.split()) for kind, source in _lesson_cells()
                 if kind == "markdown" and term in source)
    assert meaning in first, f"'{term}' is used before it is defined: define it in its first markdown cell"


def test_the_summarys_pipeline_outcome_is_printed_from_the_run_with_both_branches():
    cells = _lesson_cells()
    summary = next(source for kind, source in cells if kind == "markdown" and source.startswith("## Summary"))
    assert "a pipeline helps throughput" not in summary  # a measured outcome: printed, not written
    code = next(source for kind, source in cells if kind == "code" and "PIPE = over_one_device" in source)
    assert "section 5 does not time which" in code and "kept both stages busy" in code


def test_the_crossover_table_sets_the_measured_crossover_beside_the_models():
    rows = [("A100 PCIe 80GB", "PCIe 4.0 x16", "bf16", 312e12, 31.5e9)]
    table = report.crossover_table((1.5e11, 2e-4, 4e9, 4), rows, 256, here_width=68.0, measured="width 128 to 256")
    assert table.columns[-2:] == ["model's crossover width", "measured crossover"]
    assert table.rows[0][-2:] == ("68", "width 128 to 256")  # this machine: the model's and the run's
    assert table.rows[1][-1] == "not measured"  # a datasheet pair: nothing measured


def test_the_timed_split_verdict_reads_the_paired_rounds_median_and_spread():
    faster = report.timed_split([0.020] * 6, [0.015, 0.0155, 0.016, 0.0152, 0.0158, 0.0151], 2.0)
    assert faster.measured.startswith("1.3") and faster.verdict.startswith("faster, under the bound")
    mixed = report.timed_split([0.020] * 6, [0.015, 0.027, 0.019, 0.022, 0.016, 0.024], 2.0)
    assert mixed.verdict == "within noise: no effect shown" and "±" in mixed.measured
    slower = report.timed_split([0.020] * 4, [0.025, 0.026, 0.025, 0.0255], 2.0)
    assert slower.verdict == "slower than one device: no speed-up"
    details = report.timed_split_details([0.020, 0.021], [0.015, 0.027])
    assert "1.33x, 0.78x" in details and "1 of 2" in details and "fastest-of ratio" in details


def test_the_miss_sets_the_ranks_and_the_shard_apart_side_by_side_and_names_what_dominates():
    """Lesson 07's reader: the ranks' compute gap, and the shard apart against inside the step, said from the
    figures; 'dominates' says which part, by how much."""
    rank = lambda compute, inside, cpu, waited: {  # noqa: E731
        "step": compute + inside, "allreduce": inside, "compute": compute, "thread_cpu": cpu,
        "other_threads_cpu": 0.0004, "waited": waited, "after_both": inside - waited, "after_other": 0.0}
    m = {"model_compute": 0.01022, "model_comm": 0.00091, "model_step": 0.01113, "one": 0.02044, "others": 0.0,
         "steal": 0.0, "paired": True, "residual": 0.23, "waiting_core": 0.01,
         "corun": {"alone": 0.0098, "together": 0.0098, "together_core": 1.0},
         "ranks": [rank(0.01131, 0.00193, 0.0116, 0.00092), rank(0.01226, 0.00103, 0.01224, 0.0)]}
    story = " ".join(report.miss_story(m, ""))
    assert "11.31 ms (rank 0) and 12.26 ms (rank 1): rank 1 computed 0.95 ms longer than rank 0 (beyond" in story
    assert "5 % of rank 0's 11.31 ms is 0.57 ms)" in story   # the tolerance in printed ms (t15_0708)
    assert "(9.80 ms, the fastest of its rounds)" in story and "lie 2.46 ms" in story
    # session 49's reader: nothing subtracted, so the whole gap is unexplained, not "the ... left"
    assert "those 2.46 ms, the whole gap" in story and "ms left" not in story
    assert "The largest dominates." not in story and "is the whole miss" in story
    # the shard apart at its fastest beside the step's one round: co-running is left open, not ruled out
    # twentieth reading: every open candidate in one list (t29_0708: after "Ruled out:", for the block)
    open_ = story.split("none timed apart: ")[1].split(". What would show")[0]
    assert "the two ranks computing at once (apart, at the fastest" in open_
    assert "Ruled out: " in story and "computing at once" not in story.split(" Ruled out: ")[1].split(". ")[0]
    # session 48's reader: the time off the core is measured once (its two bounds) and every later sentence
    # quotes those bounds, never a verdict of its own ("does not show it off its core")
    assert "off its core between 0.02 ms" in story and "cannot tell" in story   # 12.26 - 12.24, as printed
    # eleventh reading: 1.05 ms off its core at most, under the compute's 1.53 ms miss part and the 2.46 ms gap
    assert ("losing its core as the whole of the compute's miss (off it at most 1.05 ms, less than the 1.53 ms"
            in story.split(" Ruled out: ")[1])
    assert "(up to 1.05 ms, above) may hold some of it." in story
    assert "does not show it off its core" not in story
    m["corun"]["together"] = 0.0125   # the shard apart as long as inside the step: nothing added
    assert "added nothing measurable" in " ".join(report.miss_story(m, ""))
    m["corun"]["together"], m["ranks"][1]["thread_cpu"] = 0.0098, 0.01126   # off its core at least 1.00 ms of the 2.46: the rest is left
    some = " ".join(report.miss_story(m, ""))
    assert "at least 1.00 ms with the step's thread off its core" in some and "the 1.46 ms left" in some
    m["corun"]["together"], m["ranks"][1]["thread_cpu"] = 0.0098, 0.006   # off its core longer than the gap
    assert "accounts for the gap" in " ".join(report.miss_story(m, ""))
    m["corun"]["together"] = 0.020    # longer apart than inside: measured at different moments
    assert "cannot say what the step adds" in " ".join(report.miss_story(m, ""))


def test_the_miss_names_gloos_threads_as_a_candidate_only_where_they_used_cpu():
    from utils.lessons.tensor_parallel.other_threads import threads_candidate
    ranks = [{"step": 0.02, "thread_cpu": 0.019, "other_threads_cpu": 0.0}, {"other_threads_cpu": 0.00124}]
    assert "0.00 ms of CPU on rank 0 and 1.24 ms on rank 1" in threads_candidate(ranks, "x")
    assert threads_candidate([{"other_threads_cpu": 0.0}], "x") == "" and threads_candidate([{}], "x") == ""


def test_the_wait_is_blamed_on_the_rank_that_computed_late_not_on_the_longer_step():
    """Session 48's reader: the rank whose step took longer (it waited) computed faster; the candidate for the
    wait is the other threads of the rank it waited for, and 'the longer-step rank' is named, not 'slower'."""
    rank = lambda compute, inside, other, waited: {  # noqa: E731
        "step": compute + inside, "allreduce": inside, "compute": compute, "thread_cpu": compute + inside,
        "other_threads_cpu": other, "waited": waited, "after_both": inside - waited, "after_other": 0.0}
    m = {"model_compute": 0.01149, "model_comm": 0.00072, "model_step": 0.01221, "one": 0.02298, "others": 0.0,
         "steal": 0.0, "paired": True, "residual": 0.48, "waiting_core": 0.01,
         "corun": {"alone": 0.0118, "together": 0.0111, "together_core": 1.0},
         "ranks": [rank(0.01281, 0.00367, 0.00112, 0.00178), rank(0.01445, 0.00140, 0.00088, 0.0)]}
    story = " ".join(report.miss_story(m, ""))
    assert "On rank 0, the rank whose split step took longer" in story and "slower rank" not in story
    # rank 0's other threads (1.12 ms) used more than rank 1's (0.88 ms), the rank waited for: no candidate
    assert ("1.12 ms of CPU on rank 0 and 0.88 ms on rank 1, the rank waited for: they do not explain the 1.64 ms "
            "rank 1 computed longer than rank 0 by themselves") in story and "one candidate for" not in story
    answer, evidence = report.miss_answer(m, "")
    assert answer[0].startswith("On rank 0") and answer[-1].startswith("The miss, part by part")
    assert evidence and not set(answer) & set(evidence)
    # twenty-first reading: what the run ruled out and left open is a line of its own in the block
    assert len(answer + evidence) == len(report.miss_story(m, "")) + evidence[0].startswith("Ruled out: ")


def test_section_1s_pass_is_set_beside_section_4s_step_both_ways():
    from types import SimpleNamespace
    blocks = SimpleNamespace(depth=2, width=512)
    row = {"width": 512, "speedup": 1.40, "spread": 0.08, "one": 0.02299}
    from utils.lessons.tensor_parallel.pass_step import pass_beside_step
    differ = pass_beside_step(0.96, 0.21, 0.0042, blocks, row)
    assert "differ beyond their noise, section 1's pass the lower" in differ
    assert "4.2 ms of compute in section 1 (4 calls) and about 5.7 ms" in differ and "a candidate" in differ
    assert "not less in" in pass_beside_step(0.96, 0.21, 0.0080, blocks, row)
    assert "agree within their noise" in pass_beside_step(1.30, 0.21, 0.0042, blocks, row)


def test_lesson_07_does_not_point_to_the_files_that_hold_lab_07s_answer():
    import json
    from pathlib import Path
    nb = json.loads((Path(__file__).resolve().parents[1] / "notebooks" / "07_tensor_parallel.ipynb").read_text())
    text = json.dumps(nb["cells"])   # markdown, code and outputs (the sources shown)
    assert "attention_reference" not in text and "cached_attention" not in text


def test_the_models_speedup_is_one_at_the_crossover_and_nears_two_on_a_fast_link():
    nvlink, pcie = (cost.model_speedup(312e12, bw, 0.0, 256, 2, 4096) for bw in (300e9, 31.504e9))
    assert nvlink == pytest.approx(1.92, abs=0.01) and pcie == pytest.approx(1.43, abs=0.01)
    width = cost.crossover_width(312e12, 31.504e9, 0.0, 256, 2)
    assert cost.model_speedup(312e12, 31.504e9, 0.0, 256, 2, width) == pytest.approx(1.0)


def test_the_timelines_all_reduces_are_cut_at_the_arrivals_on_one_clock():
    """Session 48's reader: section 1's time inside the all-reduces is the wait for the other rank (compute
    imbalance, no byte moved) and the sum; the drawn spans of both ranks, on one clock, give both."""
    span = lambda row, start, end: timeline.Span(row, "all-reduce", None, start, end)  # noqa: E731
    spans = [span("rank 0", 0.0, 0.5), span("rank 0", 10.0, 10.2), span("rank 1", 0.3, 0.5),
             span("rank 1", 10.0, 10.2), timeline.Span("rank 0", "ffn", 0, 0.6, 9.0)]
    parts = timelines.allreduce_parts(spans)
    assert parts["ranks"]["rank 0"] == pytest.approx({"waited": 0.3, "after_both": 0.4, "after_other": 0.0})
    assert parts["ranks"]["rank 1"] == pytest.approx({"waited": 0.0, "after_both": 0.4, "after_other": 0.0})
    assert parts["both_inside"] == pytest.approx([0.2, 0.2])   # one figure a call, both ranks inside
    assert timelines.allreduce_parts(spans[:3]) is None   # the rows disagree on the number of calls


def test_the_batch_trend_follows_the_figures_in_every_outcome():
    """Session 48's reader: 'at larger batches lose less' stood beside 0.87 / 0.55 / 0.92x; the sentence is
    now printed from the rows, one branch for each outcome."""
    def rows(tp, noise=0.05):
        return [{"batch": b, "one device": 1.0, "tensor parallel": 1.0 / x, "pipeline": 1.0 / x,
                 "spread": {"one device": noise, "tensor parallel": noise, "pipeline": noise}}
                for b, x in zip((1, 4, 16), tp)]
    rising = inference.batch_trend(rows((0.4, 0.7, 0.9)), 1, ("tensor parallel",))
    assert "0.40x ± 0.02 at batch 1, 0.70x ± 0.04 at batch 4, 0.90x ± 0.05 at batch 16" in rising   # x 0.05
    assert "beyond the rounds'" in rising
    # session 50's reader: 0.38x, 0.49x, 0.96x read "within noise" for its first step alone
    partly = inference.batch_trend(rows((0.4, 0.42, 0.9)), 1, ("tensor parallel",))
    assert "rose from batch 1 to batch 16 beyond the rounds' spread (0.40x to 0.90x): it lost less" in partly
    assert "the step from batch 1 to 4 lies within that spread" in partly and "no trend shown" not in partly
    noisy = inference.batch_trend(rows((0.4, 0.41, 0.42)), 1, ("tensor parallel",))
    assert "within noise, no trend shown" in noisy and "lost less" not in noisy
    broken = inference.batch_trend(rows((0.87, 0.55, 0.92)), 1, ("pipeline",))
    # t32_0708: 0.87 - 0.04 = 0.83 above 0.55 + 0.03 = 0.58: a drop beyond the spread, named
    assert "fell beyond the rounds' spread from batch 1 to 4 (0.87x to 0.55x)" in broken
    assert "lost less" not in broken and "did not rise" not in broken
    flat = inference.batch_trend(rows((0.87, 0.85, 0.92)), 1, ("pipeline",))   # a dip within the spread
    assert "did not rise with every larger batch: the expected trend did not show" in flat and "fell" not in flat


def test_the_cached_decode_is_set_against_the_uncached_generation_in_every_outcome():
    """Session 48's reader: tensor-parallel decode with a KV cache ran slower than without it, unsaid."""
    from utils.lessons.tensor_parallel import decode
    cached = {"seconds": {"one device": 0.002, "tensor parallel": 0.012},
              "spread": {"one device": 0.01, "tensor parallel": 0.05}}
    uncached = {"one device": 8 * 0.004, "tensor parallel": 8 * 0.0108,
                "spread": {"one device": 0.04, "tensor parallel": 0.05}}
    one, tp = decode.cache_against_uncached(cached, uncached, 8)
    assert one.startswith("one device, 2.00 ms a token with the cache against 4.00 ms")
    assert "faster than without the cache" in one and "baseline" not in one
    assert "not taken apart" not in one and "slower than without the cache" in tp and "not taken apart" in tp
    uncached["tensor parallel"] = 8 * 0.024   # the cache halves the token: nothing to explain
    assert "not taken apart" not in decode.cache_against_uncached(cached, uncached, 8)[1]
    uncached["one device"] = 8 * 0.00201      # one device within noise: nothing to explain
    assert "not measured" not in decode.cache_against_uncached(cached, uncached, 8)[0]
    uncached["tensor parallel"] = 8 * 0.0121  # within the rounds' spread: no effect shown, the note still
    tp = decode.cache_against_uncached(cached, uncached, 8)[1]
    assert "within noise" in tp and "not taken apart" in tp and "hypothesis" not in tp
