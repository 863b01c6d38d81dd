"""Thirty-third reading, lesson 08 (t33_0708 #1): AdamW's share was called "of the compute" but divided by the
compute in whole ms (184), beside a compute printed as 183.8 ms: a reader got 7.5% for a printed 7.4%. Now the
share is of the step the table prints, named in the sentence, and the guide reads the same division.
Every figure here is fabricated."""
from __future__ import annotations

from utils import devices
from utils.lessons.memory.plan import CPU_SHAPE
from utils.lessons.putting_it_together import guide, profile, profile_words


def _table(load_s: float, compute_s: float) -> dict[str, float]:
    return {"load": load_s, "matmul": 0.7 * compute_s, "memory-bound": 0.3 * compute_s}


def test_the_sentence_names_the_step_it_divides_by():
    shares = _table(0.0001, 0.1838)   # printed step 183.9 ms
    said = profile_words.optimizer_share_text(0.0137, shares)
    assert said == "13.7 ms of the table's 183.9 ms step (7.4%)"   # 13.7 / 183.9 = 7.4497%
    assert "compute" not in said


def test_the_share_rounds_half_up_from_the_printed_ms():
    # 9.1 ms of a 280.0 ms step is 3.25% exactly: 3.3%, never 3.2% (a float's 3.2499...)
    assert profile_words.optimizer_share_text(0.0091, _table(0.0, 0.280)).endswith("(3.3%)")
    # a step printed 183.8 ms gives 7.5% for the same 13.7 ms: the divisor shown is the one used
    assert profile_words.optimizer_share_text(0.0137, _table(0.0, 0.1838)).endswith("183.8 ms step (7.5%)")


def test_the_guide_reads_the_share_the_sentence_prints():
    shares = _table(0.0001, 0.1838)
    found = {"shares": shares, "peaks": {"fp32": 150e9, "bf16": 1000e9}, "optimizer": 0.0137, "compute": 0.1838}
    prof = profile.guide_profile(found)
    why = guide.optimizer_step(devices.plan(2, mode_name="cpu", n_gpus=0), CPU_SHAPE, 1, prof).why
    assert "the for-loop AdamW step is 7.4% of a step: fused, at most 1/(1 - 0.074) = 1.080x" in why
    assert "(7.4%)" in profile_words.optimizer_share_text(0.0137, shares)
