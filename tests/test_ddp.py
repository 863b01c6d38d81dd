"""Lesson 03 (utils.lessons.ddp): the training function under launch and torchrun (one and two "nodes"), DDP's
gradient against the full batch's, PowerSGD on gloo, the command line, and the sampler replay of the references.

Every test bounds its processes (pytest timeout, launch timeout, subprocess timeout) and leaves none behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest
import torch
from torch.utils.data import DataLoader, DistributedSampler

from utils import article, checkpoint
from utils.claims import as_printed, half_up, printed_ratio
from utils.launch import launch
from utils.lessons.ddp import allreduce, articles, cli, compare, gradients, hooks, overlap, recipe, replay, scaling, stepread
from utils.lessons.ddp.settings import Settings, build_model

REPO = Path(__file__).resolve().parents[1]
# Small enough for seconds on 2 CPU cores; the same on every path so the final losses can be compared.
TINY = Settings(steps=6, batch_per_worker=8, context=32, width=64, depth=2, heads=4, max_chars=50_000,
                    threads=1)
TINY_FLAGS = ["--steps", "6", "--batch-per-worker", "8", "--context", "32", "--width", "64", "--depth", "2",
              "--heads", "4", "--max-chars", "50000", "--threads", "1"]


@pytest.fixture(autouse=True)
def _in_cpu_mode_leaving_nothing(cpu_mode_and_no_leftovers):
    yield


def torchrun_env() -> dict:
    env = {**os.environ, "PYTHONPATH": str(REPO), "TWOGPU_MODE": "cpu"}
    for name in ("TWOGPU_DEVICE", "TWOGPU_BACKEND", "RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"):
        env.pop(name, None)
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def processes(commands: list[list[str]]):
    """Start the commands; on the way out, kill any still running (a failed test leaves nothing)."""
    procs = [subprocess.Popen(c, cwd=REPO, env=torchrun_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for c in commands]
    try:
        yield procs
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
            p.communicate()


@pytest.fixture(scope="module")
def launched_tiny():
    """The reference: the lesson's function launched from Python, as the notebook does."""
    os.environ["TWOGPU_MODE"] = "cpu"
    return launch(recipe.train, TINY, nprocs=2, timeout=120)


# --- The same function under torchrun -----------------------------------------------------------------------


@pytest.mark.timeout(90)
def test_torchrun_single_node_gives_the_notebook_launch_final_loss(tmp_path, launched_tiny):
    out = tmp_path / "result.json"
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2",
               "-m", "utils.lessons.ddp", *TINY_FLAGS, "--out", str(out)]
    with processes([command]) as (proc,):
        _, stderr = proc.communicate(timeout=80)
    assert proc.returncode == 0, stderr[-3000:]
    result = json.loads(out.read_text())
    assert result["world_size"] == 2
    assert result["final_loss"] == pytest.approx(launched_tiny[0]["final_loss"], abs=1e-6)
    assert result["losses"] == pytest.approx(launched_tiny[0]["losses"], abs=1e-6)


@pytest.mark.timeout(90)
def test_two_torchrun_agents_as_two_nodes_give_the_same_result(tmp_path, launched_tiny):
    port = free_port()
    commands = []
    for node in (0, 1):
        commands.append([sys.executable, "-m", "torch.distributed.run", "--nnodes", "2", "--node-rank", str(node),
                         "--nproc-per-node", "1", "--rdzv-backend", "c10d", "--rdzv-endpoint", f"127.0.0.1:{port}",
                         "--rdzv-id", "test-two-nodes", "--rdzv-conf", f"is_host={'true' if node == 0 else 'false'}",
                         "-m", "utils.lessons.ddp", *TINY_FLAGS, "--out", str(tmp_path / f"node-{node}.json")])
    with processes(commands) as procs:
        outputs = [p.communicate(timeout=80) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], "\n".join(err[-2000:] for _, err in outputs)
    written = list(tmp_path.glob("node-*.json"))
    assert len(written) == 1  # only global rank 0 writes, wherever it ran
    result = json.loads(written[0].read_text())
    assert result["world_size"] == 2
    assert result["final_loss"] == pytest.approx(launched_tiny[0]["final_loss"], abs=1e-6)


# --- Gradients, hooks --------------------------------------------------------------------------------------


@pytest.mark.timeout(60)
def test_ddp_gradients_equal_single_process_full_batch_gradients():
    s = TINY.scaled(batch_per_worker=4, accumulate=2, device="cpu")
    grads = launch(gradients.ddp_gradients, s, nprocs=2, timeout=50)
    reference = gradients.full_batch_gradient(s)
    assert torch.equal(grads[0], grads[1])
    assert (grads[0] - reference).abs().max().item() < 1e-6


@pytest.mark.timeout(60)
def test_powersgd_with_explicit_bucket_cap_finishes_on_gloo_and_sends_less():
    plain, compressed = (launch(recipe.train, TINY.scaled(**kw), nprocs=2, timeout=50)[0]
                         for kw in ({}, {"hook": "powersgd", "bucket_cap_mb": 25}))
    assert compressed["bytes_per_step"] < plain["bytes_per_step"] / 5
    assert abs(compressed["final_loss"] - plain["final_loss"]) < 0.2


def test_the_busbw_trend_says_whether_the_curve_flattens_and_names_wide_repeats():
    row = lambda n, t, lo, hi: {"bytes": n, "seconds": t, "low": lo, "high": hi, "busbw": n / t}
    rising = [row(2**20, 3.65e-3, 0.78e-3, 3.87e-3), row(2**22, 3.72e-3, 2.6e-3, 4e-3),
              row(2**24, 9.99e-3, 9e-3, 1e-2)]
    assert allreduce.trend(rising).startswith("The curve is still rising")
    assert allreduce.largest(rising)["bytes"] == 2**24
    flat = [row(2**22, 2e-3, 2e-3, 2e-3), row(2**24, 7.8e-3, 7.8e-3, 7.8e-3)]
    assert allreduce.trend(flat).startswith("The curve levels off from 4 MiB (within 10%)")
    (wide,) = allreduce.outliers(rising)
    assert wide == "1 MiB: median 3.65 ms, repeats 0.780-3.87 ms"  # as the table prints each (ms_text)
    falling = [row(2**22, 2e-3, 2e-3, 2e-3), row(2**24, 12e-3, 12e-3, 12e-3)]
    assert allreduce.trend(falling).startswith("busbw falls after its peak")
    assert "beyond the repeats' ranges" in allreduce.trend(falling)


def test_the_busbw_curve_is_read_by_its_peak_whatever_its_shape():
    row = lambda n, t, lo, hi: {"bytes": n, "seconds": t, "low": lo, "high": hi, "busbw": n / t}
    # lesson 03's run: a peak at 1 MiB, lower at 3.15 and 4 MiB, up again at 16 MiB, every repeat spread widely
    run = [row(2**18, 0.41e-3, 0.31e-3, 4.11e-3), row(2**20, 0.56e-3, 0.54e-3, 3.30e-3),
           row(3_303_424, 3.02e-3, 1.22e-3, 4.77e-3), row(2**22, 4.14e-3, 2.37e-3, 5.50e-3),
           row(2**24, 11.99e-3, 11.12e-3, 14.58e-3)]
    assert allreduce.peak(run)["bytes"] == 2**20 and allreduce.largest(run)["bytes"] == 2**24
    said = allreduce.trend(run)
    assert said.startswith("busbw reads lower after its peak") and "peaks at 1.87 GB/s at 1 MiB" in said
    assert "1.01 GB/s at 4 MiB" in said and "may be noise" in said and "still rising" not in said
    level = [row(2**20, 1e-3, 1e-3, 1e-3), row(2**22, 3.9e-3, 3.9e-3, 3.9e-3), row(2**24, 17e-3, 17e-3, 17e-3)]
    assert allreduce.trend(level).startswith("The curve levels off from 4 MiB")
    # a fall, then the largest size back within 10% of the peak: a dip, not a fall
    dip = [row(2**20, 1e-3, 1e-3, 1e-3), row(2**22, 6e-3, 6e-3, 6e-3), row(2**24, 16.5e-3, 16.5e-3, 16.5e-3)]
    said = allreduce.trend(dip)
    assert said.startswith("busbw dips after its peak and recovers") and "falls" not in said


def test_a_change_that_rounds_to_zero_carries_no_sign():
    # medians 101.1 and 100.95: both print 101 (the reading divides the printed figures)
    rows = {"ref": {"samples_per_s": [100, 101, 101.2, 103], "bytes_per_step": 4},
            "same": {"samples_per_s": [100, 100.9, 101.0, 103], "bytes_per_step": 2}}
    (line,) = compare.reading(rows, "ref")
    assert line.startswith("same: 0% samples/s (no change") and "-0%" not in line and "+0%" not in line


def test_a_hook_change_is_worked_from_the_samples_per_s_as_printed():
    # the table prints whole samples/s: 103 against 100 reads +3%, not +2% from 102.6 / 100.4
    rows = {"ref": {"samples_per_s": [100.4] * 5, "bytes_per_step": 4},
            "hook": {"samples_per_s": [102.6] * 5, "bytes_per_step": 4}}
    (line,) = compare.reading(rows, "ref")
    assert line.startswith("hook: +3% samples/s") and "beyond the noise" in line and "the same bytes" in line
    rows["hook"]["samples_per_s"] = [100.2] * 5  # prints 100, as the reference: no change at this rounding
    (line,) = compare.reading(rows, "ref")
    assert line.startswith("hook: 0% samples/s") and "within the step-to-step noise" in line


def test_a_larger_message_that_took_less_time_is_read_as_noise_or_as_a_change_of_regime():
    row = lambda n, t, lo, hi: {"bytes": n, "seconds": t, "low": lo, "high": hi}
    noisy = [row(4096, 4e-4, 2e-4, 9e-4), row(16384, 3e-4, 2e-4, 5e-4), row(65536, 5e-4, 4e-4, 6e-4)]
    (line,) = allreduce.inversions(noisy)
    assert line.startswith("16 KiB took less than 4 KiB (0.300 against 0.400 ms)") and "within noise" in line
    (line,) = allreduce.inversions([row(2**18, 3e-3, 2.8e-3, 3.2e-3), row(2**20, 1e-3, 0.9e-3, 1.1e-3)])
    assert "regime changes" in line
    assert allreduce.inversions([row(4096, 1e-4, 1e-4, 1e-4), row(8192, 2e-4, 2e-4, 2e-4)]) == []
    (line,) = allreduce.inversions([row(3_303_424, 3e-3, 2e-3, 4e-3), row(2**22, 2e-3, 1e-3, 3e-3)])
    assert line.startswith("4 MiB took less than 3.15 MiB")  # the size the table names, not a rounded one


def test_busbw_factor_and_command_line_settings():
    assert allreduce.busbw_factor(2) == 1.0 and allreduce.busbw_factor(8) == pytest.approx(1.75)
    s, out = cli.parse_settings(TINY_FLAGS + ["--hook", "fp16", "--progress", "--out", "x.json"])
    assert s == TINY.scaled(hook="fp16", progress=True) and out == "x.json"


def test_an_unknown_hook_is_named_before_anything_runs():
    with pytest.raises(ValueError, match="hook must be one of .*'powersgd'.*got 'int8'"):
        hooks.register_hook(None, "int8")


# --- Resume, on the parameters' device (issue 12: resume crashed on GPUs) ---------------------------------------


def test_resume_restores_the_optimizer_state_where_the_parameters_are(tmp_path):
    """``recipe.build`` moves the model, builds the optimizer, then resumes: AdamW's state lands on the device.

    The ``meta`` device stands in for a GPU. Resumed before the move, the state would stay on the CPU and the
    first step after a restart on a GPU would fail with a device mismatch.
    """
    s = TINY.scaled(checkpoint=str(tmp_path / "gpt.pt"))
    vocab = 40
    model = build_model(s, vocab)
    optimizer = torch.optim.AdamW(model.parameters(), lr=s.lr)
    x = torch.randint(0, vocab, (2, s.context))
    model.loss(x, x).backward()
    optimizer.step()
    checkpoint.save(s.checkpoint, model, optimizer, step=3)
    with warnings.catch_warnings():  # loading into meta parameters is a no-op, and torch says so
        warnings.simplefilter("ignore")
        model, optimizer, start = recipe.build(s, vocab, torch.device("meta"))
    state = [t for per_param in optimizer.state.values() for k, t in per_param.items() if k != "step"]
    assert start == 3 and state
    assert {t.device.type for t in state} == {"meta"} == {p.device.type for p in model.parameters()}


# --- Hooks compared in one launch; bf16 on gloo; the scaling runs' backend -------------------------------------


@pytest.mark.timeout(90)
def test_hooks_compared_in_one_launch_on_the_same_batches_bf16_included_on_gloo():
    variants = {name: TINY.scaled(hook=name, bucket_cap_mb=25, warmup_steps=2) for name in ("allreduce", "bf16")}
    result = launch(compare.compare_hooks, variants, nprocs=2, timeout=80)[0]
    fp32, bf16 = result["allreduce"], result["bf16"]
    assert len(fp32["samples_per_s"]) == len(bf16["samples_per_s"]) == TINY.steps - 2
    assert bf16["bytes_per_step"] == fp32["bytes_per_step"] / 2  # gloo all-reduced bfloat16
    assert abs(bf16["final_loss"] - fp32["final_loss"]) < 0.05
    lines = compare.reading(result, "allreduce")
    assert len(lines) == 1 and lines[0].startswith("bf16: ") and "2.0x fewer bytes" in lines[0]


@pytest.mark.timeout(90)
def test_ddp_builtin_reduction_sends_what_the_python_allreduce_hook_sends():
    variants = {name: TINY.scaled(hook=name, warmup_steps=2) for name in ("none", "allreduce")}
    result = launch(compare.compare_hooks, variants, nprocs=2, timeout=80)[0]
    from utils.lessons.ddp.settings import text_data
    model = build_model(TINY, text_data(TINY).corpus.vocab_size)
    gradient_bytes = sum(4 * p.numel() for p in model.parameters())  # fp32: what both reduce each step
    assert result["none"]["bytes_per_step"] == result["allreduce"]["bytes_per_step"] == gradient_bytes
    assert result["none"]["final_loss"] == pytest.approx(result["allreduce"]["final_loss"], abs=1e-5)


def test_hook_variants_may_differ_only_in_the_hook():
    with pytest.raises(ValueError, match="differs in \\['batch_per_worker'\\]"):
        compare.compare_hooks({"a": TINY, "b": TINY.scaled(hook="fp16", batch_per_worker=4)})


def test_one_and_two_workers_are_timed_on_the_backend_given(monkeypatch):
    seen = []

    def fake_launch(fn, s, nprocs, backend, timeout):
        seen.append((nprocs, backend))
        return [{"samples_per_s": 100.0 * nprocs, "timed_s": 1.0, "cpu_s": 1.1}] * nprocs

    monkeypatch.setattr(scaling, "launch", fake_launch)
    r = scaling.scaling(TINY, "gloo", bound=2.0, rounds=2)
    assert seen == [(1, "gloo"), (2, "gloo"), (2, "gloo"), (1, "gloo")]  # paired rounds, the order alternates
    assert r["ratios"] == [2.0, 2.0] and r["ratio"] == 2.0 and r["bound"] == 2.0 and not r["above"]
    # 2.2 CPU s for 200 samples against 1.1 s for 100: the same work per sample, the bound unchanged
    assert r["work_ratio"] == pytest.approx(1.0) and r["work_bound"] == pytest.approx(2.0)


def test_the_work_scaled_reference_never_passes_the_bound_and_says_what_w_is(monkeypatch):
    cpu = iter([1.0, 0.99, 0.98, 1.0])  # CPU s per sample, rounds (1, 2) then (2, 1): less work with two
    monkeypatch.setattr(scaling, "measure", lambda s, n, backend, timeout: {"samples_per_s": 100.0 * n,
                                                                            "cpu_per_sample": next(cpu)})
    r = scaling.scaling(TINY, "gloo", bound=2.0, rounds=2)
    assert r["work_ratio"] < 1 and r["work_bound"] == 2.0  # less work adds no device: the bound itself
    assert "reference is the bound itself, 2.00x" in scaling.verdict(r)
    more = dict(r, work_ratio=1.1, work_bound=2.0 / 1.1)
    assert "reference is 2.00x / 1.10 = 1.82x" in scaling.verdict(more) and "CPU time per sample" in scaling.verdict(more)
    assert "at most" not in scaling.verdict(more)  # measured: a reference, never a ceiling


def test_the_work_scaled_reference_is_worked_from_w_as_printed_and_rounds_above_it_are_named():
    # Reader (session 50): "at most 2x / 1.02 = 1.95x" (w really 1.024) beside a 2.00x round
    assert scaling.work_reference(2.0, 1.024) == pytest.approx(2.0 / 1.02)  # 1.96x: the sum checks as printed
    assert scaling.work_reference(2.0, 0.94) == 2.0 and scaling.work_reference(2.0, None) is None
    r = {"ratios": [348.5 / 174.3, 1.82, 1.73], "ratio": 1.82, "low": 1.73, "high": 348.5 / 174.3, "bound": 2.0,
         "above": [], "work_ratio": 1.024, "work_bound": scaling.work_reference(2.0, 1.024)}
    line = scaling.verdict(r)
    assert "2.00x / 1.02 = 1.96x" in line and "at most" not in line and "a round may pass it" in line
    assert "above the 1.96x reference: 2.00x (round 1)" in line and "kept in the median" not in line
    under = dict(r, ratios=[1.90, 1.82, 1.73], high=1.90)  # no round passes it: none named
    assert "above the 1.96x reference" not in scaling.verdict(under)
    same = dict(r, work_ratio=0.98, work_bound=2.0)  # the reference is the bound: rounds above the bound only
    assert scaling.above_reference(same) == []


def test_section_2s_ratio_is_reconciled_with_the_paired_one_from_the_figures():
    r = {"ratio": 1.88, "one": 189.0, "two": 355.0}
    line = scaling.against_one_process(r, 364.0, 269.0, "2 thread(s)")
    assert "Section 2 measured 1.35x, this section 1.88x" in line and "ran 1.42x one worker's rate" in line
    assert "agree within 10% (364 and 355.0 samples/s): the gap is the references'" in line
    neither = scaling.against_one_process(r, 364.0, 192.0, "2 thread(s)")
    assert "agree within 5% (192 and 189.0 samples/s: section 2's process ran at one worker's rate)" in neither
    assert "neither differs beyond those lines" in neither and "load" not in neither
    both = scaling.against_one_process(r, 300.0, 269.0, "2")  # 0.85x: beyond 10%, within the 20% line
    assert ("the two-worker figures differ (300 against 355.0 samples/s, 0.85x: beyond the 10% line for a "
            "difference, within the 20% line for a change of load): both differ") in both
    assert "not told apart here" in both and "load changed" not in both
    assert "different single runs" not in line + neither + both  # said only where the references differ


def test_the_same_setting_far_apart_in_two_sections_says_the_load_changed():
    """Lesson 03, seventh reading: 329 samples/s in section 2 and 181 in section 3 for one two-worker setting,
    references 183 and 192 (within 5%). The line named the references as differing, gave a run-length
    cause, and the headline went to the ledger as DDP's figure."""
    r = {"ratio": 0.96, "one": 192.3, "two": 181.3, "twos": [181.3, 181.1, 187.4]}
    line = scaling.against_one_process(r, 329.4, 183.2, "the launcher's 2 thread(s)", (1.9, 5.3), 2)
    assert "references agree within 5% (183 and 192.3 samples/s" in line and "so do the references" not in line
    assert "the two-worker figures differ (329 against 181.3 samples/s, 1.81x): the gap is the two-worker" in line
    assert "ran 1.81x apart in two runs of this notebook, beyond the 20% line" in line
    assert "the machine's load changed between the runs (load average over the last minute: 1.9 after " \
           "section 2's run, 5.3 after this section's rounds, on 2 cores)" in line
    assert "headline is not comparable" in line and "one run of its own length" not in line
    assert scaling.load_changed(329.4, r)
    assert "329 samples/s in section 2 and 181.3 in section 3" in scaling.disturbed_note(329.4, r)
    assert "load average" not in scaling.against_one_process(r, 329.4, 183.2, "2", None, 2)  # no OS figure
    # the other outcome: far from the median, but inside the rounds' own range: the rounds spread that far
    wide = dict(r, twos=[181.3, 120.0, 340.0])
    assert not scaling.load_changed(329.4, wide)
    assert "inside the rounds' own range, 120.0-340.0 samples/s" in scaling.against_one_process(wide, 329.4, 183.2, "2")
    assert not scaling.load_changed(200.0, r)  # 1.10x: within the line
    # on GPUs section 2 runs deterministic kernels: another setting, so its rate says nothing of the load
    gpu = "section 2's run used deterministic kernels (section 7 needs them)"
    assert not scaling.load_changed(329.4, r, gpu)
    other = scaling.against_one_process(r, 329.4, 183.2, "2", (1.9, 5.3), 2, gpu)
    assert "1.81x apart, but section 2's run used deterministic kernels" in other and "load changed" not in other


def test_a_disturbed_headline_is_marked_in_the_ledger_and_an_undisturbed_one_is_not(monkeypatch, tmp_path):
    from utils import ledger

    monkeypatch.setenv(ledger.ENV, str(tmp_path))  # never the committed ledger
    r = {"ratio": 0.96, "bound": 2.0}
    scaling.record_headline(r, "not comparable: the machine's load changed; rerun")
    kept = ledger.figure("ddp_speedup")
    assert kept["value"] == 0.96 and kept["disturbed"].startswith("not comparable")
    assert "load changed" in kept["what"]
    scaling.record_headline(dict(r, ratio=1.8))  # a quiet re-run replaces the record, mark and all
    kept = ledger.figure("ddp_speedup")
    assert kept["value"] == 1.8 and "disturbed" not in kept
    assert kept["what"] == "2 workers against 1, median of paired rounds"


def test_the_rows_where_the_rank_shown_waited_are_counted_from_the_run():
    """Lesson 03 cell 37 said the rank shown is "often" the one that waited; the run showed it in 1 of 4 rows."""
    seen = overlap.shown_rank_waited([-1.2, -4.3, -4.2, 2.3])
    assert "finished its backward first (and waited for the other at the last all-reduce) in 1 of 4 rows; " \
           "in 3 the other rank did" in seen
    assert "in 2 of 3 rows; in 0 the other rank did; in 1 the two were level (0.0 ms apart as printed)" in \
        overlap.shown_rank_waited([1.0, 0.0, 2.0])
    # Reader t8_0304 #2: a lag printed as 0.1 ms is a wait, and the tie is the printed zero only, so the two
    # groups never overlap (the run counted 0.1 ms as waited beside "within 0.1 ms")
    seen = overlap.shown_rank_waited([0.0, 4.7, 0.1, 2.4])
    assert "in 3 of 4 rows; in 0 the other rank did; in 1 the two were level" in seen
    assert "within 0.1 ms" not in seen


def test_the_exposed_time_verb_and_the_forward_backward_change_come_from_the_printed_figures():
    """Reader t8_0304 #1: cell 38 printed "the exposed time fell from 5.8 ms to 11.9 ms" (it rose)."""
    assert overlap.exposed_change(5.8e-3, 11.9e-3) == "rose from 5.8 ms to 11.9 ms"
    assert overlap.exposed_change(11.9e-3, 5.8e-3) == "fell from 11.9 ms to 5.8 ms"
    assert overlap.exposed_change(5.81e-3, 5.79e-3) == "stayed at 5.8 ms"  # equal as printed
    assert overlap.longer_or_shorter(11.0) == "11.0 ms longer"
    assert overlap.longer_or_shorter(-2.3) == "2.3 ms shorter"  # never "-2.3 ms longer"
    assert overlap.longer_or_shorter(0.0).startswith("no longer")


def test_a_round_above_the_bound_is_reported_and_counted_never_left_out(monkeypatch):
    rates = iter([100.0, 150.0, 150.0, 100.0, 60.0, 150.0])  # rounds: 1.5x, 1.5x, then 2.5x
    monkeypatch.setattr(scaling, "measure", lambda s, n, backend, timeout: {"samples_per_s": next(rates),
                                                                            "cpu_per_sample": None})
    r = scaling.scaling(TINY, "gloo", bound=2.0, rounds=3)
    assert r["ratios"] == [1.5, 1.5, 2.5] and r["ratio"] == 1.5 and r["above"] == [2.5]
    assert (r["low"], r["high"]) == (1.5, 2.5) and r["work_bound"] is None
    assert "kept in the median: 2.50x" in scaling.verdict(r) and "every round 1.50-2.50x" in scaling.verdict(r)


def test_where_ranks_share_a_device_1x_is_an_expectation_not_a_bound(monkeypatch):
    monkeypatch.setattr(scaling, "measure", lambda s, n, backend, timeout: {"samples_per_s": 100.0 + n,
                                                                            "cpu_per_sample": None})
    r = scaling.scaling(TINY, "gloo", bound=1.0, rounds=1, is_bound=False)
    assert r["above"] == [1.01] and "expectation" in scaling.verdict(r)  # 102 / 101, half up as printed


def test_the_trap_is_told_from_its_count():
    assert hooks.trap_outcomes(["ran"] * 3).startswith("0/3 aborted, 0/3 hung, 3/3 ran: the race did not strike")
    assert "struck in 2 of 3" in hooks.trap_outcomes(["aborted", "hung", "ran"])


# --- The articles' code, as the lesson shows it ---------------------------------------------------------------


@pytest.mark.timeout(60)
def test_the_undefined_loop_raises_what_the_article_would():
    with pytest.raises(Exception, match="NameError: name 'data_loader' is not defined"):
        launch(articles.article_ddp, 5, nprocs=2, timeout=50)


@pytest.mark.timeout(60)
def test_the_second_device_demo_runs_in_a_worker_and_shows_the_device_error():
    with pytest.raises(article.RaisedInWorker, match="not on the expected device") as raised:
        article.run_in_worker(articles.batch_left_behind, ("cpu", "cpu"))
    assert raised.value.type_name == "RuntimeError" and raised.value.where


def test_the_notebook_moves_nothing_to_a_device_itself():
    """On GPUs the second-device demo starts CUDA: in the notebook process it would stop every forked launch."""
    nb = json.loads((REPO / "notebooks" / "03_ddp.ipynb").read_text())
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    assert ".to(OTHER)" not in code and "article.run_in_worker(articles.batch_left_behind" in code


def test_command_flags_give_back_the_settings():
    s = TINY.scaled(hook="fp16", deterministic=True)
    assert cli.parse_settings(cli.command_flags(s).split())[0] == s


# --- The sampler replay that single-process references train on (labs 00 and 03) -------------------------------


@pytest.mark.parametrize("n_items, batch_size", [(100, 8), (37, 4)])
def test_replayed_batches_are_what_each_ranks_loader_hands_out(n_items, batch_size):
    """Rank by rank, epoch after epoch: DistributedSampler + set_epoch + DataLoader(drop_last=True)."""
    count, world, seed = 20, 2, 3  # 20 batches: more than three epochs of either size
    loaded = []
    for rank in range(world):
        sampler = DistributedSampler(range(n_items), num_replicas=world, rank=rank, shuffle=True, seed=seed,
                                     drop_last=True)
        loader = DataLoader(range(n_items), batch_size=batch_size, sampler=sampler, drop_last=True)
        rows = []
        for epoch in range(8):
            sampler.set_epoch(epoch)
            rows += [batch.tolist() for batch in loader]
        loaded.append(rows[:count])
        assert replay.sampler_batches(n_items, batch_size, rank, world, seed, count) == rows[:count]
    assert replay.global_batches(n_items, batch_size, world, seed, count) == [a + b for a, b in zip(*loaded)]


def test_micro_batches_resumed_at_a_step_continue_the_uninterrupted_stream():
    """A restart that resumes at micro-batch 7 (mid-epoch 1 here) sees what the uninterrupted run saw next."""
    sampler = DistributedSampler(range(50), num_replicas=2, rank=1, shuffle=True, seed=0, drop_last=True)
    loader = DataLoader(range(50), batch_size=4, sampler=sampler, drop_last=True)  # 25 items: 6 batches an epoch
    stream = recipe.micro_batches(loader, sampler)
    uninterrupted = [next(stream).tolist() for _ in range(15)]
    resumed = recipe.micro_batches(loader, sampler, start=7)
    assert [next(resumed).tolist() for _ in range(8)] == uninterrupted[7:]


# --- Data parallelism by hand; DDP's buckets on a timeline ------------------------------------------------------


@pytest.mark.timeout(60)
def test_data_parallelism_by_hand_gives_ddps_gradient():
    s = TINY.scaled(batch_per_worker=4, accumulate=2, device="cpu")
    by_hand = launch(overlap.by_hand_gradients, s, nprocs=2, timeout=50)
    ddp = launch(gradients.ddp_gradients, s, nprocs=2, timeout=50)
    assert torch.equal(by_hand[0], by_hand[1])
    assert (by_hand[0] - ddp[0]).abs().max().item() < 1e-6
    assert (by_hand[0] - gradients.full_batch_gradient(s)).abs().max().item() < 1e-6


@pytest.mark.timeout(60)
def test_the_timeline_counts_one_message_per_tensor_by_hand_and_one_per_bucket_with_ddp():
    s = TINY.scaled(device="cpu", bucket_cap_mb=0.05)
    tensors = len(list(build_model(s, 100).parameters()))
    by_hand, ddp = (launch(overlap.timeline, s, use_ddp, 3, nprocs=2, timeout=50) for use_ddp in (False, True))
    assert by_hand[0]["messages"] == tensors
    assert 1 < ddp[0]["messages"] < tensors  # several buckets, fewer than tensors
    for ranks in (by_hand, ddp):
        rows = {span["device"] for r in ranks for span in r["spans"]}
        assert rows == {"rank 0 all-reduce", "rank 0 forward+backward", "rank 1 all-reduce",
                        "rank 1 forward+backward"}
        assert all(r["compute"] > 0 and r["step"] >= r["compute"] and r["exposed"] >= 0 for r in ranks)
        wait = overlap.waiting(ranks)  # the slowest rank's wait for the other: never more than it measured
        slow = overlap.slowest(ranks)
        assert 0 <= wait["exposed"] <= slow["exposed"] and 0 <= wait["in_calls"]
        assert len(slow["steps"]) == 2 and len(slow["steps"][0]["calls"]) == slow["messages"]


def test_the_notebook_and_the_benchmark_time_scaling_alike():
    import nbformat

    settings_cell = nbformat.read(REPO / "notebooks/03_ddp.ipynb", 4).cells[2].source
    values = dict(line.split("#")[0].replace(" ", "").split("=") for line in settings_cell.splitlines()
                  if line.split("=")[0].strip() in ("WARMUP_STEPS", "SCALING_STEPS", "SCALING_ROUNDS"))
    assert (int(values["WARMUP_STEPS"]), int(values["SCALING_STEPS"]), int(values["SCALING_ROUNDS"])) == \
        (scaling.WARMUP_STEPS, scaling.TIMED_STEPS, scaling.ROUNDS)


def test_no_code_of_the_course_asks_a_process_group_for_avg():
    """Gloo's ReduceOp.AVG returns wrong averages silently (PyTorch issue 162338): the course sums, then
    divides by the world size. No module of utils/ may ask any backend for AVG."""
    root = Path(__file__).resolve().parents[1] / "utils"
    offenders = [str(p.relative_to(root)) for p in root.rglob("*.py")
                 if "ReduceOp.AVG" in p.read_text() or "ReduceOp\n.AVG" in p.read_text()]
    assert offenders == []


def test_the_ddp_picture_labels_never_overprint():
    from utils.lessons.ddp import picture
    from utils.plots import labels_outside, overlapping_labels

    fig = picture.plot_ddp_step()
    assert overlapping_labels(fig) == [] and labels_outside(fig) == []


def test_the_canonical_recipe_holds_no_course_instrumentation():
    import inspect

    from utils.lessons.ddp import canonical

    source = inspect.getsource(canonical.main)
    for course_only in ("keep_until_exit", "Meter", "ByteCounter", "checkpoint", "register_hook", "progress"):
        assert course_only not in source
    for step in ("init_process_group", "DistributedSampler", "set_epoch", "DDP(", "optimizer.step()",
                 "destroy_process_group"):
        assert step in source


@pytest.mark.timeout(120)
def test_the_knobs_measure_memory_exactly_and_time_every_variant(cpu_mode_and_no_leftovers):
    from utils.launch import launch
    from utils.lessons.ddp import knobs

    got = launch(knobs.measure_knobs, TINY.scaled(threads=1), 1, nprocs=2, timeout=100)[0]
    assert set(got["times"]) == set(knobs.VARIANTS) and all(len(t) == 1 for t in got["times"].values())
    assert got["grad_copy_bytes"] == {False: got["grad_bytes"], True: 0}  # the view saves one whole copy
    plain, sharded = got["optimizer_bytes"]["AdamW"], got["optimizer_bytes"]["ZeRO-1"]
    assert plain == 2 * got["grad_bytes"] and 0.3 * plain < sharded < 0.7 * plain  # two moments; about half
    assert set(got["buckets"]) == set(knobs.VARIANTS)  # counts from DDP's log, None where it logs no rebuild
    assert all(n is None or n >= 1 for n in got["buckets"].values())


def test_knob_rows_that_print_alike_are_explained_and_others_are_not():
    from utils.lessons.ddp import knobs

    # lesson 03 once printed three identical rows with no word on why
    rows = [("defaults", "80", "77-84"), ("bucket_cap_mb=1", "80", "77-84"), ("bucket_cap_mb=4", "80", "77-84"),
            ("static_graph=True", "88", "79-94")]
    note = knobs.identical_rows_note(rows, {"defaults": 2, "bucket_cap_mb=1": 4, "bucket_cap_mb=4": 1,
                                            "static_graph=True": None})
    assert note.startswith("defaults, bucket_cap_mb=1, bucket_cap_mb=4 print the same figures")
    assert "2, 4, 1 bucket(s), so the settings did change the buckets" in note and "static_graph" not in note
    same_buckets = knobs.identical_rows_note(rows[:2], {"defaults": 2, "bucket_cap_mb=1": 2})
    assert "rounds to whole ms" in same_buckets and "bucket(s)" not in same_buckets
    assert knobs.identical_rows_note([("defaults", "80", "77-84"), ("x", "81", "77-84")], {}) == ""


def test_a_step_difference_under_the_noise_reads_within_noise():
    # a step ratio (the other way's step over this one's) against the noise: 57.2 / 56.7 ms is 1.01x, within 5%
    assert stepread.read_ratio(57.2 / 56.7, 0.05) == "within noise"
    assert stepread.read_ratio(57.2 / 50.0, 0.05) == "shorter"
    assert stepread.read_ratio(57.2 / 65.0, 0.05) == "longer"
    assert stepread.read_ratio(57.2 / 50.0, 0.21) == "within noise"


def _ranks(ready0, ready1, starts1=None, steps0=None, steps1=None):
    """Two ranks' timeline results with these per-step ready times (ms since each rank's start)."""
    starts1 = starts1 or [0.0] * len(ready0)
    out = []
    for rank, ready, starts, steps in ((0, ready0, [0.0] * len(ready0), steps0), (1, ready1, starts1, steps1)):
        steps = steps or [90.0] * len(ready)
        out.append({"rank": rank, "step": sorted(steps)[len(steps) // 2] / 1e3, "exposed": 0.005,
                    "steps": [{"start": s / 1e3, "ready": r / 1e3, "step": t / 1e3, "calls": {}}
                              for s, r, t in zip(starts, ready, steps)]})
    return out


def test_the_chart_and_the_waits_read_the_same_step_and_name_the_rank_that_waited():
    # lesson 03 once drew the last step (rank 1 waited) beside medians in which rank 0 waited
    ranks = _ranks([80, 82, 81, 86, 80], [83, 84, 79, 80, 83])  # lags 3, 2, -2, -6, 3 ms: median 2 ms, step 2
    k = overlap.drawn_step(ranks)
    assert k == 1
    assert overlap.who_waited(ranks, k) == {"waited": 0, "late": 1, "lag": pytest.approx(0.002)}
    ranks[0]["step"] = 0.095  # rank 0 the slowest: the median of rank 1's lag behind it is the drawn step's
    wait = overlap.waiting(ranks)
    assert (wait["me"], wait["other"]) == (0, 1) and wait["lag"] == pytest.approx(0.002)
    ranks[0]["step"], ranks[1]["step"] = 0.090, 0.095  # rank 1 the slowest: the same step, read from its side
    wait = overlap.waiting(ranks)
    assert wait["lag"] == pytest.approx(-0.002) and wait["exposed"] == 0.0  # rank 0 waited, not rank 1


def test_the_waits_in_calls_are_read_for_both_ranks():
    # lesson 03 once printed rank 1 waiting 0.9 ms in its calls beside "rank 0 waited": both ranks' waits now
    ranks = _ranks([80], [83])
    ranks[0]["steps"][0]["calls"] = {0: 0.080, 1: 0.084}  # rank 0 starts call 0 3 ms before rank 1
    ranks[1]["steps"][0]["calls"] = {0: 0.083, 1: 0.083}  # and call 1 1 ms after it
    ranks[1]["step"] = 0.095  # rank 1 shown
    wait = overlap.waiting(ranks)
    assert wait["me"] == 1 and wait["in_calls"] == pytest.approx(0.001)
    assert wait["other_in_calls"] == pytest.approx(0.003)


def test_a_wait_is_read_on_the_shared_clock_not_from_each_ranks_own_start():
    # rank 1 left the barrier 4 ms late: 79 ms after its start is 83 ms on the shared clock, after rank 0's 80
    ranks = _ranks([80], [79], starts1=[4.0])
    assert overlap.lags(ranks) == [pytest.approx(0.003)]
    assert overlap.who_waited(ranks, 0)["waited"] == 0


def test_a_waiting_share_reads_mostly_only_above_sixty_percent():
    assert overlap.waiting_share(2.2, 4.4) == "about half"  # lesson 03 once read this "mostly waiting"
    assert overlap.waiting_share(9.0, 20.3) == "about half"
    # 39.9 % prints 40%: read as printed, "about half" (t32_0304 #2); 7.9 of 20.3 (38.9 %) prints 39%
    assert overlap.waiting_share(8.1, 20.3) == "about half"
    assert overlap.waiting_share(7.9, 20.3) == "mostly not waiting"
    assert overlap.waiting_share(3.0, 4.4) == "mostly waiting"
    assert overlap.waiting_share(1.6, 9.4) == "mostly not waiting"
    assert overlap.waiting_share(0.0, 0.0) == "mostly not waiting"


def test_the_bucket_comparison_has_one_noise_rule_from_its_own_steps():
    quiet = _ranks([80] * 5, [80] * 5, steps0=[88, 88, 89, 88, 88], steps1=[88] * 5)
    noisy = _ranks([80] * 5, [80] * 5, steps0=[80, 84, 85, 86, 100], steps1=[85] * 5)
    assert overlap.step_noise(quiet, quiet) == overlap.NOISE_FLOOR  # under the floor: the floor
    assert overlap.step_noise(quiet, noisy) == pytest.approx(10 / 85)  # half the range over the median


def test_the_all_reduce_is_set_beside_the_machine_profiles_link(tmp_path):
    from utils import devices, machine

    plan = devices.plan(2)
    name = machine.link_route(plan)[0]
    assert allreduce.profile_link(plan, path=tmp_path / "none.json") is None  # no profile: the caller fits now
    sizes, seconds = [4, 2**16, 2**20], [6e-5, 8e-5, 4e-4]
    path = tmp_path / "profile.json"
    path.write_text(json.dumps({machine.machine_key("cpu"): {"ceilings": {}, "link": {
        "name": name, "sizes": sizes, "seconds": seconds, "date": "2026-12-05"}}}))
    kept = allreduce.profile_link(plan, path=path)
    assert kept.name == name and kept.fit.beta == machine.link_fit(name, sizes, seconds).fit.beta
    assert "stored profile" in kept.measured


def test_the_knobs_give_one_conclusion():
    from utils.lessons.ddp import knobs
    times = {"defaults": [0.060, 0.061, 0.072], "bucket_cap_mb=0.25": [0.073, 0.076, 0.078],
             "bucket_cap_mb=1": [0.057, 0.070, 0.085]}
    assert knobs.apart_from_defaults(times) == ["bucket_cap_mb=0.25"]
    spread = knobs.round_spread(times["defaults"])
    assert abs(spread - 0.012 / 0.061) < 1e-9
    noisy = knobs.knob_conclusion(["bucket_cap_mb=0.25"], 0.11, 0.21)
    assert "only bucket_cap_mb=0.25 had every round outside" in noisy and "the others cannot show here" in noisy
    assert "no knob can show" not in noisy
    none = knobs.knob_conclusion([], 0.11, 0.21, base_range=(71.2, 80.4))
    assert "no setting had every round outside the defaults' 71-80 ms range of rounds" in none
    assert "a median outside that range" in none  # the rule as applied, not a reading of the medians
    assert "could show" in knobs.knob_conclusion([], 0.30, 0.10)


def test_the_knobs_spread_is_worked_from_the_whole_ms_the_table_prints():
    # Reader t4_0304 #3: the table printed 106 ms, rounds 94-123 ms, and the line read 28% (unrounded
    # seconds); (123 - 94) / 106 = 27% is the reader's own figure
    from utils.lessons.ddp import knobs
    defaults = [0.0936, 0.1030, 0.1056, 0.1100, 0.1234]  # printed: 94, 106, 123 ms
    assert [as_printed(t, 0, 1e-3) for t in (min(defaults), max(defaults))] == [94, 123]
    assert as_printed(knobs.median_ms(defaults), 0) == 106
    assert f"{(0.1234 - 0.0936) / 0.1056:.0%}" == "28%"  # the unrounded figure the page printed before
    spread = knobs.round_spread(defaults)
    assert spread == (123 - 94) / 106 and f"{spread:.0%}" == "27%"
    said = knobs.knob_conclusion([], 0.05, spread, base_range=(94, 123))
    assert "round to round (whole range/median: 27%; section 2's noise is half a range)" in said
    assert "no saving can show here" in said  # named apart from section 2's noise (seventh reading, other 2)
    # the other branch: the most a bucket could save, as printed, above the printed spread
    assert "more than the defaults' spread (whole range/median: 27%)" in knobs.knob_conclusion([], 0.30, spread)


def test_the_allreduce_rates_are_worked_from_the_times_as_printed():
    # Reader t4_0304 #5: 3,303,424 B in 2.81 ms (as printed) is 1.18 GB/s, but the table printed 1.17 (from
    # 2.8143 ms), and 1.17 / 3.98 printed 29% where the page's figures give 30%
    rows = []
    for size, seconds in ((3_303_424, 2.8143e-3), (2**22, 3.98e-3)):
        rows.append({"bytes": size, "seconds": seconds, "low": seconds, "high": seconds,
                     "algbw": size / allreduce.printed_seconds(seconds)})
    assert f"{rows[0]['algbw'] / 1e9:.2f}" == "1.18" and f"{3_303_424 / 2.81e-3 / 1e9:.2f}" == "1.18"
    assert allreduce.printed_seconds(2.8143e-3) == pytest.approx(2.81e-3)
    assert allreduce.printed_seconds(1e-6) == pytest.approx(1e-6)  # 0.00100 ms: 3 significant figures, never 0
    beta = 3.98e9
    assert f"{allreduce.busbw_share(rows[0]['algbw'], beta):.0%}" == "30%"  # 1.18 / 3.98
    assert f"{allreduce.busbw_share(47.6e9, 64.4e9, 0):.0%}" == "74%"  # a datasheet printed as 64 GB/s
    assert allreduce.isolated_ms(rows[0]) == 2.81


def test_the_busbw_trend_shares_are_worked_from_the_printed_rates():
    # 1.18 at the peak, 0.94 at 16 MiB (as printed): 1 - 0.94 / 1.18 = 20%, whatever the unrounded rates
    row = lambda n, gbs: {"bytes": n, "seconds": n / (gbs * 1e9), "low": n / (gbs * 1e9) * 0.9,
                          "high": n / (gbs * 1e9) * 1.1, "busbw": gbs * 1e9}
    run = [row(2**20, 0.97), row(3_303_424, 1.1849), row(2**22, 1.05), row(2**24, 0.9449)]
    said = allreduce.trend(run)
    assert "peaks at 1.18 GB/s" in said and "0.94 GB/s at 16 MiB" in said
    assert f"the lowest of these is {1 - 0.94 / 1.18:.0%} under the peak" in said


def test_the_bookkeeping_settings_are_read_from_the_run_not_said_smaller():
    # Reader (session 50): "smaller still" stood beside gradient_as_bucket_view's 98 ms against 88 ms
    from utils.lessons.ddp import knobs
    times = {"defaults": [0.084, 0.088, 0.098], "bucket_cap_mb=1": [0.084, 0.091, 0.105],
             "gradient_as_bucket_view=True": [0.091, 0.098, 0.101], "static_graph=True": [0.0995, 0.101, 0.104]}
    apart = knobs.apart_from_defaults(times)
    assert apart == ["static_graph=True"]  # 100-104 ms against 84-98 ms, as printed
    line = knobs.bookkeeping_reading(times, apart)
    assert "expected to move the step less than a bucket size can (theory)" in line
    assert "defaults' 88 ms median" in line and "smaller still" not in line
    assert "gradient_as_bucket_view=True 98 ms (some rounds inside the defaults' range: no difference shown)" in line
    assert "static_graph=True 101 ms (every round outside the defaults' range: a difference shown)" in line
    assert "bucket_cap_mb" not in line
    # as printed: 98.4 ms prints 98, inside the defaults' 84-98 ms range, so not apart
    assert knobs.apart_from_defaults({"defaults": [0.084, 0.0982], "x": [0.0984, 0.099]}) == []


def test_a_ratio_on_a_widely_spread_median_is_called_rough():
    wide = {"bytes": 3_300_000, "seconds": 5.48e-3, "low": 1.39e-3, "high": 5.85e-3}
    tight = {"bytes": 2**24, "seconds": 10.65e-3, "low": 9.06e-3, "high": 14.10e-3}
    assert allreduce.is_rough(wide) and "1.39-5.85 ms" in allreduce.rough_note(wide)
    assert not allreduce.is_rough(tight) and allreduce.rough_note(tight) == ""
    assert allreduce.outliers([wide, tight]) == [allreduce.outliers([wide])[0]]


def test_the_drawn_step_line_says_which_step_its_time_and_why_the_late_rank_was_late():
    # Round 2 items 1-2: the chart drew a 93 ms step beside the table's 144 ms median, and "both ranks leave a
    # barrier together" stood beside a chart where rank 1 started 4 ms late
    # (the step, its time and the table's median are in the chart's title since the twenty-ninth reading)
    skewed = _ranks([80], [79], starts1=[4.0], steps1=[95.0])  # lag 3 ms, all of it the later start
    text = overlap.drawn_text("by hand", skewed, 0, " (simulated)")
    assert text.startswith('Chart "by hand", step 1: rank 1\'s last gradient came 3.0 ms after rank 0\'s')
    assert "because it left the barrier 4.0 ms later; its forward+backward took 1.0 ms less" in text
    assert text.endswith("(simulated).")
    slower = overlap.drawn_text("by hand", _ranks([80], [86], starts1=[1.0]), 0)
    assert "forward+backward took 6.0 ms longer" in slower
    # Reader (session 50): "left the barrier 4.0 ms after ... ready 1.0 ms after ... took 4.9 ms longer":
    # the third figure is worked from the two printed ones (0.1 ms), so that 4.0 + 1.0 = 5.0 checks
    printed = overlap.drawn_text("by hand", _ranks([84.92], [80.0], starts1=[3.96]), 0)  # own: 4.92 ms
    assert "it left the barrier 4.0 ms earlier" in printed
    assert "rank 0's last gradient came 1.0 ms after rank 1's" in printed
    assert "its forward+backward took 5.0 ms longer" in printed and "4.9 ms" not in printed
    even = overlap.drawn_text("by hand", _ranks([80], [80]), 0)
    assert "both ranks left the starting barrier 0.0 ms apart, and their last gradients were ready level (0.0 ms apart " \
        "as printed)" in even and "neither waited for the other's backward to end" in even
    # Reader t4_0304 #2: by hand, the collapsed block gives rank 0 4.9 ms waiting inside its 53 calls of the
    # same step, so "neither waited" alone was false; DDP's buckets have no per-tensor calls to name
    assert "can still wait inside its per-tensor all-reduce calls" in even
    ddp_even = overlap.drawn_text("DDP, 1 MiB buckets", _ranks([80], [80]), 0)
    assert "backward to end" in ddp_even and "per-tensor" not in ddp_even


def test_the_knobs_run_in_turn_with_the_order_reversed_every_other_round():
    # Round 2 item 3: the defaults ran first in every round and every other setting came out 0.85-0.93x of them
    from utils.lessons.ddp import knobs
    order = ["defaults", "a", "b"]
    assert knobs.round_order(order, 1) == order and knobs.round_order(order, 2) == order[::-1]
    firsts = [knobs.round_order(order, r)[0] for r in range(1, 6)]
    assert firsts.count("defaults") == 3 and firsts.count("b") == 2


def test_a_run_with_a_sampler_says_each_rank_took_fewer_steps():
    # Round 2 item 6: the final loss rose after the sampler fix, unexplained: each rank took half the steps
    from utils.lessons.ddp.articles import ran_text
    row = {"loss": 0.52, "steps": 16, "rows": 500, "data_rows": 1000, "full_steps": 32}
    shared = ran_text([{**row, "fingerprint": 1.0}, {**row, "fingerprint": 2.0}])
    assert "different batches" in shared and "took 16 steps where a rank reading them all takes 32" in shared
    whole = {**row, "steps": 32, "rows": 1000, "fingerprint": 1.0}
    same = ran_text([whole, whole])
    assert "THE SAME batches" in same and "32, 32 optimizer steps" in same and "fewer steps" not in same


def test_the_isolated_all_reduce_is_quoted_at_one_precision_and_ratios_use_it_as_printed():
    # Reader (session 50): 3.75 ms in section 6's table, 3.7 ms beside it, and 6.1x worked from the unrounded
    row = {"bytes": 3_300_000, "seconds": 3.7512e-3, "low": 1.79e-3, "high": 4.36e-3}
    iso = allreduce.isolated_ms(row)
    assert iso == 3.75 and "3.75 ms median" in allreduce.rough_note(row)  # the same figure as the rough note
    # the notebook's ratios: claims.printed_ratio at 0.01 ms, which leaves a figure printed to 0.1 ms unchanged
    assert f"{printed_ratio(23.0, iso):.1f}x" == "6.1x"  # 23.0 / 3.75, from the printed figures
    assert f"{printed_ratio(4.0, iso):.0%}" == "107%"
    assert printed_ratio(1.0, 0.0) == 100.0  # a whole printed as 0: its rounding step, no error
    assert not hasattr(allreduce, "times_printed")  # one rule, claims.printed_ratio, not a local copy


def test_the_share_of_the_exposed_time_spent_waiting_is_worked_from_the_ms_as_printed():
    # 2.24 ms of 4.46 ms print as 2.2 and 4.5: the reader divides those, 49%, not the unrounded 50%
    assert f"{printed_ratio(2.24e-3, 4.46e-3, 1, 1e-3):.0%}" == "49%"
    assert overlap.waiting_share(as_printed(2.24e-3, 1, 1e-3), as_printed(4.46e-3, 1, 1e-3)) == "about half"
    # the other outcome: a wait printed as 0.0 ms of an exposed time printed as 0.0 ms: 0%, no division by zero
    assert f"{printed_ratio(0.04e-3, 0.04e-3, 1, 1e-3):.0%}" == "0%"


def test_the_knobs_ratio_to_the_defaults_is_worked_from_the_whole_ms_printed():
    # medians of 151.4 and 150.6 ms print as 151 and 151: the reader divides them, 1.00x, not the unrounded 1.01x
    assert f"{151.4 / 150.6:.2f}x" == "1.01x" and f"{printed_ratio(151.4, 150.6, 0):.2f}x" == "1.00x"
    # the other outcome: medians that print apart, 153 and 151, give 1.01x as printed
    assert f"{printed_ratio(152.6, 150.6, 0):.2f}x" == "1.01x"


def test_step_ratios_are_worked_from_the_printed_step_times():
    # the run the reader saw: 152.4, 85.5 and 86.2 ms; 1.78 x 0.99 = 1.76, not the 1.77 printed
    r = overlap.step_ratios(0.15241, 0.08549, 0.08618)
    assert (f"{r['total']:.2f}", f"{r['fewer']:.2f}", f"{r['overlapped']:.2f}") == ("1.77", "1.78", "0.99")
    assert "multiply to 1.76x" in r["rounding"]
    # the other outcome: the printed factors multiply to the printed total, so no clause
    r = overlap.step_ratios(0.1524, 0.0762, 0.0762)
    assert (f"{r['total']:.2f}", f"{r['fewer']:.2f}", f"{r['overlapped']:.2f}") == ("2.00", "2.00", "1.00")
    assert r["rounding"] == ""


def test_the_memory_line_works_zero1s_share_from_the_mib_it_prints():
    # Reader t4_0304 #4: "6.3 MiB plain, 3.2 MiB with ZeRO-1 (50% of plain)": 3.2 / 6.3 is 51%; two decimals
    # (6.30, 3.15) and the share from them
    from utils.lessons.ddp import knobs
    mib = 2**20
    knob = {"grad_copy_bytes": {False: 3_303_424, True: 0}, "grad_bytes": 3_303_424,
            "optimizer_bytes": {"AdamW": 6_606_848, "ZeRO-1": 3_303_424}}
    said, share = knobs.memory_reading(knob)
    assert "6.30 MiB plain, 3.15 MiB with ZeRO-1 (50% of plain: exactly 1/world size = 50%)" in said
    assert "gradients are 3.15 MiB" in said and share == printed_ratio(3.15, 6.30)
    knob["optimizer_bytes"]["ZeRO-1"] = int(3.6 * mib)  # an uneven split: 3.60 / 6.30 = 57%
    said, share = knobs.memory_reading(knob)
    assert "(57% of plain: not the even share" in said and "holds more" in said
    assert max(len(line) for line in textwrap.wrap(said, 110)) <= 110


def test_a_difference_of_two_printed_ms_figures_is_worked_from_them():
    # Reader t4_0304 #1: exposed 97.9 ms and 95.4 ms in calls printed "2.4 ms longer" (unrounded seconds)
    assert overlap.printed_difference(97.94e-3, 95.36e-3) == 2.5  # 97.9 - 95.4, not 2.58 -> 2.6 or 2.4
    assert overlap.printed_difference(97.86e-3, 95.44e-3) == 2.5
    assert overlap.printed_difference(95.4e-3, 97.9e-3) == -2.5  # the other way: not longer
    assert overlap.printed_difference(95.44e-3, 95.36e-3) == 0.0  # both print 95.4


def test_a_round_with_less_work_for_two_workers_is_explained_and_read_against_the_bound():
    # Reader t4_0304 (other problems): round 3 printed "work per sample, 2 vs 1: 0.95x" and 1.93x with no word
    r = {"ratios": [1.34, 1.24, 1.93], "ratio": 1.34, "low": 1.24, "high": 1.93, "bound": 2.0, "above": [],
         "work_ratios": [1.41, 1.55, 0.95], "work_ratio": 1.41, "work_bound": scaling.work_reference(2.0, 1.41)}
    line = scaling.verdict(r)
    assert "a work ratio under 1x means two workers spent less CPU per sample than one" in line
    assert "round 3: 0.95x work, 1.93x speedup, under the 2.00x bound" in line
    above = dict(r, ratios=[1.34, 1.24, 2.05], high=2.05, above=[2.05])
    assert "round 3: 0.95x work, 2.05x speedup, above the 2.00x bound" in scaling.verdict(above)
    usual = dict(r, work_ratios=[1.41, 1.55, 1.0])  # 1.00x as printed: not under 1x, no clause
    assert "work ratio under 1x" not in scaling.verdict(usual)


def test_the_scaling_ratios_are_worked_from_the_rates_as_printed(monkeypatch):
    # the table prints samples/s to 0.1: 325.5 / 168.8 = 1.93x whatever the unrounded rates give
    rates = iter([168.849, 325.451])
    monkeypatch.setattr(scaling, "measure", lambda s, n, backend, timeout: {"samples_per_s": next(rates),
                                                                            "cpu_per_sample": None})
    r = scaling.scaling(TINY, "gloo", bound=2.0, rounds=1)
    assert r["ratios"] == [half_up(printed_ratio(325.5, 168.8, 1), 2)] and f"{r['ratio']:.2f}" == "1.93"
    # section 2's line: whole samples/s, 297 / 247 = 1.20x
    line = scaling.against_one_process({"ratio": 1.34, "one": 168.6, "two": 251.6}, 296.6, 247.4, "2")
    assert "Section 2 measured 1.20x" in line and "297 against 251.6 samples/s, 1.18x" in line


def test_the_link_model_is_worked_from_alpha_and_beta_as_printed():
    # the link line prints "alpha 106.0 µs, beta 3.98 GB/s": 2 x 106.0 µs + 3,303,424 B / 3.98 GB/s = 1.04 ms
    from utils import machine
    from utils.linkmodel import AlphaBeta
    link = machine.LinkFit("gloo loopback, 2 processes", AlphaBeta(106.04e-6, 3.9849e9, (4,), (0.0,)), (1.0,))
    assert "alpha 106.0 µs, beta 3.98 GB/s" in link.describe()
    model = allreduce.link_model_seconds(link, 3_303_424)
    assert model == pytest.approx(2 * 106.0e-6 + 3_303_424 / 3.98e9)
    assert f"{model * 1e3:.2f}" == f"{(0.212 + 3_303_424 / 3.98e6):.2f}"


def test_the_all_reduce_table_keeps_three_significant_figures_under_a_millisecond():
    # a GPU's small all-reduce: 0.0123 ms prints 0.0123, not 0.01, and its rate is worked from that figure
    from utils.lessons.ddp import allreduce
    assert allreduce.ms_text(12.3e-6) == "0.0123" and allreduce.ms_text(2.814e-3) == "2.81"
    assert allreduce.printed_seconds(12.34e-6) == pytest.approx(12.3e-6)
    assert allreduce.printed_seconds(2.814e-3) == pytest.approx(2.81e-3)


def test_what_stays_exposed_beyond_the_wait_reads_as_a_multiple_above_one():
    """Sixth reading: (11.2 - 1.7) / 1.52 printed '625% of the isolated all-reduce'; a ratio above 1 reads 6.3x."""
    left = overlap.printed_difference(11.2e-3, 1.7e-3)  # 9.5 ms, from the figures as printed
    assert overlap.beyond_wait(left, 1.52) == "beyond the wait, 6.3x the isolated all-reduce"  # 6.25, half up
    assert overlap.beyond_wait(1.2, 1.52) == "beyond the wait, 79% of the isolated all-reduce"
    assert overlap.beyond_wait(1.52, 1.52) == "beyond the wait, 1.0x the isolated all-reduce"
    assert overlap.beyond_wait(0.0, 1.52) == "nothing exposed beyond the wait"


def test_the_headline_keeps_its_paired_rounds_for_lesson_09(monkeypatch, tmp_path):
    from utils import ledger

    monkeypatch.setenv(ledger.ENV, str(tmp_path))  # never the committed ledger
    scaling.record_headline({"ratio": 1.75, "bound": 2.0, "ratios": [1.71, 1.75, 1.80], "work_bound": 1.85})
    assert ledger.figure("ddp_speedup")["rounds"] == [1.71, 1.75, 1.80]
    assert ledger.figure("ddp_speedup")["reference"] == 1.85  # the work-scaled reference, for lesson 09
    scaling.record_headline({"ratio": 1.75, "bound": 2.0})  # a record without rounds stays valid
    assert "rounds" not in ledger.figure("ddp_speedup")
