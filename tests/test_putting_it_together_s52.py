"""Lesson 08, sixth reading: MFU's denominators worked from the peaks as printed (section 1 prints 223.6
GFLOP/s, so two devices' denominator is 2 x 223.6 = 447.2, never 447 beside a printed 224), and where the rest
of precision's bound went, from figures the page already prints."""

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


def _profile():
    from utils.lessons.putting_it_together import guide

    # the reader's run: matmuls 215 of a step's 250 ms, 20.36 GFLOP, bf16 peak 223.6 GFLOP/s
    return guide.Profile({"load": 0.00002, "matmul": 0.21452, "memory-bound": 0.02853, "other": 0.0070},
                         matmul_flops=20.36e9, low_peak=223.6e9, peak_ratio=2.16)


PEAKS = {"fp32": 103.3e9, "bf16": 223.6e9}


def test_precision_says_where_the_rest_of_its_bound_went_from_printed_figures():
    """Sixth reading, 08: precision kept 54% of its bound (1.53x against 1.98x) and the page never said where
    the rest went. Every figure is the page's own, and every division redoes from the figures printed."""
    from utils.lessons.putting_it_together import guide

    assert guide.precision_terms(_profile()) == (250, 215, 20.36, 223.6, 91.1)
    said = report.precision_shortfall(_profile(), 1.53, PEAKS)
    assert "250 / 1.53 = 163.4 ms against the bound's 35 + 91.1 = 126.1 ms, 37.3 ms short" in said
    assert "in fp32 they ran at 92% of theirs (section 2)" in said   # 94.9 / 103.3, as section 2 prints it
    assert "(0.92 × 223.6 = 205.7 GFLOP/s) their 20.36 GFLOP take 99.0 ms, 7.9 ms more: 21% of the" in said
    assert "The other 29.4 ms are what the bound holds still: the casts" in said   # 37.3 - 7.9
    assert "35 ms outside the matmuls" in said and "not timed here" in said


def test_precision_shortfall_other_outcomes():
    # near the bound: the matmuls' rate alone could cover the whole shortfall
    near = report.precision_shortfall(_profile(), 1.95, PEAKS)
    assert "2.1 ms short" in near and "7.9 ms more: all of the shortfall" in near and "The other" not in near
    # at or past the bound: nothing to place
    assert report.precision_shortfall(_profile(), 2.00, PEAKS).endswith(": no shortfall to place.")
    # matmuls at (or above) their fp32 peak: their rate places none of it
    none = report.precision_shortfall(_profile(), 1.53, {"fp32": 90.0e9, "bf16": 223.6e9})
    assert "reached their peak, so their rate accounts for none of it. The 37.3 ms are what the bound" in none
    # a bound from the peaks' ratio alone (no FLOPs): no sentence
    from utils.lessons.putting_it_together import guide
    assert report.precision_shortfall(guide.Profile({"matmul": 0.2}, peak_ratio=2.0), 1.5, PEAKS) == ""


def test_the_precision_step_prints_its_shortfall():
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "notebooks/08_putting_it_together.ipynb"
    cells = json.loads(path.read_text())["cells"]
    code = " ".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    assert "report.precision_shortfall(FOUND_PROFILE, c.gain, PEAKS, rung.settings.precision)" in code
