"""Lesson 09, rows B4 and B14 beside lesson 01 §5's own run of the same pairs (not from a reader's report: the
last run timed attention at 2.07x ± 0.04 here and 4.73x ± 0.04 in lesson 01, naive 4.40 ms against 10.4 ms, and
the page could not show it: the ledger kept no lesson 01 §5 figure). Every branch on fabricated records:
within noise, outside it with the slow time moved, with the fast time moved, with both moved alike; a record of
another set-up; no record (today's words); a GPU (lesson 01 timed another device)."""

from __future__ import annotations

from test_articles_checked import _figures

from utils import bench

from utils.lessons.articles_checked import claims, lesson_01_pairs, verdicts, wording
from utils.lessons.articles_checked.sources import LEDGER, Recorded
from utils.lessons.why_slow.algorithms import Comparison

NAMES = ("naive attention", "fused")


def _pair(slow_ms, fast_ms, ratios, what="attention", ceiling=None):
    return Comparison(what, "slow", "fast", slow_ms * 1e-3, fast_ms * 1e-3, 1e-7, round_ratios=tuple(ratios),
                      ceiling=ceiling, no_ceiling="" if ceiling else "it skips FLOPs too")


def _record(value, spread, slow_ms, fast_ms, what="attention", device="cpu", sizes=None, **extra):
    record = {"value": value, "spread": spread, "slow_ms": slow_ms, "fast_ms": fast_ms, "unit": "x", "bound": None,
              "rounds": [value] * 5, "lesson": "01", "what": f"the pair, on {device}", "device": device,
              "sizes": lesson_01_pairs.SIZES[what] if sizes is None else sizes, "date": "2026-12-20",
              "hardware": bench.hardware_label(), **extra}
    return Recorded(record, LEDGER, "lesson 01, 2026-12-20; this CPU")


# this page: 4.40 / 2.13 = 2.07x ± 0.02 (rounds as printed: 2.03, 2.05, 2.07, 2.09, 2.11)
HERE = _pair(4.40, 2.13, (2.03, 2.05, 2.07, 2.09, 2.11))


def test_outside_the_noise_the_slow_time_moved_the_run_the_reader_saw():
    said = wording.fused_words(HERE, NAMES, "one thread", False, _record(4.73, 0.04, 10.4, 2.20))
    assert said.endswith(
        "faster than the baseline; lesson 01 §5's own run of the pair, recorded 2026-12-20 (the same two functions, "
        "sizes, one thread and timer (algorithms.compare, one warm-up call a round), but timed in lesson 01's own "
        "process at another moment): naive attention 10.4 ms, fused 2.20 ms (its fastest times); "
        "its 5 rounds' own ratios: median 4.73x ± 0.04: outside this page's median 2.07x ± 0.02 (neither "
        "median ± its spread covers the other's): a gap "
        "between runs to explain, which neither run measures the cause of; of the two times, the slow one (naive "
        "attention) moved more: 10.4 ms there, 4.40 ms here (2.36x apart); the fast one (fused) 2.20 ms there, "
        "2.13 ms here (1.03x apart). The row's verdict reads this page's rounds"), said
    # 10.4 / 4.40 = 2.3636 -> 2.36; 2.20 / 2.13 = 1.0329 -> 1.03: worked from the printed ms
    assert "the ledger keeps no lesson 01 §5 figure" not in said


def test_outside_the_noise_the_fast_time_moved():
    said = wording.fused_words(HERE, NAMES, "one thread", False, _record(4.00, 0.04, 4.40, 1.10))
    assert "of the two times, the fast one (fused) moved more: 1.10 ms there, 2.13 ms here (1.94x apart); " \
           "the slow one (naive attention) 4.40 ms there, 4.40 ms here (1.00x apart)" in said, said


def test_outside_the_noise_both_times_moved_alike():
    # in opposite directions, by as much as printed: 4.40 / 2.20 = 2.00 and 4.26 / 2.13 = 2.00
    said = wording.fused_words(HERE, NAMES, "one thread", False, _record(0.52, 0.01, 2.20, 4.26))
    assert "outside this page's median 2.07x" in said
    assert "both times moved by as much: the slow one (naive attention) 2.20 ms there, 4.40 ms here (2.00x apart), " \
           "the fast one (fused) 4.26 ms there, 2.13 ms here (2.00x apart). The row's verdict" in said, said


def test_within_noise_is_said_so_and_names_no_gap():
    # 2.10 - 0.04 = 2.06 <= 2.07: one ratio ± its spread covers the other's
    said = wording.fused_words(HERE, NAMES, "one thread", False, _record(2.10, 0.04, 4.41, 2.10))
    assert said.endswith("naive attention 4.41 ms, fused 2.10 ms (its fastest times); "
                         "its 5 rounds' own ratios: median 2.10x ± 0.04: within noise of this page's median 2.07x ± "
                         "0.02 (one median ± its spread covers the other's)"), said
    assert "finding" not in said.split("lesson 01 §5's own run")[1]


def test_the_noise_rule_reads_either_spread():
    # this page's spread covers lesson 01's figure, lesson 01's does not cover this page's: within noise still
    wide = _pair(4.40, 2.13, (1.9, 2.0, 2.07, 2.2, 2.3))  # ± 0.10 as printed: 2.07 + 0.10 = 2.17 >= 2.15
    assert "within noise of this page's median 2.07x ± 0.10" in wording.fused_words(
        wide, NAMES, "s", False, _record(2.15, 0.01, 4.30, 2.00))
    # no spread kept in the record: the one worked from its rounds (lesson 09's spread_of)
    record = _record(4.73, 0.0, 10.4, 2.20)
    del record.record["spread"]
    assert "median 4.73x ± 0.00: outside" in wording.fused_words(HERE, NAMES, "s", False, record)


def test_gelu_names_its_rounds_shared_with_the_compiled_version():
    gelu = _pair(9.10, 2.84, (3.1, 3.15, 3.2, 3.25, 3.3), what="gelu", ceiling=11.0)
    said = wording.fused_words(gelu, ("GELU op by op", "fused into one kernel"), "s", False,
                               _record(3.99, 1.10, 9.10, 2.28, what="gelu"))
    assert "at another moment, and there the op-by-op GELU shares each round with torch.compile's version too)" \
           ": GELU op by op 9.10 ms, fused into one kernel 2.28 ms (its fastest times); its 5 " \
           "rounds' own ratios: median 3.99x ± 1.10" in said, said
    assert said.endswith("within noise of this page's median 3.20x ± 0.05 (one median ± its spread covers the "
                         "other's)")


def test_a_record_of_another_set_up_is_not_set_beside_this_row():
    for record in (_record(4.73, 0.04, 10.4, 2.20, sizes=[8, 16, 2048, 64]),
                   _record(4.73, 0.04, 10.4, 2.20, device="cuda"),
                   _record(4.73, 0.04, 10.4, 2.20, hardware="CPU of another machine, 64 cores, no GPU")):
        said = wording.fused_words(HERE, NAMES, "s", False, record)
        assert said.endswith("this run's ratio, not lesson 01 §5's: the ledger's lesson 01 §5 figure of the pair "
                             f"(4.73x, the pair, on {record.record['device']}) was timed on another set-up than "
                             "this row's (another device, size or machine), so the two are not set side by side"), said


def test_no_record_keeps_todays_words_and_a_gpu_keeps_them_too():
    assert wording.fused_words(HERE, NAMES, "s").endswith(
        "; this run's ratio, not lesson 01 §5's: the ledger keeps no lesson 01 §5 figure; the same two functions, "
        "sizes, one thread and timer (algorithms.compare, one warm-up call a round), but timed in lesson 01's own "
        "process at another moment: where the two pages' medians differ beyond their spreads, that is a gap between "
        "runs to explain, which neither run measures the cause of")
    on_gpu = wording.fused_words(HERE, NAMES, "s", True, _record(40.0, 0.5, 10.0, 0.25, device="cuda"))
    assert on_gpu.endswith("this run's ratio, not lesson 01 §5's: the ledger's lesson 01 §5 figure is the GPU's; "
                           "lesson 01 §5 times the same two functions on the GPU at its own, larger sizes, this row "
                           "on this CPU: another device, so the two pages' ratios need not match"), on_gpu
    assert wording.fused_words(HERE, NAMES, "s", True).endswith(
        "this run's ratio, not lesson 01 §5's: the ledger keeps no lesson 01 §5 figure; lesson 01 §5 times the same "
        "two functions on the GPU at its own, larger sizes, this row on this CPU: another device, so the two pages' "
        "ratios need not match")


def test_rows_b4_and_b14_read_the_ledger_and_keep_their_own_verdict():
    gelu = _pair(9.10, 2.84, (3.1, 3.15, 3.2, 3.25, 3.3), what="gelu", ceiling=11.0)
    m = _figures() | {"algorithms": {"attention": HERE, "gelu": gelu}}
    before = {i: verdicts.judge(claims.BY_ID[i], m, {}) for i in ("B4", "B14")}
    m["results"] |= {"fused_attention": _record(4.73, 0.04, 10.4, 2.20),
                     "fused_gelu": _record(6.50, 0.10, 9.10, 1.40, what="gelu")}
    after = {i: verdicts.judge(claims.BY_ID[i], m, {}) for i in ("B4", "B14")}
    assert "fused 2.20 ms (its fastest times); its 5 rounds' own ratios: median 4.73x ± 0.04" in \
        after["B4"].parts[0].text, after["B4"].parts[0].text
    assert "the fast one (fused into one kernel) moved more: 1.40 ms there, 2.84 ms here (2.03x apart)" in \
        after["B14"].parts[0].text
    for i in ("B4", "B14"):  # the verdict reads this page's rounds, whatever lesson 01 recorded
        assert (after[i].verdict, after[i].check) == (before[i].verdict, before[i].check)
        assert "the ledger keeps no lesson 01 §5 figure" in before[i].parts[0].text
