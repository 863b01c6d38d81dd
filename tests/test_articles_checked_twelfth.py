"""Lesson 09, the twelfth reading (t12_09): one rule reads the single rounds of every row that lists paired
rounds (A21's tensor-parallel round at 2.03x is a finding to explain, as A19's ZBV rounds past 2x are); rows
B2 and B10 name every pair of message sizes whose times are out of order, and B8 sets none of those sizes
against its own; B5, B8 and B13 print each speed-up beside its bound or reference with the course's words."""

from __future__ import annotations

from test_articles_checked import _figures, _recorded
from test_articles_checked_as_printed import _compressed, _link_m

from utils.lessons.articles_checked import claims, evidence, report, timed_rows, verdicts, wording

SPLIT = [0.91, 0.91, 0.91, 0.91, 0.94, 0.93]  # the reader's run (cell 22)
TP = [1.20, 1.61, 1.45, 1.59, 1.33, 2.03]


def _passes(tp: list[float], split: list[float] = SPLIT) -> dict:
    return {"passes": {"article split": 0.94, "tensor parallel": 2.03, "bound": 2.0,
                       "article split rounds": split, "tensor parallel rounds": tp}}


def test_a21_reads_its_round_past_2x_as_a_finding_both_branches():
    m = _figures() | _passes(TP)
    row = verdicts.judge(claims.BY_ID["A21"], m, {})
    assert ("1.52x ± 0.14 (median of 6 paired rounds, range 1.20-2.03x) one device's speed, bound 2x: faster, "
            "under the bound: 52% of its gain; 1 of 6 rounds above the bound (up to 2.03x, 1 of them past 2 "
            "devices' 2x): 2.03x: past 2x, so a finding by that alone, whatever the spread") in row.evidence
    assert row.check == verdicts.ABOVE, row.check
    # the verdict's run note says it beside the median's "faster"
    assert ("in this run tensor parallel inference was faster than one device (1.52x ± 0.14: faster, under the "
            "bound: 52% of its gain; 1 of 6 rounds above the bound (up to 2.03x") in row.why, row.why
    # the note under §1's counts names this page's rounds for row A21
    note = report.above_bound_note(m, [row])
    assert ("Row A21 is above a bound through this page's tensor-parallel passes, 1.52x against a bound of "
            "2.00x, by its single rounds: 1 of 6 rounds above the bound") in note, note
    # the other outcome: every round under 2x: none above, the check agrees
    calm = _figures() | _passes([1.20, 1.61, 1.45, 1.59, 1.33, 1.90])
    row = verdicts.judge(claims.BY_ID["A21"], calm, {})
    assert "bound 2x: faster, under the bound: 52% of its gain; none of its 6 rounds above the bound" in row.evidence
    assert row.check == verdicts.AGREES, row.check
    assert "rounds above the bound" not in row.why
    # rounds above a 1.6x bound within the median plus the rounds' spread: explained by the spread
    assert timed_rows.rounds_above_note([1.45, 1.50, 1.55, 1.61, 1.61], 1.6) == (
        "; 2 of 5 rounds above the bound (up to 1.61x): within the rounds' spread of the median (± 0.06), which "
        "explains them")
    # past that band, a finding to explain, round by round, though the band reaches the bound (t13_09 #2)
    assert timed_rows.rounds_above_note([1.40, 1.50, 1.55, 1.61, 1.75], 1.6) == (
        "; 2 of 5 rounds above the bound (up to 1.75x): 1 of them beyond the rounds' spread of the median "
        "(± 0.06): a finding to explain; 1 within it, which explains it")
    assert timed_rows.rounds_above_note([1.4], 1.6) == ""  # a fastest pass alone: no rounds to read


def test_the_article_split_rounds_are_read_by_the_same_rule_both_branches():
    m = _figures() | _passes([1.0] * 5 + [1.0], SPLIT)
    said = verdicts.judge(claims.BY_ID["A11"], m, {}).evidence
    assert "bound 1x: no faster than one device" in said and "none of its 6 rounds above the bound" in said, said
    # a single split round past 1x beyond the rounds' spread: a finding to explain, never agreement
    past = _figures() | _passes([1.0] * 6, [0.91, 0.91, 0.91, 0.91, 0.92, 1.10])
    row = verdicts.judge(claims.BY_ID["A11"], past, {})
    assert "1 of 6 rounds above the bound (up to 1.10x): beyond the rounds' spread" in row.evidence, row.evidence
    assert row.check == verdicts.ABOVE


# --- B2 and B10: every pair of sizes out of order ------------------------------------------------------------

READER_LINK = [1398e-6, 1942e-6, 300e-6, 191e-6, 2248e-6, 1256e-6]  # 4 B, 4 KiB, 64 KiB, 256 KiB, 1 MiB, 4 MiB


def test_b2_and_b10_name_every_size_out_of_order_not_only_the_small_ones():
    m = _link_m(READER_LINK)
    for row_id in ("B2", "B10"):
        row = verdicts.judge(claims.BY_ID[row_id], m, {})
        said = row.evidence
        assert "this run's message times are out of order beyond the 10% one noisy median may miss by (lesson 00's rule), which no bytes explain" in said, said
        assert "the small messages" not in said
        assert "the 1 MiB message (2248 µs) took longer than the 4 MiB (1256 µs) one" in said
        assert ("the 4 KiB message (1942 µs) took longer than the 64 KiB (300 µs), 256 KiB (191 µs) and 4 MiB "
                "(1256 µs) ones") in said
        assert "the 4-byte message (1398 µs) took longer than the 64 KiB" in said
        assert row.check == verdicts.NOISY
    # B8 sets neither size out of order against its own times
    b8 = verdicts.judge(claims.BY_ID["B8"], m | {"compressed": _compressed(2663, 2498)}, {}).evidence
    assert "their 4 MiB and 1 MiB times are out of order (row B10), so this row compares its parts only" in b8
    assert " there; " not in b8 and "those." not in b8


def test_only_the_large_sizes_out_of_order_is_inconclusive_too():
    times = [4e-5 + n / 2.5e9 for n in evidence.LINK_SIZES]
    times[4] = times[5] + 400e-6  # 1 MiB slower than 4 MiB beyond 10%; the small messages in order
    m = _link_m(times)
    b10 = verdicts.judge(claims.BY_ID["B10"], m, {})
    assert b10.check == verdicts.NOISY
    assert "(lesson 00's rule), which no bytes explain; the 1 MiB message (" in b10.evidence
    b8 = verdicts.judge(claims.BY_ID["B8"], m | {"compressed": _compressed(2663, 2498)}, {}).evidence
    assert "their 4 MiB and 1 MiB times are out of order (row B10)" in b8


def test_sizes_in_order_keep_both_comparisons_and_a_slower_4_byte_message_stays_b2s_reading():
    times = [4e-5 + n / 2.5e9 for n in evidence.LINK_SIZES]
    times[0] = times[1] + 3e-6  # 4 bytes slower than 4 KiB: both fixed cost, row B2's own reading
    m = _link_m(times)
    b2 = verdicts.judge(claims.BY_ID["B2"], m, {})
    assert "out of order" not in b2.evidence and b2.check != verdicts.NOISY
    assert "took longer" in b2.evidence and "within the 10% one noisy median may miss by" in b2.evidence
    # a 4-byte time above even the 64 KiB one is that same noise: the fixed cost is read from the 4 KiB time
    outlier = list(times)
    outlier[0] = 7.4e-4
    assert "out of order" not in verdicts.judge(claims.BY_ID["B10"], _link_m(outlier), {}).evidence
    b8 = verdicts.judge(claims.BY_ID["B8"], m | {"compressed": _compressed(2663, 2498)}, {}).evidence
    assert "at one size: 4 MiB 1718 µs and 1 MiB 459 µs there; here each is half" in b8, b8
    # one size out of order: only the other compared
    times[2] = times[4] + 50e-6  # 64 KiB slower than 1 MiB: 1 MiB is in an inversion, 4 MiB is not
    b8 = verdicts.judge(claims.BY_ID["B8"], _link_m(times) | {"compressed": _compressed(2663, 2498)}, {}).evidence
    assert "their 1 MiB time is out of order (row B10): 4 MiB 1718 µs there" in b8, b8
    assert "those." not in b8 and "x that." in b8


# --- Speed-ups beside their bounds ---------------------------------------------------------------------------


def test_b8_prints_its_bytes_bound_and_reads_a_round_past_it():
    m = _link_m([4e-5 + n / 2.5e9 for n in evidence.LINK_SIZES]) | {"compressed": _compressed(2663, 2498)}
    row = verdicts.judge(claims.BY_ID["B8"], m, {})
    assert ("the plain way's speed, bound 4x (a quarter of the bytes; the fixed cost stays): slower than sending "
            "fp32: no speed-up; none of its 9 rounds above the bound") in row.evidence, row.evidence
    assert "devices' 2x" not in row.evidence
    # faster: the share of the 4x's gain
    fast = _link_m([4e-5 + n / 2.5e9 for n in evidence.LINK_SIZES]) | {"compressed": _compressed(1111, 200)}
    assert "bound 4x (a quarter of the bytes; the fixed cost stays): faster, under the bound: 33% of its gain" \
        in verdicts.judge(claims.BY_ID["B8"], fast, {}).evidence


def test_b5_prints_the_bound_it_names():
    m = _figures(ddp=_recorded(1.75), naive_split=_recorded(0.94, 1.0), pipeline=_recorded(1.72, 1.78))
    said = verdicts.judge(claims.BY_ID["B5"], m, {}).evidence
    # the figure with its rounds' spread, the record keeping its rounds (t27_09 #7)
    assert ": 1.75x ± 0.02 against a bound of 2.00x (faster, under the bound: 75% of its gain)" in said, said


def _int8(value: float, reference: str = "4.47x", bound: float = 4.47):
    return _recorded(value, bound, what=f"torchao int8 compiled, batch 256, against its roofline reference "
                                        f"{reference}", rounds=None)


def test_b13_and_b11_print_int8_beside_its_reference_in_lesson_04s_words_every_branch():
    record = _int8(3.64).record
    assert wording.int8_against_reference(record) == ("against its reference 4.47x: faster: 76% of the "
                                                      "reference's gain")
    assert wording.int8_against_reference(_int8(5.2).record).endswith(
        "above the reference, beyond noise (a reference may be passed)")
    assert wording.int8_against_reference(_int8(4.50).record).endswith("at the reference (within noise)")
    assert "within noise" in wording.int8_against_reference(_int8(1.01).record)
    rough = _int8(3.64, "~8.2x (rough)", 8.21).record
    assert wording.int8_against_reference(rough) == ("against its reference ~8.2x (rough): faster; the reference "
                                                     "is rough: no share of its gain scored")
    m = _figures(quantize=_int8(3.64))
    b11 = verdicts.judge(claims.BY_ID["B11"], m, {}).evidence
    assert ("3.64x faster than fp32, against its reference 4.47x (lesson 04's roofline reference: int8 over fp32 "
            "matmul rates measured on (256, 1024) @ (1024, 1024), at lesson 04's own thread count (its table of "
            "terms names it; the ledger keeps none), where the pass is compute-bound; the ratio of bytes moved where "
            "it is memory-bound): faster: 76% of the reference's gain") in b11, b11
    from test_articles_checked import _peaks
    from utils import devices

    b13 = verdicts.judge(claims.BY_ID["B13"], m | {"peaks": _peaks(4e11, 0.1),
                                                    "units": devices.CpuFeatures("AVX512", (), True, True, True)}, {})
    assert ("torchao int8 compiled, batch 256: 3.64x faster than fp32, against its reference 4.47x: faster: 76% "
            "of the reference's gain (row B11)") in b13.evidence, b13.evidence
