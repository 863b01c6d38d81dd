"""Lesson 08 (t29_0708 #2): a step's median above its bound is past it only beyond its rounds' spread, the
claims table's rule, so the ledger's lines and the claims table give one verdict for one figure."""

import pytest

from utils import claims
from utils.lessons.putting_it_together import at_bound, report


def _row(step, gain, bound, ratios, kept=True):
    noise = claims.printed_spread(ratios)
    return {"step": step, "x_prev": gain, "bound": bound, "ratios": ratios, "noise": noise, "kept": kept,
            "within": not at_bound.past_bound(gain, bound, noise)}


def _verdict(r):
    return claims.against_speedup("", r["x_prev"], r["bound"], r["noise"]).verdict


@pytest.mark.parametrize("gain, ratios, past", [
    (1.16, [1.13, 1.16, 1.18], False),   # 1.16 - 0.03 = 1.13: reaches the bound, within noise of it
    (1.25, [1.22, 1.25, 1.28], True),    # 1.25 - 0.03 = 1.22: above it beyond the spread
    (1.10, [1.05, 1.10, 1.16], False),   # under the bound
])
def test_past_bound_is_the_claims_tables_verdict(gain, ratios, past):
    r = _row("optimizer", gain, 1.13, ratios)
    assert at_bound.past_bound(gain, 1.13, r["noise"]) is past
    assert _verdict(r).startswith("above the bound") is past
    assert at_bound.past_bound(gain, None, r["noise"]) is False


def test_each_branch_of_the_ledgers_bound_clause():
    base = {"step": "baseline", "x_prev": 1.0, "bound": None, "ratios": [], "within": True, "kept": True}
    at = _row("optimizer", 1.16, 1.13, [1.13, 1.16, 1.18])
    past = _row("optimizer", 1.25, 1.13, [1.22, 1.25, 1.28])
    under = _row("optimizer", 1.10, 1.13, [1.05, 1.10, 1.16])
    skipped = {"step": "memory", "skipped": "not run"}
    assert at_bound.bound_summary([base, past, skipped]).startswith(
        "Above its bound beyond its rounds' spread: optimizer")
    assert at_bound.bound_summary([base, at, skipped]).startswith(
        "No step passed its bound beyond its rounds' spread; the median of optimizer lies above it")
    assert at_bound.bound_summary([base, under, skipped]) == "No step's median passed its bound. "
    words = at_bound.at_bound_words([base, at, past, under, skipped])
    assert len(words) == 1 and words[0].startswith(
        "optimizer: its median 1.16x lies above its bound 1.13x, within its rounds' spread (1.16 - 0.03 = 1.13)")
    assert "2 of 3 paired rounds lie above it (highest 1.18x)" in words[0]
    one_round = _row("optimizer", 1.16, 1.13, [1.16])   # no spread: 1.16 ± 0 is past 1.13 beyond it
    assert one_round["within"] is False and at_bound.at_bound_words([one_round]) == []
    only_median = _row("optimizer", 1.14, 1.13, [1.11, 1.13, 1.14, 1.15, 1.13])
    assert "paired rounds lie above" in at_bound.at_bound_words([only_median])[0]


def test_a_step_at_its_bound_is_not_listed_again_as_rounds_above_it():
    at = _row("optimizer", 1.16, 1.13, [1.13, 1.16, 1.18])
    under = _row("two devices", 1.30, 2.0, [1.3, 1.42, 2.1])
    base = {"step": "baseline", "bound": None, "within": True, "ratios": []}
    [(step, said, finding)] = report.rounds_above_bound([base, at, under])
    assert step == "two devices" and not finding   # 2.10 - its ± 0.40 reaches the bound: noise (t42_0708 #1)
    assert said.startswith("1 of 3 rounds above its bound (highest 2.10x against 2.00x)")



def test_the_time_inside_prints_the_charts_own_comm_share():
    """t29_0708 #1: 7.48 ms of a 27.20 ms window printed 28% (half up of the printed ms) beside the chart's
    'comm 27%' (``:.0%`` of the unrounded share, 0.27496). The text now prints the chart's figure, with the
    division of the printed ms beside it only where that division rounds to another percent."""
    from utils.lessons.tensor_parallel import verdicts

    assert verdicts.chart_share(7.48, 27.20, 0.27496) == (
        "27% on the chart, from the unrounded times; 7.48 / 27.20 = 27.5% as printed")
    assert verdicts.chart_share(10.76, 27.20, 10.76 / 27.20) == "40%"   # the two agree: the chart's alone
    said, _ = verdicts.inside_allreduces({"rank 0": 0.27496, "rank 1": 10.76 / 27.20}, (0.0, 0.0272), 8)
    assert "rank 0 7.48 ms (27% on the chart" in said and "rank 1 10.76 ms (40%)" in said


def test_the_longer_step_rank_is_said_as_a_tie_where_both_steps_print_the_same():
    """t29_0708 #3: 'On rank 0, the rank whose split step took longer ... 16.87 ms' beside a table printing
    rank 1's step as 16.87 ms too. A tie as printed is now said as one, the rank read chosen before rounding."""
    from utils.lessons.tensor_parallel.miss_parts import longer_step

    tie = [{"step": 0.016871}, {"step": 0.016873}]   # both print 16.87
    index, said = longer_step(tie, tie)
    assert index == 1 and said.startswith("Both ranks' split steps took 16.87 ms as printed")
    assert "rank 1's, longer before rounding, is read" in said
    apart = [{"step": 0.01690}, {"step": 0.01687}]
    index, said = longer_step(apart, apart)
    assert index == 0 and said.startswith("On rank 0, the rank whose split step took longer")


def test_the_miss_story_opens_with_the_tie():
    from utils.lessons.tensor_parallel import report

    rank = lambda compute, inside, waited: {  # noqa: E731
        "step": compute + inside, "allreduce": inside, "compute": compute, "thread_cpu": compute + inside,
        "other_threads_cpu": 0.0, "waited": waited, "after_both": inside - waited, "after_other": 0.0}
    m = {"model_compute": 0.01213, "model_comm": 0.00092, "model_step": 0.01305, "one": 0.02426, "others": 0.0,
         "steal": 0.0, "paired": True, "residual": 0.34, "waiting_core": 0.01,
         "corun": {"alone": 0.01175, "together": 0.01168, "together_core": 1.0},
         "ranks": [rank(0.0140, 0.00287, 0.00096), rank(0.01498, 0.00189, 0.0)]}
    story = report.miss_story(m, "")
    assert story[0].startswith("Both ranks' split steps took 16.87 ms as printed")


def test_the_compute_s_candidates_leave_out_the_late_return():
    """t29_0708 #5: time a thread lost inside the all-reduces (the late return) is not in the compute, so it is
    no candidate for the compute's miss; the core's loss during the compute still is."""
    from utils.lessons.tensor_parallel import report
    from utils.lessons.tensor_parallel.miss_parts import COMPUTE_PART, LATE_PART

    slow = {"compute": 0.0140, "allreduce": 0.00287, "thread_cpu": 0.0146, "after_other": 0.00001,
            "waited": 0.00096, "after_both": 0.00191, "step": 0.01687}
    m = {"model_compute": 0.01213, "others": 0.0, "steal": 0.0,
         "corun": {"alone": 0.01175, "together": 0.01168}}
    said = report._compute_cause(m, slow, {COMPUTE_PART: 0.00126, LATE_PART: 0.00001})
    assert "losing its core inside the all-reduces" not in said
    assert "losing its core during the compute" in said and "5 candidates fit" in said
    # the late return's own candidate is still offered where the late return is read (``_ruled_and_open``)
    _, open_ = report._ruled_and_open(m, slow, {COMPUTE_PART: 0.00126, LATE_PART: 0.00001})
    assert any("inside the all-reduces (late return 0.01 ms" in o for o in open_)


def test_section_1_s_compute_a_call_points_to_no_figure_section_4_may_not_print():
    """t29_0708 #4: '(section 4 counts half one device's time a call instead)' sent the reader to a base that
    ``pass_step.pass_beside_step`` prints only where the two runs differ beyond their noise."""
    import json
    from pathlib import Path

    nb = json.loads(Path(__file__).parents[1].joinpath("notebooks/07_tensor_parallel.ipynb").read_text())
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    assert "section 4 counts half one device's time" not in code
    assert "not half one device's time a call" in code
