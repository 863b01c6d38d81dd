"""Thirty-eighth reading (t38_0001), lessons 00 and 01: a fixed-cost finding must clear the base model's own
re-timing; the compile payback is worked, not run, and never "holds"; the between-runs range covers every size;
DRAM's share is worked from the reference's exact half; a cache straddle is no measured source."""

from tests.test_why_slow_s55 import axis
from utils.lessons.why_slow import scaling_report
from utils.lessons.why_slow import report, scaling

BASE = {"width": 2, "depth": 2, "context": 2}  # axis() numbers its points 1..4: the base is the second on each


def _series(width_base_extra: float):
    """Depth and context fit with d 2.7 and 10.8 ms; the base point (value 2) of width re-timed slower."""
    series = {"depth": axis("depth", 2.7e-3), "context": axis("context", 10.8e-3),
              "width": axis("width", 10.8e-3)}
    pts = series["width"]
    pts[1] = scaling.ScalePoint("width", 2, pts[1].seconds + width_base_extra, pts[1].model_flops,
                                pts[1].saved_bytes, pts[1].state_bytes)
    return series


def test_a_fixed_cost_gap_within_the_base_models_retiming_is_no_finding():
    series = _series(0.0)
    # the base model's three times as fabricated: depth 2.7 + 19.6, context and width 10.8 + 19.6 ms
    assert report.fixed_costs_differ(series, scaling.fit)  # without the base: the old rule's finding
    assert not report.fixed_costs_differ(series, scaling.fit, BASE)
    said = report.fixed_cost_sentence(series, scaling.fit, BASE)
    assert "cannot differ" not in said
    assert "but no more than one step moved when timed again: the base model, a point on every panel, took" in said
    assert "(8.1 ms apart); so no difference in fixed cost is shown" in said
    verdict = report.scaling_verdict(series, scaling.fit, 2, BASE)
    assert "a finding" not in verdict and "no difference in d is shown" in verdict
    assert "every axis" not in report.scaling_failures(series, scaling.fit, 2, BASE)


def test_a_fixed_cost_gap_past_the_base_models_retiming_stays_a_finding_and_says_what_it_cleared():
    # depth's steeper rate puts its base point (value 2) at context's: 2.7 + 27.7 = 10.8 + 19.6 = 30.4 ms
    series = {"depth": axis("depth", 2.7e-3, rate=27.7e-3 / 1.4e9), "context": axis("context", 10.8e-3)}
    base = {"depth": 2, "context": 2}
    assert report.fixed_costs_differ(series, scaling.fit, base)
    said = report.fixed_cost_sentence(series, scaling.fit, base)
    assert ("and by more than the base model, a point on every panel, took 30.4 and 30.4 ms (0.0 ms apart)), "
            "so c × FLOPs + d misses something") in said
    assert "a finding across axes" in report.scaling_verdict(series, scaling.fit, 2, base)


def test_without_a_base_model_on_every_panel_the_retiming_test_is_not_applied():
    series = _series(0.0)
    assert scaling_report.retimed_ms(series, None) is None
    assert scaling_report.retimed_ms(series, {"depth": 2, "context": 2, "width": 99}) is None  # width left it out


def test_the_compile_payback_row_is_worked_not_run_and_the_fastest_times_are_no_ceiling():
    from tests.test_0001_s70_payback_cap import OVERSHOOT
    row = report.payback_claim(1.7, OVERSHOOT)
    assert row.against == "5.0 ms saved a call at the fastest times (their difference)"  # not "at most"
    assert row.verdict == ("not run here (a few rounds timed): worked from the times, it pays back after 340 calls")
    assert "holds" not in row.verdict and "or more" not in row.verdict


def test_the_payback_sentence_works_the_saving_once_without_taking_a_figure_back():
    from tests.test_0001_s70_payback_cap import OVERSHOOT
    said = report.payback_sentence(1.7, OVERSHOOT)
    assert said == ("torch.compile's first call took 1.7 s; its median speed-up, 3.71x, would put the compiled "
                    "call at 8.66 / 3.71 = 2.33 ms, under its fastest measured time (3.66 ms), so the saving is "
                    "worked from the two fastest times: 8.66 - 3.66 = 5.0 ms a call, which pays back after 340 "
                    "calls.")
    assert "at most" not in said and "would save" not in said


def test_a_compile_that_saves_nothing_does_not_hold():
    from tests.test_0001_s70_payback_cap import compiled
    slower = compiled(4.0, 4.4, (0.90, 0.91, 0.92, 0.93, 0.94))
    assert report.payback_claim(1.7, slower).verdict.startswith("does not hold: its saving a call is ")


def test_the_between_runs_range_covers_every_size_both_timed_those_set_apart_included():
    from tests.test_0001_s64_between_runs import _kept, _record
    from tests.test_0001_s74_between_runs_outlier import MIB, _link, _straight
    from utils.lessons.why_slow import between_runs
    mine = {n: round(t * 1.5, 1) for n, t in _straight().items()}
    mine[MIB] = 1000.0  # set apart, 2.38x: once left out of the closing range, which read 1.50x alone
    said = between_runs.between_runs_sentence(_link(mine), _record(_straight()), _kept(accuracy=0.05))
    assert ("These two runs differed by 1.50x to 2.38x at the same size (every size both timed, those set apart "
            "included): a time measured or fitted in one run is no better a guide") in said


def test_a_copy_straddling_two_caches_names_its_source_as_unmeasured():
    from types import SimpleNamespace
    from utils.lessons.start_here import cache_copies
    copy = SimpleNamespace(size=4 * 2**20, regime="L3", fraction_of_bound=1.29)
    said = cache_copies._straddling_said(copy, {"L2": 16 * 2**20, "L3": 32 * 2**20})
    assert "may be partly held by it, which would lift its rate above L3's reference, as measured here" in said
    assert said.endswith("which cache served its bytes is not measured.") and "ran from" not in said


def test_dram_share_is_worked_from_the_reference_half_whole_and_graded_from_it():
    from utils.lessons.start_here import bandwidth, regimes, summary
    ref = regimes.printed_half(10.75e9)  # 5.375 GB/s, which the tables printed as 5.38
    copy = bandwidth.CopyPoint("host memcpy", 256 * 2**20, 45157.0e-6, ref, "DRAM", False)
    assert round(copy.fraction_of_bound * 100) == 111  # 5.94 / 5.375 = 110.5%, not 5.94 / 5.38 = 110.4%
    said = summary.copies_sentence([copy])
    assert "Out of DRAM (256 MiB): 5.94 GB/s, 111% of its reference (5.375 GB/s), above it" in said
    assert bandwidth.regimes_table([copy]).rows[0][2] == "5.375 GB/s"
    warm = summary.Passed(256 * 2**20, 5.94e9, 5.88e9, ref)
    assert "= 111% of the reference beyond the caches (5.375 GB/s)" in warm.sentence(32 * 2**20)
    even = bandwidth.CopyPoint("host memcpy", 256 * 2**20, 45157.0e-6, regimes.printed_half(10.76e9), "DRAM", False)
    assert bandwidth.regimes_table([even]).rows[0][2] == "5.38 GB/s"  # a half with no third decimal keeps two


def test_the_line_checks_claims_row_says_its_edge_in_words():
    from utils.lessons.start_here import line_check
    src = open(line_check.__file__).read()
    assert "plus an edge of {round(EDGE * 100)} percentage points " in src and "edge +{_points(EDGE)}" not in src


def test_lesson_01_keeps_the_activations_reading_in_the_scaling_block():
    import json
    cell = "".join(json.load(open("notebooks/01_why_slow.ipynb"))["cells"][26]["source"])
    assert "say(report.activations_sentence" not in cell and "report.activations_sentence(SERIES)," in cell
    assert "base=S.model" in cell
