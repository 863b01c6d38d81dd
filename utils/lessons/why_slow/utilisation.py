"""MFU of the small GPT's training step (lesson 01, section 1), measured against the peak in the same run.

MFU divides by the machine profile's stored peak (``profile_peak``: "fp32 matmul peak, 1 thread, 1024³", the
one figure every lesson quotes under that name). The profile's own matmul probe is also timed again in the same
interleaved rounds as the step (``utils.machine.run_rounds``), so that the lesson can show how far this
moment's load moved it: that re-timing is named apart ("the same probe timed beside the step, this run") and
never replaces the profile's figure. Each round's fastest step gives one MFU; the lesson reports their median
with the range. Without a ``profile_peak`` (lab and benchmark use), the fastest re-timed matmul is the peak.
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
    profile_peak: float | None = None  # the stored profile's value under ``peak_name``: what MFU divides by

    RETIMED = "the same probe timed beside the step, this run"  # the in-run re-timing's own name

    @property
    def mfus(self) -> list[float]:
        """Each round's step against the peak (the profile's; without one, the fastest re-timed matmul)."""
        return [mfu(self.model_flops, s, self.peak) for s in self.step_seconds]

    @property
    def median(self) -> float:
        return statistics.median(self.mfus)

    @property
    def achieved(self) -> float:
        """The step's model FLOP/s, from its median time."""
        return self.model_flops / statistics.median(self.step_seconds)

    @property
    def retimed(self) -> float:
        """The fastest round's matmul FLOP/s: the profile's probe, timed beside the step in this run."""
        return max(self.peak_flops)

    @property
    def retimed_median(self) -> float:
        """The rounds' median matmul FLOP/s: how far this moment moved the probe, by the rule every MFU on the page
        follows (a median over the rounds, reader t25_0001 #4), not the fastest round alone."""
        return statistics.median(self.peak_flops)

    @property
    def peak(self) -> float:
        """What MFU divides by: the stored profile's peak where given, else the fastest re-timed matmul."""
        return self.profile_peak if self.profile_peak else self.retimed


def _per_round(samples: list[float], runs: int) -> list[float]:
    """The fastest of each round's ``runs`` timed calls (``machine.run_rounds`` keeps them in round order)."""
    return [min(samples[k:k + runs]) for k in range(0, len(samples), runs)]


def step_utilisation(run, peak_n: int, rounds: int = 5, runs: int = 2, threads: int | None = None,
                     profile_peak: machine.Ceiling | None = None) -> StepUtilisation:
    """Time ``runs`` training steps beside ``runs`` n x n x n matmuls in ``run.dtype`` (the machine profile's
    probe), ``rounds`` interleaved rounds, on ``threads`` torch threads (None: torch's own; lesson 01 passes
    its plan's ``measure_threads``).

    ``run`` is a ``step.TrainingStep``. Its model FLOPs are the formula's (6N per token plus attention).
    ``profile_peak``: the stored profile's ceiling of the same probe (lesson 01): MFU divides by it."""
    cfg = run.model.config
    flops = gpt_flops(cfg.vocab_size, cfg.context, cfg.width, cfg.depth, batch=run.x.shape[0],
                      tokens_per_seq=run.x.shape[1]).train
    probe = machine.matmul_probe(peak_n, run.dtype, run.device, threads)
    # The profile's interleaved rounds (what ``machine.measure_ceilings`` runs), kept per call: each round's
    # fastest matmul and fastest step.
    calls = [(probe.threads, probe.make()), (threads, run.step)]
    matmul, step = machine.run_rounds(calls, rounds, runs, run.device)
    peaks = [probe.work / s for s in _per_round(matmul.samples, runs)]
    stored = profile_peak.best if profile_peak else None  # what MFU divides by, where given
    return StepUtilisation(flops, _per_round(step.samples, runs), peaks, run.dtype, probe.threads,
                           machine.ceiling_of(probe, matmul).name, stored)
