"""Lesson 01's readings that reader r_0001 found contradicted by their own figures, on those figures and on the
other outcomes: the memory roof (section 2), section 7's echo of it, the latency's name (section 3), the
scaling verdict (section 4)."""

from types import SimpleNamespace as NS

import pytest

from utils.lessons.why_slow import report, roofline, scaling

ADD_ROOF = "fp32 memory bandwidth, 1 thread, STREAM add, 32 MiB arrays"


def add_roof(retimed=33.8e9, points=()):
    bw = NS(name=ADD_ROOF, size="STREAM add, 32 MiB arrays", best=30.2e9, spread=0.11)
    return NS(from_profile=True, bandwidth=bw, retimed=(None, NS(best=retimed)), threads=1, points=list(points),
              ceilings=NS(flops=99.1e9, bandwidth=30.2e9), RETIMED="the same probe timed beside the ops, this run")


def memory_point(name, numel, share, spread, roof, written_share=1 / 3, inputs=2):
    op = roofline.Op(name, numel, 4 * numel * (inputs + 1), lambda: None, written=4 * numel)
    ceiling = op.intensity * roof.bandwidth.best
    return NS(op=op, fraction=share, spread=spread, achieved=share * ceiling, bound="memory")


def test_the_roofs_own_probe_is_one_kernel_timed_twice_not_a_cache():
    roof = add_roof()
    add = memory_point("add", 8_388_608, 1.04, 0.16, roof)  # the reader's run: 104%, spread 16%, 32 MiB arrays
    said = report.memory_reading(add, roof, 32 * 2**20)
    assert "add ran at 104% of its memory roof; it is the roof's own probe (STREAM add on the same 32 MiB" in said
    assert "not a finding" in said and "L3" not in said and "came back" not in said
    verdict = report.memory_verdict(add, roof)
    # 2.6 GFLOP/s / 0.0833 = 31.2 GB/s, 92% of the re-timed 33.8: within add's 16% spread (t14_0001 #4)
    assert verdict == ("104%: the roof's own probe timed twice, within the larger of its two timings' spreads: "
                       "not a finding") and "cache" not in verdict


def test_a_memory_share_is_called_cache_served_only_past_headroom_and_spread_and_on_one_side():
    roof = add_roof(retimed=30.0e9)  # the re-timed probe puts nothing on the other side
    other = lambda share, spread: memory_point("add", 4_194_304, share, spread, roof)  # 16 MiB: not the probe
    assert report.memory_grade(other(1.04, 0.16), roof) == "noise"
    assert "above it by no more than its own 16% spread, so no excess is shown" in report.memory_reading(
        other(1.04, 0.16), roof)
    assert report.memory_grade(other(1.30, 0.05), roof) == "cache"  # headroom 1.00x for an add under add
    assert "by more than its own 5% spread, so part of its 48 MiB came back from a cache" in report.memory_reading(
        other(1.30, 0.05), roof)
    assert report.memory_verdict(other(1.30, 0.05), roof).endswith("a cache served it")
    read_only = roofline.Op("matrix-vector", 33.6e6, 67.1e6, lambda: None, written=0.0)  # headroom 1.33x
    reads = lambda share: NS(op=read_only, fraction=share, spread=0.05, bound="memory",
                             achieved=share * read_only.intensity * 30.2e9)
    assert report.memory_grade(reads(1.2), roof) == "write-allocate"
    near = reads(1.36)  # past 1.33x by less than its 5% spread
    assert report.memory_grade(near, roof) == "room-noise" and "no cache" in report.memory_verdict(near, roof)
    crossing = add_roof(retimed=40e9)  # against the re-timed probe, 1.30 reads under 100%
    assert report.memory_grade(memory_point("add", 4_194_304, 1.30, 0.05, crossing), crossing) == "crosses"
    assert "which side is not shown" in report.memory_reading(memory_point("add", 4_194_304, 1.30, 0.05, crossing),
                                                              crossing)


def test_the_closing_row_and_section_7_carry_section_2s_own_verdict():
    roof = add_roof()
    add = memory_point("add", 8_388_608, 1.04, 0.16, roof)
    under = memory_point("gelu", 8_388_608, 0.16, 0.01, roof, inputs=1)
    roof.points = [add, under]
    row = report.memory_claim(roof).verdict
    # the probe is left out of the count, whichever side of 100 % (reader t13_0001 #2)
    assert row == "1 of 1 under the roof (add, the roof's own STREAM kernel, left out: one kernel timed twice)"
    assert "a cache served it" not in row
    said = report._against_limit([add, under], roof)
    assert said == ("here 1 of 1 ran under that limit; add, the roof's own STREAM kernel, left out: one kernel "
                    "timed twice")
    assert "section 2 says why" not in said


def test_the_latency_is_named_as_the_fastest_small_message_not_the_smallest():
    from utils.lessons.why_slow import transfers

    assert transfers.LATENCY_NAME == "the fastest small-message time"


def test_streams_rate_is_counted_drams_by_size_only_and_section_7_says_the_same():
    said = report.stream_sentence(2**25, {"L2": 2**21, "L3": 2**25})
    assert "by lesson 00's regime rule it is counted as DRAM's rate; the rule goes by size" in said
    # reader t12_0001: lesson 00's comparison may not tell whether a cache served part of it: say what it looks for
    assert said.endswith("a read of DRAM it measures, to look for a cache's share in it: its sentence says whether "
                         "that run could tell.")
    assert "which says whether a cache served" not in said
    # reader t10_0001: the bandwidth beside it is STREAM add, which touches three arrays, not the copy's two
    assert said.startswith("STREAM's arrays are 32 MiB each (its copy touches 64 MiB, its add 96 MiB): more than")
    import utils.devices as devices

    real = devices.cpu_caches
    try:
        devices.cpu_caches = lambda: {"L2": 2**21, "L3": 2**25}
        assert report.stream_place(NS(size="STREAM add, 32 MiB arrays")).startswith(
            "whose arrays by size leave its L3: counted as DRAM's")
        devices.cpu_caches = lambda: {"L2": 2**21, "L3": 480 * 2**20}
        assert "may be L3's rather than DRAM's" in report.stream_place(NS(size="STREAM add, 32 MiB arrays"))
    finally:
        devices.cpu_caches = real


def test_a_fit_whose_fixed_costs_differ_by_axis_leads_with_no_one_model():
    def axis(name, d, jitter):
        return [scaling.ScalePoint(name, i + 1, d + 1.4e-11 * f * (1 + j), f, 100 * (i + 1), 1)
                for i, (f, j) in enumerate(zip((0.7e9, 1.4e9, 2.8e9, 4.2e9), jitter))]

    # the reader's run: d +8.2 (width), -0.1 ± 0.3 (depth), +5.3 (context): every axis fits alone
    series = {"width": axis("width", 8.2e-3, (0, 0.01, -0.01, 0)),
              "depth": axis("depth", -0.1e-3, (0.03, -0.02, 0.0, 0.002)),
              "context": axis("context", 5.3e-3, (0, 0.005, 0, 0))}
    said, table = report.scaling_sentence(series, scaling.fit), report.scaling_verdict(series, scaling.fit)
    head = ("fitted on each axis alone: within ±10% on every axis (3 of 3), d within noise of zero on 1 (depth)")
    assert table.startswith(head) and f"one fixed cost d {head}:" in said
    assert "holds on" not in said and "holds on" not in table and " But " not in said
    same = {"width": axis("width", 1e-3, (0, 0, 0, 0)), "depth": axis("depth", 1e-3, (0, 0.01, 0, 0))}
    assert report.scaling_verdict(same, scaling.fit) == "holds on every axis (2 of 2)"


def test_the_profilers_printed_matmul_parts_and_their_rounding_are_said_and_other_ops_not_called_memory_bound():
    from utils.lessons.why_slow import profile

    # the reader's run: linear 65.8%, attention 11.6% of a 68.1 ms step: printed 66 + 12 = 78 against 77
    step = profile.StepProfile(0.1, {"matmul": 0.0774, "memory-bound": 0.016, "Python & dispatch": 0.0066},
                               [], None, None, None, attention_seconds=0.0116)
    said = step.split_sentence()
    assert "matmuls 77.4% of it (the linear layers' 65.8%, the fused attention kernels 11.6%)" in said
    # reader t9_0001: each share is its own ms over the step's, so the parts need not add to the total; where
    # they do not, the sentence says so rather than adjusting a part
    same = profile.StepProfile(0.1, {"matmul": 0.0775, "memory-bound": 0.016, "Python & dispatch": 0.0065},
                               [], None, None, None, attention_seconds=0.0116)  # 65.9 + 11.6 of 100.0 ms
    assert "matmuls 77.5% of it (the linear layers' 65.9%, the fused attention kernels 11.6%)" in same.split_sentence()
    apart = profile.StepProfile(0.084, {"matmul": 0.0643, "memory-bound": 0.0149, "Python & dispatch": 0.0048},
                                [], None, None, None, attention_seconds=0.0092)
    import re

    total, linear, attention, added = map(float, re.search(
        r"matmuls ([\d.]+)% of it \(the linear layers' ([\d.]+)%, the fused attention kernels ([\d.]+)%, each "
        r"rounded on its own, so they add to ([\d.]+)%\)", apart.split_sentence()).groups())
    assert (total, linear, attention, added) == (76.5, 65.6, 11.0, 76.6) and round(linear + attention, 1) == added
    assert "memory-bound ops" not in said and "other ops 16.0%" in said  # t29_0001: what it holds, in the block
    assert step.steps_note().startswith("Other ops: elementwise, norms, copies")
    assert [name for name, _ in step.rows()][2] == "other ops (elementwise, norms, copies, optimizer)"


def test_the_same_result_is_said_beside_its_tolerance_and_withdrawn_beyond_it():
    from utils.lessons.why_slow.algorithms import SAME_RESULT, Comparison

    steady = (2.9, 3.0, 3.1, 3.1, 3.2)
    near = Comparison("causal attention", "naive_attention", "fused_attention", 3.14e-3, 1e-3, 6e-7,
                      round_ratios=steady)
    assert SAME_RESULT == 1e-5 and near.same_result
    assert report.comparison_rows([near])[0][5] == "6e-07: yes"
    assert report.COMPARISON_COLUMNS[5] == "differ by; ≤ 1e-05?"
    said = report.algorithms_sentence([near])
    # t29_0001: a result within the tolerance is the table's "yes", and the count is the answer's, not the block's
    assert "results differ" not in said and "equal to" not in said and "In short" not in said
    assert ("every rewritten version was faster, for the same result (every pair within 1e-05)"
            in report.algorithms_answer([near]))
    far = Comparison("GELU", "gelu_op_by_op", "compiled GELU", 3e-3, 1e-3, 2e-3, round_ratios=steady)
    assert not far.same_result and report.comparison_rows([far])[0][5] == "2e-03: no"
    assert report.same_result_said(far) == "differ by 2e-03, within the 1e-05 tolerance: no"
    both = report.algorithms_count([near, far])
    assert "for the same result" not in both
    assert both == ("every rewritten version was faster, though 1 pair differs by more than 1e-05 "
                    "(compiled GELU 2e-03): not the same result to that tolerance")
    edge = Comparison("x", "slow", "fast", 3e-3, 1e-3, 1.04e-5, round_ratios=steady)  # printed 1e-05: at it
    assert edge.same_result
    slow = Comparison("x", "slow", "fast", 0.8e-3, 1e-3, 2e-3, round_ratios=(0.78, 0.79, 0.8, 0.81, 0.82))
    assert report.algorithms_count([slow]).endswith("not the same result to that tolerance")


def matmul_roof(retimed=102.8e9, from_profile=True):
    """Reader s2_0002's roof: the profile's 1024³ peak at 99.1 GFLOP/s, re-timed beside the ops at 102.8."""
    peak = NS(size="1024³", best=99.1e9, spread=0.13)
    bw = NS(name=ADD_ROOF, size="STREAM add, 32 MiB arrays", best=30.2e9, spread=0.11)
    return NS(from_profile=from_profile, peak=peak, peak_size=1024, bandwidth=bw, threads=1, points=[],
              retimed=(NS(best=retimed), NS(best=27.7e9)), ceilings=NS(flops=99.1e9, bandwidth=30.2e9),
              RETIMED="the same probe timed beside the ops, this run")


def matmul_point(name, m, k, n, gflops, spread=0.03):
    op = roofline.Op(name, 2 * m * k * n, 4 * (m * k + k * n + m * n), lambda: None)
    return roofline.Point(op, op.flops / (gflops * 1e9), spread, 99.1e9, "compute")


def test_the_roofs_own_matmul_above_it_is_the_probe_timed_twice_in_the_note_and_the_table():
    roof = matmul_roof()
    probe = matmul_point("matmul 1024x1024x1024", 1024, 1024, 1024, 102.3)  # 103% of 99.1, spread 3%
    assert probe.above_roof
    note = report._above_why(probe, roof)
    assert note == ("It is the roof's own probe (1024³) timed twice: the same probe timed beside the ops, this run "
                    "ran at 102.8 GFLOP/s (0%), so its share is this moment against the profile's, not a finding.")
    assert "smaller" not in note and "faster than" not in note
    assert roofline.points_rows([probe], roof)[0][7] == "103% its own probe"
    assert roofline.points_rows([probe])[0][7] == "103% ⚠ above"  # no roof given: the flag alone
    alone = report._above_why(probe, matmul_roof(from_profile=False))
    assert "one kernel timed twice in the same rounds" in alone and "not a finding" in alone


def test_only_a_smaller_matmul_that_beat_the_retimed_probe_is_offered_the_caches():
    roof = matmul_roof()
    small = matmul_point("matmul 256x256x256", 256, 256, 256, 105.0)  # beat the re-timed 102.8
    assert report.compute_above_grade(small, roof) == "smaller"
    assert "a smaller matmul's operands stay in a core's caches" in report._above_why(small, roof)
    slower = matmul_point("matmul 256x256x256", 256, 256, 256, 102.3)  # no faster than the re-timed probe
    assert report.compute_above_grade(slower, roof) == "moment"
    said = report._above_why(slower, roof)
    assert "ran no faster than the 1024³ matmul that measured the peak, timed beside it in the same rounds at " \
           "102.8 GFLOP/s" in said and "smaller" not in said
    verdict = report.roof_claim("fc", slower, roof).verdict
    assert "not a finding" in verdict and "a finding, see section 2" not in verdict
    assert report.roof_claim("fc", slower).verdict.endswith("a finding, see section 2")  # no roof: unread
    big = matmul_point("GPT fc 2048x2048x2048", 2048, 2048, 2048, 106.0)
    assert report.compute_above_grade(big, roof) == "unexplained"
    assert "though it is no smaller: this run does not measure why" in report._above_why(big, roof)


def test_a_total_computed_from_one_message_is_worked_from_the_figure_as_printed():
    from utils import machine
    from utils.lessons.why_slow import link_report, transfers

    sizes = [8, 512, 4096, 8192, 16384, 65536, 262144, 524288, 2**20, 2**22, 2**24]
    us = [85.0, 82.26, 84.0, 99.5, 101.0, 110.0, 160.0, 230.0, 400.0, 1400.0, 6200.0]  # 512 bytes: 82.26 µs
    link = machine.link_fit("gloo loopback, 2 processes", sizes, [u * 1e-6 for u in us])
    costs = transfers.batch_costs(link, 16, 64, 128)
    cell = link_report.cost_rows(costs, link, False)[1][2]
    assert cell == "16 x 82.3 µs = 1,316.8 µs, computed"  # 16 x 82.3, not the unrounded 1,316.2
    said = report.link_sentence(link, costs, False)
    assert "one such message (82.3 µs): 1,316.8 µs (13.2x the single message" in said


# --- session 51: section 5's pairs beside their bytes ceiling; figures worked from the printed ones ----------


def _gelu_pair(slow_ms, fast_ms, ratios, ceiling=11.0, fast="gelu_fused"):
    from utils.lessons.why_slow.algorithms import Comparison

    return Comparison("GELU", "gelu_op_by_op", fast, slow_ms * 1e-3, fast_ms * 1e-3, 2e-7, "20 of 22",
                      round_ratios=ratios, ceiling=ceiling)


@pytest.mark.parametrize("slow_ms, ratios, verdict, word", [
    (3.59, (3.5, 3.55, 3.59, 3.6, 3.7), "faster, under the bound: 26% of its gain", "faster, 26% of its gain"),
    (11.0, (10.9, 10.95, 11.0, 11.05, 11.1), "at the bound (within noise)", "faster, at the ceiling"),
    (14.0, (13.9, 13.95, 14.0, 14.05, 14.1), "above the bound: a finding to explain",
     "faster, above the ceiling: a finding"),
    (1.02, (0.9, 1.0, 1.02, 1.1, 1.2), "within noise: no effect shown", "within noise"),
])
def test_a_fused_pair_is_judged_against_its_bytes_ceiling_never_holds(slow_ms, ratios, verdict, word):
    """22 whole-tensor reads and writes cut to 2: a memory-bound op gains at most 11x from it (a ceiling);
    3.59x is under it (26% of its gain), 11.00x at it, 14.00x above it (a finding), 1.02x within noise."""
    from utils.lessons.why_slow import algorithms

    assert algorithms.bytes_ceiling(22, 2) == 11.0
    pair = _gelu_pair(slow_ms, 1.0, ratios)
    assert pair.verdict == verdict and "holds" not in pair.verdict
    row = report.comparison_rows([pair])[0]
    assert row[2].startswith(f"{slow_ms:.2f}x") and row[3] == "11.00x" and row[4] == word
    said = report.algorithms_sentence([pair])
    low, high = pair.middle_half  # the speed-up's one range (t33_0001 #1)
    assert f"{slow_ms:.2f}x (middle half {low:.2f}x-{high:.2f}x) beside a bytes ceiling of 11.00x" in said
    # t25_0001 #3: the sentence calls the ceiling a ceiling, not "the bound"
    assert verdict.replace("the bound", "the bytes ceiling") in said and "the bound" not in said
    assert ("a finding to explain" in report.algorithms_count([pair])) == verdict.startswith("above")
    assert pair.faster == (word != "within noise")


def test_a_pair_without_a_bytes_ceiling_says_why_and_the_table_says_none():
    from utils.lessons.why_slow.algorithms import Comparison

    loop = Comparison("softmax of 512 rows", "softmax_rows_loop", "vectorised_softmax", 4.7e-3, 1e-3, 0.0,
                      "a Python iteration", round_ratios=(4.5, 4.6, 4.7, 4.8, 4.9),
                      no_ceiling="both move the same bytes; the loop pays per row, not per byte")
    assert loop.verdict == "faster than the baseline" and report.comparison_rows([loop])[0][3] == "none"
    assert ("4.70x (middle half 4.60x-4.80x): faster than the baseline (no bytes ceiling: both move the same bytes; the loop pays "
            "per row, not per byte)") in report.algorithms_sentence([loop])
    assert report.comparison_summary([loop, _gelu_pair(3.59, 1.0, (3.5, 3.55, 3.59, 3.6, 3.7))]).wrap


def test_a_speed_up_and_a_payback_are_worked_from_the_times_as_printed():
    """8.8949 ms and 2.4949 ms print as 8.89 ms and 2.49 ms: the speed-up is 3.57x (8.89 / 2.49), not the
    unrounded 3.565x; a compile of 1.94 s (1.9 s) saving 8.9 ms (10.4 ms at its 7.00x median) pays back after 214 calls (1.9 s
    over 8.9 ms is 213.5, and 213 calls save only 1.896 s), not 217; a compiled version within noise shows no payback."""
    pair = _gelu_pair(8.8949, 2.4949, (3.5, 3.55, 3.57, 3.6, 3.7), fast="compiled GELU")
    assert f"{pair.speedup:.2f}" == "3.57" and "8.89 ms" in report.comparison_table([pair]).to_text()
    timed = _gelu_pair(10.44, 1.5, (6.9, 6.95, 7.0, 7.05, 7.1), fast="compiled GELU")  # 8.94 ms saved
    said = report.payback_sentence(1.94, timed)  # 10.4 - 10.4 / 7.00 = 8.91: the ± (6.95x-7.05x) moves no digit
    assert said == ("torch.compile's first call took 1.9 s; at its median speed-up, 7.00x, on the op-by-op's "
                    "10.4 ms, it saves 10.4 - 10.4 / 7.00 = 8.9 ms a call and pays back after 214 calls.")
    row = report.payback_claim(1.94, timed)
    assert (row.measured, row.against, row.verdict) == ("1.9 s to compile", "8.9 ms saved a call",
                                                         "not run here (a few rounds timed): worked from the "
                                                         "times, it pays back after 214 calls")
    # reading t4_0001: 1.7 s over 7.1 ms is 239.4, so 239 calls save 1.697 s: it pays back after 240
    assert report.payback(1.74, _gelu_pair(8.6, 1.5, (5.6, 5.7, 5.73, 5.8, 5.9), fast="compiled GELU"))[2] == 240
    assert report.payback(1.84, _gelu_pair(10.5, 1.5, (7.0,) * 5, fast="compiled GELU"))[2] == 200  # 1.8 / 9.0
    noisy = _gelu_pair(1.02, 1.0, (0.9, 1.0, 1.02, 1.1, 1.2), fast="compiled GELU")
    assert "no payback is shown" in report.payback_sentence(1.94, noisy)
    assert report.payback_claim(1.94, noisy).verdict.startswith("does not hold: its saving a call is within noise")
    tiny = _gelu_pair(1.04, 1.0, (1.04,) * 5, fast="compiled GELU")  # faster, by 0.04 ms: prints 0.0
    assert "under 0.1 ms" in report.payback_sentence(1.94, tiny)


def test_the_mfu_against_the_re_timed_peak_is_worked_from_the_printed_figures():
    """Reader t6_0001: model FLOP/s 68.8 GFLOP/s (5.309e9 over 77.12 ms) beside the re-timed probe's 100.4:
    the table's definition gives 68.8 / 100.4 = 69%, where scaling the printed MFU (0.69 x 99.1 / 100.4) gave
    68%; and 100.4 / 99.1 - 1 = +1%. A ratio that ties (12.5 / 100.0) rounds half up, as a reader does.
    Reader t25_0001 #4: it is the median of the rounds' ratios, as the MFU itself (see test_0001_s63_mfu)."""
    u = NS(median=0.6942, peak=99.14e9, retimed=100.4e9, retimed_median=100.4e9, model_flops=5.309e9,
           step_seconds=[0.07712] * 3, peak_flops=[100.4e9] * 3)
    assert f"{report.retimed_mfu(u):.0%}" == "69%" and f"{0.69 * 99.1 / 100.4:.0%}" == "68%"
    assert f"{report.retimed_gap(u):+.0%}" == "+1%"
    assert "MFU would read 69% (the median of the 3 rounds' ratios, as MFU itself)." in report.mfu_sentence(
        NS(**vars(u), profile_peak=True, peak_name="fp32 matmul peak", threads=1))
    tie = NS(median=0.13, peak=99.14e9, retimed=100.0e9, model_flops=1.25e9, step_seconds=[0.1],
             peak_flops=[100.0e9])
    assert round(12.5 / 100.0, 2) == 0.12 and f"{report.retimed_mfu(tie):.0%}" == "13%"


def test_a_flop_counts_gap_is_worked_from_the_counts_as_printed():
    """5.3764e9 counted and 5.3085e9 by formula print as 5.376e+09 and 5.309e+09 (4 figures): +1.3% from the
    formula, as a reader divides them (+1.279% unrounded would still print +1.3%); at 3 figures, 5.38e+09 over
    5.31e+09 is +1.3% too; where rounding moves it: 1.0006e9 over 1e9 prints 1.001e+09 (+0.10%, not +0.06%)."""
    from utils.lessons.why_slow import flops

    assert flops.printed(5.3764e9) == 5.376e9 and f"{flops.printed_gap(5.3764e9, 5.3085e9):+.1%}" == "+1.3%"
    assert f"{flops.printed_gap(5.3764e9, 5.3085e9, 3):+.1%}" == "+1.3%"
    assert f"{1.0006e9 / 1e9 - 1:+.2%}" == "+0.06%" and f"{flops.printed_gap(1.0006e9, 1e9):+.2%}" == "+0.10%"


def test_section_3s_ratios_and_shares_are_worked_from_the_printed_microseconds():
    """The fit's 1,230 µs over a single message of 86.3 µs (86.34) is 14.3x as a reader divides them (14.2x
    unrounded); bytes taking 10.1 µs (10.06) of 19.9 µs (19.94) are 51% of its time (50% unrounded)."""
    from utils.lessons.why_slow import link_report

    link = NS(fit=NS(sizes=[512], alpha=59.4e-6, beta=1.024e9), seconds=[90e-6])  # 59.9 µs predicted: +33%
    ids = NS(n_bytes=8192, measured=86.34e-6)
    link.accuracy = 0.33
    pieces = NS(transfers=16, measured=16 * 90e-6, predicted=1230.0e-6)
    said = link_report.noisy_piece_sentence(link, ids, pieces, True)
    assert "1,230.0 µs (14.3x the single message)" in said and f"{1230.0 / 86.34:.1f}" == "14.2"
    cost = NS(n_bytes=10060, measured=19.94e-6, latency_share=1.2)  # 10.06 µs of bytes at 1 GB/s
    verdict = link_report._beat_latency_verdict(cost, 1e9, 0.5)
    assert verdict.startswith("does not hold") and verdict.endswith("the bytes take 51% of its time")
    assert link_report._beat_latency_verdict(cost, 1e9, 0.4).startswith("holds")  # the other branch


def test_section_4_sets_its_step_beside_section_1s_as_section_1_prints_it():
    """Reader t10_0001: "Section 1 timed the same step at 75.9 ms" where section 1's table printed 75.95 ms."""
    from utils.lessons.why_slow import profile

    said = profile.retimed_sentence(75.949e-3, 75.12e-3)
    assert said.startswith("Section 1 timed the same step at 75.95 ms (the median of its rounds' fastest")
    assert "the 75.1 ms here is the fastest of this section's own steps: -1.1% from it" in said  # 75.1 / 75.95
    assert "+5.0% from it" in profile.retimed_sentence(0.100, 0.105)  # 105.0 / 100.00: the other side


def test_the_remaining_gap_is_the_difference_of_the_printed_counts():
    """Reader t10_0001: 5.376e+09 - 5.309e+09 printed as 6.71e+07 (the unrounded difference); it is 6.7e+07."""
    from utils.lessons.why_slow import flops

    gap = flops.remaining_gap(5.37612e9, 5.30911e9)
    assert f"{gap:.3g}" == "6.7e+07" and f"{flops.printed_gap(6.712e7, gap, 3) + 1:.0%}" == "100%"
    assert flops.remaining_gap(5.30911e9, 5.37612e9) < 0  # the counter under the formula: the other branch


def test_a_share_of_the_ceilings_gain_is_given_with_the_range_its_spread_allows():
    """Reader t10_0001: "40% of its gain" beside 5.04x ± 1.56 and 11.00x read as exact; across the ± it runs
    from (3.48 - 1) / 10 = 25% to (6.60 - 1) / 10 = 56%, and the compiled GELU's 38% lies within it."""
    from utils.lessons.why_slow.algorithms import Comparison

    fused = Comparison("GELU", "gelu_op_by_op", "gelu_fused", 5.04e-3, 1e-3, 2e-7, "20 of 22",
                       round_ratios=(3.0, 3.48, 5.04, 6.6, 7.0), ceiling=11.0)
    assert round(fused.spread, 2) == 1.56  # the reader's 5.04x ± 1.56
    # the ends of the rounds' middle half, 3.48x and 6.60x (reader t32_0001 #1), here the ends of the ± too
    assert fused.verdict == "faster, under the bound: 40% of its gain (25%-56% across its rounds' middle half)"
    assert report.comparison_rows([fused])[0][4].startswith("faster, 40% of its gain (")
    tight = _gelu_pair(3.59, 1.0, (3.59,) * 5)  # no spread: no range
    assert tight.verdict == "faster, under the bound: 26% of its gain"


def test_the_small_messages_gap_is_noise_only_within_the_edge_that_flags_a_slower_message():
    """Reader t12_0001: 8 B took 125.4 µs against 111.6 µs at 512 B (+12.4%), flagged past the 10% edge by the
    sentence, and called "the loopback's noise" by the block: one rule now decides both."""
    from utils.lessons.start_here.line_check import slower_than_larger

    sizes = [8, 512, 4096, 16384]

    def block(small_us):
        link = NS(fit=NS(sizes=sizes, alpha=129.8e-6, beta=2.12e9), seconds=[u * 1e-6 for u in small_us + [140.0]])
        return report.latency_figures_sentence(link), slower_than_larger(sizes, link.seconds)

    said, flagged = block([125.4, 111.6, 118.0])  # this run's figures: past the edge, flagged
    assert "took 111.6 to 125.4 µs (each size is one median, timed at another moment): the slowest 12.4% above" in said
    assert "more than the 10% one noisy median may miss by, so not noise alone (this run does not measure why)" in said
    assert "noise (" not in said and "the loopback's noise" not in said and flagged
    assert "Latency is known to that range at best; the two figures differ by more than that" in said  # +16%
    said, flagged = block([120.0, 111.6, 118.0])  # +7.5%: within the edge, noise, nothing flagged
    assert "the slowest 7.5% above the fastest, between sizes whose bytes take no time: within the 10%" in said
    assert "within the 10% one noisy median may miss by, the loopback's noise. Latency is known" in said
    assert not flagged and "not noise alone" not in said
    # at the edge, to the tenth of a percent as printed: 122.8 / 111.6 = +10.0% is noise, 122.9 is +10.1%, flagged
    said, flagged = block([122.8, 111.6, 118.0])
    assert "the slowest 10.0% above the fastest" in said and "the loopback's noise" in said and not flagged
    said, flagged = block([122.9, 111.6, 118.0])
    assert "the slowest 10.1% above the fastest" in said and "not noise alone" in said and flagged
