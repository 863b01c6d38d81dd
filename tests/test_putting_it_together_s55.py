"""Eighteenth reading, lesson 08 (t18_0708): the precision shortfall's rest is never said to be made of the
ms outside the matmuls (they sit inside the bound already), and the guide's AdamW share is the ms section 2
prints, divided as a reader divides them."""
from __future__ import annotations

from utils import devices
from utils.lessons.memory.plan import CPU_SHAPE
from utils.lessons.putting_it_together import guide, profile, report

PEAKS = {"fp32": 103.3e9, "bf16": 223.5e9}


def _reader_profile():
    # the reader's run: a 289.0 ms step, matmuls 246.9 ms (42.1 ms outside), 20.36 GFLOP
    return guide.Profile({"load": 0.00012, "matmul": 0.2469, "memory-bound": 0.030, "other": 0.01198},
                         matmul_flops=20.36e9, low_peak=223.5e9, peak_ratio=2.16)


def test_the_rest_of_the_shortfall_is_the_growth_outside_the_matmuls_not_their_ms():
    said = report.precision_shortfall(_reader_profile(), 1.53, PEAKS)
    assert "= 133.2 ms, 55.7 ms short" in said
    rest = said.split("The other ")[1]
    assert rest.startswith("32.9 ms are the casts autocast adds, any growth of the 42.1 ms outside the matmuls")
    assert "the bound keeps them at their fp32 time" in rest and "this run does not time them apart" in rest
    assert "what the bound holds still" not in said


def test_the_rest_reads_the_same_where_the_matmuls_reached_their_fp32_peak():
    said = report.precision_shortfall(_reader_profile(), 1.53, {"fp32": 80.0e9, "bf16": 223.5e9})
    assert "accounts for none of it. The 55.7 ms are the casts autocast adds, any growth of the 42.1 ms" in said


def _found(optimizer_s: float, compute_s: float, shares: dict | None = None) -> dict:
    return {"shares": shares or _reader_profile().parts, "peaks": PEAKS, "optimizer": optimizer_s,
            "compute": compute_s}


def test_the_guide_s_adamw_share_is_worked_from_the_printed_ms():
    """Section 2 prints 9.4 ms of the 289.0 ms step: 9.4 / 289.0 = 3.25% -> 3.3% half up, 1/(1 - 0.033) = 1.034x (the
    unrounded 9.35 ms gave 3.2%, 1.033x)."""
    prof = profile.guide_profile(_found(0.009354, 0.28888))
    why = guide.optimizer_step(devices.plan(2, mode_name="cpu", n_gpus=0), CPU_SHAPE, 1, prof).why
    assert "the for-loop AdamW step is 3.3% of a step: fused, at most 1/(1 - 0.033) = 1.034x" in why


def test_the_guide_s_adamw_share_rounds_half_up_as_a_reader_does():
    # 9.1 ms of a 280.0 ms step is 3.25% exactly: a reader's half up gives 3.3%, never 3.2%
    prof = profile.guide_profile(_found(0.0091, 0.280, {"load": 0.0001, "matmul": 0.2799}))
    why = guide.optimizer_step(devices.plan(2, mode_name="cpu", n_gpus=0), CPU_SHAPE, 1, prof).why
    assert "is 3.3% of a step: fused, at most 1/(1 - 0.033) = 1.034x" in why
