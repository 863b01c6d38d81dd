"""Lesson 02, the twenty-ninth reading's items left after its first round (t29_02): rounds past what explains a
median the work-scaled reference explains are named (#2), medians are read as printed (1.00x from a 0.997 round),
section 3's verdict has no nested brackets, the best's tie comes after its own verdict, and the charts keep the
notebook well under its 1 MB cap. Fabricated figures, CPU only; each branch."""

import json
import re
from pathlib import Path

from utils.lessons.model_split import report  # noqa: F401  (loads first: naive reads its verdicts)
from utils.lessons.model_split import link, naive, noise, rounds_above, runs

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "02_model_split.ipynb"


def _cells() -> list[str]:
    return ["".join(c["source"]) for c in json.loads(NOTEBOOK.read_text())["cells"]]


def _pipeline(speedups, cpu=(0.045, 0.045), one=0.100, m=2, schedule="gpipe"):
    """A CPU row whose stages measured 0.90x one device's work (w below 1): its work-scaled reference passes
    its bound (m=2: 1.33x / 0.90 = 1.48x)."""
    return runs.Row(128, m, schedule, 0.15, 0.15, [0.07, 0.07], cpu=list(cpu), baseline_cpu=one,
                    speedups=list(speedups))


# --- #2 left: a median the work-scaled reference explains; a round past that reference + d is named ----------

def test_the_fabricated_row_reads_as_named():
    row = _pipeline([1.55, 1.43, 1.49, 1.39, 1.28])
    assert noise.printed(row) == (1.43, 0.05) and f"{row.work_inflation:.2f}" == "0.90"
    assert f"{row.bound:.2f}" == "1.33" and f"{row.work_bound:.2f}" == "1.48"


def test_a_round_past_the_reference_and_the_spread_is_named():
    said = report.headline_verdict(_pipeline([1.55, 1.43, 1.49, 1.39, 1.28]))
    assert said == ("above the bound, within the work-scaled reference: explained by the reference; 4 of 5 rounds "
                    "above the bound, read with the median, except 1.55x past the median + spread (1.43 + 0.05 = "
                    "1.48) and the work-scaled reference + spread (1.48 + 0.05 = 1.53): a finding to explain")
    # 1.49 is past 1.43 + 0.05 but within 1.48 + 0.05: the reference reaches it, so it is not named
    assert "1.49x" not in said


def test_rounds_the_reference_reaches_are_read_with_the_median():
    said = report.headline_verdict(_pipeline([1.53, 1.43, 1.49, 1.39, 1.28]))  # 1.53 at 1.48 + 0.05: reached
    assert said.endswith("4 of 5 rounds above the bound, read with the median") and "except" not in said
    assert rounds_above.past_reach_words(_pipeline([1.53, 1.43, 1.49, 1.39, 1.28])) == ""


def test_one_or_two_named_rounds():
    one = _pipeline([1.58, 1.45, 1.46, 1.44, 1.62], cpu=(0.044, 0.044))  # w 0.88: reference 1.33 / 0.88 = 1.51x
    assert noise.printed(one) == (1.46, 0.07) and f"{one.work_bound:.2f}" == "1.51"
    assert report.headline_verdict(one).endswith(  # 1.58 at 1.51 + 0.07: reached, read with the median
        "read with the median, except 1.62x past the median + spread (1.46 + 0.07 = 1.53) and the work-scaled "
        "reference + spread (1.51 + 0.07 = 1.58): a finding to explain")
    two = _pipeline([1.60, 1.45, 1.46, 1.44, 1.62], cpu=(0.044, 0.044))
    assert noise.printed(two) == (1.46, 0.08)
    assert report.headline_verdict(two).endswith(
        "read with the median, except 1.60x, 1.62x past the median + spread (1.46 + 0.08 = 1.54) and the "
        "work-scaled reference + spread (1.51 + 0.08 = 1.59): findings to explain")


def test_a_round_past_the_devices_is_named_once():
    row = _pipeline([2.10, 1.90, 1.95, 1.85, 1.80], cpu=(0.046, 0.046), m=8)  # w 0.92: reference 1.93x
    said = report.headline_verdict(row)
    assert said.count("2.10x") == 1 and "rounds above 2 devices' 2x (2.10x)" in said
    assert rounds_above.rounds_past_reach(row) == []


def test_a_median_that_is_itself_a_finding_keeps_its_words():
    more_work = _pipeline([1.55, 1.43, 1.49, 1.39, 1.28], cpu=(0.052, 0.052))  # w 1.04: no reference above
    said = report.headline_verdict(more_work)
    assert said.startswith("above the bound: a finding to explain") and "except" not in said


def test_the_claims_row_names_the_same_round():
    row = _pipeline([1.55, 1.43, 1.49, 1.39, 1.28])
    claim = naive.launches_claim("x", [("section 5", "ScheduleGPipe", row)])
    assert "a finding to explain (past the spread, reached by no reference): section 5 1.55x" in claim.verdict
    reached = _pipeline([1.53, 1.43, 1.49, 1.39, 1.28])
    assert "past the spread" not in naive.launches_claim("x", [("section 5", "g", reached)]).verdict


def test_cell_15_says_the_exception():
    assert ("except, where the work-scaled reference explains the median, a round past both $s + d$ and that\n"
            "reference plus $d$") in _cells()[15]


# --- a median printed 1.00x is at 1x, whatever its unrounded value -------------------------------------------

def test_a_median_printed_one_is_at_one():
    row = runs.Row(128, 1, "gpipe", 0.56, 0.56, [0.26, 0.30], speedups=[1.05, 1.01, 0.997, 0.96, 0.95],
                   messages=2, bytes_sent=8 * 2**20)
    assert row.speedup < 1 and noise.printed(row)[0] == 1.00
    assert report.headline_verdict(row).startswith("within noise: no effect shown")
    assert not link._under_bound(row) and report.lost_time(row) == 0.0
    assert report.link_reading([row], 56e-6, 3e9).startswith("No row's speedup is under its bound")
    assert "a median that prints on 1×\nto two decimals is at 1× (not under a 1× bound), even where the round it comes from prints 0.997" \
        in _cells()[15]


# --- section 3's verdict: no nested brackets; the pairing in a sentence of its own --------------------------

WEAK = runs.Row(32, 1, "gpipe", 0.134, 0.137, [0.065, 0.07], naive=True, alone=[0.062, 0.067],
                speedups=[1.12, 1.02, 0.98, 1.02, 1.04], process_bounds=[1.13, 1.08, 0.97, 0.98, 1.02])


def _depth(text: str) -> int:
    deepest = level = 0
    for ch in text:
        level += {"(": 1, ")": -1}.get(ch, 0)
        deepest = max(deepest, level)
    return deepest


def test_the_weak_reference_verdict_has_no_nested_brackets():
    verdict = report.headline_verdict(WEAK)
    assert verdict.startswith("above the bound: a finding to explain; the per-process reference (")
    assert "is itself within noise of 1x: it explains nothing" in verdict and _depth(verdict) == 1


def test_section_3_reads_the_pairing_in_its_own_sentence():
    said = report.naive_reading(WEAK, [])
    assert report.headline_verdict(WEAK) in said
    assert re.search(r"\. The split is within noise of the per-process reference, round by round \(each round's "
                     r"speedup over its own round's reference: median [0-9.]+x ± [0-9.]+; .*\), but a reference "
                     r"within noise of 1x explains no excess over 1x\.$", said), said
    assert _depth(said) == 1


# --- long verdicts: the best's own verdict first; the tie after it, and only named in the summary --------------

def test_the_best_line_puts_its_verdict_before_the_tie():
    cell = _cells()[34]
    assert cell.index("+ best_verdict") < cell.index("report.best_tie(sweep)")
    assert "one stage per worker{report.best_tie" not in cell
    summary = _cells()[65]
    assert "tied = report.best_tie_short(sweep)" in summary  # named, with the paired word (t35_02 #1)
    assert "{report.best_tie(sweep)})" not in summary


# --- the notebook's size: every chart at 72 dpi or less -------------------------------------------------------

def test_every_chart_cell_sets_a_low_dpi():
    charts = [c for c in _cells() if re.search(r"report\.plot_(schedule|speedups|ideal)\(", c)]
    assert len(charts) == 7  # sections 3, 4, 5 (three), 9 (two)
    for cell in charts:
        dpis = [int(x) for x in re.findall(r"set_dpi\((\d+)\)", cell)]
        assert dpis and max(dpis) <= 72, cell[:80]
