"""Lesson 08's matmul peaks as ceilings: probed in this lesson with lesson 00's probe, named by how they were
measured, and never beaten by the step they bound.

    probes = [peaks.named(p) for p in probes]   # "fp32 matmul peak, 1 thread, 1024³, fastest of 10 runs in lesson 08"
    kept, lifted = peaks.ceiling_peaks(probed, matmul_flops, matmul_s)   # fp32: the probe's or the step's rate
    peaks.beaten(mfu)                           # a step above 100% MFU beat its peak: no bound reads that peak

Why: a peak is a ceiling only if nothing the lesson times runs faster. One timing of a small matmul can miss
the machine's best moment (lesson 00: "one lucky run is not a ceiling", and one unlucky run is not one
either), and then the step it bounds beats it and every bound built on it (MFU, compile's, the ledger's)
reads a figure below what the run itself did.
"""

from __future__ import annotations

import dataclasses
import math

from utils import claims
from utils.lessons.putting_it_together import guide

# Each probe is timed PROBE_ROUNDS x PROBE_RUNS times, interleaved with the other dtypes' (machine.run_rounds),
# and keeps its fastest run: a busy moment only ever slows a matmul.
PROBE_ROUNDS, PROBE_RUNS = 5, 2
# The steps whose bound reads a matmul peak: precision's (the matmuls' FLOPs at the low peak), compile's (the
# kept step's MFU) and memory's (tokens/s at the peak). Feeding, optimizer and two devices read none.
READS_A_PEAK = ("precision", "compile", "memory")


def probe_label() -> str:
    """How this lesson's probes are measured, appended to their size: lesson 00's stored figure of the same
    matmul keeps the fastest quarter of more rounds, so the two never share a name (machine.py's rule)."""
    return f"fastest of {PROBE_ROUNDS * PROBE_RUNS} runs in lesson 08"


def named(probe):
    """``probe`` (a ``machine.Probe``) with its size naming how this lesson measures it."""
    return dataclasses.replace(probe, size=f"{probe.size}, {probe_label()}")


def ceiling_peaks(probed: dict[str, float], matmul_flops: float | None,
                  matmul_s: float | None) -> tuple[dict[str, float], bool]:
    """The peaks the lesson reads, and whether the fp32 one was lifted: the fp32 peak is the higher of the
    probe's and the profiled step's own fp32 matmul rate (its FLOPs over its seconds), both as section 2
    prints them (0.1 GFLOP/s), so that the step the peak bounds never beats it. The low-precision peaks stay
    the probes': no fp32 step times them (a later step's MFU above 100% would show one beaten, ``beaten``)."""
    if not matmul_flops or not matmul_s or "fp32" not in probed:
        return dict(probed), False
    rate = guide.matmul_gflops(matmul_flops, matmul_s)
    if rate > claims.as_printed(probed["fp32"], 1, 1e9):
        return {**probed, "fp32": rate * 1e9}, True
    return dict(probed), False


def beaten(mfu: float | None) -> bool:
    """Whether a step's MFU, as printed (a tenth of a percent), is above 100%: it beat the peak it is
    measured against, so that peak is no ceiling for it."""
    return mfu is not None and math.isfinite(mfu) and claims.as_printed(mfu, 3) > 1


def unbeaten(rung, mfu: float | None):
    """``rung`` (a ``ladder.Rung``) as run: where its own MFU passed 100% and its bound reads a matmul peak
    (``READS_A_PEAK``), the bound goes, with why: a bound built on a beaten peak is no ceiling."""
    if not beaten(mfu) or rung.bound is None or rung.name not in READS_A_PEAK:
        return rung
    precision = rung.settings.precision
    return dataclasses.replace(rung, bound=None, bound_what=(
        f"none: this step ran at {claims.as_printed(mfu, 3):.1%} MFU, above its {precision} matmul peak, so "
        "that peak is no ceiling and no bound is read from it"))
