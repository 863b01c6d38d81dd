"""Lesson 09's words follow from the figures printed beside them (session 50's reader): a ratio worked out
again from the printed times, a share named by its base, a summary's check named for what it reads, lesson
02's recorded pipeline named by its section, and a verdict that is the reading its check tests."""

from __future__ import annotations

import re

from test_articles_checked import _figures, _recorded

from utils.lessons.articles_checked import claims, host_memory, report, verdicts

HOST = {"holes": 8 * 2**20, "asked": 6 * 2**20, "runs": 5, "grew": 6.0 * 2**20}


def test_b7_prints_its_times_so_that_their_ratio_can_be_worked_out_again():
    said = host_memory.words(HOST | {"new_s": 3.6312e-3, "reused_s": 0.14649e-3})
    # the reader's run printed 3.63 and 0.15 ms beside 24.8x; 3.63 / 0.146 = 24.9
    assert "took 3.63 ms with fresh pages, 0.146 ms again from memory the process held (24.9x)" in said
    for new_s, reused_s in ((2.6e-3, 5.5e-4), (12.345e-3, 0.0987e-3), (0.9996e-3, 0.5e-3)):
        text = host_memory.words(HOST | {"new_s": new_s, "reused_s": reused_s})
        new, reused, ratio = map(float, re.search(r"took ([\d.]+) ms .*?, ([\d.]+) ms again .*?\(([\d.]+)x\)",
                                                  text).groups())
        assert f"{new / reused:.1f}" == f"{ratio:.1f}", text


def test_b7_judges_fresh_pages_slower_as_printed():
    same = HOST | {"new_s": 1.0004e-3, "reused_s": 1.0001e-3}  # slower by a hair, equal as printed
    assert not host_memory.time_shown(same)
    assert "1.00 ms with fresh pages, 1.00 ms again" in host_memory.words(same)
    assert "fresh pages were no slower here" in host_memory.words(same)


def test_a1_is_true_with_a_wrong_example_and_its_check_tests_both_examples():
    # the sixth reading: the class reaches the sizes (GPT-3), BERT is a wrong example (the stricter reading false)
    sizes = {"BERT-base": 1.09e8, "BERT-large": 3.34e8, "GPT-3": 1.746e11}
    row = verdicts.judge(claims.BY_ID["A1"], _figures() | {"sizes": sizes}, {})
    assert row.verdict == claims.TRUE and row.check == verdicts.AGREES
    assert report.verdict_cell(row).startswith("true: with a wrong example")
    # the other outcome: a BERT counted past a billion, or a GPT-3 under ten billion, contradicts the row
    for wrong in ({"BERT-large": 3.34e9}, {"GPT-3": 9e9}):
        other = verdicts.judge(claims.BY_ID["A1"], _figures() | {"sizes": sizes | wrong}, {})
        assert other.check == verdicts.DISAGREES


def test_a11_verdict_is_the_reading_its_check_tests():
    row = verdicts.judge(claims.BY_ID["A11"], _figures(), {})
    assert row.verdict == claims.FALSE and row.check == verdicts.AGREES
    assert "most favourable" not in row.why and "which the article never names" in row.why
    assert "that bound rests on arithmetic alone" in row.why


def test_a19_judges_each_share_as_printed_against_its_line():
    # 1.195x prints 1.20x, 60% of each GPU's rate: not over the 60% line, so no method kept both GPUs working
    row = verdicts.judge(claims.BY_ID["A19"], _figures(ddp=_recorded(1.195)), {})
    assert "data parallel, lesson 03's GPT: 1.20x one, 60% each" in row.evidence
    assert row.check == verdicts.DISAGREES and "no method kept both GPUs working" in row.evidence
    assert "the share nearest that line here: data parallel 60%" in row.evidence
    kept = verdicts.judge(claims.BY_ID["A19"], _figures(ddp=_recorded(1.23)), {})
    assert kept.check == verdicts.AGREES and "): data parallel;" in kept.evidence
    # the sixth reading: 1.205x prints 1.21x, and 1.21 / 2 = 60.5% rounds half up to 61%, over the line
    half = verdicts.judge(claims.BY_ID["A19"], _figures(ddp=_recorded(1.205)), {})
    assert "1.21x one, 61% each" in half.evidence and half.check == verdicts.AGREES


def test_lesson_02s_recorded_pipeline_is_named_by_its_section_everywhere():
    m = _figures(naive_split=_recorded(0.98, 1.0, reference=1.02),
                 pipeline=_recorded(1.69, 16 / 9, reference=1.81, what="gpipe m=8, batch 128, against 2m/(m+1)"),
                 ddp=_recorded(1.82))
    a10 = verdicts.judge(claims.BY_ID["A10"], m, {})
    assert "with micro-batches (lesson 02 §5's best GPipe/1F1B configuration, lesson 02's GPT, GPipe m=8, " \
        "batch 128): 1.69x" in a10.evidence
    a19 = verdicts.judge(claims.BY_ID["A19"], m, {})
    assert "lesson 02 §5's pipeline, its best GPipe/1F1B configuration, lesson 02's GPT, GPipe m=8, batch 128: " \
        "1.69x one, 85% each" in a19.evidence  # 1.69 / 2 = 84.5%, half up (the sixth reading)
    note = report.above_bound_note(m, [a10])
    assert "lesson 02's best pipeline" not in note and "Lesson 02's best pipeline" not in note
    assert "Lesson 02 §5's best GPipe/1F1B configuration, 1.69x ± 0.02 against 1.78x" in note
    assert "Lesson 02 §9's schedules with two stages per device are not recorded yet (run lesson 02 to record " \
        "them), so no figure here reads them." in note


def _row(claim_id: str, check: str | None) -> verdicts.Row:
    return verdicts.Row(claim_id, "", claims.CONDITIONS, "", "", (), check)


def test_the_summary_rows_check_is_named_for_what_it_reads():
    rows = [_row("A10", verdicts.AGREES), _row("A17", verdicts.AGREES), _row("B18", verdicts.AGREES)]
    assert report.summaries_words(rows) == ("the summary rows follow them, each row against its own verdict "
                                            "(A17: agrees, B18: agrees)")
    assert "a figure the rows read above its bound (a finding to explain): none" in report.checks_sentence(rows)
    a17 = verdicts.judge(claims.BY_ID["A17"], _figures(), {r.id: r for r in rows} | {
        i: _row(i, verdicts.AGREES) for i in verdicts.SUMMED["A17"]})
    cell = report.evidence_cell(a17)
    assert cell.endswith("check (of the rows it sums up, each against its own verdict; none times the summary "
                         "itself): agrees")
    assert "no row times a merge's or FSDP's speed-up, so this check cannot contradict those" in cell


# Half the weights zeroed, 0.95x the dense time: a gain, so that B18 names only the cures a test is about (the
# zeroed connections' own branches: tests/test_articles_checked_ninth.py)
ZEROING_PAID = {"prune": {"dense": 1e-3, "zeroed": 0.95e-3, "removed": 5e-4}}


def _compressed(packed_us: float, packing_us: float) -> dict:
    return {"plain": [2222e-6] * 9, "packed": [packed_us * 1e-6] * 9, "bytes": [1765e-6] * 9,
            "packing": [packing_us * 1e-6] * 9}


def test_b18_names_a_cure_that_did_not_pay_in_this_run_both_branches():
    unpaid = verdicts.EVIDENCE["B18"](_figures() | {"compressed": _compressed(3725, 2751)} | ZEROING_PAID)[0].render()
    assert "in this run one cure did not pay: (1) B8's compression (slower than sending fp32: no speed-up; its " \
        "condition failed, which its verdict allows; row B8's check: agrees)" in unpaid
    paid = verdicts.EVIDENCE["B18"](_figures() | {"compressed": _compressed(1900, 200)} | ZEROING_PAID)[0].render()
    assert "did not pay" not in paid and paid.startswith("rows B5, B6")


# --- Session 50, third reading (s3_0509): counts and arithmetic as printed --------------------------------------


def test_rounds_above_the_bound_are_counted_as_printed_as_lesson_02_counts_them():
    from utils.lessons.articles_checked import checks
    from utils.lessons.model_split.bounds import round_above  # the count lesson 02 prints (report.headline_verdict)

    # the reader's run: lesson 02 printed "2 of 5 rounds above the bound"; 1.78 is not above a bound printed 1.78x
    rounds = [1.64, 1.83, 1.78, 1.74, 1.84]
    record = {"value": 1.78, "bound": 16 / 9, "rounds": rounds}
    said = checks.rounds_above_words(record)
    assert said.startswith("2 of 5 rounds above the bound (up to 1.84x)"), said
    assert sum(round_above(r, 16 / 9) for r in rounds) == 2  # lesson 02's own count, the same rule
    assert checks.rounds_above_words(record | {"rounds": [1.70, 1.78, 1.7801]}).startswith("none of its 3")


def _link_m(times):
    from utils import machine
    from utils.lessons.articles_checked import evidence

    return _figures() | {"link": machine.link_fit("gloo", evidence.LINK_SIZES, times),
                         "threads": {"step_s": 0.02, "gradient_bytes": 1_700_000}}


def test_b10_does_not_work_out_the_bytes_share_from_times_it_calls_noise_bound_both_branches():
    from utils.lessons.articles_checked import evidence

    # a 64 KiB message faster than the 4 KiB one: this run's message times are out of order
    noisy = _link_m([133e-6, 116e-6, 100e-6, 150e-6, 388e-6, 1441e-6])  # 116 > 100 + 10%
    b10 = verdicts.judge(claims.BY_ID["B10"], noisy, {})
    assert "nor the bytes' share (row B10) is read" in b10.evidence
    assert "the bytes' share of the 4 MiB message is not worked out" in b10.evidence
    assert "4 MiB message's bytes:" not in b10.evidence and "x a few-byte message's time" not in b10.evidence
    # B8 does not quote a few-byte time that B10 calls noise-bound
    b8 = verdicts.judge(claims.BY_ID["B8"], noisy | {"compressed": _reader_compressed()}, {})
    assert "this run's message times are out of order (row B10), so no few-byte time is quoted" in b8.evidence
    # sizes in order: the arithmetic is worked from the whole µs it prints, and can be done again
    calm = _link_m([4e-5 + n / 2.5e9 for n in evidence.LINK_SIZES])
    b10 = verdicts.judge(claims.BY_ID["B10"], calm, {})
    assert "noise-bound" not in b10.evidence
    big, small, data = map(int, re.search(r"bytes: (\d+) - (\d+) = (\d+) µs", b10.evidence).groups())
    assert big - small == data
    assert "a few-byte message still takes about" in verdicts.judge(
        claims.BY_ID["B8"], calm | {"compressed": _reader_compressed()}, {}).evidence


def _reader_compressed():
    # the reader's run: 1537 µs and 1298 µs as printed (unrounded 1536.6 - 1298.4 = 238.2 printed "238")
    return {"plain": [1536.6e-6] * 6, "packed": [1600e-6] * 6, "bytes": [1298.4e-6] * 6, "packing": [900e-6] * 6}


def test_b8_saving_is_the_difference_of_the_printed_times():
    from utils.lessons.articles_checked import evidence

    m = _link_m([4e-5 + n / 2.5e9 for n in evidence.LINK_SIZES]) | {"compressed": _reader_compressed()}
    said = verdicts.judge(claims.BY_ID["B8"], m, {}).evidence
    plain, sent, saved = map(int, re.search(r"fp32 (\d+) µs, 1 MiB of uint8 (\d+) µs, so the 3 MiB not sent save "
                                            r"(\d+) µs", said).groups())
    assert (plain, sent, saved) == (1537, 1298, 239), said


def test_a_summary_row_names_the_row_its_check_follows_both_branches():
    from utils.lessons.articles_checked import evidence

    noisy = _link_m([133e-6, 116e-6, 100e-6, 150e-6, 388e-6, 1441e-6])  # 116 > 100 + 10%
    earlier = {"B10": verdicts.judge(claims.BY_ID["B10"], noisy, {})}
    assert earlier["B10"].check == verdicts.NOISY
    parts = verdicts.summed_rows_named("B18", verdicts.NOISY, earlier)
    assert parts and f"its check follows row B10 ({verdicts.NOISY})" in parts[0].render()
    assert verdicts.summed_rows_named("B18", verdicts.AGREES, earlier) == ()
    calm = {"B10": verdicts.judge(claims.BY_ID["B10"], _link_m([4e-5 + n / 2.5e9 for n in evidence.LINK_SIZES]),
                                  {})}
    assert calm["B10"].check == verdicts.AGREES
    assert verdicts.summed_rows_named("B18", verdicts.NOISY, calm) == ()  # B10 agrees: not the one it follows


def test_session_51_every_worked_figure_is_worked_from_its_operands_as_printed():
    """The course's one rule (``utils.claims.as_printed`` / ``printed_ratio``): B12's ratios of the pruned times
    to the dense one, the decode's speed, B7's three significant figures, A19's shares in whole per cent."""
    from utils.lessons.articles_checked import timed_rows, wording

    # 1.496 / 1.004 ms is 1.49x unrounded; the row prints 1.50 ms and 1.00 ms, so 1.50x
    m = _figures() | {"prune": {"dense": 1.004e-3, "zeroed": 1.496e-3, "removed": 0.5e-3}}
    b12 = verdicts.judge(claims.BY_ID["B12"], m, {})
    assert "dense 1.00 ms; half the weights zeroed 1.50 ms, 1.50x the dense time" in b12.evidence
    assert "(0.5 of the FLOPs) 0.50 ms, 0.50x" in b12.evidence
    record = {"decode_seconds_per_token": {"one device": 1.134e-3, "tensor parallel": 6.836e-3}}
    assert timed_rows.decode_times(record) == (1.13, 6.84, 1.13 / 6.84)
    assert "one device 1.13 ms a token, tensor parallel on two workers 6.84 ms: 0.17x" in timed_rows.decode_words(record)
    assert host_memory.ms_as_printed(0.14649e-3) == (0.146, "0.146")
    assert host_memory.ms_as_printed(12.345e-3) == (12.3, "12.3")
    assert "data parallel 60%" in wording.kept_most_words({"data parallel": 0.6025, "the article's split": 0.46})
