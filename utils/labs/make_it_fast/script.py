"""Lab 08's training script as given: slow, and the pieces it is made of.

    results = launch(slow_train, STEPS, nprocs=2, timeout=120)    # each rank: losses, held-out losses

The script trains the course's small GPT with DDP on two workers, accumulating ``ACCUMULATE`` micro-batches a
step. It trains correctly and returns what the lab's specification asks (the held-out loss every
``EVAL_EVERY`` steps; a checkpoint every ``CHECKPOINT_EVERY`` steps, rank 0), but it evaluates and saves more
often than asked, and it runs slowly, in ways lessons 00 to 08 taught to see. The pieces it calls are the
learner's too:

- ``text()``: the training text, each window read from slow storage (``READ_SECONDS``, a wait like a disk's);
- ``build_model(vocab)``: the small GPT, the same weights on every rank;
- ``micro_batches(loader, sampler)``: micro-batches forever, a new order each epoch;
- ``evaluate(model)``: the held-out loss; ``save_checkpoint(model, optimizer, step)``: atomic, rank 0's.

Each piece counts its calls in the process that makes them (``counts()``), so the checks see what the
learner's script did without reading it.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import os
import tempfile
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.profiler import record_function
from torch.utils.data import DataLoader, Dataset, DistributedSampler

from utils import checkpoint, data, models
from utils.launch import current_backend, current_device, keep_until_exit

SEED = 0
STEPS = 12  # optimizer steps a run makes
MICRO_BATCH = 8  # sequences per micro-batch per worker
ACCUMULATE = 4  # micro-batches per optimizer step
LR = 3e-3
EVAL_EVERY = 6  # the specification: the held-out loss after steps 6, 12, ...
CHECKPOINT_EVERY = 6  # and a checkpoint (rank 0) after steps 6, 12, ...
CONTEXT, MAX_CHARS = 64, 200_000
READ_SECONDS = 0.0025  # simulated storage time per window read (a sleep: it holds no core)
HELD_OUT = 64  # held-out windows the evaluation reads

_COUNTS: collections.Counter = collections.Counter()  # this process's calls of the pieces below
_AFTER: dict[str, list[int]] = collections.defaultdict(list)  # piece -> optimizer steps done at each call


def counts() -> dict[str, int]:
    """How often this process called each piece (``evaluate``, ``save_checkpoint``, ``read``)."""
    return dict(_COUNTS)


def calls_after_steps() -> dict[str, list[int]]:
    """For ``evaluate`` and ``save_checkpoint``: how many optimizer steps this process had made at each call
    (counted by ``note_optimizer_step``, which the lab's checks hook to every optimizer step)."""
    return {name: list(steps) for name, steps in _AFTER.items()}


def note_optimizer_step() -> None:
    _COUNTS["optimizer steps"] += 1


def reset_counts() -> None:
    _COUNTS.clear()
    _AFTER.clear()


class SlowText(Dataset):
    """The training text as (x, y) windows of ``CONTEXT`` characters, (CONTEXT,) int64 each; every read waits
    ``read_seconds`` (slow storage) and is counted in the process that reads it."""

    def __init__(self, read_seconds: float = READ_SECONDS):
        self.windows = data.char_dataset(CONTEXT, "train", max_chars=MAX_CHARS)
        self.corpus = self.windows.corpus
        self.read_seconds = read_seconds

    def __len__(self) -> int:
        return len(self.windows)

    def __getitem__(self, i):
        time.sleep(self.read_seconds)  # the storage's wait: no core is busy meanwhile
        _COUNTS["read"] += 1
        return self.windows[i]


def text(read_seconds: float = READ_SECONDS) -> SlowText:
    """The lab's training data: windows of standard-library source, each read from slow storage."""
    return SlowText(read_seconds)


def build_model(vocab_size: int) -> torch.nn.Module:
    """The course's small GPT (width 128, depth 4, context 64), the same weights on every rank."""
    return models.small_gpt(vocab_size, seed=SEED, context=CONTEXT)


def micro_batches(loader: DataLoader, sampler: DistributedSampler):
    """Micro-batches forever, epoch after epoch; ``set_epoch`` gives each epoch a new order (lesson 03)."""
    for epoch in itertools.count():
        sampler.set_epoch(epoch)
        yield from loader


@torch.no_grad()
def evaluate(model: torch.nn.Module) -> float:
    """The mean next-character loss on ``HELD_OUT`` held-out windows (one forward pass, no gradient)."""
    _COUNTS["evaluate"] += 1
    _AFTER["evaluate"].append(_COUNTS["optimizer steps"])
    held_out = data.char_dataset(CONTEXT, "val", max_chars=MAX_CHARS)
    x, y = (torch.stack(t) for t in zip(*(held_out[i] for i in range(HELD_OUT))))  # (HELD_OUT, CONTEXT) each
    device = next(model.parameters()).device
    was_training = model.training
    model.eval()
    loss = model(x.to(device), y.to(device))[1].item()
    model.train(was_training)
    return loss


def checkpoint_path() -> str:
    """Where this launch's checkpoint goes: a folder the check names (``TWOGPU_LAB08_DIR``), else a temporary
    one."""
    folder = os.environ.get("TWOGPU_LAB08_DIR") or tempfile.gettempdir()
    return os.path.join(folder, f"lab08-{os.getppid()}.pt")


def save_checkpoint(model: torch.nn.Module, optimizer: torch.optim.Optimizer, step: int) -> None:
    """Model, optimizer and step, written atomically (``utils.checkpoint.save``); counted."""
    _COUNTS["save_checkpoint"] += 1
    _AFTER["save_checkpoint"].append(_COUNTS["optimizer steps"])
    checkpoint.save(checkpoint_path(), model, optimizer, step)


def slow_train(steps: int = STEPS) -> dict:
    """The script as given: correct, and slow. Each rank returns its loss at every step and the held-out
    losses the specification asks for. Regions are named for the profiler (``record_function``)."""
    torch.set_num_threads(os.cpu_count())  # "use every core"
    device = current_device()
    dist.init_process_group(current_backend())
    dataset = text()
    model = build_model(dataset.corpus.vocab_size).to(device)
    ddp_model = keep_until_exit(DDP(model, device_ids=[device.index] if device.type == "cuda" else None))
    sampler = DistributedSampler(dataset, shuffle=True, seed=SEED, drop_last=True)
    loader = DataLoader(dataset, batch_size=MICRO_BATCH, sampler=sampler, drop_last=True)
    optimizer = torch.optim.AdamW(ddp_model.parameters(), lr=LR)
    batches = micro_batches(loader, sampler)
    losses, held_out = [], {}
    for step in range(1, steps + 1):
        with record_function("step"):
            optimizer.zero_grad()
            step_loss = 0.0
            for _ in range(ACCUMULATE):
                with record_function("load"):
                    x, y = (t.to(device) for t in next(batches))  # (MICRO_BATCH, CONTEXT) each
                with record_function("forward and backward"):
                    loss = ddp_model(x, y)[1] / ACCUMULATE
                    loss.backward()
                step_loss += loss.item()
            with record_function("optimizer"):
                optimizer.step()
            losses.append(step_loss)
            with record_function("evaluate"):
                latest = evaluate(model)  # every step, to watch it fall
            if step % EVAL_EVERY == 0:
                held_out[step] = latest
            with record_function("checkpoint"):
                if dist.get_rank() == 0:
                    save_checkpoint(model, optimizer, step)  # every step: nothing is ever lost
    dist.destroy_process_group()
    return {"losses": losses, "held_out": held_out}


def training_flops_per_step(vocab_size: int) -> float:
    """FLOPs one worker's forward and backward do in a step: lesson 08's count per token (6 x the weights a
    token passes through, plus attention's matmuls) times the worker's tokens a step."""
    from utils.lessons.putting_it_together.ladder import flops_per_token
    from utils.lessons.putting_it_together.script import Settings

    shape = Settings(context=CONTEXT, width=128, depth=4, heads=4)  # build_model's GPT
    return flops_per_token(shape, vocab_size) * ACCUMULATE * MICRO_BATCH * CONTEXT
