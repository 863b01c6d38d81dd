"""Lesson 03's training from a shell: the recipe that the notebook launches, under ``torchrun``.

    torchrun --nproc-per-node 2 -m utils.lessons.ddp --steps 30                       # one machine
    torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint HOST:29400 \\
        -m utils.lessons.ddp --steps 30                                               # on each of two machines

One option per ``Settings`` field (``--batch-per-worker 16``, ``--hook fp16``, ``--progress`` ...), plus
``--out FILE``: global rank 0 writes its result there as JSON (without the weights).
"""

from __future__ import annotations

import argparse
import dataclasses
import json

from utils.lessons.ddp.recipe import train
from utils.lessons.ddp.settings import Settings

PROG = "torchrun --nproc-per-node 2 -m utils.lessons.ddp"


def parse_settings(argv: list[str] | None = None) -> tuple[Settings, str | None]:
    """``--steps 30 --batch-per-worker 16 ...``: one option per ``Settings`` field, plus ``--out FILE``."""
    return parse_fields(Settings, argv, PROG, "Lesson 03's DDP training of the small GPT.")


def parse_fields(cls, argv: list[str] | None, prog: str, description: str):
    """An instance of the dataclass ``cls`` from the command line, one option per field (``--batch-per-worker``
    for ``batch_per_worker``; a bool is a flag), and ``--out FILE``: (instance, out). Lesson 08 uses it too."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    for f in dataclasses.fields(cls):
        flag = "--" + f.name.replace("_", "-")
        if f.type in ("bool", bool):
            parser.add_argument(flag, action="store_true")
        else:
            kind = {"int": int, "float": float, "str": str}.get(str(f.type).split(" |")[0], str)
            parser.add_argument(flag, type=kind, default=f.default)
    parser.add_argument("--out", help="rank 0 writes the result (without weights) here, as JSON")
    args = vars(parser.parse_args(argv))
    out = args.pop("out")
    return cls(**args), out


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


def main(argv: list[str] | None = None) -> int:
    """Train with the command line's settings on this worker; rank 0 prints a line and writes ``--out``."""
    s, out = parse_settings(argv)
    result = train(s)
    if result["rank"] == 0:
        print(f"world size {result['world_size']}: final loss {result['final_loss']:.6f} after {s.steps} steps, "
              f"{result['samples_per_s']:.1f} samples/s", flush=True)
        if out:
            summary = {k: v for k, v in result.items() if k != "state"}
            with open(out, "w") as f:
                json.dump(summary, f)
    return 0
