"""Lesson 08, sixth reading: MFU's denominators worked from the peaks as printed (section 1 prints 223.6 GFLOP/s,
so two devices' denominator is 2 x 223.6 = 447.2, never 447 beside a printed 224)."""

from __future__ import annotations

from utils.lessons.putting_it_together import report


def _rows() -> list[dict]:
    row = {"ran": True, "kept": True}
    return [row | {"step": "baseline", "precision": "fp32", "workers": 1},
            row | {"step": "precision", "precision": "bf16", "workers": 1},
            row | {"step": "two devices", "precision": "bf16", "workers": 2}]


def test_the_mfu_denominators_double_the_peak_as_printed():
    said = report.mfu_denominators(_rows(), {"fp32": 103.3e9, "bf16": 223.6e9})
    assert "from baseline on, the fp32 peak (103.3 GFLOP/s)" in said
    assert "from precision on, the bf16 peak (223.6 GFLOP/s)" in said
    assert "from two devices on, 2 x the bf16 peak (2 x 223.6 = 447.2 GFLOP/s)" in said
    # a peak whose doubled unrounded value rounds the other way: the product is of the printed peak
    said = report.mfu_denominators(_rows(), {"fp32": 100.0e9, "bf16": 223.64e9})
    assert "2 x 223.6 = 447.2 GFLOP/s" in said and "447.3" not in said
