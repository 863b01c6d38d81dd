"""Lesson 09, the twenty-third reading (t23_09): lesson 02's split alone read over every launch lesson 02 ran
(#1, the ledger's ``launches`` and ``launch_spreads``; an older entry's one figure read alone, as before)."""

from __future__ import annotations

from test_articles_checked import _figures, _recorded

from utils.lessons.articles_checked import claims, report, split_alone, verdicts

ROUNDS = [1.06, 1.04, 1.02, 1.05, 1.03]  # the recorded launch's rounds, none beyond its spread


def _m(launches=None, spreads=None, value=1.04):
    extra = {"launches": launches, "launch_spreads": spreads} if launches else {}
    split = _recorded(value, 1.0, reference=0.99, lesson="02", rounds=ROUNDS, **extra)
    return _figures(naive_split=split, pipeline=_recorded(1.57, 1.78), ddp=_recorded(1.81))


def test_launches_that_disagree_on_the_bound_are_inconclusive_not_above_it():
    m = _m([1.04, 0.95, 1.01], [0.03, 0.02, 0.04])
    for claim_id in ("A10", "B5"):
        row = verdicts.judge(claims.BY_ID[claim_id], m, {})
        assert row.check == verdicts.NOISY, row.check
        assert ("lesson 02's split alone: 1.04x ± 0.03, 0.95x ± 0.02 and 1.01x ± 0.04 in 3 launches (0.95x to "
                "1.04x) against a 1x bound, inconclusive: the launches disagree; launch 1's 1.04x ± 0.03, above "
                "the bound: a finding to explain; launch 2's 0.95x ± 0.02, slower than one device: no speed-up; "
                "launch 3's 1.01x ± 0.04, within noise: no effect shown") in row.evidence, row.evidence
        assert ("section 3 (the launch lesson 02 §3 pairs with its per-process reference), 1.04x ±"
                in row.evidence), row.evidence
    rows = [verdicts.judge(claims.BY_ID[i], m, {}) for i in ("A10", "B5")]
    note = report.above_bound_note(m, rows)  # not counted past its bound; its launches named
    assert "none passed it" in note and "lesson 02's split alone (its launches disagree on it: 1.04x ± 0.03" in note


def test_launches_all_within_the_bound_agree_and_all_past_it_are_a_finding():
    within = _m([0.99, 0.98, 1.01], [0.03, 0.02, 0.04], value=0.99)  # every launch within noise of 1x
    within["results"]["naive_split"].record["rounds"] = [0.98, 0.99, 1.0, 0.97, 0.99]
    row = verdicts.judge(claims.BY_ID["A10"], within, {})
    assert row.check == verdicts.AGREES, row.check
    assert "none of its 3 launches above the 1x bound (launch 1's 0.99x ± 0.03, within noise" in row.evidence, row.evidence
    above = _m([1.04, 1.08], [0.01, 0.02])
    row = verdicts.judge(claims.BY_ID["A10"], above, {})
    assert row.check == verdicts.ABOVE
    assert "1.04x ± 0.01 and 1.08x ± 0.02 in 2 launches (1.04x to 1.08x) against a 1x bound, above the bound" \
        in row.evidence, row.evidence
    note = report.above_bound_note(above, [row])
    assert "the ledger keeps every launch, and rows A10 and B5 read them together" in note, note


def test_an_older_entry_keeps_one_launch_and_is_read_alone():
    old = _m()
    row = verdicts.judge(claims.BY_ID["A10"], old, {})
    assert "lesson 02's split alone: 1.04x ± 0.01 against a 1x bound, above the bound" in row.evidence, row.evidence
    assert row.check == verdicts.ABOVE
    assert "the ledger keeps §3's figure only" in report.above_bound_note(old, [row])
    # a launches list without its spreads (or of one launch) is read as an older entry
    assert split_alone.launches({"launches": [1.0, 0.9], "launch_spreads": [0.01]}) == []
    assert split_alone.launches({"launches": [1.0], "launch_spreads": [0.01]}) == []


# --- (b) row B9: this run's lesson 05 (the ledger) first, make bench's configurations beside it, labelled ------


def _bench_prefetch():
    from utils.lessons.articles_checked.sources import BENCH, Recorded
    configs = {"no workers": {"seconds": 2.8508, "bound": 2.8456},
               "Prefetcher thread": {"seconds": 1.5969, "bound": 1.5613}}
    return Recorded({"value": 1.3445, "bound": 1.2842, "configs": configs}, BENCH, "prefetch; another machine: X")


def _ledger_prefetch(value=1.357):
    return _recorded(value, 1.29, rounds=None, lesson="05",
                     what="2 persistent workers + Prefetcher: epoch of 512 images, against its bound max(L/2, C)")


def test_b9_quotes_this_runs_ledger_first_and_labels_make_bench_apart():
    m = _figures(prefetch=_ledger_prefetch())
    m["results"]["prefetch_configs"] = _bench_prefetch()
    parts = verdicts.EVIDENCE["B9"](m)
    assert parts[0].text == ("lesson 05's best (2 persistent workers + Prefetcher): 1.36 s an epoch against its "
                             "bound 1.29 s"), parts[0].text
    assert parts[0].kind == "from the ledger"
    assert parts[1].text.startswith("make bench's run of lesson 05's configurations, timed apart from this run: "
                                    "an epoch: load 1.56 s, compute 1.28 s"), parts[1].text
    assert parts[1].detail == "prefetch; another machine: X"
    assert verdicts.judge(claims.BY_ID["B9"], m, {}).check == verdicts.AGREES
    # the check reads this run's epoch: one faster than its bound disagrees, whatever make bench timed
    fast = _figures(prefetch=_ledger_prefetch(1.0))
    fast["results"]["prefetch_configs"] = _bench_prefetch()
    assert verdicts.judge(claims.BY_ID["B9"], fast, {}).check == verdicts.DISAGREES
    # no ledger entry: make bench's record alone, as before; no bench file: the ledger's alone
    only_bench = _figures(prefetch=_bench_prefetch())
    assert len(verdicts.EVIDENCE["B9"](only_bench)) == 1
    assert "no prefetch 2.85 s" in verdicts.EVIDENCE["B9"](only_bench)[0].text
    assert len(verdicts.EVIDENCE["B9"](_figures(prefetch=_ledger_prefetch()))) == 1


# --- #2 and (a): rows A11 and A19 set lesson 07 §1's article split beside this page's own rounds ---------------


def _passes_m(theirs=None):
    m = _figures(ddp=_recorded(1.81), pipeline=_recorded(1.57, 1.78))
    m["passes"] = {"article split": 0.95, "tensor parallel": 1.16, "bound": 2.0,
                   "article split rounds": [0.86, 0.80, 0.97, 0.94, 0.95, 1.02]}
    if theirs is not None:
        m["results"]["article_split"] = _recorded(theirs[0], 1.0, rounds=theirs[1], lesson="07")
    return m


def test_a11_and_a19_set_lesson_07s_split_beside_this_pages_rounds_and_say_what_differs():
    apart = _passes_m((0.80, [0.79, 0.80, 0.80, 0.81, 0.78, 0.80, 0.82, 0.80, 0.79, 0.81]))
    for claim_id in ("A11", "A19"):
        row = verdicts.judge(claims.BY_ID[claim_id], apart, {})
        assert ("lesson 07 §1" in row.evidence and "own run of it (the same worker, blocks and threads): 0.80x ± "
                "0.01 (median of 10 paired rounds), 40% of one device's rate each") in row.evidence, row.evidence
        assert "outside this page's 0.95x ± 0.06" in row.evidence
        assert "(6 here, 10 there)" in row.evidence and "The check reads this page's rounds" in row.evidence
    near = _passes_m((0.92, [0.90, 0.92, 0.93, 0.91, 0.95]))
    row = verdicts.judge(claims.BY_ID["A11"], near, {})
    assert "within noise of this page's 0.95x ± 0.06" in row.evidence and "outside" not in row.evidence
    # an older ledger keeps none: said, not left out
    row = verdicts.judge(claims.BY_ID["A11"], _passes_m(), {})
    assert "the ledger keeps no figure of it (lesson 07 records only its tensor-parallel pass)" in row.evidence


# --- #6: row B8 reads no saving from noise; the condition fails only where packing outcosts the whole send ----


def _compressed(plain_us, bytes_us, packing_us, packed_us=2512):
    return {"plain": [plain_us * 1e-6] * 9, "packed": [packed_us * 1e-6] * 9, "bytes": [bytes_us * 1e-6] * 9,
            "packing": [packing_us * 1e-6] * 9}


def test_b8_fails_its_condition_on_the_packing_alone_and_leaves_a_noisy_saving_unread():
    from utils import machine
    from utils.lessons.articles_checked import checks, evidence, timed_rows

    sizes = evidence.LINK_SIZES
    m = _figures() | {"link": machine.link_fit("gloo", sizes, [2e-5 + n / 5e9 for n in sizes])}
    # the reader's run: 4 MiB 1738 µs, 1 MiB 2113 µs (noise), packing 2666 µs: more than the whole plain send
    run = m | {"compressed": _compressed(1738, 2113, 2666, 3500)}
    assert checks.compression_reading(run)[0] == "fails"
    said = verdicts.EVIDENCE["B8"](run)[1].text
    assert "so no saving is read from these two times (the 1 MiB message took 375 µs longer" in said, said
    assert "at least the whole plain send (2666 against 1738 µs)" in said and "save nothing" not in said
    # packing cheaper than the whole plain send, the saving lost in noise: not read, inconclusive
    unread = m | {"compressed": _compressed(1738, 2113, 1000, 2000)}
    assert checks.compression_reading(unread)[0] == "unread"
    assert "is not read from this run" in verdicts.EVIDENCE["B8"](unread)[1].text
    assert timed_rows.b8_in_this_run(unread).startswith("; in this run the bytes' saving was lost")
    assert verdicts.judge(claims.BY_ID["B8"], unread, {}).check == verdicts.NOISY


# --- #7: the link's fit read against lesson 00's ±50% tolerance, both sides ----------------------------------


def test_the_link_fit_is_read_against_lesson_00s_tolerance():
    from types import SimpleNamespace

    from utils.lessons.articles_checked import timed_rows

    def link(miss):
        return SimpleNamespace(name="gloo", fit=SimpleNamespace(alpha=152.8e-6, beta=3.80e9), accuracy=miss)

    wide = timed_rows.link_line(link(0.60))
    assert wide == ("This run's alpha-beta fit (not the machine profile's), gloo: alpha 152.8 µs, beta 3.80 GB/s "
                    "(worst miss ±60%, by lesson 00's ±50% tolerance, outside the tolerance by 10 points: measured "
                    "times only)"), wide
    assert "within the tolerance, 20 points to spare" in timed_rows.link_line(link(0.30))


# --- #3: rows B13 and B15 set the stored profile's ratio beside this run's, and flag a slow fp32 run ---------


def test_the_peaks_ratio_sits_beside_the_stored_profiles_and_a_slow_fp32_run_is_flagged():
    from types import SimpleNamespace

    from utils.lessons.articles_checked.stored_peaks import stored_words

    stored = {"fp32": 196.8e9, "bf16": 415.5e9, "int8": 827.9e9}
    slow = SimpleNamespace(best=156.8e9, spread=0.12)
    said = stored_words(stored, "int8", slow)
    assert said.startswith("; the stored machine profile's (lesson 01's table of it) ratio 4.2x (827.9 / 196.8 "
                           "G/s)"), said
    # t24_09 #3: the gap on the base the test uses (156.8 x 1.12 = 175.6); no stored spread kept: this run's alone
    assert ("the stored fp32 peak, 196.8 G/s, lies above this run's 156.8 even at the top of this run's 12% spread "
            "(156.8 x (1 + 12%) = 175.6): a slow fp32 run by this run's spread alone") in said, said
    # within its own spread of the stored peak: the ratio only, no flag
    near = stored_words(stored, "bf16", SimpleNamespace(best=156.8e9, spread=0.42))
    assert near == "; the stored machine profile's (lesson 01's table of it) ratio 2.1x (415.5 / 196.8 G/s)", near
    assert stored_words({}, "int8", slow) == "" and stored_words({"fp32": 1.0}, "int8", slow) == ""
