"""Lesson 08 (utils.lessons.putting_it_together): the training script as a module (``--help``, one process,
under torchrun on one and two "nodes"), its checkpoint and resume, and each step trains the same model.

Every test bounds its processes (pytest timeout, launch timeout, subprocess timeout) and leaves none behind.
"""

from __future__ import annotations

import dataclasses
import json
import math
import subprocess
import sys

import pytest

from test_ddp import REPO, free_port, processes, torchrun_env
from utils.launch import launch
from utils.lessons.putting_it_together import cli, guide, script

TINY = script.Settings(steps=6, batch_per_worker=8, context=32, width=64, depth=2, heads=4, max_chars=50_000,
                       threads=1)
TINY_FLAGS = ["--steps", "6", "--batch-per-worker", "8", "--context", "32", "--width", "64", "--depth", "2",
              "--heads", "4", "--max-chars", "50000", "--threads", "1"]
MODULE = "utils.lessons.putting_it_together"


@pytest.fixture(autouse=True)
def _in_cpu_mode_leaving_nothing(cpu_mode_and_no_leftovers):
    yield


@pytest.fixture(scope="module")
def launched_two():
    """The reference: the script's function launched from Python on two workers, as the notebook does."""
    import os

    os.environ["TWOGPU_MODE"] = "cpu"
    return launch(script.train, TINY.scaled(batch_per_worker=4), nprocs=2, timeout=120)


def run_module(args: list[str], timeout: float = 80) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", MODULE, *args], cwd=REPO, env=torchrun_env(), text=True,
                          capture_output=True, timeout=timeout)


@pytest.mark.timeout(60)
def test_help_names_every_step_setting():
    proc = run_module(["--help"], timeout=50)
    assert proc.returncode == 0, proc.stderr[-2000:]
    for flag in ("--precision", "--loader-workers", "--compile", "--checkpointing", "--checkpoint", "--out"):
        assert flag in proc.stdout


def test_command_line_gives_the_settings():
    s, out = cli.parse_settings([*TINY_FLAGS, "--precision", "bf16", "--loader-workers", "1",
                                 "--checkpointing", "--out", "r.json"])
    assert s == TINY.scaled(precision="bf16", loader_workers=1, checkpointing=True) and out == "r.json"


@pytest.mark.timeout(120)
def test_one_process_resumes_where_the_checkpoint_stopped_and_ends_as_an_uninterrupted_run(tmp_path):
    whole = run_module([*TINY_FLAGS, "--out", str(tmp_path / "whole.json")])
    assert whole.returncode == 0, whole.stderr[-2000:]
    ckpt = str(tmp_path / "run.pt")
    first = run_module([*TINY_FLAGS[:1], "3", *TINY_FLAGS[2:], "--checkpoint", ckpt,
                        "--checkpoint-every", "3"])
    assert first.returncode == 0, first.stderr[-2000:]
    second = run_module([*TINY_FLAGS, "--checkpoint", ckpt, "--out", str(tmp_path / "resumed.json")])
    assert second.returncode == 0, second.stderr[-2000:]
    a, b = (json.loads((tmp_path / f"{n}.json").read_text()) for n in ("whole", "resumed"))
    assert b["start_step"] == 3 and len(b["losses"]) == 3
    assert b["losses"] == pytest.approx(a["losses"][3:], abs=1e-5)


@pytest.mark.timeout(90)
def test_torchrun_single_node_gives_the_notebook_launch_losses(tmp_path, launched_two):
    out = tmp_path / "result.json"
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2",
               "-m", MODULE, *TINY_FLAGS[:2], *TINY_FLAGS[2:3], "4", *TINY_FLAGS[4:], "--out", str(out)]
    with processes([command]) as (proc,):
        _, stderr = proc.communicate(timeout=80)
    assert proc.returncode == 0, stderr[-3000:]
    result = json.loads(out.read_text())
    assert result["world_size"] == 2
    assert result["losses"] == pytest.approx(launched_two[0]["losses"], abs=1e-6)


@pytest.mark.timeout(90)
def test_two_torchrun_agents_as_two_nodes_give_the_same_result(tmp_path, launched_two):
    port = free_port()
    commands = []
    for node in (0, 1):
        commands.append([sys.executable, "-m", "torch.distributed.run", "--nnodes", "2",
                         "--node-rank", str(node), "--nproc-per-node", "1", "--rdzv-backend", "c10d",
                         "--rdzv-endpoint", f"127.0.0.1:{port}",
                         "--rdzv-id", "test-08-two-nodes", "--rdzv-conf",
                         f"is_host={'true' if node == 0 else 'false'}", "-m", MODULE, *TINY_FLAGS[:3], "4",
                         *TINY_FLAGS[4:], "--out", str(tmp_path / f"node-{node}.json")])
    with processes(commands) as procs:
        outputs = [p.communicate(timeout=80) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], "\n".join(err[-2000:] for _, err in outputs)
    written = list(tmp_path.glob("node-*.json"))
    assert len(written) == 1  # only global rank 0 writes, wherever it ran
    result = json.loads(written[0].read_text())
    assert result["world_size"] == 2
    assert result["losses"] == pytest.approx(launched_two[0]["losses"], abs=1e-6)


@pytest.mark.timeout(120)
def test_each_step_trains_the_same_model_within_its_tolerance(launched_two):
    """One worker on the whole batch against two on halves (DDP); the feeding and checkpointing steps
    change no maths; bf16 autocast rounds, within lesson 08's tolerance."""
    base = launch(script.train, TINY, nprocs=1, timeout=60)[0]
    assert launched_two[0]["losses"] == pytest.approx(base["losses"], abs=1e-3)
    fed = launch(script.train, TINY.scaled(loader_workers=1, checkpointing=True), nprocs=1, timeout=60)[0]
    assert fed["losses"] == pytest.approx(base["losses"], abs=1e-5)
    low = launch(script.train, TINY.scaled(precision="bf16"), nprocs=1, timeout=60)[0]
    assert low["final_loss"] == pytest.approx(base["final_loss"], abs=3e-2)
    assert low["tokens_per_s"] > 0 and low["peak_bytes"] > 0


@pytest.mark.timeout(60)
def test_the_plain_baseline_shown_whole_computes_what_the_script_with_every_step_off_does():
    from utils.lessons.putting_it_together import baseline

    plain = baseline.plain_training(steps=6, batch=8, context=32, width=64, depth=2, heads=4,
                                    max_chars=50_000)
    script_run = launch(script.train, TINY, nprocs=1, timeout=60)[0]
    assert plain["losses"] == pytest.approx(script_run["losses"], abs=1e-4)


# --- The ladder and its ledger, without running anything ---------------------------------------------------


def _guide_steps():
    from utils import devices
    from utils.lessons.memory.plan import CPU_SHAPE
    from utils.lessons.putting_it_together import guide

    # a step that loads for 10 % of its time (feeding can pay) and spends 60 % in matmuls
    found = guide.Profile({"load": 0.01, "matmul": 0.06, "memory-bound": 0.03}, peak_ratio=6.0)
    features = devices.cpu_features(flags={"avx512f", "avx512_bf16", "amx_bf16"}, capability="AVX512",
                                    onednn_max="")
    steps = guide.guide(CPU_SHAPE, 16, devices.plan(2), None, found, run_steps=24, features=features,
                        host_bytes=16e9)
    return {s.step: s for s in steps}


def test_each_step_builds_on_the_kept_ones_with_its_own_bound_and_a_small_diff():
    from utils.lessons.putting_it_together import ladder

    steps, peaks = _guide_steps(), {"fp32": 100e9, "bf16": 600e9}
    kept = ladder.Rung("baseline", script.Settings(), 1, None, "")
    feed = ladder.next_rung("feeding", kept, steps, peaks, 1.11, 96)
    assert (feed.settings.loader_workers, feed.bound) == (1, 1.11)
    low = ladder.next_rung("precision", feed, steps, peaks, 1.11, 96, matmul_share=0.6)
    assert low.settings.precision == "bf16" and low.bound == pytest.approx(1 / (0.4 + 0.6 / 6.0))
    # the guide could not judge compile without a measured compile: the ladder runs it to measure it, bounded
    # by Amdahl (fusion shortens at most what lies outside the matmuls: 1/f', f' the matmuls' FLOPs at the
    # kept precision's peak over the kept step's measured time: its MFU)
    comp = ladder.next_rung("compile", low, steps, peaks, 1.11, 96, matmul_share=0.6, kept_mfu=0.25)
    assert comp.settings.compile and not comp.skipped and comp.bound == pytest.approx(4.0)
    unknown = ladder.next_rung("compile", feed, steps, peaks, 1.11, 96, matmul_share=0.6)
    assert unknown.bound is None and not unknown.skipped
    two = ladder.next_rung("two devices", low, steps, peaks, 1.11, 96)
    assert (two.workers, two.settings.batch_per_worker, two.bound) == (2, 8, 2.0)
    assert ladder.diff(low.settings, two.settings, 1, 2)[-1].startswith("+ launch(train, settings, nprocs=2)")
    mem = ladder.next_rung("memory", two, steps, peaks, 1.11, 96, max_growth=2)
    assert mem.skipped and "for nothing" in mem.skipped  # the small GPT fits: no checkpointing
    command = ladder.command_line([two, mem])
    assert "torchrun --nproc-per-node 2" in command and "--precision bf16" in command


_BASE = {"tokens_per_s": 1000.0, "final_loss": 2.8, "wall_s": 1.0}


def _rows():
    from utils.lessons.putting_it_together import ladder, report

    base = dict(_BASE)
    kept = ladder.Rung("baseline", script.Settings(), 1, None, "")
    steps = _guide_steps()
    compared, keep = {}, {}
    for name, gains in (("feeding", (1.0, 1.02)), ("precision", (0.9, 0.8)), ("two devices", (1.8, 1.9))):
        rung = ladder.next_rung(name, kept, steps, {"fp32": 1e11, "bf16": 6e11}, 1.001, 96)
        before = [dict(base) for _ in gains]
        after = [dict(base, tokens_per_s=1000.0 * g, final_loss=2.801) for g in gains]
        compared[name] = ladder.Compared(rung, kept, before, after)
        keep[name] = compared[name].gain > 1
        kept = rung if keep[name] else kept
    not_run = ladder.Rung("compile", kept.settings, 1, None, "", skipped="not run")
    compared["compile"] = ladder.Compared(not_run, kept, [], [])
    peaks = dict.fromkeys(["baseline", "feeding", "precision", "two devices"], 2**20)
    return report.step_rows([base], compared, keep, peaks, {"fp32": 1e-3, "bf16": 3e-2},
                            held_out={"baseline": 2.9, "precision": 2.91, "two devices": 2.9},
                            mfu=dict.fromkeys(["baseline", "feeding", "precision", "two devices"], 0.25),
                            why={"precision": "the steps before it, 18 ms, over the paired gain, 0.90x, give "
                                              "20 ms a step"})


def test_the_ledger_multiplies_kept_gains_and_flags_a_step_above_its_bound():
    from utils.lessons.putting_it_together import report

    rows = {r["step"]: r for r in _rows()}
    assert rows["precision"]["kept"] is False and rows["two devices"]["kept"] is True
    assert rows["two devices"]["x_base"] == pytest.approx(1.01 * 1.85)  # precision, not kept, left out
    # 1.01x ± 0.01 against a bound of 1.001x (1.00x as printed): above it, but within its rounds' spread, as
    # the claims table reads it (at the bound within noise), never a pass
    assert rows["feeding"]["within"] is True
    assert report.at_bound_words(_rows())[0].startswith("feeding: its median 1.01x lies above its bound 1.00x")
    assert "skipped" in rows["compile"] and "memory" in rows and "skipped" in rows["memory"]
    assert len(report.headline_table(_rows()).columns) <= 6
    assert rows["precision"]["loss"] == 2.91 and rows["baseline"]["loss"] == 2.9  # held-out, not a batch's
    table = str(report.headline_table(_rows()))
    assert "(25.0%)" in table and "(bound 2.00x)" in table  # MFU beside tokens/s, the bound beside the gain
    detail = {row[0]: row[-1] for row in report.detail_table(_rows()).rows}
    assert "not kept: the steps before it, 18 ms" in detail["precision"]  # its measured reason


def _compile_compared(first_step_s: float):
    """Eager steps of 0.1 s, compiled of 0.08 s (16 sequences of 64 tokens), the compiled runs' first step."""
    from utils.lessons.putting_it_together import ladder

    eager = ladder.Rung("baseline", script.Settings(batch_per_worker=16, context=64), 1, None, "")
    compiled = ladder.Rung("compile", eager.settings.scaled(compile=True), 1, 2.0, "")
    before = [{"tokens_per_s": 1024 / 0.1} for _ in range(3)]
    after = [{"tokens_per_s": 1024 / 0.08, "first_step_s": f} for f in (first_step_s, 0.5, 0.5)]
    return ladder.Compared(compiled, eager, before, after)


def test_compile_is_kept_only_when_the_run_pays_back_the_compile_it_measured():
    from utils.lessons.putting_it_together import ladder

    c = _compile_compared(first_step_s=6.1)  # the slowest first step less an eager one: 6.0 s, 300 steps
    assert c.gain == pytest.approx(1.25)
    short = ladder.Climb(c.kept, {}, {}, 1.0, 96, run_steps=299)
    kept, why = short.verdict(c)
    assert not kept and "= 300 steps" in why and "only 299" in why
    assert ladder.Climb(c.kept, {}, {}, 1.0, 96, run_steps=300).verdict(c)[0]


def test_a_step_that_did_not_pay_says_its_measured_reason():
    from utils.lessons.putting_it_together import ladder

    base = ladder.Rung("baseline", script.Settings(batch_per_worker=16, context=64, width=128), 1, None, "")
    low = ladder.Rung("precision", base.settings.scaled(precision="bf16"), 1, 2.0, "")
    before = [{"tokens_per_s": 1024 / 0.10, "cpu_s": 1.0, "timed_s": 1.0}] * 3
    after = [{"tokens_per_s": 1024 / 0.12, "cpu_s": 1.0, "timed_s": 1.0}] * 3
    kept, why = ladder.Climb(base, {}, {}, 1.0, 96).verdict(ladder.Compared(low, base, before, after))
    # 100.0 / 0.83 = 120.48 -> 120.5: the ms to 0.1, as compile's break-even prints the same median
    assert not kept and "100.0 ms (their median in the same rounds)" in why and "give 120.5 ms a step" in why
    assert "width 128" in why
    two = ladder.Rung("two devices", base.settings.scaled(batch_per_worker=8), 2, 2.0, "")
    after = [{"tokens_per_s": 1024 / 0.12, "cpu_s": 0.6, "timed_s": 1.0}] * 3
    assert "60% of one core" in ladder.why_slower(ladder.Compared(two, base, before, after))


def test_the_held_out_loss_reads_the_same_text_whatever_the_step_s_batch():
    from utils import models
    from utils.lessons.putting_it_together import ladder

    s = script.Settings(width=32, depth=1, heads=2, context=64, max_chars=20_000)
    model = models.small_gpt(ladder.vocab_of(s), seed=0, context=64, width=32, depth=1, heads=2)
    result = {"state": model.state_dict()}
    loss = ladder.held_out_loss(result, s)
    assert loss == pytest.approx(ladder.held_out_loss(result, s.scaled(batch_per_worker=8)))
    assert 3 < loss < 6  # an untrained model's: about ln(vocab)


def test_the_peak_probe_repeats_its_matmul_inside_one_timing():
    import torch

    from utils.lessons.putting_it_together import profile

    one = profile.peak_probe(64, "fp32", torch.device("cpu"))
    many = profile.peak_probe(64, "fp32", torch.device("cpu"), iterations=5)
    assert many.work == 5 * one.work == 5 * 2 * 64**3 and "x 5 in one timing" in many.size
    calls = []
    original = torch.Tensor.__matmul__
    torch.Tensor.__matmul__ = lambda a, b: calls.append(1) or original(a, b)
    try:
        many.make()()
    finally:
        torch.Tensor.__matmul__ = original
    assert len(calls) == 5


def test_the_waterfall_labels_never_overlap():
    import matplotlib.pyplot as plt

    from utils.lessons.putting_it_together import report
    from utils.plots import overlapping_labels

    fig = report.plot_waterfall(_rows(), " (simulated on CPU)")
    try:
        assert overlapping_labels(fig) == []
    finally:
        plt.close(fig)
    # session 50's run: the first step's bound label sat under the legend (the check now counts legends)
    ran = [dict(step="baseline", kept=True, x_prev=1.0, bound=None),
           dict(step="precision", kept=True, x_prev=1.42, bound=2.09, noise=0.05),
           dict(step="two devices", kept=True, x_prev=1.51, bound=2.00, noise=0.11),
           dict(step="compile", kept=False, x_prev=1.01, bound=2.46, noise=0.03)]
    fig = report.plot_waterfall(ran, " (simulated on CPU)")
    assert overlapping_labels(fig) == []


def test_the_gpu_check_judges_lesson_08s_peak_probes():
    from utils.tools import gpu_probes

    assert all(ok for ok, _ in gpu_probes.capstone_peak_verdicts((9, 0), 50e12, 700e12, "bf16", 0.011))
    launch_bound = gpu_probes.capstone_peak_verdicts((9, 0), 200e12, 300e12, "bf16", 2e-6)  # one 512³
    assert [ok for ok, _ in launch_bound] == [False, False]
    assert gpu_probes.capstone_peak_verdicts((6, 1), 10e12, 10e12, "fp16", 0.02)[1][0]  # no tensor cores


# --- Fixed after the second readings: each fails on the ledger's earlier answer -----------------------------

def test_fused_adamw_is_a_step_bounded_by_the_adamw_seconds_it_can_remove():
    """Amdahl with the whole for-loop AdamW step taken off the kept step: 1/(1 - O/T), T from its runs."""
    from utils.lessons.putting_it_together import ladder

    steps = {"optimizer": guide.Step("optimizer", "fused AdamW", "")}
    kept = ladder.Rung("precision", script.Settings(batch_per_worker=16, context=64, precision="bf16"), 1,
                       2.0, "")
    rung = ladder.next_rung("optimizer", kept, steps, {"fp32": 1e11}, 1.0, 96, optimizer_s=0.01)
    assert rung.settings.fused_adamw and not rung.skipped and "1/(1 - O/T)" in rung.bound_what
    before = [{"tokens_per_s": 1024 / 0.1}] * 3  # kept steps of 100 ms: AdamW's 10 ms is 10 % of them
    after = [{"tokens_per_s": 1024 / 0.092}] * 3
    c = ladder.Compared(rung, kept, before, after)
    assert c.bound == pytest.approx(1 / 0.9) and c.gain <= c.bound
    timed = [dict(b, optimizer_s=0.02) for b in before]  # O timed in the kept runs themselves wins: 20 %
    assert ladder.Compared(rung, kept, timed, after).bound == pytest.approx(1 / 0.8)
    assert ladder.diff(kept.settings, rung.settings) == [
        "+ optimizer = torch.optim.AdamW(model.parameters(), lr=lr, fused=True)"]
    assert "optimizer" in ladder.ORDER and ladder.ORDER.index("optimizer") < ladder.ORDER.index("two devices")


def test_the_fused_optimizer_trains_what_the_for_loop_one_trains():
    loop = launch(script.train, TINY, nprocs=1, timeout=60)[0]
    fused = launch(script.train, TINY.scaled(fused_adamw=True), nprocs=1, timeout=60)[0]
    assert fused["losses"] == pytest.approx(loop["losses"], abs=1e-4)
    assert 0 < loop["optimizer_s"] < 1  # the timed steps' optimizer step, on a CPU


def test_the_ledger_s_ceiling_is_the_last_kept_step_at_full_mfu_not_a_product_of_bounds():
    from utils.lessons.putting_it_together import report

    rows = _rows()
    # paired basis: x baseline as printed (1.01 x 1.85 = 1.87) over the last kept step's MFU (25 %)
    assert report.total_bound(rows) == pytest.approx(1.87 / 0.25)
    assert "x baseline / the last kept step's MFU = 1.87 / 0.250 = 7.48x" in report.total_bound_formula(rows)
    said = report.mfu_denominators(rows, {"fp32": 100e9, "bf16": 600e9})
    assert "for baseline and feeding, the fp32 peak (100.0 GFLOP/s)" in said
    assert "2 x the fp32 peak (2 x 100.0 = 200.0 GFLOP/s)" in said


def test_the_baseline_has_one_figure_its_first_run():
    from utils.lessons.putting_it_together import report

    rows = _rows()
    assert rows[0]["tokens_per_s"] == 1000.0  # section 1's run, the figure the lesson quoted first
    first = dict(_BASE, tokens_per_s=900.0)
    again = report.step_rows([first, dict(_BASE)], {}, {}, {}, {"fp32": 1e-3})
    assert again[0]["tokens_per_s"] == 900.0


def test_int8_serving_within_noise_is_not_called_faster():
    from utils.lessons.putting_it_together import report

    times = {"fp32": [1.00, 1.02, 0.98, 1.01, 0.99, 1.03], "int8": [0.99, 1.04, 0.95, 1.00, 1.01, 0.98]}
    serving = {"latency_s": {"fp32": 1.0, "int8": 0.99}, "times": times, "loss": {"fp32": 2.9, "int8": 2.9},
               "bytes": {"fp32": 4, "int8": 1}, "output_error": 0.001, "tolerance": 0.02}
    claim = [c for c in report.claim_rows(_rows(), serving) if "x fp32's speed" in c.claim][0]
    assert "within noise" in claim.verdict and "as fast" not in claim.verdict


def test_the_command_line_is_for_the_planned_run_not_the_ladders_few_steps():
    from utils.lessons.putting_it_together import ladder

    rung = ladder.Rung("compile", script.Settings(steps=16, compile=True), 2, None, "")
    command = ladder.command_line([rung], steps=5000)
    assert "--steps 5000" in command and "--steps 16" not in command and "--compile" in command


# --- One keep rule for every step (session 45's readers) ------------------------------------------------------

def _paired(name: str, ratios: list[float], first_step_s: float = 0.2):
    """A step whose paired rounds gave ``ratios`` (x the kept step of 100 ms), compile's first step 0.2 s."""
    from utils.lessons.putting_it_together import ladder

    kept = ladder.Rung("baseline", script.Settings(batch_per_worker=16, context=64), 1, None, "")
    rung = ladder.Rung(name, kept.settings.scaled(compile=name == "compile"), 1, 2.0, "")
    run = {"cpu_s": 1.0, "timed_s": 1.0, "final_loss": 2.9, "wall_s": 1.0}
    before = [dict(run, tokens_per_s=1024 / 0.1) for _ in ratios]
    after = [dict(run, tokens_per_s=1024 / 0.1 * r, first_step_s=first_step_s) for r in ratios]
    return ladder.Compared(rung, kept, before, after)


def test_a_step_is_kept_only_when_it_paid_beyond_the_noise_of_its_rounds():
    """Median less spread above 1x and more than half the rounds above 1x, for every step alike: the lesson's
    optimizer (1.18, 1.01, 0.97, 1.00: median 1.005x) and compile (0.91, 1.00, 1.01, 1.02) are within noise;
    precision (1.56 ... 1.67) paid."""
    from utils.lessons.putting_it_together import ladder

    assert ladder.paid([1.56, 1.57, 1.67, 1.60]) and ladder.paid([1.34, 1.36, 1.23, 1.28])
    assert not ladder.paid([1.18, 1.01, 0.97, 1.00]) and not ladder.paid([0.91, 1.00, 1.01, 1.02])
    assert not ladder.paid([1.30, 1.20, 0.99, 0.98])  # median 1.095x, but only half the rounds above 1x
    climb = ladder.Climb(ladder.Rung("baseline", script.Settings(), 1, None, ""), {}, {}, 1.0, 96,
                         run_steps=10**6)
    for name, ratios in (("optimizer", [1.18, 1.01, 0.97, 1.00]), ("compile", [0.91, 1.00, 1.01, 1.02])):
        kept, why = climb.verdict(_paired(name, ratios))
        assert not kept and why.startswith("within noise") and ("0.97x" in why or "0.91x" in why)
    kept, why = climb.verdict(_paired("precision", [1.56, 1.57, 1.67, 1.60]))
    assert kept and why == ""
    kept, why = climb.verdict(_paired("compile", [1.20, 1.25, 1.22, 1.30]))  # paid, and pays back its compile
    assert kept and "break-even" in why
    kept, why = climb.verdict(_paired("precision", [0.80, 0.82, 0.79, 0.81]))
    assert not kept and "ms a step; at width" in why  # clearly slower: its measured reason, not "within noise"


def test_the_claims_and_detail_tables_follow_the_keep_rule_and_share_one_figure():
    """A step within noise reads "within noise" in the claims table whatever its median, and the share of the
    bound's gain is computed from the printed figures in both tables."""
    from utils.lessons.putting_it_together import ladder, report

    base = dict(_BASE, tokens_per_s=1024 / 0.1)
    steps = {"optimizer": _paired("optimizer", [1.18, 1.01, 0.97, 1.00]),
             "precision": _paired("precision", [1.56, 1.57, 1.67, 1.60])}
    steps["optimizer"].rung = dataclasses.replace(steps["optimizer"].rung, bound=1.13)
    keep = {n: ladder.paid(c.ratios) for n, c in steps.items()}
    rows = report.step_rows([base], steps, keep, {}, {"fp32": 1e-3}, held_out={"baseline": 2.9, "optimizer": 2.9,
                                                                               "precision": 2.9})
    serving = {"latency_s": {"fp32": 1.0, "int8": 0.99}, "times": {"fp32": [1.0] * 4, "int8": [1.0] * 4},
               "loss": {"fp32": 2.9, "int8": 2.9}, "bytes": {"fp32": 4, "int8": 1}}
    claims = {c.claim: c for c in report.claim_rows(rows, serving)}
    assert claims["optimizer: x previous"].verdict == "within noise: not kept"
    by = {r["step"]: r for r in report.ran(rows)}
    assert by["optimizer"]["share"] is None and not by["optimizer"]["kept"]
    share = claims["precision: x previous"].verdict.split(": ")[1].split("%")[0]
    assert f"{by['precision']['share']:.0%}" == share + "%"


def test_one_printed_loss_gives_one_difference_from_the_baseline():
    """Session 50's reader: precision and compile both printed 2.9679 against the baseline's 2.9701, yet one
    read -0.0023 and the other -0.0022; the difference is worked from the losses as printed."""
    from utils.lessons.putting_it_together import ladder, report

    steps = {"optimizer": _paired("optimizer", [1.56, 1.57, 1.67, 1.60]),
             "precision": _paired("precision", [1.56, 1.57, 1.67, 1.60])}
    keep = {n: ladder.paid(c.ratios) for n, c in steps.items()}
    rows = report.step_rows([dict(_BASE)], steps, keep, {}, {"fp32": 1e-2},
                            held_out={"baseline": 2.97014, "optimizer": 2.96786, "precision": 2.96794})
    by = {r["step"]: r for r in report.ran(rows)}
    assert [f"{by[n]['dloss']:+.4f}" for n in ("optimizer", "precision")] == ["-0.0022", "-0.0022"]
    cells = [str(c) for row in report.detail_table(rows).rows for c in row]
    assert sum("-0.0022 (tol" in c for c in cells) == 2 and not any("-0.0023" in c for c in cells)
    serving = {"latency_s": {"fp32": 1.0, "int8": 0.99}, "times": {"fp32": [1.0] * 4, "int8": [1.0] * 4},
               "loss": {"fp32": 2.9, "int8": 2.9}, "bytes": {"fp32": 4, "int8": 1}}
    claims = {c.claim: c for c in report.claim_rows(rows, serving)}
    assert claims["optimizer: held-out loss at step N"].against == "baseline 2.9701, tolerance 0.01"


# --- Session 45's final reading: the page's figures follow the ladder's decisions -----------------------------

def test_the_keep_rule_holds_on_the_printed_figures():
    """The lesson's optimizer rounds (1.00, 1.07, 0.98, 1.03): median 1.015x, spread 0.015, printed "1.01x ±
    0.02" (half-up): 1.01 - 0.02 is not above 1x, so it is not kept; a clear gain still is."""
    from utils.lessons.putting_it_together import ladder

    assert not ladder.paid([1.00, 1.07, 0.98, 1.03])
    assert ladder.paid([1.05, 1.07, 1.04, 1.06])


def test_a_step_kept_never_reads_within_noise_in_the_claims_table():
    from utils.lessons.putting_it_together import report

    row = {"kept": True, "paid": True}
    for verdict in ("within noise: no effect shown", "slower than the step before: no speed-up",
                    "faster, under the bound: 34% of its gain"):
        said = report.step_verdict(verdict, row)
        assert "within noise" not in said and "slower" not in said and said.startswith("faster beyond noise")
    assert report.step_verdict("within noise: no effect shown", {"kept": False, "paid": False}) == \
        "within noise: not kept"
    assert report.step_verdict("faster, under the bound: 10% of its gain", {"kept": False, "paid": False}) == \
        "within noise: not kept"  # the rounds' majority did not pay
    slower = report.step_verdict("slower than the step before: no speed-up", {"kept": False, "paid": False})
    assert slower.startswith("slower") and slower.endswith("not kept")
    # session 48's reader: 1.07x ± 0.06 against a 1.13x bound read "at the bound (within noise)", a pass mark
    near = report.step_verdict("at the bound (within noise)", {"kept": True, "paid": True, "x_prev": 1.07,
                                                               "bound": 1.13})
    assert near == "faster beyond noise, within noise of its bound: 54% of its gain; kept"
    dropped = {"kept": False, "paid": True, "x_prev": 1.07, "bound": 1.13}
    assert "at the bound" not in report.step_verdict("at the bound (within noise)", dropped)


def test_compile_s_bound_is_one_over_the_kept_step_s_mfu():
    """10.2 GFLOP a worker at 1,400 GFLOP/s = 7.3 ms of a 71 ms kept step: f' = 10.3 %, the bound ~9.7x."""
    from utils.lessons.putting_it_together import ladder

    bound, what = ladder.compile_bound(10.2e9 / 1400e9 / 0.071, "bf16")
    # one over the share as printed (10.3%), so a reader's 1/0.103 finds the printed bound
    assert bound == pytest.approx(1 / 0.103) and "10.3%" in what and "bf16 peak" in what
    assert "at most 9.71x (one over that share)" in what
    assert ladder.compile_bound(None)[0] is None and ladder.compile_bound(math.nan)[0] is None


def test_a_compile_not_kept_prints_its_compile_and_break_even():
    from utils.lessons.putting_it_together import ladder

    climb = ladder.Climb(ladder.Rung("baseline", script.Settings(), 1, None, ""), {}, {}, 1.0, 96,
                         run_steps=10**6)
    kept, why = climb.verdict(_paired("compile", [0.92, 1.00, 0.87, 0.94], first_step_s=2.1))
    assert not kept and "its compile took 2.0 s" in why and "compile never pays back" in why


def test_devices_needed_prints_the_terms_it_uses():
    """The page's "needs N such devices" can be redone from what it prints: 16 B x P over what is left."""
    import re

    from utils.lessons.putting_it_together import fit, plan

    room = 13.5e9
    said = fit.devices_needed_arithmetic(plan.LARGE, room)
    total, usable, acts, gathered = (float(x) for x in re.findall(r"([\d.]+) GB", said)[:4])
    need = fit.devices_needed(plan.LARGE, room)
    assert usable == pytest.approx(13.5) and f"= {need} devices" in said
    assert math.ceil(total / (usable - acts - gathered)) == need


# --- Fixed after session 47's readers ------------------------------------------------------------------------

def test_rounds_are_judged_as_printed_a_round_of_1_00x_did_not_pay():
    """The ledger said "every round of every kept step paid (above 1x)" beside a round printed 1.00x."""
    from utils.lessons.putting_it_together import report

    rows = [{"step": "baseline", "kept": True, "ratios": []},
            {"step": "optimizer", "kept": True, "ratios": [1.11, 1.09, 1.004, 1.14]},
            {"step": "compile", "kept": True, "ratios": [1.09, 1.07, 1.03, 1.02]}]
    assert report.slow_rounds(rows) == ["optimizer 1 of 4 (lowest 1.00x)"]
    assert report.slow_rounds(rows[:1] + rows[2:]) == []
    from utils.lessons.putting_it_together import ladder

    assert not ladder.paid([1.30, 1.20, 1.004, 0.98])  # two of four above 1x as printed, not more than half


def test_x_baseline_multiplies_the_printed_gains_so_a_reader_can_rebuild_it():
    """1.40 x 1.10 x 1.37 = 2.11: the ledger printed 2.12 from unrounded gains."""
    from utils.lessons.putting_it_together import report

    rows = {r["step"]: r for r in _rows()}
    assert rows["two devices"]["x_base"] == pytest.approx(round(rows["feeding"]["x_prev"], 2)
                                                          * round(rows["two devices"]["x_prev"], 2))
    assert report.total_bound(_rows()) == pytest.approx(round(rows["two devices"]["x_base"], 2) / 0.25)


# --- Session 48's final reading: one statistic per verdict, each verdict about what it measured ------------

def test_the_unpaired_ratio_is_the_runs_medians_and_the_gain_the_paired_one():
    """A busy moment that met only the step's runs moves the unpaired ratio of medians, not the paired median:
    the page prints both, and names the first unpaired."""
    c = _paired("compile", [1.00, 1.07, 1.01])
    assert c.gain == pytest.approx(1.01)
    c.before[1]["tokens_per_s"] *= 0.9   # a busy moment met both runs of one round: its paired ratio holds
    c.after[1]["tokens_per_s"] *= 0.9
    assert c.gain == pytest.approx(1.01) and c.unpaired == pytest.approx(c.tokens_per_s / (1024 / 0.1))


def test_the_int8_rows_verdicts_are_about_the_loss_and_the_bytes_not_speed():
    from utils.lessons.putting_it_together import report

    serving = {"latency_s": {"fp32": 1.0, "int8": 0.99}, "times": {"fp32": [1.0] * 4, "int8": [1.0] * 4},
               "loss": {"fp32": 2.9, "int8": 2.9}, "bytes": {"fp32": 400 * 2**10, "int8": 108 * 2**10},
               "output_error": 0.002, "tolerance": 0.05}   # 400 and 108 KiB as printed
    claims = {c.claim: c for c in report.claim_rows(_rows(), serving)}
    loss = claims["int8 serving: held-out loss, output error"]
    assert loss.verdict == "within the tolerance" and "tolerance 5%" in loss.against
    stored = claims["int8 serving: stored weights (x fp32's bytes)"]
    assert stored.measured == "0.27x" and "0.25x" in stored.against
    assert stored.verdict.startswith("smaller: 27% of fp32's bytes") and "not in time" in stored.verdict
    serving["output_error"] = 0.08
    claims = {c.claim: c for c in report.claim_rows(_rows(), serving)}
    assert claims["int8 serving: held-out loss, output error"].verdict.startswith("outside the tolerance")


def test_compile_alone_in_serving_reads_the_same_paired_rounds_as_int8():
    from utils.lessons.putting_it_together import report

    times = {"fp32": [1.0, 2.0, 1.0, 1.0], "fp32 compiled": [0.5, 1.0, 0.5, 0.5], "int8": [0.5] * 4}
    gain, noise = report.serving_gain({"times": times}, "fp32", "fp32 compiled")
    assert gain == pytest.approx(2.0) and noise == pytest.approx(0.0)   # a slow round slowed both alike


# --- Session 48, round 2: the ledger's figures rebuild from the page; a round past a bound is said -------------

def test_x_baseline_is_the_product_of_the_printed_gains_even_when_the_current_one_rounds():
    """1.47 x 1.13 = 1.6611: the page printed 1.65 from the current step's unrounded gain (1.1264)."""
    from utils.lessons.putting_it_together import ladder, report

    kept = ladder.Rung("baseline", script.Settings(), 1, None, "")
    compared, keep = {}, {}
    for name, gain in (("precision", 1.4701), ("optimizer", 1.1264)):
        rung = ladder.Rung(name, kept.settings, 1, 3.0, "")
        compared[name] = ladder.Compared(rung, kept, [dict(_BASE)], [dict(_BASE, tokens_per_s=1000.0 * gain)])
        keep[name], kept = True, rung
    rows = {r["step"]: r for r in report.step_rows([dict(_BASE)], compared, keep, {}, {"fp32": 1e-3})}
    assert f"{rows['optimizer']['x_base']:.2f}" == f"{1.47 * 1.13:.2f}" == "1.66"


def test_a_round_above_its_bound_is_named_though_the_median_is_within_it():
    from utils.lessons.putting_it_together import report

    rows = [{"step": "baseline", "bound": None, "within": True, "ratios": []},
            {"step": "optimizer", "bound": 1.13, "within": True, "ratios": [1.13, 1.07, 1.24]},
            {"step": "two devices", "bound": 2.0, "within": True, "ratios": [1.3, 1.42, 1.24]}]
    [(step, said, finding)] = report.rounds_above_bound(rows)   # no ± recorded: 1.24 - 0.00 is past 1.13
    assert step == "optimizer" and finding and said.startswith("1 of 3 rounds above its bound (highest 1.24x "
                                                               "against 1.13x), beyond its rounds' spread")


def test_the_two_devices_gap_is_set_against_the_all_reduce_the_guide_priced():
    from utils.lessons.putting_it_together import ladder

    import dataclasses

    one = _paired("two devices", [1.30, 1.30, 1.30])
    c = ladder.Compared(dataclasses.replace(one.rung, workers=2), one.kept, one.before, one.after)
    said = ladder.two_devices_gap(c, 3.48e9, 3.225e6, simulated=True)  # 12.9 MB: 3.7 ms on the link
    assert "against 50.0 ms at the bound" in said and "26.9 ms a step the bound does not see" in said
    assert "100% of one core" in said and "That estimate is 14% of the gap" in said and "at most" not in said
    assert "an estimate, not a floor" in said and "(3.48 GB/s)" in said and "cannot tell" in said
    assert "could explain all" in ladder.two_devices_gap(c, 0.3e9, 3.225e6, simulated=False)
    assert "of one core" not in ladder.two_devices_gap(c, None, 3.225e6, simulated=False)
    slower = _paired("two devices", [0.75, 0.75, 0.75])
    slow = ladder.Compared(dataclasses.replace(slower.rung, workers=2), slower.kept, slower.before, slower.after)
    # why_slower says it
    assert "of one core" not in ladder.two_devices_gap(slow, 3.48e9, 3.225e6, simulated=True)


def test_a_step_above_its_bound_says_its_causes_as_candidates_and_what_is_listed():
    """Session 48's reader: the eviction cause was stated as fact, and 'the paired rounds are below' read as
    'below the bound' while the rounds are listed in the block under it."""
    from utils.lessons.putting_it_together import report

    said = report.above_bound("optimizer")
    assert "hypothesis this run does not test" in said and "may also evict" in said
    assert "paired rounds are below" not in said and "one ratio a round, are listed under these lines" in said
    assert "candidate, not tested" in report.above_bound("feeding")
