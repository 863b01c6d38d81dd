"""Lesson 09 reads lesson 02's single rounds as lesson 02 does, and works each figure from others as printed
(session 51's fourth reader, t4_09): a round past 2 devices' 2x is a finding to explain whatever the spread;
row A19 gives lesson 02 §9's rounds; B18 names row B8's own check; A4, B9, B13 and B15 redo from the page."""

from __future__ import annotations

from test_articles_checked import _figures, _recorded, _split
from test_articles_checked_as_printed import ZEROING_PAID, _compressed

from utils import machine as profile
from utils.lessons.articles_checked import checks, claims, report, verdicts, wording

BOUND_8 = 16 / 9  # 2m/(m+1) at m=8, printed 1.78x
READERS_ROUNDS = [2.05, 1.63, 1.87, 1.69, 1.84]  # lesson 02's recorded rounds of its best pipeline, median 1.84x


def test_a_round_past_two_devices_2x_is_a_finding_to_explain_as_lesson_02_reads_it():
    record = {"value": 1.84, "bound": BOUND_8, "rounds": READERS_ROUNDS}
    # t20_09 (b): a median at its bound reads its rounds round by round, past 2x or not (2.05x is beyond too)
    assert checks.rounds_above_words(record) == ("1 of 5 rounds above 2 devices' 2x (2.05x): a finding to "
                                                 "explain; 3 of 5 rounds above the bound (up to 2.05x): 2.05x: past "
                                                 "2x, so a finding by that alone, whatever the spread; the other 2: "
                                                 "within the rounds' spread of the median (± 0.09), which explains "
                                                 "them")
    assert checks.rounds_finding(record)
    # under its bound, a round past 2x: counted among those above it, and never explained by the spread
    zbv = {"value": 1.80, "bound": 1.92, "rounds": [1.75, 1.78, 1.80, 1.82, 2.02]}
    assert checks.rounds_above_words(zbv) == ("1 of 5 rounds above the bound (up to 2.02x, 1 of them past 2 "
                                              "devices' 2x): 2.02x: past 2x, so a finding by that alone, whatever "
                                              "the spread")
    near = {"value": 1.90, "bound": 1.92, "rounds": [1.85, 1.88, 1.90, 1.93, 2.03]}  # 1.90 + 0.03 reaches 1.92
    assert checks.rounds_above_words(near).endswith(  # 2.03x past 2x: a finding by that reason (t33_09 #2)
        "2.03x: past 2x, so a finding by that alone, whatever the spread; the other round "
        "(1.93x): within the rounds' spread of the median (± 0.03), which explains it")
    inside = near | {"rounds": [1.70, 1.78, 1.90, 2.03, 2.04]}  # ± 0.13 reaches 2.03: 2.03x within, past 2x
    assert checks.rounds_above_words(inside).endswith(  # within the spread, past 2x: a finding all the same
        "2.03x, 2.04x: past 2x, so a finding by that alone, whatever the spread")
    assert checks.rounds_finding(inside)
    # the other branches: above the bound within the spread (explained), beyond it (a finding), none above
    within = {"value": 1.76, "bound": BOUND_8, "rounds": [1.66, 1.72, 1.76, 1.80, 1.80]}
    assert checks.rounds_above_words(within).endswith("(± 0.04), which explains them")
    assert not checks.rounds_finding(within)
    beyond = {"value": 1.68, "bound": BOUND_8, "rounds": [1.62, 1.66, 1.68, 1.70, 1.86]}  # 1.68 + 0.02 < 1.78
    assert checks.rounds_above_words(beyond) == ("1 of 5 rounds above the bound (up to 1.86x): beyond the rounds' "
                                                 "spread of the median (± 0.02): a finding to explain")
    assert checks.rounds_finding(beyond)
    assert checks.rounds_above_words(beyond | {"rounds": [1.6, 1.7, 1.78]}) == "none of its 3 rounds above the bound"


def _split_and_pipeline(rounds):
    return dict(naive_split=_split(0.99, 1.07), pipeline=_recorded(1.84, BOUND_8, rounds=rounds))


def test_a10_and_b5_name_a_round_past_2x_and_their_check_reads_it_as_a_finding():
    m = _figures(**_split_and_pipeline(READERS_ROUNDS), ddp=_recorded(1.6))
    for claim_id in ("A10", "B5"):
        row = verdicts.judge(claims.BY_ID[claim_id], m, {})
        assert "1 of 5 rounds above 2 devices' 2x (2.05x): a finding to explain" in row.evidence
        # only the rounds within the median plus the spread are explained by it, never the one past 2x
        assert "(2.05x): a finding to explain; 3 of 5 rounds above the bound (up to 2.05x): 2.05x: past 2x, so" \
            in row.evidence and row.check == verdicts.ABOVE
    quiet = _figures(**_split_and_pipeline([1.64, 1.72, 1.84, 1.88, 1.92]), ddp=_recorded(1.6))  # ± 0.08
    row = verdicts.judge(claims.BY_ID["A10"], quiet, {})
    assert "which explains them" in row.evidence and row.check == verdicts.AGREES


def _two_stages(zbv_rounds):
    return dict(pipeline=_recorded(1.6, BOUND_8), ddp=_recorded(1.34),
                interleaved_1f1b=_recorded(1.68, BOUND_8, rounds=[1.62, 1.66, 1.68, 1.70, 1.86]),
                zbv=_recorded(1.80, 1.92, rounds=zbv_rounds))


def test_a19_gives_lesson_02_section_9s_rounds_and_its_check_names_a_finding():
    m = _figures(**_two_stages([1.75, 1.78, 1.80, 1.82, 2.02]))
    row = verdicts.judge(claims.BY_ID["A19"], m, {})
    assert "87% of its gain; 1 of 5 rounds above the bound (up to 1.86x): beyond the rounds' spread" in row.evidence
    assert "(up to 2.02x, 1 of them past 2 devices' 2x)" in row.evidence and row.check == verdicts.ABOVE
    assert "against its bound of 1x (halves that take turns): " in row.evidence  # every speed-up with its bound
    assert ("1.60x one, 80% each (speed-up / 2; the median of 5 paired rounds, ± 0.02); against a bound of 1.78x: "
            "faster, under the bound") in row.evidence
    past = verdicts.judge(claims.BY_ID["A19"], m | {"results": m["results"] | _split_and_pipeline(READERS_ROUNDS)}, {})
    assert "1 of 5 rounds above 2 devices' 2x (2.05x): a finding to explain" in past.evidence  # what its check reads
    rows = [row]
    note = report.above_bound_note(m, rows)
    assert note.startswith("Row A19 is above a bound through lesson 02 §9's interleaved 1F1B, 1.68x ± 0.02 against a "
                           "bound of 1.78x, by its single rounds: 1 of 5 rounds above the bound"), note
    # both are named by their single rounds in the note's opening (t5_09 #2: the tail reads that list)
    assert ("interleaved 1F1B and ZBV are among the figures named above (row A19 reads them against their bounds; "
            "lesson 02 §9 prints their rounds).") in note
    quiet = _figures(**_two_stages([1.76, 1.78, 1.80, 1.82, 1.84]) | {
        "interleaved_1f1b": _recorded(1.68, BOUND_8, rounds=[1.64, 1.66, 1.68, 1.70, 1.72])})
    kept = verdicts.judge(claims.BY_ID["A19"], quiet, {})
    assert kept.check == verdicts.AGREES and "none of its 5 rounds above the bound" in kept.evidence
    assert "those it reads are among the medians counted above." in report.above_bound_note(quiet, [kept])


def test_b18_names_row_b8s_own_check_and_words_for_each_outcome():
    slower = verdicts.EVIDENCE["B18"](_figures() | {"compressed": _compressed(3725, 2751)} | ZEROING_PAID)[0].render()
    assert ("in this run one cure did not pay: (1) B8's compression (slower than sending fp32: no speed-up; its "
            "condition failed, which its verdict allows; row B8's check: agrees)") in slower
    noisy = _compressed(2222, 2751) | {"packed": [k * 1e-6 for k in (1900, 2500, 2222, 2000, 2450, 2222, 2100,
                                                                      2350, 2222)]}
    said = verdicts.EVIDENCE["B18"](_figures() | {"compressed": noisy} | ZEROING_PAID)[0].render()
    assert ("in this run one cure showed no gain: (1) B8's compression (within noise: no effect shown; its condition "
            "failed, which its verdict allows; row B8's check: inconclusive: noise-bound)") in said
    assert "did not pay" not in said and "so its row agrees" not in said


def test_a4_works_gpu_hours_from_the_speedup_as_printed():
    row = verdicts.judge(claims.BY_ID["A4"], _figures(ddp=_recorded(1.336), capstone=_recorded(1.49)), {})
    assert "1.34x (bound 2x): the time 75% of one GPU's" in row.evidence and "2 / 1.34 = 1.49x the GPU-hours" in row.evidence
    assert "2 / 1.49 = 1.34x the GPU-hours" in row.evidence


def _prefetch(serial, overlapped, workers):
    configs = {"no workers": {"seconds": 2.8508, "bound": serial},
               "Prefetcher thread": {"seconds": 1.5969, "bound": overlapped}}
    return _recorded(1.3445, workers, configs=configs)


def test_b9_works_every_bound_from_load_and_compute_as_printed():
    said = verdicts.EVIDENCE["B9"](_figures(prefetch=_prefetch(2.8456, 1.5613, 1.2842)))[0].text
    assert "load 1.56 s, compute 1.28 s" in said and "(load + compute 2.84 s)" in said
    assert "(max(load, compute) 1.56 s)" in said and "(max(load / 2, compute) 1.28 s)" in said
    # the other branch: compute the larger, so max(load / 2, compute) is the compute
    said = verdicts.EVIDENCE["B9"](_figures(prefetch=_prefetch(2.5, 1.5, 1.5)))[0].text
    assert "load 1.00 s, compute 1.50 s" in said and "(max(load / 2, compute) 1.50 s)" in said


def _measured_peaks():
    return profile.MachineProfile("cpu", [profile.Ceiling("matmul peak", d, 2, "1024³", b, b, s, u)
                                          for d, b, s, u in (("fp32", 171.54e9, 0.921, "FLOP/s"),
                                                             ("bf16", 405.83e9, 0.551, "FLOP/s"),
                                                             ("int8", 800.61e9, 0.594, "ops/s"))])


def test_b13_and_b15_work_the_ratio_and_its_range_from_the_printed_peaks():
    m = _figures() | {"peaks": _measured_peaks()}
    int8 = wording._peak_part(m, "int8", True).text
    assert "4.7x the fp32 peak" in int8 and "4.7x / (1 + 59%) = 3.0x to 4.7x x (1 + 92%) = 9.0x" in int8
    bf16 = wording._peak_part(m, "bf16", True).text
    assert "2.4x the fp32 peak" in bf16 and "2.4x / (1 + 55%) = 1.5x to 2.4x x (1 + 92%) = 4.6x" in bf16


def test_b2_reads_the_small_messages_share_from_its_printed_times_and_its_check_reads_the_same():
    from test_articles_checked_as_printed import _link_m

    # 100.4 and 200.6 µs print 100 and 201: 100 / 201 = 50%, not over half (the unrounded 50.05% would be)
    m = _link_m([100.4e-6, 200.6e-6, 300e-6, 400e-6, 1441e-6, 3000e-6])
    row = verdicts.judge(claims.BY_ID["B2"], m, {})
    assert "4 bytes 100 µs, 4 KiB 201 µs, the 4 bytes' time only 50% of the 4 KiB one's" in row.evidence
    assert not checks.fixed_cost_dominates(m)
    over = _link_m([101e-6, 200.6e-6, 300e-6, 400e-6, 1441e-6, 3000e-6])  # 101 / 201 = 50.2%: prints 50%
    assert not checks.fixed_cost_dominates(over)
    most = _link_m([150e-6, 200e-6, 300e-6, 400e-6, 1441e-6, 3000e-6])
    assert checks.fixed_cost_dominates(most)
    assert "both mostly fixed cost (the 4 bytes' time 75% of the 4 KiB one's" in verdicts.judge(
        claims.BY_ID["B2"], most, {}).evidence


def test_b11_quotes_row_b12s_ratios_from_the_printed_times():
    m = _figures() | {"prune": {"dense": 1.004e-3, "zeroed": 0.996e-3, "removed": 0.4951e-3}}
    b11 = verdicts.EVIDENCE["B11"](m)[2].text  # after lesson 04's two batches
    b12 = verdicts.EVIDENCE["B12"](m)[0].text
    assert "half the neurons removed (half the operations) 0.50x the dense time" in b11  # 0.50 / 1.00
    assert ("the same operations) 1.00x (the same time, no gain and no loss: within the 2% noise floor "
            "for two fastest times) (row B12)") in b11
    assert "dense 1.00 ms; half the weights zeroed 1.00 ms, 1.00x" in b12 and "0.50 ms, 0.50x" in b12


def test_datasheet_figures_worked_from_their_printed_parts():
    m = _figures() | {"sheet": {"h100_bf16": 989.4e12, "t4_fp16": 65.2e12, "h100_memory": 80e9}}
    b6 = verdicts.EVIDENCE["B6"](m)[0].text
    assert "bf16 989 TFLOP/s against T4 fp16 65: 15x" in b6  # 989 / 65 = 15.2
    a2 = verdicts.EVIDENCE["A2"](m)[0].text
    years = int(a2.split("peak: ")[1].split(" years")[0])
    assert f"(on two: {round(years / 2)})" in a2 or f"(on two: {years / 2:.0f})" in a2
