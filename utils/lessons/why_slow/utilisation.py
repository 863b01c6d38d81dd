"""MFU of the small GPT's training step (lesson 01, section 1), measured against the peak in the same run.

The step and the peak matmul are timed in the same interleaved rounds (``utils.machine.measure_ceilings``, with
the step passed ``alongside`` the machine profile's own matmul probe), so that a busy stretch slows both alike
and the peak carries the profile's name ("fp32 matmul peak, 1 thread, 1024³"). The peak is the fastest matmul
of all rounds (a busy machine only slows a kernel down: the fastest run is the closest to what the hardware can
do, as every ceiling of the lesson); each round's fastest step against it gives one MFU, and the lesson
reports their median with the range. No round can then exceed 100 % by a slow peak measurement.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from utils import machine
from utils.lessons.why_slow.flops import gpt_flops, mfu


@dataclass(frozen=True)
class StepUtilisation:
    model_flops: float  # formula FLOPs of one training step
    step_seconds: list[float]  # per round, the step's fastest of ``runs``
    peak_flops: list[float]  # per round, the matmul's best FLOP/s
    dtype: str
    threads: int | None = 0  # CPU threads the rounds ran on (None on a GPU; 0: not recorded)
    peak_name: str = ""  # the machine profile's name of the peak, e.g. "fp32 matmul peak, 1 thread, 1024³"

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


def _per_round(samples: list[float], runs: int) -> list[float]:
    """The fastest of each round's ``runs`` timed calls (``machine.run_rounds`` keeps them in round order)."""
    return [min(samples[k:k + runs]) for k in range(0, len(samples), runs)]


def step_utilisation(run, peak_n: int, rounds: int = 5, runs: int = 2, threads: int | None = None
                     ) -> StepUtilisation:
    """Time ``runs`` training steps beside ``runs`` n x n x n matmuls in ``run.dtype`` (the machine profile's
    probe), ``rounds`` interleaved rounds, on ``threads`` torch threads (None: torch's own; lesson 01 passes
    its plan's ``measure_threads``).

    ``run`` is a ``step.TrainingStep``. Its model FLOPs are the formula's (6N per token plus attention)."""
    cfg = run.model.config
    flops = gpt_flops(cfg.vocab_size, cfg.context, cfg.width, cfg.depth, batch=run.x.shape[0],
                      tokens_per_seq=run.x.shape[1]).train
    probe = machine.matmul_probe(peak_n, run.dtype, run.device, threads)
    # The profile's interleaved rounds (what ``machine.measure_ceilings`` runs), kept per call: each round's
    # fastest matmul and fastest step.
    calls = [(probe.threads, probe.make()), (threads, run.step)]
    matmul, step = machine.run_rounds(calls, rounds, runs, run.device)
    peaks = [probe.work / s for s in _per_round(matmul.samples, runs)]
    return StepUtilisation(flops, _per_round(step.samples, runs), peaks, run.dtype, probe.threads,
                           machine.ceiling_of(probe, matmul).name)
