"""Lesson 08's training script from a shell, as lesson 03's (``utils/lessons/ddp/cli.py``), with the steps:

    python -m utils.lessons.putting_it_together --help
    python -m utils.lessons.putting_it_together --precision bf16 --checkpoint run.pt     # one process
    torchrun --nproc-per-node 2 -m utils.lessons.putting_it_together --precision bf16 --loader-workers 1
    torchrun --nnodes 2 --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint HOST:29400 \\
        -m utils.lessons.putting_it_together                                  # on each of two machines

Without ``torchrun`` it runs as a world of one (``python -m``) and says so. With ``--checkpoint FILE`` it
saves every ``--checkpoint-every`` steps and resumes from the file when started again. Every option is
checked before anything starts, as lesson 03's are; ``--precision`` also against what the device supports.
"""

from __future__ import annotations

import json

from utils.lessons.ddp import cli as ddp_cli
from utils.lessons.putting_it_together.script import DTYPES, Settings, train

PROG = "python -m utils.lessons.putting_it_together"
PRECISIONS = ("fp32", *DTYPES)  # fp32, and the autocast precisions: bf16, fp16
RULES = {**ddp_cli.RULES, "loader_workers": ddp_cli.at_least(0), "precision": PRECISIONS}


def precisions_on(device, hw=None) -> tuple[str, ...]:
    """The precisions that ``device`` runs natively (lesson 04), from NVML's facts: nothing starts CUDA.

    A CPU's autocast runs bf16 and fp16 on every x86 CPU (bf16 emulated where the CPU has no bf16 units:
    slower, which lesson 04 measures). A GPU needs bf16 units for bf16: compute capability 8.0 or newer."""
    from utils import devices

    if device.type != "cuda":
        return PRECISIONS
    gpus = (hw or devices.hardware()).gpus
    index = device.index or 0
    capability = gpus[index].compute_capability if index < len(gpus) else None
    if capability is not None and capability < (8, 0):
        return ("fp32", "fp16")
    return PRECISIONS


def precision_problems(s: Settings, given: set[str], out: str | None):
    """``--precision`` is one that this worker's device supports; which ones, if not."""
    device = ddp_cli.run_device(s)
    supported = precisions_on(device)
    if s.precision not in supported:
        yield "--precision", (f"{s.precision} is not supported on {device} (bf16 needs a GPU of compute "
                              f"capability 8.0 or newer); use {' or '.join(supported)}")


def parse_settings(argv: list[str] | None = None) -> tuple[Settings, str | None]:
    """One option per ``Settings`` field (``--precision bf16``, ``--loader-workers 1`` ...), and ``--out``."""
    description = "Lesson 08: the small GPT trained fast. Runs as one process, or under torchrun as many."
    checks = (*ddp_cli.CHECKS, precision_problems)  # lesson 03's first: the mode and --device, then precision
    return ddp_cli.parse_fields(Settings, argv, PROG, description, RULES, checks)


def main(argv: list[str] | None = None) -> int:
    """Train with the command line's settings on this worker; rank 0 prints a line and writes ``--out``."""
    s, out = parse_settings(argv)  # every check first: a bad option exits here, with nothing started
    ddp_cli.alone("utils.lessons.putting_it_together")
    result = train(s)
    if result["rank"] == 0:
        print(f"world size {result['world_size']}: loss {result['final_loss']:.4f} after {s.steps} steps "
              f"(resumed at {result['start_step']}), {result['tokens_per_s']:.0f} tokens/s", flush=True)
        if out:
            with open(out, "w") as f:
                json.dump({k: v for k, v in result.items() if k != "state"}, f)
    return 0
