"""Reader t42_0001 (lessons 00 and 01): every printed figure redoes from the figures printed beside it."""

from utils.lessons.why_slow import report, utilisation

FLOPS = 5.309e9


def _mfu_run(step_gflops, matmul_gflops, peak=180e9):
    steps = [FLOPS / (g * 1e9) for g in step_gflops]
    return utilisation.StepUtilisation(FLOPS, steps, [m * 1e9 for m in matmul_gflops], "fp32", 1,
                                       "fp32 matmul peak, 1 thread, 1024³", peak)


def test_the_headline_mfu_is_the_median_of_the_printed_ratios_rounded_half_up():
    # t42 #1: 80.1 / 180.0 = 44.5% prints 45% everywhere (the unrounded 44.49...% printed 44%)
    u = _mfu_run((79.9, 80.1, 80.1, 80.2, 79.8), (160.0, 165.0, 167.0, 170.0, 168.0))
    rows = report.mfu_rounds_table(u).rows
    for row, m in zip(rows, report.mfu_ratios(u)):
        assert row[4] == f"{m:.0%}" and m == round(float(row[2]) / 180.0 + 1e-12, 2)
    assert report.mfu_median(u) == 0.45
    assert ("MFU (median of 5 rounds' ratios)", "45%") in report.mfu_table(u).rows
    assert report.mfu_sentence(u).startswith("MFU = 45% of the fp32 matmul peak")
    assert "ran from 44% to 45%" in report.plus_minus_note(u, type("S", (), {"matmul_shares": [0.5] * 5})())


def test_an_mfu_below_the_half_rounds_down():
    # the other branch: 80.0 / 180.0 = 44.4% stays 44%
    u = _mfu_run((80.0,) * 5, (170.0,) * 5)
    assert report.mfu_median(u) == 0.44


def test_a_copy_set_apart_from_the_next_level_is_not_one_of_the_copies_its_median_is_worked_from():
    # t42 #2: the 64 MiB copy counted in L3 behaved as out of L3, so the L2 copies are set beside the 3 copies
    # kept in L3 (median 13.36), not all 4 (13.115)
    from utils.lessons.start_here import summary
    from utils.lessons.start_here.bandwidth import CopyPoint

    MIB, KIB = 2**20, 2**10

    def copy(size, gbs, ref, regime):
        return CopyPoint("host memcpy", size, size / (gbs * 1e9), ref * 1e9, regime, False)

    points = [copy(64 * KIB, 17.71, 54.92, "L2"), copy(1 * MIB, 12.87, 20.0, "L3"), copy(4 * MIB, 13.36, 20.0, "L3"),
              copy(16 * MIB, 13.40, 20.0, "L3"), copy(64 * MIB, 6.00, 20.0, "L3"), copy(256 * MIB, 5.00, 5.5, "DRAM")]
    said = summary.out_of_cache_sentence(points)
    assert "nearer the 3 copies served from L3 in this run (their median) (13.36 GB/s)" in said
    assert "4 copies" not in said and "out of L3 in this run" not in said
    # in the table's order, the deeper one decided first but said second
    assert said.index("The 64 KiB copy") < said.index("The 64 MiB copy")
    assert [p.size for p, _, _ in summary.below_next_level(points)] == [64 * KIB, 64 * MIB]


def test_the_runs_ratio_has_one_range_and_each_kept_size_is_said_past_or_within_the_edge():
    # t42 #3: "took 1.07x to 1.41x ..., past the ±10%" held 1.07x, within it; and a second range followed
    from utils.lessons.why_slow import between_runs
    from tests.test_0001_s74_between_runs_outlier import KIB, MIB, _kept, _link, _record, _straight

    mine, theirs = _straight(), _straight()
    mine[MIB], theirs[MIB], theirs[64 * KIB] = 600.0, 300.0, 150.0
    said = between_runs.between_runs_sentence(_link(mine), _record(theirs), _kept())
    assert ("64 KiB (0.61x) lies past the ±10% one noisy median may miss by, 4 KiB (1.00x), 256 KiB (1.00x), "
            "4 MiB (1.00x) and 16 MiB (1.00x) within it") in said
    assert "The same size took" not in said and said.count("x to ") == 2  # the one range, and the line's band
    assert "These two runs differed by 0.61x to 2.00x at the same size" in said


def test_the_rooflines_visible_answer_is_the_ridge_and_the_sides_and_the_readings_are_in_the_block(monkeypatch):
    # t42 learner #1: section 2's visible answer was 335 words; the shares' readings are one click away
    from tests.test_why_slow_s54b import _points
    from types import SimpleNamespace as NS
    from utils.lessons.why_slow import report

    roof, _ = _points(0.96)
    roof.points.append(NS(bound="compute", op=NS(name="matmul 1024", flops=2e9)))
    monkeypatch.setattr(report, "largest_matmul_reading", lambda *a, **k: "The largest matmul reads. ")
    said = report.roofline_sentence(roof)
    assert said.startswith("Ridge point:") and said.endswith("the block below, which reads each.")
    assert "ran at" not in said and "largest matmul" not in said and len(said.split()) < 80
    readings = report.roofline_readings(roof)
    assert readings.startswith("The largest matmul reads.") and "softmax ran at 67% of its memory roof" in readings
