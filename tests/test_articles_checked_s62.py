"""Lesson 09, the twenty-fourth reading (t24_09; t24_02 #3, lesson 09's side): lesson 02's split alone has its
rounds read against each round's own per-process reference, never the median, and that reference is named in
lesson 02's words (not the work-scaled one's); a gap between two runs of one step is listed apart from figures
past a bound; a stored fp32 peak's gap is worked on the base the test uses and read with the stored spread.
Every figure here is fabricated (no run's figures)."""

from __future__ import annotations

from types import SimpleNamespace

from test_articles_checked import _figures, _recorded

from utils.lessons.articles_checked import claims, report, verdicts
from utils.lessons.articles_checked.lesson_01_pairs import GAP_BETWEEN_RUNS
from utils.lessons.articles_checked.split_alone import PER_PROCESS_IS, split_rounds_reading
from utils.lessons.articles_checked.stored_peaks import stored_words
from utils.lessons.articles_checked.verdicts import Part, Row

# a split alone within its 1x bound, two rounds above it beyond the rounds' spread (1.00 + 0.07 = 1.07), and the
# per-process reference measured in each round: round 1 past its own (1.20 / 1.17 = 1.03), round 3 under (0.97)
SPLIT = dict(value=1.00, bound=1.0, reference=1.04, rounds=[1.20, 0.97, 1.10, 0.95, 1.00],
             reference_rounds=[1.17, 1.01, 1.13, 0.99, 1.04])
# t25: a reference clear of 1x (1.13x ± 0.02): one within noise of 1x, as SPLIT's, explains no round (lesson 02)
CLEAR = SPLIT | dict(reference=1.13, reference_rounds=[1.17, 1.11, 1.13, 1.09, 1.14])


# --- t24_09 #1, t24_02 #3: each round against its own round's reference ------------------------------------------


def test_the_split_alones_rounds_are_read_against_their_own_rounds_references():
    said = split_rounds_reading(SPLIT)
    assert said.startswith(
        f"Lesson 02 §3 printed the split alone's per-process reference, 1.04x ({PER_PROCESS_IS}), and reads each "
        "round against its own round's reference (1.17x, 1.01x, 1.13x, 0.99x, 1.04x), never against that median: "
        "under the per-process reference, round by round"), said
    # SPLIT's reference is within noise of 1x: by lesson 02's rule (t26_02 #1) it explains no round and names
    # none past it, so no round is set apart here either
    assert "lies past its own round's reference" not in said and "counts" not in said, said
    assert "round 1 lies past its own round's reference, beyond the ratios' spread (1.20x / 1.17x = 1.03x" in (
        split_rounds_reading(CLEAR))
    assert split_rounds_reading(CLEAR).endswith(
        "; of its 2 rounds above the 1x bound beyond the rounds' spread, the 1.10x round lies under "
        "its own round's reference (1.10x / 1.13x = 0.97x): lesson 02 §3 counts 1 of them past the reference, not 2.")
    # never the median reading: no "2 of its 5 rounds past it", no reference that explains none of them
    assert "which no reference explains" not in said and "past it too" not in said


def test_a_round_past_its_own_reference_within_the_ratios_spread_and_one_with_none_inside():
    # 1.12 / 1.10 = 1.02: above 1, but within the ratios' median + spread (0.98 + 0.04 = 1.02)
    wide = SPLIT | dict(rounds=[1.20, 0.90, 1.12, 0.94, 1.00], reference_rounds=[1.00, 1.05, 1.10, 1.06, 1.04])
    said = split_rounds_reading(wide)
    assert ("the 1.12x round lies past, but within the ratios' spread of, its own round's reference (1.12x / 1.10x = "
            "1.02x): lesson 02 §3 counts 1 of them past the reference, not 2.") in said, said
    # every round above the bound past its own reference: no clause after lesson 02's reading
    every = CLEAR | dict(reference_rounds=[1.17, 1.11, 1.02, 1.09, 1.14])
    said = split_rounds_reading(every)
    assert "counts" not in said and said.endswith("findings to explain."), said


def test_an_older_entry_without_reference_rounds_keeps_the_median_reading_in_lesson_02s_words():
    older = {k: v for k, v in SPLIT.items() if k != "reference_rounds"}
    assert split_rounds_reading(older) is None
    said = report.rounds_reading(older, "naive_split")
    assert said.startswith(f"Lesson 02 §3 printed the split alone's per-process reference, 1.04x ({PER_PROCESS_IS})")
    # lesson 02's definition (cell "How a speedup is measured"), not the work-scaled reference's
    assert report.PER_PROCESS_IS == PER_PROCESS_IS and "work" not in PER_PROCESS_IS
    assert "one device's step over the two stages' times, each stage timed alone in its own process" in PER_PROCESS_IS


def test_the_note_and_rows_a10_b5_carry_the_round_by_round_reading():
    pipeline = _recorded(1.70, 16 / 9, reference=1.80, rounds=[1.70, 1.71, 1.69, 1.72, 1.68])  # no round above
    m = _figures(naive_split=_recorded(**CLEAR), pipeline=pipeline, ddp=_recorded(1.81))
    rows = [verdicts.judge(claims.BY_ID[i], m, {}) for i in ("A10", "B5")]
    assert all(r.check == verdicts.ABOVE for r in rows)  # round 1 stays a finding, past its own reference
    note = report.above_bound_note(m, rows)
    assert "reads each round against its own round's reference (1.17x, 1.11x, 1.13x, 1.09x, 1.14x)" in note, note
    assert "counts 1 of them past the reference, not 2" in note
    assert f"per-process reference 1.13x ({PER_PROCESS_IS})" in rows[0].evidence, rows[0].evidence


# --- t24_09 #2: a gap between runs is not a figure past a bound ----------------------------------------------------


def _row(row_id: str, evidence: str, check: str = verdicts.AGREES) -> Row:
    return Row(row_id, "", claims.TRUE, "", "", (Part(evidence, "measured in this run", "here"),), check)


def test_a_gap_between_runs_is_listed_on_its_own_not_as_a_figure_past_a_bound():
    gap = _row("B4", f"2.07x ± 0.02 here, 4.73x ± 0.04 there (neither covers the other's): {GAP_BETWEEN_RUNS}")
    past = _row("A19", "ZBV 2.05x, as past 2 devices' 2x: a finding to explain", verdicts.DISAGREES)
    quiet = _row("B12", "faster than the baseline")
    own = [gap, past, quiet]
    assert report.quoting_past_bound(own) == ["A19"]
    assert report.gaps_between_runs(own) == ["B4"]
    said = report.checks_sentence(own)
    assert ("a gap between runs to explain (this page's and a lesson's, neither ± its spread covering the other's; "
            "each row is counted by its own check too): B4 (agrees)") in said, said
    assert "answers otherwise: A19" in said and "answers otherwise: B4" not in said
    # none of either: neither clause
    plain = report.checks_sentence([quiet])
    assert "gap between runs" not in plain and "answers otherwise" not in plain


# --- t24_09 #3: a stored fp32 peak's gap, on the test's base and with the stored spread ----------------------------


def test_a_stored_peaks_gap_is_read_with_both_runs_spreads():
    stored = {"fp32": 250.0e9, "int8": 2000.0e9}
    here = SimpleNamespace(best=220.0e9, spread=0.10)  # 220.0 x 1.10 = 242.0, under the stored 250.0
    covered = stored_words(stored, "int8", here, {"fp32": 0.30})  # 250.0 / 1.30 = 192.3, under 220.0
    assert covered.endswith(
        "; the stored fp32 peak, 250.0 G/s, lies above this run's 220.0 even at the top of this run's 10% spread "
        "(220.0 x (1 + 10%) = 242.0), but within the stored peak's own 30% spread (250.0 / (1 + 30%) = 192.3, under "
        "220.0): neither run can be called slow"), covered
    beyond = stored_words(stored, "int8", here, {"fp32": 0.05})  # 250.0 / 1.05 = 238.1, above 220.0
    assert beyond.endswith(
        ", and beyond the stored peak's own 5% spread (250.0 / (1 + 5%) = 238.1, above 220.0): a slow fp32 run, which "
        "inflates this run's ratios over it"), beyond
    reached = stored_words(stored, "int8", SimpleNamespace(best=230.0e9, spread=0.10))  # 253.0: reaches 250.0
    assert reached == "; the stored machine profile's (lesson 01's table of it) ratio 8.0x (2000.0 / 250.0 G/s)"
