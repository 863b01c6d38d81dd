"""Twenty-fifth reading (t25_0001 #3), lesson 01: a bytes ceiling worked from a measured roof is called a ceiling
in the sentences (never "the bound", which lesson 00's glossary keeps for what no measurement may pass)."""

import pytest

from utils.lessons.why_slow import algorithms_report
from utils.lessons.why_slow.algorithms import Comparison


def pair(slow_ms, ratios):
    return Comparison("GELU", "gelu_op_by_op", "gelu_fused", slow_ms * 1e-3, 1e-3, 2e-7, "20 of 22",
                      round_ratios=ratios, ceiling=11.0)


@pytest.mark.parametrize("slow_ms, ratios, said", [
    (2.62, (2.6, 2.61, 2.62, 2.63, 2.64), "faster, under the bytes ceiling: 16% of its gain"),
    (11.0, (10.9, 10.95, 11.0, 11.05, 11.1), "at the bytes ceiling (within noise)"),
    (14.0, (13.9, 13.95, 14.0, 14.05, 14.1), "above the bytes ceiling: a finding to explain"),
    (1.02, (0.9, 1.0, 1.02, 1.1, 1.2), "within noise: no effect shown"),
])
def test_every_verdict_is_worded_against_the_bytes_ceiling(slow_ms, ratios, said):
    c = pair(slow_ms, ratios)
    assert algorithms_report.ceiling_verdict(c) == said
    fused = algorithms_report.fused_bandwidth_sentence(c, 64 * 2**20, 20e9)
    # the speed-up is its rounds' median with their middle half (t28_09 #5, t33_0001 #1)
    assert algorithms_report.speedup_text(c).startswith(f"{slow_ms:.2f}x (middle half ")
    assert f"it gave {algorithms_report.speedup_text(c)}: {said}." in fused and "the bound" not in fused
