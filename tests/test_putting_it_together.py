"""Lesson 08 (utils.lessons.putting_it_together): the training script as a module (``--help``, one process,
under torchrun on one and two "nodes"), its checkpoint and resume, and each step trains the same model.

Every test bounds its processes (pytest timeout, launch timeout, subprocess timeout) and leaves none behind.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from test_ddp import REPO, free_port, processes, torchrun_env
from utils.launch import launch
from utils.lessons.putting_it_together import cli, script

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
    assert ladder.next_rung("compile", low, steps, peaks, 1.11, 96).skipped  # no compile measured
    two = ladder.next_rung("two devices", low, steps, peaks, 1.11, 96)
    assert (two.workers, two.settings.batch_per_worker, two.bound) == (2, 8, 2.0)
    assert ladder.diff(low.settings, two.settings, 1, 2)[-1].startswith("+ launch(train, settings, nprocs=2)")
    mem = ladder.next_rung("memory", two, steps, peaks, 1.11, 96, max_growth=2)
    assert mem.skipped and "for nothing" in mem.skipped  # the small GPT fits: no checkpointing
    command = ladder.command_line([two, mem])
    assert "torchrun --nproc-per-node 2" in command and "--precision bf16" in command


def _rows():
    from utils.lessons.putting_it_together import ladder, report

    base = {"tokens_per_s": 1000.0, "final_loss": 2.8, "wall_s": 1.0}
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
    compared["compile"] = ladder.Compared(ladder.next_rung("compile", kept, steps, {}, 1, 96), kept, [], [])
    peaks = dict.fromkeys(["baseline", "feeding", "precision", "two devices"], 2**20)
    return report.step_rows([base], compared, keep, peaks, {"fp32": 1e-3, "bf16": 3e-2})


def test_the_ledger_multiplies_kept_gains_and_flags_a_step_above_its_bound():
    from utils.lessons.putting_it_together import report

    rows = {r["step"]: r for r in _rows()}
    assert rows["precision"]["kept"] is False and rows["two devices"]["kept"] is True
    assert rows["two devices"]["x_base"] == pytest.approx(1.01 * 1.85)  # precision, not kept, left out
    assert rows["feeding"]["within"] is False  # 1.01x against a bound of 1.001x: a finding, never a pass
    assert "skipped" in rows["compile"] and "memory" in rows and "skipped" in rows["memory"]
    assert len(report.headline_table(_rows()).columns) <= 6


def test_the_waterfall_labels_never_overlap():
    import matplotlib.pyplot as plt

    from utils.lessons.putting_it_together import report
    from utils.plots import overlapping_labels

    fig = report.plot_waterfall(_rows(), " (simulated on CPU)")
    try:
        assert overlapping_labels(fig) == []
    finally:
        plt.close(fig)
