"""Lesson 02 and lab 02 on the course's shared rules (session 54, read-back items 6-9): a share judged
against a line is the one ``claims.percent`` prints, a median is above its bound by ``claims.round_above``,
rounds under their own round's reference are counted by it, and a tie is called by ``claims.within_noise``
and ``claims.one_side`` together. Synthetic rows, CPU only; each branch."""

from utils import claims
from utils.labs.balance_the_pipeline import reading
from utils.lessons.model_split import balance, bounds, noise, report, runs


def _row(m: int, speedups: list[float]) -> runs.Row:
    return runs.Row(64, m, "gpipe", 1.0, 1.0, [0.5, 0.5], split_points=(2,), speedups=speedups)


def _cpu(*cpu: float) -> runs.Row:
    """Two stages busy 200 ms each, their threads' CPU seconds ``cpu``: CPU/busy is cpu / 200 ms, as printed."""
    return runs.Row(32, 4, "gpipe", 1.0, 1.2, [0.2, 0.2], cpu=list(cpu), baseline_cpu=0.4, speedups=[1.2])


def _naive(speedups: list[float]) -> runs.Row:
    return runs.Row(32, 1, "gpipe", 1.0, 1.0, [0.5, 0.5], naive=True, speedups=speedups)


# --- item 6: one percent rule, the one printed beside the judgement -----------------------------------------


def test_a_share_is_judged_in_the_whole_percent_claims_percent_prints():
    for over in range(60, 130):  # whole-ms ratios, as cpu_share and the gaps are worked: ties included
        for under in (8, 40, 200, 400):
            share = over / under
            assert f"{noise.percent_as_printed(share)}%" == claims.percent(share), (over, under)
    assert noise.percent_as_printed(33 / 40) == 83  # 82.5 %: half up, where round and :.0% give 82
    assert noise.beside_line(0.245, 0.25) == "at" and noise.beside_line(0.244, 0.25) == "below"


def test_cpu_busy_prints_the_share_it_counts_above_100_percent():
    # 201 / 200 ms is 100.5 %: printed 101% half up, and counted above 100 % with it (:.0% printed 100%)
    said = report.cpu_busy_note([_cpu(0.201, 0.198)])
    assert "CPU/busy ran from 99% to 101% over these rows." in said
    assert "1 of 2 stage figures are above 100 %" in said
    assert "CPU/busy 101% / 99%" in report.explain_row(_cpu(0.201, 0.198))
    # the other branch: 199 / 200 ms prints 100%, not above it
    even = report.cpu_busy_note([_cpu(0.199, 0.198)])
    assert "above 100 %" not in even and "to 100% over" in even
    # the 80 % line as printed: 159 / 200 ms is 79.5 %, printed 80%, at the line; 158 / 200 is below it
    at, low = report.cpu_busy_note([_cpu(0.159, 0.2)]), report.cpu_busy_note([_cpu(0.158, 0.2)])
    assert "from 80% to 100%" in at and "at the 80% line" in at and "waited" not in at
    assert "from 79% to 100%" in low and "waited for a core" in low


def test_the_two_baselines_gap_is_printed_as_it_is_judged():
    slow = runs.Row(32, 4, "gpipe", 0.139, 0.211, [0.04, 0.12], speedups=[1.05])
    fast = runs.Row(32, 4, "gpipe", 0.114, 0.211, [0.08, 0.08], speedups=[1.32])
    there = runs.Row(32, 4, "gpipe", 0.1, 0.200, [0.07, 0.07], speedups=[1.29])
    # 211 / 200 ms: 5.5 %, printed 6% half up, past the 5 % line
    assert "211 ms here, 200 ms in s5 (6% slower here)" in report.medians_note(slow, fast, 1.27, there, "s5")
    near = runs.Row(32, 4, "gpipe", 0.114, 0.209, [0.08, 0.08], speedups=[1.32])
    said = report.medians_note(slow, near, 1.27, there, "s5")  # 209 / 200 ms: 4.5 %, printed 5%, at the line
    assert "209 ms here, 200 ms in s5: 5% apart, at the 5 % line" in said


# --- item 9: a median above its bound, as printed, by claims' rule ------------------------------------------


def test_a_median_is_above_its_bound_by_claims_rule_and_rounds_by_lesson_02s():
    for value, bound in ((1.7801, 16 / 9), (1.785, 16 / 9), (1.79, 16 / 9), (2.004, 2), (2.006, 2), (0.996, 1)):
        assert noise.above_as_printed(value, bound) == claims.round_above(value, bound)
    # a median prints 2.00x: not above 2x; a round prints 2.004: above it (bounds.round_above counts rounds)
    assert not noise.above_as_printed(2.004, 2) and bounds.round_above(2.004, 2)


# --- item 8: rounds under their own round's reference, counted as printed -----------------------------------


def test_rounds_under_their_own_rounds_reference_are_counted_as_printed():
    # 0.996 prints "0.996", under a reference printed 1.00x; 1.004 prints "1.004", not under 1.00x
    naive = _naive([0.996, 1.004, 1.02, 0.97, 1.01])
    said = report.reference_claim("naive", naive, 1.0, "per-process reference",
                                  per_round=[1.0, 1.0, 1.03, 1.0, 1.0]).verdict
    assert "; 3 of 5 rounds under it)" in said, said
    said = report.reference_claim("naive", _naive([0.90, 0.91, 0.92, 0.93, 0.94]), 1.2, "per-process reference",
                                  per_round=[1.2] * 5).verdict
    assert "; every round under it)" in said, said


# --- item 7: claims' noise rule, and no tie where every round lies on one side ------------------------------


def test_the_profile_and_the_work_are_told_apart_by_claims_noise_rule():
    within = balance.profile_against_work([2], 1.50, 1.45, 1.40, 0.05)  # |1.50 - 1.45| = 0.05: ± 0.05 covers it
    assert "reference; |1.50 - 1.45| = 0.05, within the rounds' spread, ± 0.05): these rounds do not tell" in within
    apart = balance.profile_against_work([2], 1.50, 1.45, 1.40, 0.04)
    assert "more than the rounds' spread, ± 0.04): the profile missed work" in apart


def test_a_row_slower_than_the_fastest_in_every_round_is_no_tie():
    fast = _row(8, [1.50] * 5)
    # each round's ratio to the fastest: 0.80, 0.85, 0.99, 0.99, 0.99; the median 0.99 ± 0.07 covers 1, but
    # every round is under 1: the rounds tell the two apart
    below = _row(4, [1.50 * x for x in (0.80, 0.85, 0.99, 0.99, 0.99)])
    median, spread = reading.ratio_to(below, fast)
    assert claims.within_noise(median, spread) and claims.one_side([0.80, 0.85, 0.99, 0.99, 0.99]) == "below"
    assert [r.m for r in reading.tied_with([below, fast], fast.key)] == [8]
    # the other branch: one round above 1 (1.01): a tie, and winners says so
    mixed = _row(4, [1.50 * x for x in (0.80, 0.85, 0.99, 0.99, 1.01)])
    top = reading.tied_with([mixed, fast], fast.key)
    assert [r.m for r in top] == [4, 8]
    assert "each covers 1, a tie" in " ".join(reading.winners(top, fast.key, fast.key).split())
