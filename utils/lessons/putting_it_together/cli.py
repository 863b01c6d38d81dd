"""Lesson 08's training script from a shell, as lesson 03's (``utils/lessons/ddp/cli.py``), with the steps:

    python -m utils.lessons.putting_it_together --help
    python -m utils.lessons.putting_it_together --precision bf16 --checkpoint run.pt     # one process
    torchrun --nproc-per-node 2 -m utils.lessons.putting_it_together --precision bf16 --loader-workers 1
    torchrun --nnodes 2 --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint HOST:29400 \\
        -m utils.lessons.putting_it_together                                  # on each of two machines

Without ``torchrun`` it runs as a world of one (``python -m``). With ``--checkpoint FILE`` it saves every
``--checkpoint-every`` steps and resumes from the file when started again.
"""

from __future__ import annotations

import json
import os

from utils.lessons.ddp import cli as ddp_cli
from utils.lessons.putting_it_together.script import Settings, train

PROG = "python -m utils.lessons.putting_it_together"


def parse_settings(argv: list[str] | None = None) -> tuple[Settings, str | None]:
    """One option per ``Settings`` field (``--precision bf16``, ``--loader-workers 1`` ...), and ``--out``."""
    return ddp_cli.parse_fields(Settings, argv, PROG, "Lesson 08: the small GPT trained fast. Runs as one "
                                "process, or under torchrun as many.")


def alone() -> None:
    """Started by ``python -m``, not ``torchrun``: a world of one on a free local port."""
    from utils.launch import free_port

    if "RANK" not in os.environ:
        os.environ.update(RANK="0", WORLD_SIZE="1", LOCAL_RANK="0", LOCAL_WORLD_SIZE="1",
                          MASTER_ADDR="127.0.0.1", MASTER_PORT=str(free_port()))


def main(argv: list[str] | None = None) -> int:
    """Train with the command line's settings on this worker; rank 0 prints a line and writes ``--out``."""
    s, out = parse_settings(argv)
    alone()
    result = train(s)
    if result["rank"] == 0:
        print(f"world size {result['world_size']}: loss {result['final_loss']:.4f} after {s.steps} steps "
              f"(resumed at {result['start_step']}), {result['tokens_per_s']:.0f} tokens/s", flush=True)
        if out:
            with open(out, "w") as f:
                json.dump({k: v for k, v in result.items() if k != "state"}, f)
    return 0
