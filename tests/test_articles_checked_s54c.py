"""Lesson 09, the fourteenth reading (t14_09): row B2 prices the decode's all-reduces as floors and points to
lesson 07 §5's in-loop timing (no "no lesson times the rest"); the note reads a round past lesson 02 §9's
work-scaled reference by the one per-round rule (beyond median + spread: a finding; within: explained); cell 0
says which medians read their rounds one by one, as ``rounds_above_words`` does; row B10 prints the fit's alpha
as cell 22 does (one decimal)."""

from __future__ import annotations

import json
from pathlib import Path

from test_articles_checked import _figures, _recorded
from test_articles_checked_as_printed import _link_m

from utils.lessons.articles_checked import checks, claims, report, timed_rows, verdicts

NOTEBOOK = Path(__file__).resolve().parent.parent / "notebooks" / "09_articles_checked.ipynb"
# the reader's ledger (lesson 02 §9's ZBV and §5's pipeline, as run on 2026-12-06)
ZBV = dict(value=1.9198, bound=1.92, reference=1.9592, rounds=[2.0073, 1.8252, 1.8363, 1.9198, 1.9852])
PIPELINE = dict(value=1.8816, bound=16 / 9, reference=1.9348, rounds=[1.9857, 1.9862, 1.7852, 1.8816, 1.8647])
# make bench's decode in the reader's run: 1.13 ms one device, 6.84 ms tensor parallel, alpha 208.5 µs (209, half up), 2.1 GB/s
DECODE = {"decode_seconds_per_token": {"one device": 1.13e-3, "tensor parallel": 6.84e-3},
          "alpha_s": 208.5e-6, "beta_bytes_per_s": 2.1e9}


def test_b2_prices_the_all_reduces_as_floors_and_points_to_lesson_07s_in_loop_timing():
    m = _figures(decode=_recorded(1.0, **DECODE), link_alpha=None)
    m["results"] |= {"link_alpha": _recorded(106.3e-6), "link_beta": _recorded(3.98e9)}
    said = timed_rows.decode_priced(m, m["results"]["decode"].record).text
    assert "a token lost 6.84 - 1.13 = 5.71 ms on two workers" in said, said
    # no all-reduce fit kept (lesson 07): the profile's one-message line prices it, said so (t28_09 #6)
    assert ("at this machine's profile, lesson 00's line for one message (alpha 106 µs, beta 4.0 GB/s), each "
            "all-reduce priced as one message: 0.85 ms, 15% of it; "
            "at make bench's own fit of the all-reduces in that run (alpha 209 µs, beta 2.1 GB/s): 1.68 ms, "
            "29%: prices as if the calls ran back to back") in said, said
    assert ("what the loss is, lesson 07 §5 times inside its own decode loop; the ledger has no such "
            "figure yet: re-run lesson 07 to record it") in said, said  # t25_09 #4: an older ledger
    assert "no lesson times" not in said and "the share depends" not in said
    # the other outcomes: no profile recorded (make bench's fit alone), and no loss to price
    bare = _figures(decode=_recorded(1.0, **DECODE))
    alone = timed_rows.decode_priced(bare, bare["results"]["decode"].record).text
    assert "priced at make bench's own fit" in alone and "1.68 ms, 29%: prices as if" in alone, alone
    faster = DECODE | {"decode_seconds_per_token": {"one device": 2e-3, "tensor parallel": 1e-3}}
    assert timed_rows.decode_priced(bare, faster) is None


def test_zbvs_rounds_past_its_reference_are_read_by_the_spread_rule_in_the_note():
    said = report.lesson_02_rounds_reading(ZBV, "ZBV")
    # 1.92 + 0.08 = 2.00: the 2.01x round lies beyond it, the 1.99x round within it (both past 1.96x)
    # t30_09 #2: 2.01x lies within the reference + the spread (1.96 + 0.08 = 2.04) but past 2x: still a finding
    assert ("2 of its 5 rounds past it too: 1 (2.01x), past 2 devices' 2x: a finding to explain by that alone (rule "
            "1), whatever the spread or the reference say (within the reference + that spread, 1.96x + 0.08 = "
            "2.04, which would otherwise explain it); 1 (1.99x), within the rounds' spread, which "
            "explains it; lesson 02 §9 names") in said, said
    assert "2 of its 5 rounds past it too (" not in said  # two groups: neither read as both rounds
    # as row A19 reads the same rounds: one beyond the spread, one within it
    assert checks.rounds_above_words(ZBV).endswith("2.01x: past 2x, so a finding by that alone, whatever the "
                                                   "spread or the reference; the other round (1.99x): within the "
                                                   "rounds' spread of the median (± 0.08), which explains it")
    # the other outcomes: every round past the reference within the spread; none past the reference
    wide = ZBV | {"rounds": [1.99, 1.80, 1.84, 1.92, 1.98]}  # ± (1.98 - 1.84) / 2 = 0.07, top 1.99
    said = report.lesson_02_rounds_reading(wide, "ZBV")
    assert ("2 of its 5 rounds past it too (1.99x, 1.98x), within the rounds' spread of the median (± 0.07), which "
            "explains them.") in said, said
    assert "a finding to explain" not in said
    low = report.lesson_02_rounds_reading(ZBV | {"reference": 2.03}, "ZBV")
    assert "its rounds above the bound lie within it; 1 of its 5 rounds above 2 devices' 2x (2.01x)" in low, low


def test_cell_0_rule_matches_how_a_median_above_its_bound_reads_its_rounds():
    cell = "".join(json.loads(NOTEBOOK.read_text())["cells"][0]["source"])
    # t23_09 #9: the rule as a numbered list, one reading a line
    assert "1. a round past two devices' 2x is a finding to explain, whatever the median;" in cell
    assert ("2. a round above the bound and beyond the rounds' spread of the median is a finding to explain, where "
            "the\n   median is under its bound or within its spread of it, unless a reference measured here reaches "
            "it") in cell  # t30_09 #1: lesson 02's words
    assert ("3. a median above its bound beyond its spread is read by its own lesson's verdict, and its rounds are "
            "counted") in cell  # t32_09 #2: lesson 02's own verdict, a finding or explained by its reference
    assert "explained by that reference (the row still\n   reads *above its bound*)" in cell
    # §5's pipeline, 1.88x ± 0.07 above 1.78x: its rounds are counted, as cell 0 now says
    assert checks.rounds_above_words(PIPELINE) == "5 of 5 rounds above the bound (up to 1.99x)"
    # the other outcome: a median above its bound within its spread reads each round (1.80 ± 0.07 reaches 1.73)
    near = PIPELINE | {"value": 1.80, "rounds": [1.99, 1.80, 1.66, 1.73, 1.87]}  # ± (1.87 - 1.73) / 2
    assert checks.rounds_above_words(near | {"reference": None}).endswith(
        "1 of them beyond the rounds' spread of the median (± 0.07): a finding to explain; 2 within it, which "
        "explains them")
    # t30_09 #2: the work-scaled reference + the spread (1.93 + 0.07 = 2.00) reaches 1.99x, as lesson 02 reads it
    assert checks.rounds_above_words(near).startswith("3 of 5 rounds above the bound (up to 1.99x): 1.99x past the "
                                                      "rounds' spread, but within the work-scaled reference")


def test_b10_prints_the_fits_alpha_as_cell_22_does():
    m = _link_m([81.5e-6 + n / 4.63e9 for n in (4, 2**12, 2**16, 2**18, 2**20, 2**22)])
    b10 = verdicts.judge(claims.BY_ID["B10"], m, {}).evidence
    alpha = f"{m['link'].fit.alpha * 1e6:,.1f}"
    assert f"alpha {alpha} µs" in m["link"].describe()
    assert f"this run's alpha-beta fit, {alpha} µs and" in b10, b10
