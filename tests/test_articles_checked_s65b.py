"""Lesson 09 (reader t27_09, part 2): rows B4 and B14 quote the median of their paired rounds ± its spread,
never a spread beside the fastest times' ratio (#5), and list their rounds (with B12's) in the collapsed block;
a summary row's "its check follows row" part is found by a field, not by its wording; lesson 02's launches of
the split alone are read round by round where the ledger keeps each launch's rounds, and say so where it keeps
none (#4); lesson 03's data parallel gets its spread where its record keeps rounds (#7). Every branch on
fabricated figures."""

from __future__ import annotations

import pytest
from test_articles_checked import _figures, _recorded

from utils.lessons.articles_checked import (checks, claims, figures, lesson_01_pairs, short_evidence, split_alone,
                                            verdicts, wording, zeroed)
from utils.lessons.articles_checked.sources import LEDGER, ROWS, Part, Recorded
from utils.lessons.why_slow.algorithms import Comparison

NAMES = ("naive attention", "fused")


def _pair(slow_ms, fast_ms, ratios, ceiling=None):
    return Comparison("attention", "slow", "fast", slow_ms * 1e-3, fast_ms * 1e-3, 1e-7, round_ratios=tuple(ratios),
                      ceiling=ceiling, no_ceiling="" if ceiling else "it skips FLOPs too")


# 13.0 / 3.52 = 3.69x from the two fastest times; the rounds' own ratios have median 4.18x (the reader's B14)
B14 = _pair(13.0, 3.52, (4.60, 4.14, 5.20, 4.18, 3.57))


# --- #5: the spread beside its own centre -------------------------------------------------------------------

def test_the_figure_is_the_rounds_median_with_their_spread_not_the_fastest_times_ratio():
    assert figures.fused_figure(B14) == (4.18, 0.23)   # sorted 3.57 4.14 4.18 4.60 5.20: (4.60 - 4.14) / 2
    said = wording.fused_words(B14, NAMES, "one thread")
    assert said.startswith("naive attention 13.0 ms, fused 3.52 ms (one thread, the fastest of 5 interleaved rounds "
                           "each, which need not come from one round); each round's own ratio (slow over fast in one round): median 4.18x ± 0.23 (its "
                           "5 rounds, listed in the collapsed block of quick measurements after section 9)"), said
    assert "3.69x ± " not in said


def test_the_verdict_reads_the_median_a_fastest_of_ratio_past_noise_does_not_decide():
    # fastest times 1.20 apart, but the rounds' median 1.05x ± 0.05 (the middle half: 1.00, 1.10) covers 1x
    noisy = _pair(1.20, 1.00, (0.90, 1.00, 1.10, 1.20))
    assert figures.fused_figure(noisy) == (1.05, 0.05)
    assert figures.fused_verdict(noisy).startswith("within noise")
    with pytest.raises(checks.Noisy):
        checks.fused_holds(_figures() | {"algorithms": {"attention": noisy}}, "attention")
    # the other way: fastest times' ratio inside the ceiling, the rounds' median past it beyond their spread
    past = _pair(10.0, 1.0, (12.0, 12.0, 12.1, 12.2), ceiling=11.0)
    assert figures.fused_verdict(past).startswith("above the bound")


def test_a_pair_with_no_rounds_reads_its_fastest_times_ratio_and_says_so():
    bare = _pair(4.40, 2.13, ())
    assert figures.fused_figure(bare) == (2.07, 0.0)
    said = wording.fused_words(bare, NAMES, "s")
    assert "(s, the fastest times; 4.40 / 2.13 = 2.07x); no rounds kept, so the verdict reads the fastest times' ratio 2.07x, with no spread" in said


def _lesson_01(value, slow_ms, fast_ms, rounds, spread=0.23):
    from utils import bench
    record = {"value": value, "spread": spread, "slow_ms": slow_ms, "fast_ms": fast_ms, "rounds": rounds,
              "lesson": "01", "what": "the pair, on cpu", "device": "cpu", "sizes": lesson_01_pairs.SIZES["attention"],
              "date": "2026-12-20", "hardware": bench.hardware_label(), "bound": None, "unit": "x"}
    return Recorded(record, LEDGER, "lesson 01")


def test_lesson_01s_run_is_quoted_by_its_rounds_median_and_compared_median_to_median():
    here = _pair(13.0, 3.52, (4.10, 4.12, 4.14, 4.16, 4.18))   # median 4.14x ± 0.02
    said = wording.fused_words(here, NAMES, "s", False, _lesson_01(3.69, 13.0, 3.52, [4.60, 4.14, 5.20, 4.18, 3.57]))
    # lesson 01's fastest-of 3.69x and median 4.18x lie apart, so lesson 01 prints the range (t38_09 #4)
    assert "3.52 ms (its fastest times); its 5 rounds' own ratios: median 4.18x ± 0.23 (lesson " \
           "01 §5: known only as 3.69x to 4.18x: its rounds disagree): within noise of this page's median 4.14x " \
           "± 0.02 (one median ± its spread covers the other's)" in said, said
    # against the fastest-of 3.69x the two would not agree (4.14 - 0.02 > 3.69 + 0.23): the medians decide
    far = _pair(13.0, 3.52, (5.0, 5.0, 5.0, 5.0, 5.0))
    assert "outside this page's median 5.00x ± 0.00" in wording.fused_words(
        far, NAMES, "s", False, _lesson_01(3.69, 13.0, 3.52, [4.60, 4.14, 5.20, 4.18, 3.57]))


def test_a_lesson_01_record_without_rounds_keeps_its_ratio_and_spread_and_says_so():
    said, theirs = lesson_01_pairs.lesson_01_figures(_lesson_01(3.69, 13.0, 3.52, []).record, NAMES)
    assert said == ("naive attention 13.0 ms, fused 3.52 ms: 13.0 / 3.52 = 3.69x ± 0.23 (the ledger keeps no rounds: "
                    "its ratio and spread as recorded)")
    assert theirs == (3.69, 0.23)


def test_the_collapsed_block_lists_b4_b14_and_b12s_rounds():
    gelu = Comparison("gelu", "s", "f", 9e-3, 3e-3, 1e-7, round_ratios=(3.1, 3.25))
    assert lesson_01_pairs.fused_rounds_line({"attention": B14, "gelu": gelu}) == (
        "Fused against unfused, one thread, each round's slow time over its fast time: attention (row B4) 4.60x, "
        "4.14x, 5.20x, 4.18x, 3.57x; GELU (row B14) 3.10x, 3.25x")
    assert zeroed.rounds_line({"zeroed_rounds": [1.031, 1.0, 1.06]}) == (
        "Half the weights zeroed over the dense layer, each round (row B12 quotes their median): 1.03x, 1.00x, 1.06x")
    assert zeroed.rounds_line({"dense": 1e-3}) == ("Half the weights zeroed over the dense layer (row B12): no paired "
                                                   "rounds kept")


# --- the summary row's part its check follows: a field -----------------------------------------------------

def test_the_part_a_summary_follows_is_found_by_its_field_not_its_words():
    summed = Part("rows B5, B6: one cure showed no gain", ROWS)
    worded = Part("its check follows row B5 (inconclusive)", ROWS)         # the words alone: not the part
    flagged = Part("row B10 decides this one (inconclusive)", ROWS, follows="B10")
    assert short_evidence.deciding_part((summed, worded), checks.NOISY) is summed
    assert short_evidence.deciding_part((summed, flagged), checks.NOISY) is flagged
    assert short_evidence.deciding_part((summed, flagged), checks.DISAGREES) is flagged
    assert short_evidence.deciding_part((summed, flagged), checks.AGREES) is summed


def test_summed_rows_named_sets_the_rows_it_follows():
    earlier = {"B5": verdicts.Row("B5", "", claims.TRUE, "", "", (), checks.NOISY),
               "B10": verdicts.Row("B10", "", claims.TRUE, "", "", (), checks.AGREES)}
    found = verdicts.summed_rows_named("B18", checks.NOISY, earlier)
    assert found and found[0].follows == "B5", found
    assert verdicts.summed_rows_named("B18", checks.AGREES, earlier) == ()


# --- #4: lesson 02's launches, round by round where the ledger keeps them -------------------------------------

def _split(launches, spreads, **extra):
    return {"value": launches[0], "bound": 1.0, "launches": launches, "launch_spreads": spreads,
            "rounds": [launches[0]] * 5, **extra}


def test_without_rounds_per_launch_the_page_says_no_launchs_rounds_are_read():
    for record in (_split([1.05, 0.96, 1.00], [0.01, 0.02, 0.03]), _split([0.99, 0.96, 1.00], [0.01, 0.02, 0.03])):
        said = split_alone.launches_words(record)
        assert said.endswith("the ledger keeps no rounds for each launch, so no launch's single rounds are read "
                             "here (lesson 02's claims table lists those past their launch's spread, as findings "
                             "to explain)"), said
    assert split_alone.launches_words(_split([1.05, 0.96, 1.00], [0.01, 0.02, 0.03])).startswith(
        split_alone.LAUNCHES_DISAGREE)
    # a list that does not give one per launch is no rounds per launch
    assert split_alone.launch_rounds(_split([1.05, 0.96], [0.01, 0.02], launch_rounds=[[1.0, 1.1]])) is None


def test_with_rounds_per_launch_those_past_their_launchs_spread_are_named():
    rounds = [[1.04, 1.05, 1.05, 1.06, 1.05], [0.95, 0.96, 0.97, 1.06, 0.96], [0.99, 1.00, 1.01, 1.05, 1.00]]
    record = _split([1.05, 0.96, 1.00], [0.01, 0.02, 0.03], launch_rounds=rounds)
    said = split_alone.launches_words(record)
    # launch 2: 1.06 above 1x and above 0.96 + 0.02; launch 3: 1.05 above 1.00 + 0.03; launch 1's 1.06 is not
    # past 1.05 + 0.01 = 1.06
    assert said.endswith("rounds above the 1x bound beyond their launch's median + spread (lesson 02's rule), "
                         "findings to explain that no launch's median shows: launch 2 (0.96x ± 0.02) 1.06x; launch 3 "
                         "(1.00x ± 0.03) 1.05x (launches in lesson 02's order); launches above the bound "
                         "themselves, their rounds read with the median (lesson 02's rule for a median past its "
                         "bound): launch 1 (1.05x ± 0.01) 5 of 5 rounds above the bound"), said
    quiet = _split([0.99, 0.96, 1.00], [0.01, 0.02, 0.03], launch_rounds=[[0.99] * 3, [0.96] * 3, [1.0] * 3])
    assert split_alone.launches_words(quiet).endswith(
        "none of the launches' 9 rounds lies above the 1x bound beyond its launch's median + spread (lesson 02's "
        "rule)")


def test_section_3s_launch_counts_no_round_within_its_own_rounds_reference():
    rounds = [1.00, 1.00, 1.00, 1.00, 1.10]   # 1.10 past 1.00 + 0.00, but within its own round's reference 1.12
    record = _split([1.00, 0.96, 1.00], [0.00, 0.02, 0.03], launch_rounds=[rounds, [0.96] * 3, [1.0] * 3],
                    reference=1.05, reference_rounds=[1.0, 1.0, 1.0, 1.0, 1.12]) | {"rounds": rounds}
    assert "launch 1" not in split_alone.launch_rounds_words(record)
    past = record | {"reference_rounds": [1.0, 1.0, 1.0, 1.0, 1.0]}  # then it lies past its own reference
    assert "launch 1 (1.00x ± 0.00) 1.10x" in split_alone.launch_rounds_words(past)


# --- #7: data parallel's spread where lesson 03 keeps its rounds -------------------------------------------

def _ddp(rounds):
    return _figures(ddp=_recorded(1.77, rounds=rounds), pipeline=_recorded(1.70, 1.78), capstone=_recorded(1.29))


@pytest.mark.parametrize("row", ["A3", "B16", "B21", "A24"])
def test_data_parallel_gets_its_spread_where_its_rounds_are_kept(row):
    kept = verdicts.judge(claims.BY_ID[row], _ddp([1.87, 1.68, 1.77]), {}).parts[0].text
    assert "1.77x ± 0.10 " in kept, kept          # half the range of 1.87, 1.68: 0.095, printed 0.10 half up
    bare = verdicts.judge(claims.BY_ID[row], _ddp(None), {}).parts[0].text
    assert "1.77x against" in bare or "1.77x the throughput" in bare
    assert "1.77x ±" not in bare


def test_row_a19_ranks_data_parallel_by_its_spread_where_kept_and_says_it_cannot_where_not():
    def order(m):
        row = verdicts.judge(claims.BY_ID["A19"], m, {})
        return next(p.text for p in row.parts if "the order is by medians" in p.text)
    kept = order(_ddp([1.87, 1.68, 1.77]))
    assert "data parallel (1.77x ± 0.10) and lesson 02 §5's pipeline (1.70x ± 0.02) tie: their order is not " \
           "read" in kept, kept
    assert "kept no rounds" not in kept
    assert "data parallel kept no rounds in the ledger (no spread), so its place is not read" in order(_ddp(None))


def test_one_round_within_its_own_reference_is_said_in_the_singular():
    from types import SimpleNamespace
    rounds = [1.00, 1.00, 1.00, 1.00, 1.10]
    record = {"value": 1.00, "bound": 1.0, "rounds": rounds}
    paired = SimpleNamespace(speedups=rounds, speedup=1.00, bound=1.0, process_bounds=[1.12] * 5, process_bound=1.12)
    said = split_alone.within_own_words(record, paired)
    assert said.startswith("its one round above the 1x bound beyond the rounds' spread: the 1.10x round lies ") \
        and said.endswith(": lesson 02 §3 does not count it past the reference"), said


def test_launch_rounds_read_as_lesson_02_writes_them():
    """Lesson 02's ``naive.launch_fields`` writes one {"where", "rounds"} per launch: lesson 09 reads that shape."""
    from utils.lessons.model_split import naive, runs

    rows = [runs.Row(32, 1, "gpipe", 0.149, 0.141, [0.07, 0.07], speedups=s) for s in ([1.0, 1.1, 1.2], [0.96] * 3)]
    written = naive.launch_fields([("section 3", "a", rows[0]), ("section 5", "b", rows[1])])["launch_rounds"]
    record = _split([1.05, 0.96], [0.01, 0.02], launch_rounds=written)
    assert split_alone.launch_rounds(record) == [[1.0, 1.1, 1.2], [0.96] * 3]


def test_a_per_process_reference_measured_at_1x_is_still_a_reference():
    """The twenty-eighth run: lesson 02's per-process reference came out 1.00x, read as "no reference" (an older
    entry's bound of 1.0), and the split's rounds reading crashed on it."""
    record = {"value": 0.95, "bound": 1.0, "reference": 1.0, "rounds": [1.05, 1.02, 0.95, 0.91, 0.93],
              "reference_rounds": [1.07, 1.06, 0.95, 1.0, 0.97], "launches": [0.95], "launch_spreads": [0.05]}
    assert figures.split_reference(record) == 1.0
    assert split_alone.split_rounds_reading(record).startswith("Lesson 02 §3 printed the split alone's per-process "
                                                               "reference, 1.00x")
    assert figures.split_reference({"value": 1.0, "bound": 1.0}) is None  # an older entry: 1.0 is the bound
