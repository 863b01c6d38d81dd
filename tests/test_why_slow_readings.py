"""Lesson 01's readings that reader r_0001 found contradicted by their own figures, on those figures and on the
other outcomes: the memory roof (section 2), section 7's echo of it, the latency's name (section 3), the
scaling verdict (section 4)."""

from types import SimpleNamespace as NS

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
    assert verdict == "104%: the roof's own probe timed twice, not a finding" and "cache" not in verdict


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
    assert "add 104%: the roof's own probe timed twice, not a finding" in row and "a cache served it" not in row
    said = report._against_limit([add, under], roof)
    assert "1 of 2 ran under that limit; above it, by section 2's reading: add 104%: the roof's own probe" in said
    assert "section 2 says why" not in said


def test_the_latency_is_named_as_the_fastest_small_message_not_the_smallest():
    from utils.lessons.why_slow import transfers

    assert transfers.LATENCY_NAME == "the fastest small-message time"


def test_streams_rate_is_counted_drams_by_size_only_and_section_7_says_the_same():
    said = report.stream_sentence(2**25, {"L2": 2**21, "L3": 2**25})
    assert "by lesson 00's regime rule it is counted as DRAM's rate; the rule goes by size" in said
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
    head = ("does not hold as one model of the step (the fixed cost d differs by axis); per axis alone, it fits "
            "within ±10% on every axis (3 of 3), d within noise of zero on 1 (depth)")
    assert table.startswith(head) and f"tolerance, {head}:" in said
    assert "holds on" not in said and "holds on" not in table and " But " not in said
    same = {"width": axis("width", 1e-3, (0, 0, 0, 0)), "depth": axis("depth", 1e-3, (0, 0.01, 0, 0))}
    assert report.scaling_verdict(same, scaling.fit) == "holds on every axis (2 of 2)"


def test_the_profilers_printed_matmul_parts_add_up_and_other_ops_are_not_called_memory_bound():
    from utils.lessons.why_slow import profile

    # the reader's run: linear 65.8%, attention 11.6% of a 68.1 ms step: printed 66 + 12 = 78 against 77
    step = profile.StepProfile(0.1, {"matmul": 0.0774, "memory-bound": 0.016, "Python & dispatch": 0.0066},
                               [], None, None, None, attention_seconds=0.0116)
    said = step.split_sentence()
    assert "matmuls 77.4% of it (the linear layers' 65.8%, the fused attention kernels 11.6%)" in said
    odd = profile.StepProfile(0.1, {"matmul": 0.07745, "memory-bound": 0.016, "Python & dispatch": 0.0066},
                              [], None, None, None, attention_seconds=0.01155)  # each part rounds up
    import re

    total, linear, attention = map(float, re.search(r"matmuls ([\d.]+)% of it \(the linear layers' ([\d.]+)%, "
                                                    r"the fused attention kernels ([\d.]+)%\)",
                                                    odd.split_sentence()).groups())
    assert round(linear + attention, 1) == total  # the printed parts add up to the printed total
    assert "memory-bound ops" not in said and "other ops (elementwise, norms, copies" in said
    assert [name for name, _ in step.rows()][2] == "other ops (elementwise, norms, copies, optimizer)"


def test_the_same_result_is_said_beside_its_tolerance_and_withdrawn_beyond_it():
    from utils.lessons.why_slow.algorithms import SAME_RESULT, Comparison

    steady = (2.9, 3.0, 3.1, 3.1, 3.2)
    near = Comparison("causal attention", "naive_attention", "fused_attention", 3.14e-3, 1e-3, 6e-7,
                      round_ratios=steady)
    assert SAME_RESULT == 1e-5 and near.same_result
    assert report.comparison_rows([near])[0][4] == "6e-07: yes"
    assert report.COMPARISON_COLUMNS[4] == "differ by; ≤ 1e-05?"
    said = report.algorithms_sentence([near])
    assert "results differ by 6e-07, equal to 1e-05: yes" in said
    assert "every rewritten version was faster, for the same result (every pair within 1e-05)" in said
    far = Comparison("GELU", "gelu_op_by_op", "compiled GELU", 3e-3, 1e-3, 2e-3, round_ratios=steady)
    assert not far.same_result and report.comparison_rows([far])[0][4] == "2e-03: no"
    both = report.algorithms_count([near, far])
    assert "for the same result" not in both
    assert both == ("every rewritten version was faster, though 1 pair differs by more than 1e-05 "
                    "(compiled GELU 2e-03): not the same result to that tolerance")
    edge = Comparison("x", "slow", "fast", 3e-3, 1e-3, 1.04e-5, round_ratios=steady)  # printed 1e-05: at it
    assert edge.same_result
    slow = Comparison("x", "slow", "fast", 0.8e-3, 1e-3, 2e-3, round_ratios=(0.78, 0.79, 0.8, 0.81, 0.82))
    assert report.algorithms_count([slow]).endswith("not the same result to that tolerance")
