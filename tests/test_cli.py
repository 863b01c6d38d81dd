"""Bad input on the course's command lines (issue 41): lesson 03's ``utils.lessons.ddp``, lesson 08's
``utils.lessons.putting_it_together`` (which shares lesson 03's option parser), ``python -m utils.bench``, and
the launcher's warning for more workers than cores.

Every bad value is refused before anything starts: argparse's one-line error naming the option and what to do,
exit status 2, no traceback, no process, within a second. The checks run in this process (fast); a few
commands run as a learner types them.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import time

import pytest
import torch

from machines import use_machine
from test_ddp import REPO, torchrun_env
from utils import bench, checkpoint, launch as launch_module
from utils.lessons.ddp import cli as ddp_cli
from utils.lessons.ddp.settings import Settings
from utils.lessons.putting_it_together import cli as capstone_cli
from utils.lessons.putting_it_together import script

PARSERS = {"ddp": ddp_cli.parse_settings, "putting_it_together": capstone_cli.parse_settings}


@pytest.fixture(autouse=True)
def _in_cpu_mode_leaving_nothing(cpu_mode_and_no_leftovers, monkeypatch):
    for name in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "TWOGPU_DEVICE"):
        monkeypatch.delenv(name, raising=False)  # a command started alone, not by torchrun or launch
    yield


def refused(parse, argv: list[str], capsys) -> str:
    """The one line with which ``parse(argv)`` refuses: exit status 2 within a second, nothing printed but
    that line, no traceback, and nothing started (no process group, no torchrun variables set)."""
    began = time.monotonic()
    with pytest.raises(SystemExit) as stopped:
        parse(argv)
    took = time.monotonic() - began
    out, err = capsys.readouterr()
    assert stopped.value.code == 2
    assert took < 1.0, f"refused after {took:.2f} s"
    assert out == "" and len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert "RANK" not in os.environ and not torch.distributed.is_initialized()
    return err.strip()


# --- The issue's table, row by row ------------------------------------------------------------------------


ROWS = {
    "putting_it_together --precision fp8": (
        ["--precision", "fp8"], "argument --precision: invalid choice: 'fp8' (choose from 'fp32', 'bf16', 'fp16')"),
    "putting_it_together --steps -1": (["--steps", "-1"], "argument --steps: must be a positive integer, got -1"),
    "putting_it_together --width 0": (["--width", "0"], "argument --width: must be a positive integer, got 0"),
    "putting_it_together --heads 3 (width 128)": (
        ["--heads", "3"], "argument --heads: 3 does not divide --width 128 (each head gets width/heads channels); "
                          "use one of 1, 2, 4, 8, 16 or change --width"),
    "putting_it_together --batch-per-worker 0": (
        ["--batch-per-worker", "0"], "argument --batch-per-worker: must be a positive integer, got 0"),
    "putting_it_together --checkpoint /proc/nope/ckpt --checkpoint-every 1 --steps 2": (
        ["--checkpoint", "/proc/nope/ckpt", "--checkpoint-every", "1", "--steps", "2"],
        "argument --checkpoint: the folder /proc/nope does not exist; create it first, or choose a file in "
        "another folder"),
}


@pytest.mark.parametrize("row", list(ROWS))
def test_each_row_of_the_issue_is_one_line_naming_the_option_and_what_to_do(row, capsys):
    argv, message = ROWS[row]
    assert refused(capstone_cli.parse_settings, argv, capsys) == f"{capstone_cli.PROG}: error: {message}"


def test_a_run_that_would_never_save_its_checkpoint_says_so(tmp_path, capsys):
    line = refused(capstone_cli.parse_settings, ["--checkpoint", str(tmp_path / "run.pt"), "--steps", "2"],
                   capsys)
    assert line.endswith("argument --checkpoint-every: 5 is more than --steps 2, so the run would never save; "
                         "use --checkpoint-every 2 or less")


def test_lesson_03_without_torchrun_and_with_a_negative_step_count(capsys):
    line = refused(ddp_cli.parse_settings, ["--steps", "-3"], capsys)
    assert line == f"{ddp_cli.PROG}: error: argument --steps: must be a positive integer, got -3"


# --- Every option, alone ------------------------------------------------------------------------------------

# (option and value, what the error says after "argument OPTION: ") for every option both scripts share
SHARED = [
    (["--steps", "0"], "--steps: must be a positive integer, got 0"),
    (["--steps", "abc"], "--steps: must be an integer, got 'abc'"),
    (["--batch-per-worker", "-2"], "--batch-per-worker: must be a positive integer, got -2"),
    (["--accumulate", "0"], "--accumulate: must be a positive integer, got 0"),
    (["--context", "0"], "--context: must be a positive integer, got 0"),
    (["--width", "-128"], "--width: must be a positive integer, got -128"),
    (["--depth", "0"], "--depth: must be a positive integer, got 0"),
    (["--heads", "0"], "--heads: must be a positive integer, got 0"),
    (["--lr", "0"], "--lr: must be a positive number, got 0"),
    (["--lr", "nan"], "--lr: must be a positive number, got nan"),
    (["--seed", "1.5"], "--seed: invalid int value: '1.5'"),
    (["--max-chars", "0"], "--max-chars: must be a positive integer, got 0"),
    (["--threads", "0"], "--threads: must be a positive integer, got 0"),
    (["--hook", "int8"], "--hook: invalid choice: 'int8' (choose from 'none', 'allreduce', 'fp16', 'bf16', "
                         "'powersgd')"),
    (["--bucket-cap-mb", "-1"], "--bucket-cap-mb: must be a positive number, got -1"),
    (["--powersgd-rank", "0"], "--powersgd-rank: must be a positive integer, got 0"),
    (["--powersgd-start", "1"], "--powersgd-start: must be an integer >= 2, got 1"),
    (["--warmup-steps", "-1"], "--warmup-steps: must be an integer >= 0, got -1"),
    (["--checkpoint", ""], "--checkpoint: must name a file, got an empty name"),
    (["--checkpoint-every", "0"], "--checkpoint-every: must be a positive integer, got 0"),
    (["--progress=yes"], "--progress: ignored explicit argument 'yes'"),
    (["--device", "gpu"], "--device: must be cpu, cuda or cuda:N, got 'gpu'"),
    (["--deterministic=no"], "--deterministic: ignored explicit argument 'no'"),
    (["--out", ""], "--out: must name a file, got an empty name"),
]
LESSON_08_ONLY = [
    (["--loader-workers", "-1"], "--loader-workers: must be an integer >= 0, got -1"),
    (["--precision", "fp8"], "--precision: invalid choice: 'fp8' (choose from 'fp32', 'bf16', 'fp16')"),
    (["--compile=1"], "--compile: ignored explicit argument '1'"),
    (["--checkpointing=1"], "--checkpointing: ignored explicit argument '1'"),
    (["--fused-adamw=1"], "--fused-adamw: ignored explicit argument '1'"),
]
# Lesson 03's own choices of arithmetic (utils.precision.REGIMES); lesson 08 keeps its own three
LESSON_03_ONLY = [
    (["--precision", "fp8"], "--precision: invalid choice: 'fp8' (choose from 'fp32', 'tf32', 'bf16', 'fp16')"),
]
CASES = [(name, argv, says) for name in PARSERS for argv, says in SHARED] + \
        [("putting_it_together", argv, says) for argv, says in LESSON_08_ONLY] + \
        [("ddp", argv, says) for argv, says in LESSON_03_ONLY]


@pytest.mark.parametrize("name,argv,says", CASES, ids=[f"{n} {' '.join(a)}" for n, a, _ in CASES])
def test_every_option_refuses_a_bad_value_in_one_line(name, argv, says, capsys):
    assert refused(PARSERS[name], argv, capsys).endswith(f"error: argument {says}")


def test_every_option_of_both_scripts_is_in_the_tables_above():
    for name, cls in (("ddp", Settings), ("putting_it_together", script.Settings)):
        tested = {argv[0].split("=")[0] for n, argv, _ in CASES if n == name}
        assert tested == {"--" + f.name.replace("_", "-") for f in dataclasses.fields(cls)} | {"--out"}


def test_a_field_without_a_rule_cannot_become_an_option():
    @dataclasses.dataclass
    class More(Settings):
        colour: str = "blue"

    with pytest.raises(KeyError, match="More.colour has no rule"):
        ddp_cli.parser_for(More, "prog", "", ddp_cli.RULES)


def test_unknown_options_keep_argparse_s_error(capsys):
    assert refused(ddp_cli.parse_settings, ["--nosuch", "1"], capsys).endswith(
        "error: unrecognized arguments: --nosuch 1")


# --- Options together, files, the machine -------------------------------------------------------------------


def test_warmup_that_leaves_no_step_to_time(capsys):
    assert refused(ddp_cli.parse_settings, ["--steps", "4", "--warmup-steps", "4"], capsys).endswith(
        "argument --warmup-steps: 4 leaves none of --steps 4 to time; use fewer than 4")


def test_checkpoint_every_without_a_checkpoint_is_not_ignored_silently(capsys):
    assert refused(ddp_cli.parse_settings, ["--checkpoint-every", "5"], capsys).endswith(
        "argument --checkpoint-every: saves only with --checkpoint FILE: add one, or leave it out")


@pytest.mark.parametrize("option,example", [("--checkpoint", "run.pt"), ("--out", "result.json")])
def test_a_folder_given_for_a_file(option, example, tmp_path, capsys):
    assert refused(ddp_cli.parse_settings, [option, str(tmp_path)], capsys).endswith(
        f"argument {option}: {tmp_path} is a folder; give a file in it, e.g. {tmp_path / example}")


@pytest.mark.parametrize("option", ["--checkpoint", "--out"])
def test_a_folder_that_takes_no_file_is_found_by_writing_there_once(option, capsys):
    # /proc exists and refuses new files, even to root (these tests may run as root, where chmod stops nothing)
    line = refused(ddp_cli.parse_settings, [option, "/proc/run.pt", "--checkpoint-every", "1"]
                   if option == "--checkpoint" else [option, "/proc/result.json"], capsys)
    assert f"argument {option}: cannot write in /proc (" in line and "choose a folder you can write to" in line


def test_the_folders_are_tried_and_left_as_they_were(tmp_path):
    s, out = ddp_cli.parse_settings(["--checkpoint", str(tmp_path / "run.pt"), "--steps", "10",
                                     "--out", str(tmp_path / "r.json")])
    assert s.checkpoint == str(tmp_path / "run.pt") and out == str(tmp_path / "r.json")
    assert list(tmp_path.iterdir()) == []  # the test file is gone, and nothing else was written


def test_a_checkpoint_that_already_holds_every_step(tmp_path, capsys):
    path = str(tmp_path / "run.pt")
    checkpoint.save(path, torch.nn.Linear(2, 2), None, 6)
    assert refused(ddp_cli.parse_settings, ["--checkpoint", path, "--steps", "6", "--checkpoint-every", "3"],
                   capsys).endswith(f"argument --steps: the checkpoint {path} already holds 6 steps; ask for more "
                                    f"(--steps 12) to continue, or remove the file to start again")
    assert ddp_cli.parse_settings(["--checkpoint", path, "--steps", "12", "--checkpoint-every", "3"])[0].steps == 12


def test_a_file_that_is_no_checkpoint_is_not_overwritten(tmp_path, capsys):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    line = refused(ddp_cli.parse_settings, ["--checkpoint", str(notes), "--checkpoint-every", "1"], capsys)
    assert f"argument --checkpoint: {notes} is not a checkpoint this script saved" in line
    assert notes.read_text() == "my notes"


def test_too_little_text_for_one_batch_per_worker(monkeypatch, capsys):
    assert refused(ddp_cli.parse_settings, ["--max-chars", "100"], capsys).endswith(
        "argument --max-chars: 100 characters make 1 sequence(s) of --context 64, fewer than --batch-per-worker "
        "16 for each of 1 worker(s); use --max-chars 1140 or more")
    ddp_cli.parse_settings(["--max-chars", "1140"])  # the advice is enough for one worker
    monkeypatch.setenv("WORLD_SIZE", "2")  # under torchrun with two workers, each needs its own batch
    assert "for each of 2 worker(s); use --max-chars 2278 or more" in refused(ddp_cli.parse_settings,
                                                                              ["--max-chars", "1140"], capsys)
    ddp_cli.parse_settings(["--max-chars", "2278"])


def test_a_device_this_machine_does_not_have(capsys):
    assert refused(ddp_cli.parse_settings, ["--device", "cuda:0"], capsys).endswith(
        "argument --device: cuda:0 is not on this machine (no CUDA GPU for this torch); leave --device out to "
        "use the plan")


def test_a_mode_that_is_not_one_keeps_its_message_in_one_line(monkeypatch, capsys):
    monkeypatch.setenv("TWOGPU_MODE", "bogus")
    assert "error: TWOGPU_MODE='bogus' is not a mode; use one of cpu, 1gpu, 2gpu, ngpu" in refused(
        capstone_cli.parse_settings, [], capsys)


def test_bf16_on_a_gpu_without_bf16_units_names_what_it_supports(monkeypatch, capsys):
    use_machine(monkeypatch, "1gpu T4 (Colab)")
    assert refused(capstone_cli.parse_settings, ["--precision", "bf16"], capsys).endswith(
        "argument --precision: bf16 is not supported on cuda:0 (bf16 needs a GPU of compute capability 8.0 or "
        "newer); use fp32 or fp16")
    assert capstone_cli.parse_settings(["--precision", "fp16"])[0].precision == "fp16"
    assert not torch.cuda.is_initialized()  # NVML's facts, not CUDA's


@pytest.mark.parametrize("machine_name", ["cpu", "1gpu H200"])
def test_every_precision_runs_on_a_cpu_and_on_a_gpu_with_bf16_units(machine_name, monkeypatch):
    use_machine(monkeypatch, machine_name)
    for precision in capstone_cli.PRECISIONS:
        assert capstone_cli.parse_settings(["--precision", precision])[0].precision == precision


def test_options_not_given_keep_the_settings_defaults():
    assert ddp_cli.parse_settings([]) == (Settings(), None)
    assert capstone_cli.parse_settings([]) == (script.Settings(), None)


# --- As a learner types them -------------------------------------------------------------------------------


def run(args: list[str], **env) -> tuple[subprocess.CompletedProcess, float]:
    began = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", *args], cwd=REPO, env={**torchrun_env(), **env}, text=True,
                          capture_output=True, timeout=60)
    return proc, time.monotonic() - began


@pytest.mark.parametrize("args", [
    ["utils.lessons.putting_it_together", "--precision", "fp8"],
    ["utils.lessons.putting_it_together", "--checkpoint", "/proc/nope/ckpt", "--checkpoint-every", "1",
     "--steps", "2"],
    ["utils.lessons.ddp", "--steps", "-3"],
], ids=["fp8", "checkpoint folder missing", "ddp without torchrun"])
def test_the_command_stops_with_status_2_and_one_line(args):
    proc, took = run(args)
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and "error: argument --" in proc.stderr, proc.stderr
    # The checks take milliseconds (the tests above); the rest is Python and torch starting: no training began.
    assert took < 15, f"{took:.1f} s"


@pytest.mark.timeout(60)
def test_lesson_03_without_torchrun_runs_as_one_process_and_says_so():
    proc, _ = run(["utils.lessons.ddp", "--steps", "2", "--batch-per-worker", "4", "--context", "16", "--width",
                   "32", "--depth", "1", "--heads", "2", "--max-chars", "5000", "--threads", "1"])
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "not under torchrun: one process (world size 1); for two: torchrun --nproc-per-node 2" in proc.stderr
    assert proc.stdout.startswith("world size 1: final loss")


# --- python -m utils.bench -----------------------------------------------------------------------------------


@pytest.mark.parametrize("argv,says", [
    (["--all", "copy"], "argument --all: runs every benchmark; give names or --all, not both"),
    (["--list", "copy"], "argument --list: lists the benchmarks and runs none; give it alone"),
    (["copy", "--out", "/proc/nope/results"], "argument --out: cannot write in /proc ("),
], ids=["all and names", "list and names", "out unwritable"])
def test_the_benchmark_command_line_refuses_before_running_anything(argv, says, capsys):
    with pytest.raises(SystemExit) as stopped:
        bench.main("utils.benchmarks", argv)
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and says in err.splitlines()[-1] and "Traceback" not in err


def test_the_benchmark_out_folder_may_not_be_a_file(tmp_path, capsys):
    (tmp_path / "results").write_text("")
    with pytest.raises(SystemExit):
        bench.main("utils.benchmarks", ["copy", "--out", str(tmp_path / "results")])
    assert "is a file; give a folder for bench-<mode>.md and .json" in capsys.readouterr().err


def test_an_unknown_benchmark_still_lists_the_registered_ones(capsys):
    with pytest.raises(SystemExit) as stopped:
        bench.main("utils.benchmarks", ["nosuch"])
    err = capsys.readouterr().err.splitlines()[-1]
    assert stopped.value.code == 2 and "unknown benchmark(s) nosuch; registered: " in err and "copy" in err


# --- The launcher: more workers than cores ------------------------------------------------------------------


def test_oversubscription_is_named_only_beyond_the_cores():
    assert launch_module.oversubscription(2, 1, 2) is None
    assert launch_module.oversubscription(4, 4, 16) is None
    assert launch_module.oversubscription(64, 1, 2) == (
        "[launch] oversubscribed: 64 workers x 1 thread(s) on 2 core(s) take turns and slow down; nprocs <= 2 fits")
    assert len(launch_module.oversubscription(64, 1, 2)) <= 110


def fail_on_the_first_attempt():
    if os.environ["TORCHELASTIC_RESTART_COUNT"] == "0":
        raise RuntimeError("first attempt fails")
    return 1


@pytest.mark.timeout(90)
def test_the_launcher_warns_once_when_workers_outnumber_the_cores(monkeypatch, capsys):
    monkeypatch.setattr(launch_module.devices, "cpu_cores", lambda: 2)
    assert launch_module.launch(fail_on_the_first_attempt, nprocs=3, max_restarts=1, timeout=60) == [1, 1, 1]
    out = capsys.readouterr().out
    assert out.count("[launch] oversubscribed: 3 workers x 1 thread(s) on 2 core(s)") == 1  # not per restart
    assert launch_module.launch(os.getpid, nprocs=2, timeout=60)
    assert "oversubscribed" not in capsys.readouterr().out
