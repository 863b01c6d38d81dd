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
    assert "for baseline, the fp32 peak (103.3 GFLOP/s)" in said
    assert "for precision, the bf16 peak (223.6 GFLOP/s)" in said
    assert "for two devices, 2 x the bf16 peak (2 x 223.6 = 447.2 GFLOP/s)" in said
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

    # seventh reading: T and M as section 2's table prints them, 0.2500 s (its bottom row) and 0.2145 s
    assert guide.precision_terms(_profile()) == (250.0, 214.5, 35.5, 20.36, 223.6, 91.1)
    said = report.precision_shortfall(_profile(), 1.53, PEAKS)
    assert "250.0 / 1.53 = 163.4 ms against the bound's 35.5 + 91.1 = 126.6 ms, 36.8 ms short" in said
    assert "in fp32 they ran at 92% of theirs (section 2)" in said   # 94.9 / 103.3, as section 2 prints it
    assert "(0.92 × 223.6 = 205.7 GFLOP/s) their 20.36 GFLOP take 99.0 ms, 7.9 ms more: 21% of the" in said
    assert "The other 28.9 ms are the casts autocast adds, any growth of the 35.5 ms" in said   # 36.8 - 7.9
    assert "35.5 ms outside the matmuls" in said and "not timed here" in said


def test_precision_shortfall_other_outcomes():
    # near the bound: the matmuls' rate alone could cover the whole shortfall
    near = report.precision_shortfall(_profile(), 1.95, PEAKS)
    assert "1.6 ms short" in near and "7.9 ms more: all of the shortfall" in near and "The other" not in near
    # at or past the bound: nothing to place
    assert report.precision_shortfall(_profile(), 2.00, PEAKS).endswith(": no shortfall to place.")
    # matmuls at (or above) their fp32 peak: their rate places none of it
    none = report.precision_shortfall(_profile(), 1.53, {"fp32": 90.0e9, "bf16": 223.6e9})
    assert "reached their peak, so their rate accounts for none of it. The 36.8 ms are the casts autocast adds" in none
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


# seventh reading: the precision bound printed as one figure everywhere, and the guide's 3 figures half up

def _reader_profile():
    from utils.lessons.putting_it_together import guide

    # the reader's run: section 2's table printed matmul 0.2185 s of a 0.2533 s step; bf16 peak 219.5 GFLOP/s
    return guide.Profile({"load": 0.00015, "matmul": 0.21847, "memory-bound": 0.0280, "other": 0.00668},
                         matmul_flops=20.36e9, low_peak=219.47e9, peak_ratio=2.16)


def test_the_guide_and_the_ladder_print_one_precision_bound_from_the_tables_ms():
    from utils import devices
    from utils.lessons.memory.plan import CPU_SHAPE
    from utils.lessons.putting_it_together import guide, ladder, script

    profile = _reader_profile()
    features = devices.cpu_features(flags={"avx2", "avx512f", "avx512_bf16"}, capability="AVX512",
                                    onednn_max="")
    plan = devices.plan(2, mode_name="cpu", n_gpus=0)
    steps = {s.step: s for s in guide.guide(CPU_SHAPE, 16, plan, None, profile, run_steps=24,
                                            measured_link=1e9, features=features, host_bytes=32e9)}
    why = steps["precision"].why
    assert "matmuls take 218.5 of a step's 253.3 ms (section 2's table)" in why   # not "218 of 253"
    assert "= 253.3/(34.8 + 92.8) = 1.99x" in why   # 253.3 / 127.6 = 1.985, as the ladder prints it
    kept = ladder.Rung("baseline", script.Settings(), 1, None, "")
    peaks = {"fp32": 101.8e9, "bf16": 219.47e9}
    rung = ladder.next_rung("precision", kept, steps, peaks, 1.01, 96, matmul_share=0.863,
                            matmul_speedup=profile.matmul_speedup, profile=profile)
    assert f"{rung.bound:.2f}" == "1.99" and rung.bound == guide.precision_bound(profile)
    assert "T/((1 - f)T + FLOPs/peak) = 253.3/(34.8 + 92.8), the guide's terms" in rung.bound_what
    # without the profile's FLOPs the ladder keeps Amdahl's share and ratio, said as such
    alone = ladder.next_rung("precision", kept, steps, peaks, 1.01, 96, matmul_share=0.863,
                             matmul_speedup=2.36)
    assert "Amdahl: matmuls 86.3% of a step, 2.36x faster" in alone.bound_what


def test_the_guide_rounds_its_three_figures_half_up():
    from utils.lessons.putting_it_together import guide

    assert guide._sig3(126.5) == 127.0 and guide._sig3(253 * 512 / 1024) == 127.0   # :.3g gave 126
    assert guide._sig3(126.49) == 126.0 and guide._sig3(1234.0) == 1230.0 and guide._sig3(0.012665) == 0.0127
    assert guide._sig3(0.0) == 0.0


def test_the_two_devices_compute_and_the_7b_row_use_the_figures_as_printed():
    from utils import devices
    from utils.lessons.memory.plan import CPU_SHAPE
    from utils.lessons.putting_it_together import guide
    from utils.lessons.putting_it_together.plan import LARGE, LARGE_BATCH

    features = devices.cpu_features(flags={"avx2", "avx512f", "avx512_bf16"}, capability="AVX512",
                                    onednn_max="")
    plan = devices.plan(2, mode_name="cpu", n_gpus=0)
    # a 253 ms step (section 2 prints 253): half its 1,024 tokens is 126.5 ms, printed 127 (half up)
    profile = guide.Profile({"matmul": 0.2185, "other": 0.0345}, peak_ratio=2.16, low_peak=219.47e9,
                            shape=CPU_SHAPE)
    small = {s.step: s for s in guide.guide(CPU_SHAPE, 16, plan, None, profile, run_steps=24,
                                            measured_link=guide.KnownLink(4e9, "machine profile"),
                                            features=features, host_bytes=32e9)}
    assert "against 127 ms of compute" in small["two devices"].why
    assert "the timed step's 253.0 ms (section 2's table) x 512 / 1,024 tokens" in small["two devices"].why
    large = {s.step: s for s in guide.guide(LARGE, LARGE_BATCH, plan, None, profile, run_steps=5000,
                                            measured_link=1e9, features=features, host_bytes=32e9)}
    memory = large["memory"].why
    assert "x 16,384 tokens / (2 x 219.5 GFLOP/s, the measured peak) = 17.1 min" in memory   # 219.5 everywhere
    assert "(5,000 steps: at least 1,425 h)" in memory   # 17.1 min x 5,000 / 60 (QLoRA: 4 x)
