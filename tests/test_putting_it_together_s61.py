"""Lesson 08, the twenty-third reading (t23_0708 #1): the matmul peak a bound reads is never beaten by the step it
bounds. The probe is lesson 00's size, the fastest of ten runs, named so; where the profiled step's own fp32
matmuls still beat it, the step's rate is the fp32 peak and the page says so; an MFU above 100% is flagged,
and no bound (compile's, a step's, the ledger's) is read off a beaten peak. Fabricated figures only."""
import inspect
import math

import torch

from utils import devices, machine
from utils.lessons.putting_it_together import ladder, peaks, plan, profile, profile_words, report, script

GFLOP = 20.36e9   # a step's matmul FLOPs, as the page prints them (4 figures)


def test_a_cpu_probes_lesson_00_s_size_and_names_how_it_was_timed():
    lesson_00_n = inspect.signature(machine.stored_profile).parameters["matmul_n"].default
    assert plan.probe_size(devices.plan(2), None) == (lesson_00_n, 1) == (1024, 1)
    probe = peaks.named(profile.peak_probe(64, "fp32", torch.device("cpu")))
    ceiling = machine.Ceiling(probe.kind, probe.dtype, probe.threads, probe.size, 1e11, 1e11, 0.0, probe.unit)
    lesson_00 = machine.Ceiling("matmul peak", "fp32", 1, "64³", 1e11, 1e11, 0.0, "FLOP/s")
    assert ceiling.name == "fp32 matmul peak, 1 thread, 64³, fastest of 10 runs in lesson 08"
    assert ceiling.name != lesson_00.name   # measured otherwise: never under lesson 00's name
    assert peaks.PROBE_ROUNDS * peaks.PROBE_RUNS == 10


def test_the_fp32_peak_is_the_higher_of_the_probe_and_the_step_s_own_rate():
    probed = {"fp32": 74.6e9, "bf16": 211.5e9}
    # the reader's run: 20.36 GFLOP in 0.2203 s = 92.4 GFLOP/s, above the 74.6 probe: the step's rate wins
    kept, lifted = peaks.ceiling_peaks(probed, GFLOP, 0.2203)
    assert lifted and round(kept["fp32"] / 1e9, 1) == 92.4 and kept["bf16"] == 211.5e9
    # a probe the step does not beat stays the peak
    kept, lifted = peaks.ceiling_peaks({"fp32": 99.1e9, "bf16": 211.5e9}, GFLOP, 0.2203)
    assert not lifted and kept["fp32"] == 99.1e9
    # equal as printed: not beaten, the probe stays
    assert peaks.ceiling_peaks({"fp32": 92.4e9}, GFLOP, 0.2203) == ({"fp32": 92.4e9}, False)
    assert peaks.ceiling_peaks(probed, None, 0.2203) == (probed, False)   # no FLOPs: nothing to compare


def test_section_2_says_when_the_step_beat_the_probe_never_a_share_above_100_percent():
    probed = {"fp32": 74.6e9, "bf16": 211.5e9}
    kept, lifted = peaks.ceiling_peaks(probed, GFLOP, 0.2203)
    said = profile_words.matmul_rate(GFLOP, 0.2203, kept, probed, lifted)
    assert "ran at 92.4 GFLOP/s in fp32, faster than the fp32 probe (74.6 GFLOP/s)" in said
    assert "takes their rate, 92.4 GFLOP/s, as the fp32 peak" in said and "124%" not in said
    below = profile_words.matmul_rate(GFLOP, 0.2203, {"fp32": 99.1e9, "bf16": 211.5e9},
                                      {"fp32": 99.1e9, "bf16": 211.5e9})
    assert f"{92.4 / 99.1:.0%} of that fp32 peak (99.1 GFLOP/s)" in below and "probe" not in below


def test_an_mfu_above_100_percent_is_flagged_and_bounds_nothing():
    assert report.mfu_text(1.0512) == "105.1%: above 100%, the step beat its peak"
    assert report.mfu_text(0.9999) == "100.0%" and report.mfu_text(0.515) == "51.5%"
    assert peaks.beaten(1.0006) and not peaks.beaten(1.0004) and not peaks.beaten(math.nan)
    bound, why = ladder.compile_bound(1.0512, "fp32")
    assert bound is None and "105.1%, is above 100%, so its peak is no ceiling" in why
    assert ladder.compile_bound(0.405, "bf16")[0] == 1 / 0.405   # under 100%: the bound stands


def test_a_step_that_beat_the_peak_its_bound_reads_loses_that_bound():
    s = script.Settings()
    precision = ladder.Rung("precision", s.scaled(precision="bf16"), 1, 1.92, "Amdahl ...")
    gone = peaks.unbeaten(precision, 1.031)
    assert gone.bound is None and "103.1% MFU, above its bf16 matmul peak" in gone.bound_what
    assert peaks.unbeaten(precision, 0.515) is precision          # under 100%: kept as it was
    two = ladder.Rung("two devices", s, 2, 2.0, "2 workers")
    assert peaks.unbeaten(two, 1.2) is two                         # its bound reads no peak


def test_the_ledger_reads_no_bound_off_a_beaten_peak():
    from tests.test_putting_it_together import _rows

    rows = _rows()
    last = report.final(rows)
    last["mfu"] = 1.0512
    assert report.total_bound(rows) is None
    said = report.total_bound_formula(rows)
    assert "none: the last kept step's MFU, 105.1%: above 100%, the step beat its peak" in said
    last["mfu"] = 0.25
    assert report.total_bound(rows) == 1.87 / 0.25


def test_the_mfu_denominators_say_where_a_lifted_fp32_peak_comes_from():
    from tests.test_putting_it_together import _rows

    said = report.mfu_denominators(_rows(), {"fp32": 92.4e9, "bf16": 211.5e9}, fp32_lifted=True)
    assert "the fp32 peak (92.4 GFLOP/s, the step's own matmul rate: section 2)" in said
    assert "section 2" not in report.mfu_denominators(_rows(), {"fp32": 92.4e9, "bf16": 211.5e9})


def test_the_two_devices_gap_is_set_against_lesson_07_s_all_reduce_fit_where_kept():
    """t23_0708 #3: lesson 07 fits whole all-reduces on the same link (314 us, 1.28 GB/s) at about a third of
    lesson 00's one-way rate; the gap is set against that price too, not the floor alone."""
    from test_putting_it_together_printed import _compared

    from utils import bench
    from utils.lessons.putting_it_together import allreduce_fit

    c = _compared("two devices", 0.1815, [1.49] * 3, workers=2)   # 181.5 / 1.49 = 121.8 against 90.8: 31.0
    fit = (314e-6, 1.28e9, 0.30)
    said = ladder.two_devices_gap(c, 3.98e9, 3.225e6, simulated=True, fit=fit)
    assert "31.0 ms a step the bound does not see" in said and "The all-reduce the guide priced, 3.24 ms" in said
    # 12.9 MB: 0.31 + 12.9e6 / 1.28e9 = 0.31 + 10.08 = 10.39 ms, 34% of 31.0
    assert "prices one call of the 0.0129 GB of gradients at 0.31 + 10.08 = 10.39 ms" in said
    assert ": 34% of the gap, if none of it hid behind backward; the other 20.6 ms are the cores" in said
    assert "this run cannot tell" not in said
    slow = allreduce_fit.against_gap((314e-6, 0.3e9, 0.3), 12.9e6, 31.0, "the rest of the step")
    assert "could explain all of the gap" in slow                 # 0.31 + 43.00 ms: past the gap
    without = ladder.two_devices_gap(c, 3.98e9, 3.225e6, simulated=True)
    assert "That estimate is 10% of the gap" in without and "Lesson 07" not in without
    # the ledger's record, only where lesson 07 ran on this hardware
    record = {"value": 1.28, "alpha_s": 314e-6, "worst_residual": 0.3, "hardware": bench.hardware_label()}
    assert allreduce_fit.lesson_07(record) == (314e-6, 1.28e9, 0.3)
    assert allreduce_fit.lesson_07(dict(record, hardware="another machine")) is None
