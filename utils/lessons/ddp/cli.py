"""Lesson 03's training from a shell: the recipe that the notebook launches, under ``torchrun``.

    torchrun --nproc-per-node 2 -m utils.lessons.ddp --steps 30                       # one machine
    torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint HOST:29400 \\
        -m utils.lessons.ddp --steps 30                                               # on each machine
    python -m utils.lessons.ddp --steps 30                                            # one process, said so

One option per ``Settings`` field (``--batch-per-worker 16``, ``--hook fp16``, ``--progress`` ...), plus
``--out FILE``: global rank 0 writes its result there as JSON (without the weights).

Every option is checked before anything starts (no process group, no model): a bad value stops the command
with argparse's one-line error and exit status 2, e.g.
``error: argument --width: must be a positive integer, got 0``. A value is never replaced by a default.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import re
import sys
import tempfile

from utils.lessons.ddp.hooks import HOOKS
from utils.lessons.ddp.recipe import train
from utils.lessons.ddp.settings import Settings, text_data
from utils.precision import REGIMES

PROG = "torchrun --nproc-per-node 2 -m utils.lessons.ddp"


# --- What one option accepts: argparse ``type=`` functions -------------------------------------------------


def at_least(least: int):
    """An argparse ``type=``: an integer ``>= least``. Anything else is argparse's error for the option."""

    def integer(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be an integer, got {text!r}") from None
        if value < least:
            wanted = "a positive integer" if least == 1 else f"an integer >= {least}"
            raise argparse.ArgumentTypeError(f"must be {wanted}, got {value}")
        return value

    return integer


def positive_number(text: str) -> float:
    """An argparse ``type=``: a finite number above 0 (a learning rate, a bucket size in MB)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text}")
    return value


def file_name(text: str) -> str:
    """An argparse ``type=``: a file name, not empty (whether its folder takes a file is checked later)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("must name a file, got an empty name")
    return text


def device_name(text: str) -> str:
    """An argparse ``type=``: ``cpu``, ``cuda`` or ``cuda:N`` (whether that GPU exists is checked later)."""
    if not re.fullmatch(r"cpu|cuda(:\d+)?", text):
        raise argparse.ArgumentTypeError(f"must be cpu, cuda or cuda:N, got {text!r}")
    return text


# What each option accepts: a type function, or a tuple of choices. A field without an entry here is a
# mistake of the course (parser_for says so), never an option that takes anything.
RULES = {
    "steps": at_least(1),
    "batch_per_worker": at_least(1),
    "accumulate": at_least(1),
    "context": at_least(1),
    "width": at_least(1),
    "depth": at_least(1),
    "heads": at_least(1),
    "lr": positive_number,
    "seed": int,
    "max_chars": at_least(1),
    "threads": at_least(1),
    "hook": tuple(HOOKS),
    "bucket_cap_mb": positive_number,
    "powersgd_rank": at_least(1),
    # PowerSGD's error feedback needs plain all-reduces for its first 2 steps (torch refuses fewer)
    "powersgd_start": at_least(2),
    "warmup_steps": at_least(0),
    "checkpoint": file_name,
    "checkpoint_every": at_least(1),
    "device": device_name,
    "precision": REGIMES,  # the step's arithmetic (utils.precision)
}


class OneLineErrors(argparse.ArgumentParser):
    """argparse, with its error as one line (``PROG: error: argument --width: ...``) and exit status 2.

    Why: argparse prints the whole usage before the error, and this usage runs to twenty lines, so the line
    that says what is wrong scrolls out of sight. ``--help`` still shows the whole usage.
    """

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message}\n")


def parser_for(cls, prog: str, description: str, rules: dict) -> argparse.ArgumentParser:
    """One option per field of the dataclass ``cls`` (``--batch-per-worker`` for ``batch_per_worker``; a bool
    is a flag), each checked by its rule, and ``--out FILE``. Defaults stay the dataclass's: an option not
    given is ``None`` here, so that the checks also know which options were given."""
    parser = OneLineErrors(prog=prog, description=description)
    for f in dataclasses.fields(cls):
        flag = "--" + f.name.replace("_", "-")
        if f.type in ("bool", bool):
            parser.add_argument(flag, action="store_true", default=None)
            continue
        if f.name not in rules:
            raise KeyError(f"{cls.__name__}.{f.name} has no rule in the command line's RULES: add one")
        rule = rules[f.name]
        if isinstance(rule, tuple):  # the metavar keeps the usage short; the error lists the choices
            parser.add_argument(flag, choices=rule, metavar=f.name.upper(),
                                help=f"one of {', '.join(rule)} (default {f.default})")
        else:
            parser.add_argument(flag, type=rule)
    parser.add_argument("--out", type=file_name,
                        help="rank 0 writes the result (without weights) here, as JSON")
    return parser


# --- What options say together, and what this machine can run ----------------------------------------------
# Every check takes (settings, the names of the options given, --out) and yields (option, what is wrong and
# what to do); the first problem found stops the command.


def combination_problems(s: Settings, given: set[str], out: str | None):
    """Options that are each fine but cannot run together, or one that would be silently ignored."""
    if s.width % s.heads:
        fits = [h for h in range(1, min(s.width, 16) + 1) if s.width % h == 0]
        yield "--heads", (f"{s.heads} does not divide --width {s.width} (each head gets width/heads "
                          f"channels); use one of {', '.join(map(str, fits))} or change --width")
    if s.warmup_steps >= s.steps:
        yield "--warmup-steps", (f"{s.warmup_steps} leaves none of --steps {s.steps} to time; use fewer "
                                 f"than {s.steps}")
    if s.checkpoint is None and "checkpoint_every" in given:
        yield "--checkpoint-every", "saves only with --checkpoint FILE: add one, or leave it out"
    if s.checkpoint is not None and s.checkpoint_every > s.steps:
        yield "--checkpoint-every", (f"{s.checkpoint_every} is more than --steps {s.steps}, so the run would "
                                     f"never save; use --checkpoint-every {s.steps} or less")


def cannot_write(path: str, example: str) -> str | None:
    """Why a file cannot be written at ``path``, or None. Tried by writing a file in its folder once: that
    answers what permission bits cannot (read-only mounts, /proc, a full disk)."""
    if os.path.isdir(path):
        return f"{path} is a folder; give a file in it, e.g. {os.path.join(path, example)}"
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return f"the folder {folder} does not exist; create it first, or choose a file in another folder"
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".write-test-"):
            pass
    except OSError as exc:
        return f"cannot write in {folder} ({exc.strerror}); choose a folder you can write to"
    return None


def path_problems(s: Settings, given: set[str], out: str | None):
    """The checkpoint and the result file: their folders exist and take a file (rank 0 writes both)."""
    for option, path, example in (("--checkpoint", s.checkpoint, "run.pt"), ("--out", out, "result.json")):
        why = path and cannot_write(path, example)
        if why:
            yield option, why


def steps_done(path: str) -> int:
    """The steps a checkpoint saved by ``utils.checkpoint`` holds (mmap: the weights are not read)."""
    import torch

    return torch.load(path, map_location="cpu", weights_only=False, mmap=True)["step"]


def checkpoint_problems(s: Settings, given: set[str], out: str | None):
    """A checkpoint to resume from that this script cannot read, or one that holds every step asked for."""
    if not (s.checkpoint and os.path.isfile(s.checkpoint)):
        return
    try:
        done = steps_done(s.checkpoint)
    except Exception as exc:  # a file of another kind: say so rather than overwrite it
        yield "--checkpoint", (f"{s.checkpoint} is not a checkpoint this script saved "
                               f"({type(exc).__name__}); give a new file name to start a run")
        return
    if done >= s.steps:
        yield "--steps", (f"the checkpoint {s.checkpoint} already holds {done} steps; ask for more "
                          f"(--steps {done + s.steps}) to continue, or remove the file to start again")


def world_size() -> int:
    """Workers in this run: torchrun's ``WORLD_SIZE``, or 1 without torchrun."""
    return int(os.environ.get("WORLD_SIZE", "1"))


def text_problems(s: Settings, given: set[str], out: str | None):
    """Enough text for one batch on every worker (each worker's loader drops an incomplete batch)."""
    try:
        sequences = len(text_data(s))  # cached: training reads the same text again for free
    except ValueError:  # fewer characters than one sequence
        sequences = 0
    needed = world_size() * s.batch_per_worker
    if sequences < needed:
        enough = math.ceil((needed * s.context + 1) / 0.9) + 1  # 90 % of the text trains (data.char_dataset)
        yield "--max-chars", (f"{s.max_chars} characters make {sequences} sequence(s) of --context "
                              f"{s.context}, fewer than --batch-per-worker {s.batch_per_worker} for each of "
                              f"{world_size()} worker(s); use --max-chars {enough} or more")


def run_device(s: Settings):
    """The device this worker trains on: ``--device``, or the launcher's plan (as ``train`` chooses it)."""
    import torch

    from utils.launch import current_device

    return torch.device(s.device) if s.device else current_device()


def device_problems(s: Settings, given: set[str], out: str | None):
    """The course's mode (``TWOGPU_MODE``) is one this machine has, and ``--device`` one of its devices."""
    from utils import devices

    try:
        device = run_device(s)
    except devices.DeviceError as exc:  # e.g. TWOGPU_MODE=bogus: its own message, which names the modes
        yield "TWOGPU_MODE", str(exc)
        return
    if device.type == "cuda" and (device.index or 0) >= devices.gpu_count():
        count = devices.gpu_count()
        found = f"{count} GPU(s), cuda:0 to cuda:{count - 1}" if count else "no CUDA GPU for this torch"
        yield "--device", f"{s.device} is not on this machine ({found}); leave --device out to use the plan"


CHECKS = (combination_problems, path_problems, checkpoint_problems, text_problems, device_problems)


def first_problem(checks, s, given: set[str], out: str | None) -> tuple[str, str] | None:
    """The first (option, message) that ``checks`` find, or None."""
    for check in checks:
        for problem in check(s, given, out):
            return problem
    return None


def parse_fields(cls, argv: list[str] | None, prog: str, description: str, rules: dict = RULES,
                 checks=CHECKS):
    """An instance of the dataclass ``cls`` from the command line, and ``--out FILE``: (instance, out).

    Every option is checked first by its rule, then together (``checks``); the first problem is argparse's
    one-line error, exit status 2, before anything starts. Lesson 08 passes its own rules and checks."""
    parser = parser_for(cls, prog, description, rules)
    args = vars(parser.parse_args(argv))
    out = args.pop("out")
    given = {name for name, value in args.items() if value is not None}
    s = cls(**{name: args[name] for name in given})  # the dataclass's defaults for the rest
    problem = first_problem(checks, s, given, out)
    if problem:
        option, message = problem
        parser.error(message if option == "TWOGPU_MODE" else f"argument {option}: {message}")
    return s, out


def parse_settings(argv: list[str] | None = None) -> tuple[Settings, str | None]:
    """``--steps 30 --batch-per-worker 16 ...``: one option per ``Settings`` field, plus ``--out FILE``."""
    return parse_fields(Settings, argv, PROG, "Lesson 03's DDP training of the small GPT.")


def command_flags(s: Settings, always: tuple[str, ...] = ("steps", "batch_per_worker")) -> str:
    """The options that give ``s`` on the command line: ``always`` these, and every field off its default."""
    flags = []
    for f in dataclasses.fields(Settings):
        value = getattr(s, f.name)
        if value is None or value is False or (value == f.default and f.name not in always):
            continue
        flag = "--" + f.name.replace("_", "-")
        flags.append(flag if value is True else f"{flag} {value}")
    return " ".join(flags)


def alone(module: str) -> None:
    """Started by ``python -m``, not ``torchrun``: a world of one on a free local port, and a line saying so."""
    from utils.launch import free_port

    if "RANK" in os.environ:  # torchrun (or launch) set the world up
        return
    os.environ.update(RANK="0", WORLD_SIZE="1", LOCAL_RANK="0", LOCAL_WORLD_SIZE="1",
                      MASTER_ADDR="127.0.0.1", MASTER_PORT=str(free_port()))
    print(f"[{module}] not under torchrun: one process (world size 1); for two: "
          f"torchrun --nproc-per-node 2 -m {module} ...", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    """Train with the command line's settings on this worker; rank 0 prints a line and writes ``--out``."""
    s, out = parse_settings(argv)  # every check first: a bad option exits here, with nothing started
    alone("utils.lessons.ddp")
    result = train(s)
    if result["rank"] == 0:
        print(f"world size {result['world_size']}: final loss {result['final_loss']:.6f} after {s.steps} steps, "
              f"{result['samples_per_s']:.1f} samples/s", flush=True)
        if out:
            summary = {k: v for k, v in result.items() if k != "state"}
            with open(out, "w") as f:
                json.dump(summary, f)
    return 0
