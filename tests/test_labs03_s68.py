"""Thirtieth round, labs 00-03 (t29_labs03, the items left): lab 00's link line judges each case on the band its
plan's line prints, and its jump rule says it covers the ping-pong's jumps only; lab 00 reads lesson 00's kept
link through ``machine.saved_link``. Fabricated figures, not one run's."""

from __future__ import annotations

import nbformat
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BAND = (0.76, 1.45)  # the fit's band, its farthest size (16,384 bytes at 2.13x) left out
HELD = ((0.76, 2.13), 16384)  # the band of a plan that sends 16,384 bytes (``plan_band``)
PLAIN = (BAND, None)


def _said(text: str) -> str:
    return " ".join(text.split())


# --- the link line judges each case on the band its plan's line prints ----------------------------------------

def test_a_ping_pong_inside_its_plans_band_is_not_called_out_of_the_band():
    from utils.labs.fix_the_article import rounds

    narrow = rounds.drift_sentence([1.80, 1.00], BAND, [0, 0], 9)  # 1.80x: above 0.76-1.45x
    assert "left the fit's band in 1 of 2 cases" in narrow
    own = rounds.drift_sentence([1.80, 1.00], BAND, [0, 0], 9, bands=[HELD, PLAIN])  # inside 0.76-2.13x
    assert own.startswith("The ping-pong's medians stayed within the fit's band (a plan that sends 16,384 bytes "
                          "on the band with them included, 0.76-2.13x, as in its line below) in every case"), own


def test_a_ping_pong_under_a_lower_own_band_end_is_judged_on_that_end():
    from utils.labs.fix_the_article import rounds

    low = (((0.50, 1.45), 4), PLAIN)  # the size left out ran low: the plan that sends it has a lower end
    said = rounds.drift_sentence([0.60, 0.70], BAND, [0, 0], 9, bands=list(low))
    assert "left the fit's band (a plan that sends 4 bytes on the band with them included, 0.50-1.45x, as in " \
           "its line below) in 1 of 2 cases" in _said(said), said
    assert "at 0.70x, no round took over 2x its fastest" in said and "at 0.60x" not in said
    both_out = rounds.drift_sentence([0.40, 0.70], BAND, [3, 0], 9, bands=list(low))
    assert "ran faster than the fit, outside its band (a plan that sends 4 bytes" in _said(both_out)


def test_every_case_on_the_fit_band_says_nothing_more_and_mixed_sides_count_on_each_band():
    from utils.labs.fix_the_article import rounds

    plain = rounds.drift_sentence([0.71, 0.59], BAND, [0, 0], 9, bands=[PLAIN, PLAIN])
    assert "outside its band:" in plain and "bytes on the band" not in plain
    mixed = rounds.drift_sentence([2.50, 0.59], BAND, [0, 0], 9, bands=[HELD, PLAIN])
    assert "in every case, above it in 1 and below it in 1: no one drift" in _said(mixed), mixed


def test_the_report_blocks_link_line_reads_the_plans_own_bands():
    from utils.labs.fix_the_article import rounds

    rounds_of = {"a": [2.0] * 9, "b": [2.0] * 9}
    said = rounds.miss_sentence([1.5, 1.5], [1.80, 1.00], BAND, rounds_of, bands={"a": HELD, "b": PLAIN})
    link = next(line for line in said.splitlines() if line.startswith("The link: "))
    assert "stayed within the fit's band (a plan that sends 16,384 bytes" in link, link
    before = rounds.miss_sentence([1.5, 1.5], [1.80, 1.00], BAND, rounds_of)
    assert "left the fit's band in 1 of 2 cases" in before


# --- the jump rule is the ping-pong's only, and says so ---------------------------------------------------------

def test_the_rule_says_a_split_jump_is_counted_where_it_states_the_jump_rule():
    from utils.labs.fix_the_article import rounds

    pp = [100e-6] * 9
    pp[0] = 300e-6  # a ping-pong jump in round 1, whose ratio is below 1: set aside
    ratios = [0.5] + [2.0] * 8
    said = _said(rounds.miss_sentence([1.5], [1.0], BAND, {"a": ratios}, {"a": pp}))
    assert "its side is unknown, so it is set aside" in said
    assert ("Only the ping-pong's jumps are set aside: a round whose split's messages jumped is counted as it "
            "fell, their time, jump included, being what is measured") in said
    calm = _said(rounds.miss_sentence([1.5], [1.0], BAND, {"a": [2.0] * 9}, {"a": [100e-6] * 9}))
    assert "its side is unknown" not in calm and "Only the ping-pong's jumps" not in calm  # no round set aside:
    assert "No ping-pong round jumped (over 2x its plan's fastest round)" in calm  # only the bound is stated


# --- lesson 00's kept link, read through the shared public reader --------------------------------------------

def test_the_kept_link_is_read_through_machine_saved_link(monkeypatch, tmp_path):
    import inspect

    from utils import machine
    from utils.labs.fix_the_article import split

    assert "machine._" not in inspect.getsource(split.kept_link)  # no private reader of the profile
    seen = []
    monkeypatch.setattr(machine, "saved_link", lambda device="cpu", path=None: seen.append((device, path)))
    assert split.kept_link(object(), tmp_path / "p.json") is None
    assert seen == [("cpu", tmp_path / "p.json")]


# --- lab 03: goal 3 says what to achieve, not how -------------------------------------------------------------

def test_lab_03s_goal_3_states_the_outcome_not_the_remedy():
    cells = nbformat.read(ROOT / "labs/03_ddp_from_scratch.ipynb", as_version=4).cells
    goals = _said(cells[0].source).split("**Goals**")[1].split("**How the checks work")[0]
    third = goals.split("3. ")[1]
    assert "with nothing the rounding drops lost: at most delayed to a later step." in third
    assert "keep" not in third and "remainder" not in third  # the remedy is exercise B's to ask for
