"""MFU of the small GPT's training step (lesson 01, section 1), measured against the peak in the same run.

The step and the peak matmul are timed in alternating rounds, so that a busy stretch slows both alike. The peak
is the fastest matmul of all rounds (a busy machine only slows a kernel down: the fastest run is the closest to
what the hardware can do, as every ceiling of the lesson); each round's step against it gives one MFU, and the
lesson reports their median with the range. No round can then exceed 100 % by a slow peak measurement.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

import torch

from utils import bench
from utils.lessons.why_slow.flops import gpt_flops, mfu
from utils.lessons.why_slow.peak import matmul_operands


@dataclass(frozen=True)
class StepUtilisation:
    model_flops: float  # formula FLOPs of one training step
    step_seconds: list[float]  # per round, the step's fastest of ``runs``
    peak_flops: list[float]  # per round, the matmul's best FLOP/s
    dtype: str
    threads: int = 0  # torch threads the rounds ran on

    @property
    def mfus(self) -> list[float]:
        """Each round's step against the peak (the fastest matmul of all rounds)."""
        return [mfu(self.model_flops, s, self.peak) for s in self.step_seconds]

    @property
    def median(self) -> float:
        return statistics.median(self.mfus)

    @property
    def achieved(self) -> float:
        """The step's model FLOP/s, from its median time."""
        return self.model_flops / statistics.median(self.step_seconds)

    @property
    def peak(self) -> float:
        """The fastest round's matmul FLOP/s."""
        return max(self.peak_flops)


def step_utilisation(run, peak_n: int, rounds: int = 5, runs: int = 2, threads: int | None = None
                     ) -> StepUtilisation:
    """Alternate ``runs`` training steps and ``runs`` n x n x n matmuls in ``run.dtype``, ``rounds`` times, on
    ``threads`` torch threads (None: torch's own; lesson 01 passes its plan's ``measure_threads``).

    ``run`` is a ``step.TrainingStep``. Its model FLOPs are the formula's (6N per token plus attention)."""
    cfg = run.model.config
    flops = gpt_flops(cfg.vocab_size, cfg.context, cfg.width, cfg.depth, batch=run.x.shape[0],
                      tokens_per_seq=run.x.shape[1]).train
    a, b = matmul_operands(peak_n, run.dtype, run.device)
    steps, peaks = [], []
    with bench.threads(threads):
        run.step()  # warm-up: first-call allocations and kernel choice
        for _ in range(rounds):
            steps.append(bench.measure(run.step, warmup=0, repeats=runs, device=run.device).min)
            peaks.append(2 * peak_n**3 / bench.measure(lambda: a @ b, warmup=1, repeats=runs, device=run.device).min)
        used = torch.get_num_threads()
    return StepUtilisation(flops, steps, peaks, run.dtype, used)
