"""Lesson 09, the twenty-eighth reading (t28_09): lesson 02's launches of the split alone that read differently
(one slower than one device beyond its noise, the others within noise) disagree, as lesson 02 reads them, and
each verdict stays beside its own launch (#1); row B18 names that split once, with every launch, and quotes B12's
paired figure, never the fastest times' ratio, as within noise (#7). Every branch on fabricated figures."""

from __future__ import annotations

from test_articles_checked import _figures, _recorded

from utils.lessons.articles_checked import claims, split_alone, summary_rows, verdicts

WHERE = [{"where": f"section {k}", "rounds": [0.9] * 5} for k in (3, 5, 8)]


def _split(launches, spreads, **extra):
    return {"value": launches[0], "bound": 1.0, "launches": launches, "launch_spreads": spreads,
            "rounds": [launches[0]] * 5, **extra}


def test_a_slower_launch_beside_launches_within_noise_disagrees_each_verdict_beside_its_launch():
    said = split_alone.launches_words(_split([0.95, 0.96, 1.02], [0.05, 0.01, 0.02], launch_rounds=WHERE))
    assert said.startswith("inconclusive: the launches disagree; section 3's 0.95x ± 0.05, within noise: no "
                           "effect shown; section 5's 0.96x ± 0.01, slower than one device: no speed-up; section "
                           "8's 1.02x ± 0.02, within noise: no effect shown; one launch's ± understates"), said
    assert split_alone.launch_readings(_split([0.95, 0.96, 1.02], [0.05, 0.01, 0.02], launch_rounds=WHERE)) == \
        "section 3 within noise, section 5 slower than one device, section 8 within noise"


def test_launches_that_read_alike_agree_and_all_past_the_bound_say_nothing_more():
    alike = split_alone.launches_words(_split([0.99, 0.98, 1.01], [0.03, 0.02, 0.04]))
    assert alike.startswith("none of its 3 launches above the 1x bound (launch 1's 0.99x ± 0.03, within noise"), alike
    slower = split_alone.launches_words(_split([0.90, 0.92], [0.01, 0.01]))
    assert slower.startswith("none of its 2 launches above the 1x bound (launch 1's 0.90x ± 0.01, slower"), slower
    assert split_alone.launches_words(_split([1.10, 1.08], [0.01, 0.02])) == ""
    assert split_alone.launch_readings(_split([1.10, 0.98], [0.01, 0.02])) is None  # one past the bound
    assert split_alone.launch_readings({"value": 0.9}) is None  # an older entry: one launch


def _m(launches, spreads):
    split = _recorded(launches[0], 1.0, reference=0.99, lesson="02", launches=launches, launch_spreads=spreads,
                      rounds=[launches[0] * k for k in (0.99, 1.0, 1.0, 1.0, 1.01)])
    return _figures(naive_split=split, pipeline=_recorded(1.57, 1.78), ddp=_recorded(1.81))


def test_rows_a10_and_b5_are_noise_bound_where_the_launches_read_differently():
    m = _m([0.95, 0.96, 1.02], [0.05, 0.01, 0.02])
    for claim_id in ("A10", "B5"):
        row = verdicts.judge(claims.BY_ID[claim_id], m, {})
        assert row.check == verdicts.NOISY, (claim_id, row.check)
        assert "against a 1x bound, inconclusive: the launches disagree; launch 1's 0.95x" in row.evidence


def test_b18_names_the_disagreeing_split_once_with_every_launch():
    m = _m([0.95, 0.96, 1.02], [0.05, 0.01, 0.02])
    cures = summary_rows.split_no_gain("B5's split alone (lesson 02)", m["results"]["naive_split"].record,
                                       "row B5's check: inconclusive: noise-bound")
    words, said = cures
    assert words.startswith("B5's split alone (lesson 02): none faster than one device beyond its noise; 0.95x ± "
                            "0.05, 0.96x ± 0.01 and 1.02x ± 0.02 in 3 launches (0.95x to 1.02x); they read "
                            "differently (launch 1 within noise, launch 2 slower than one device, launch 3 within "
                            "noise), so none decides alone"), words
    assert words.count("B5") == 2 and said == "within noise"  # the split, and its row's check
    past = _m([1.10, 0.96], [0.01, 0.01])["results"]["naive_split"].record
    assert summary_rows.split_no_gain("B5's split", past, "") is None


def test_b18_quotes_b12s_paired_figure_and_labels_the_fastest_times_ratio():
    paired = {"prune": {"dense": 1.00e-3, "zeroed": 1.03e-3, "removed": 5e-4,
                        "zeroed_rounds": [0.97, 0.99, 0.99, 0.98, 1.01]}}
    words, said = summary_rows.zeroed_unpaid(_figures() | paired)
    assert words.startswith("B12's zeroed connections, 0.99x ± 0.01 the dense time in paired rounds (within noise "
                            "of the dense layer: no speed-up"), words
    assert "1.03x" not in words  # the fastest times' ratio is row B12's own: this row quotes the paired figure
    bare = {"prune": {"dense": 1.00e-3, "zeroed": 1.01e-3, "removed": 5e-4}}
    words, _ = summary_rows.zeroed_unpaid(_figures() | bare)
    assert words.startswith("B12's zeroed connections, 1.01x the dense time (two fastest times, no paired rounds)")


# --- #3: row A19's order by the course's one noise rule between two runs -----------------------------------------

def test_a19_ranks_neighbours_by_one_median_covering_the_other_and_ties_them_within_noise():
    from utils.lessons.articles_checked import wording
    # 1.76 ± 0.04 and 1.70 ± 0.05 lie apart, but 1.75 ± 0.02 between them ties with each neighbour
    said = wording.ranking_words({"pipeline": (1.76, 0.04), "ZBV": (1.70, 0.05), "interleaved 1F1B": (1.75, 0.02)})
    # t38_09 #3: neighbours tie where one median ± its spread covers the next one's (1.70 + 0.05 reaches 1.75)
    assert ("pipeline (1.76x ± 0.04), interleaved 1F1B (1.75x ± 0.02) and ZBV (1.70x ± 0.05) tie, each within "
            "noise of the next: their order is not read") in said, said
    both = wording.ranking_words({"a": (1.90, 0.01), "b": (1.70, 0.05), "c": (1.60, 0.02)})
    assert "; a (1.90x ± 0.01); below it beyond noise, b (1.70x ± 0.05); below it beyond noise, c" in both, both


# --- #4: the gap between runs, for every row that meets it ------------------------------------------------------

def _lesson_07(value, rounds):
    from utils.lessons.articles_checked import sources
    from utils.lessons.articles_checked.sources import Recorded
    return Recorded({"value": value, "bound": 2.0, "rounds": rounds, "lesson": "07", "what": ""}, sources.LEDGER,
                    "lesson 07, a date; simulated on CPU, this machine")


def test_a21_names_a_gap_between_runs_where_neither_median_covers_the_other():
    from utils.lessons.articles_checked import report, timed_rows
    m = _figures(tensor_parallel=_lesson_07(0.99, [0.85, 0.89, 0.99, 1.09, 1.12]))
    apart = timed_rows.lesson_07_note(m, [0.90, 1.10, 1.20, 1.30, 1.40, 1.58], "faster, under the bound")
    assert "this page's 1.25x ± 0.15 and lesson 07's 0.99x ± 0.10 lie outside each other's noise (neither median " \
           "± its spread covers the other's): a gap between runs to explain" in apart, apart
    near = timed_rows.lesson_07_note(m, [0.90, 0.95, 1.0, 1.0, 1.05, 1.1], "within noise: no effect shown")
    assert near.endswith("the two read alike (within noise); the two medians agree too (one median ± its spread "
                         "covers the other's)"), near
    m["passes"] = m["passes"] | {"tensor parallel rounds": [0.90, 1.10, 1.20, 1.30, 1.40, 1.58]}
    row = verdicts.judge(claims.BY_ID["A21"], m, {})
    assert report.gaps_between_runs([row]) == ["A21"]
    assert "a gap between runs to explain (this page's and a lesson's, neither ± its spread covering the " \
           "other's; each row is counted by its own check too): A21 (" in report.group_sentence(["A21"], [row])
    m["passes"] = m["passes"] | {"tensor parallel rounds": [0.90, 0.95, 1.0, 1.0, 1.05, 1.1]}
    quiet = verdicts.judge(claims.BY_ID["A21"], m, {})
    assert report.gaps_between_runs([quiet]) == [] and report.gaps_words([quiet]) == ""
    assert "gap between runs" not in report.group_sentence(["A21"], [quiet])
