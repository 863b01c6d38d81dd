"""What lesson 03 measures around its recipe, kept out of the recipe: time, bytes, progress.

``recipe.train`` wraps each optimizer step in ``Meter.step``; everything here only watches the training, so
the recipe reads as it would without any of it:

- ``ByteCounter``: the bytes the communication hook hands to ``torch.distributed.all_reduce``;
- ``Meter``: samples/s after the warm-up steps, all-reduced bytes per step, a progress bar on rank 0.
"""

from __future__ import annotations

import contextlib
import io
import math
import statistics
import sys
import textwrap
import time

import torch.distributed as dist
from tqdm import tqdm

from utils.bench import synchronize

PROGRESS_EVERY_S = 2.0  # seconds between progress-bar lines (each is one line in the notebook cell)


class ByteCounter:
    """Counts the bytes handed to ``torch.distributed.all_reduce`` inside ``with counter.active():``.

    The communication hooks call ``dist.all_reduce`` through the module (PowerSGD's second message too, from a
    callback that runs before ``backward()`` returns), so replacing that one function for the duration of the
    block sees every message they send; the original is put back on the way out.
    """

    def __init__(self):
        self.bytes = 0
        self.calls = 0

    @contextlib.contextmanager
    def active(self):
        original = dist.all_reduce

        def counting_all_reduce(tensor, *args, **kwargs):
            self.bytes += tensor.numel() * tensor.element_size()
            self.calls += 1
            return original(tensor, *args, **kwargs)

        dist.all_reduce = counting_all_reduce
        try:
            yield self
        finally:
            dist.all_reduce = original


class _Lines:
    """A file for tqdm whose every update is one whole line.

    tqdm redraws its bar with ``\\r``; the notebook launcher relays worker output line by line, so a bar that
    never ends its line would appear only when it closes. Here each redraw becomes a line, at most one every
    ``PROGRESS_EVERY_S`` seconds (tqdm's ``mininterval``), and the closing redraw is not repeated.
    """

    def __init__(self, stream):
        self.stream = stream
        self.last = ""

    def write(self, text: str) -> None:
        line = text.replace("\r", "").rstrip()
        if line and line != self.last:
            self.stream.write(line + "\n")
            self.last = line

    def flush(self) -> None:
        self.stream.flush()


def progress_bar(total: int, initial: int) -> tqdm:
    """A tqdm bar over optimizer steps: redrawn in place in a terminal, one line at a time under ``launch``."""
    tty = sys.stdout.isatty()
    return tqdm(total=total, initial=initial, desc="train", unit="step", ncols=80,
                file=sys.stdout if tty else _Lines(sys.stdout), mininterval=0.1 if tty else PROGRESS_EVERY_S,
                ascii=False if tty else " ▏▎▍▌▋▊▉█")


class Meter:
    """Watches ``recipe.train`` (lesson 03): ``with Meter(...) as meter:`` around the loop, then for each step
    ``with meter.step(step): ...`` and ``meter.progress(loss)``; ``meter.report()`` gives the figures.

    - samples/s: all ranks' samples over the wall time from the first step after ``warmup_steps`` to the end
      of the loop (the CUDA device synchronised), so first-step allocations are not counted;
    - bytes per step: what the communication hook all-reduced in each step (the median of the last three);
    - the timed window's wall seconds and this process's CPU seconds (the work, where workers are CPU
      processes: ``scaling`` sets one worker's against two's);
    - a progress bar on rank 0 when ``progress`` is set.
    """

    def __init__(self, s, start: int, device):
        self.s, self.start, self.device = s, start, device
        self.step_bytes: list[int] = []
        self.timed_from = None
        self.cpu_from = 0.0
        self.elapsed = math.nan
        self.cpu = math.nan  # CPU seconds of this process (every thread: compute and gloo's) in the window
        self.bar = progress_bar(s.steps, start) if s.progress and dist.get_rank() == 0 else None

    def __enter__(self) -> Meter:
        return self

    def __exit__(self, *exc) -> None:
        synchronize(self.device)  # CUDA runs asynchronously: the last step is done only after this
        if self.timed_from is not None:
            self.elapsed = time.perf_counter() - self.timed_from
            self.cpu = time.process_time() - self.cpu_from
        if self.bar is not None:
            self.bar.close()

    @contextlib.contextmanager
    def step(self, step: int):
        """One optimizer step: starts the clock after the warm-up, counts the bytes the hook all-reduces."""
        if step == self.start + self.s.warmup_steps:
            self.timed_from, self.cpu_from = time.perf_counter(), time.process_time()
        counter = ByteCounter()
        with counter.active():
            yield
        self.step_bytes.append(counter.bytes)

    def progress(self, loss: float) -> None:
        if self.bar is not None:
            self.bar.set_postfix(loss=f"{loss:.3f}", refresh=False)
            self.bar.update(1)

    def report(self) -> dict:
        """``samples_per_s`` (all ranks together, NaN without a timed step) and ``bytes_per_step`` (per rank)."""
        timed_steps = self.s.steps - self.start - self.s.warmup_steps
        samples = dist.get_world_size() * self.s.batch_per_worker * self.s.accumulate * timed_steps
        return {"samples_per_s": samples / self.elapsed if timed_steps > 0 else math.nan,
                "timed_s": self.elapsed, "cpu_s": self.cpu,  # the timed window: wall and this process's CPU
                "bytes_per_step": statistics.median(self.step_bytes[-3:]) if self.step_bytes else 0}


@contextlib.contextmanager
def wrapped_output(width: int = 110):
    """Hold what the block prints (the launcher's notices, the workers' relayed lines, on stdout and stderr)
    and print it when the block ends, each line wrapped to ``width`` characters: gloo's abort messages and
    the launcher's restart notice run longer than the course's narrow output. Nothing is dropped."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            yield
    finally:
        for held, stream in ((out, sys.stdout), (err, sys.stderr)):
            for line in held.getvalue().splitlines():
                print(textwrap.fill(line, width, subsequent_indent="    ") if line.strip() else line, file=stream)
