"""The figures lesson 09 quotes "from the ledger" are the figures the lessons printed.

Lesson 09 reads each lesson's headline figure from ``results/ledger-<mode>.json``; a lesson executed again after
lesson 09 leaves lesson 09 quoting an older run (it happened in session 46). These tests read the committed
notebooks' outputs, so they fail until lesson 09 is executed after the lessons it quotes.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
LEDGER = ROOT / "results" / "ledger-cpu.json"
# "1.88x" but not "2 / 1.88 = 1.06x": a figure after "=" is lesson 09's own arithmetic on the quoted one
QUOTED = re.compile(r"(?<![\d.])(?<!= )(\d+\.\d+)x")
# one evidence part: the text since the previous part's "[kind: where]" tag, then its ledger tag
LEDGER_PART = re.compile(r"((?:(?!\]; |<td).)*?)\[from the ledger: lesson (\d\d), ")


def outputs(lesson: str) -> str:
    """Every text output of lesson ``lesson`` (stream, plain text and unescaped HTML), joined."""
    (path,) = ROOT.glob(f"notebooks/{lesson}_*.ipynb")
    texts = []
    for cell in nbformat.read(path, as_version=4).cells:
        for out in cell.get("outputs", []):
            texts.append(out.get("text", ""))
            data = out.get("data", {})
            texts += [data.get("text/plain", ""), html.unescape(data.get("text/html", ""))]
    return "\n".join(texts)


def ledger_quotes() -> list[tuple[str, str, str]]:
    """``(lesson, figure as printed, the part quoting it)`` for each figure lesson 09's tables quote from the
    ledger."""
    found = []
    # the collapsed blocks wrap long rows at ~106 characters: a line ending in "=" is joined to the next, so
    # "2 / 1.78 =" at the end of one line still marks the "1.12x" starting the next as lesson 09's arithmetic
    for part in LEDGER_PART.finditer(re.sub(r"=\s*\n\s*", "= ", outputs("09"))):
        text, lesson = part.group(1), part.group(2)
        found += [(lesson, f"{figure}x", text) for figure in QUOTED.findall(text)]
    return found


def test_lesson_09_quotes_ledger_figures_at_all():
    assert len({lesson for lesson, _, _ in ledger_quotes()}) >= 3  # lessons 02, 03, 04 at least


@pytest.mark.parametrize("lesson, figure, part", ledger_quotes(), ids=lambda v: v[:40] if isinstance(v, str) else v)
def test_each_figure_lesson_09_quotes_from_the_ledger_is_printed_by_its_lesson(lesson, figure, part):
    number = re.escape(figure.removesuffix("x"))
    # a round quoted "up to 1.96x" is printed by its lesson as the end of the rounds' range "(1.80-1.96)"
    in_range = re.search(rf"\(\d+\.\d+-{number}\)|\({number}-\d+\.\d+\)", outputs(lesson))
    assert figure in outputs(lesson) or in_range, (
        f"lesson 09 quotes {figure} from lesson {lesson}'s ledger entry ({part[:120]}...), but lesson {lesson}'s "
        f"committed outputs never print it: execute lesson 09 again after lesson {lesson}")


def test_the_committed_ledger_holds_the_speedups_the_lessons_printed():
    figures = json.loads(LEDGER.read_text())["figures"]
    speedups = {name: f for name, f in figures.items() if f["unit"] == "x" and f["lesson"]}
    assert speedups
    for name, f in speedups.items():
        printed = f"{f['value']:.2f}x"
        assert printed in outputs(f["lesson"]), (
            f"the ledger's {name} is {printed}, which lesson {f['lesson']}'s committed outputs never print: the "
            "ledger and the notebook come from different runs")


# --- Session 51: what lesson 09 reads from a ledger lessons 02 and 07 wrote (a fake one, both branches) ----------


def _fake_ledger(monkeypatch, tmp_path, records: dict) -> dict:
    """``records`` (name -> (value, bound, lesson, what)) written to an empty ledger, each with 5 paired rounds
    around its value, then read as lesson 09 reads it (``figures.read_results``)."""
    from utils import ledger
    from utils.lessons.articles_checked import figures

    monkeypatch.setenv(ledger.ENV, str(tmp_path))
    for name, (value, bound, lesson, what) in records.items():
        ledger.record(name, value, "x", bound=bound, lesson=lesson, what=what,
                      rounds=[value * k for k in (0.98, 0.99, 1.0, 1.01, 1.02)])
    return {"results": figures.read_results()}


def test_lesson_09_reads_lesson_02s_two_stage_schedules_from_the_ledger_and_names_the_missing(monkeypatch, tmp_path):
    from utils.lessons.articles_checked import checks, wording

    what = "two stages per worker, batch 128, m=4, against its bound at this m (section 9)"
    m = _fake_ledger(monkeypatch, tmp_path, {
        "pipeline_interleaved_1f1b_speedup": (1.5, 1.6, "02", f"interleaved 1F1B, {what}"),
        "pipeline_zbv_speedup": (1.7, 1.6, "02", f"ZBV, {what}")})
    parts, kept = wording.two_stage_parts(m, checks.speedup_words)
    said = [p.render() for p in parts]
    assert said[0].startswith("lesson 02 §9's interleaved 1F1B, two stages per worker, batch 128, m=4: 1.50x one, "
                              "75% each (speed-up / 2; the median of 5 paired rounds, ± 0.02), against its bound of "
                              "1.60x: "
                              "faster, under the bound: 83% of its gain; none of its 5 rounds above the bound [from the "
                              "ledger: lesson 02, "), said
    assert "ZBV, two stages per worker, batch 128, m=4: 1.70x one" in said[1]
    assert "above the bound: a finding to explain" in said[1]  # judged with its rounds: beyond their spread
    assert set(kept) == {"interleaved 1F1B (two stages per device)", "ZBV (two stages per device)"}
    assert wording.two_stages_read_words(m).endswith(
        "row A19 reads interleaved 1F1B and ZBV against their bounds, with the rounds lesson 02 recorded; not "
        "recorded yet: interleaved ZB (run lesson 02 to record it)")
    empty = _fake_ledger(monkeypatch, tmp_path / "empty", {})
    assert wording.two_stage_parts(empty, checks.speedup_words) == ([], {})
    assert "not recorded yet (run lesson 02 to record them)" in wording.two_stages_read_words(empty)


def test_lesson_09s_row_a21_quotes_lesson_07s_recorded_pass_or_says_to_run_it(monkeypatch, tmp_path):
    from utils.lessons.articles_checked import timed_rows

    m = _fake_ledger(monkeypatch, tmp_path, {"tensor_parallel_speedup": (
        1.3, 2.0, "07", "a forward pass of 2 GPT blocks of width 256, batch 8 x 64 tokens, tensor parallel: the "
        "median of 5 paired rounds")})
    ours = [1.25, 1.3, 1.35, 1.3, 1.28, 1.32]
    note = timed_rows.lesson_07_note(m, ours, "faster, under the bound: 30% of its gain")
    assert ("this page's own 6 paired rounds beside lesson 07 §1's own run of the same blocks, tensor parallel: "
            "1.30x ± 0.01 one device's speed (median of 5 paired rounds), bound 2x: faster, under the bound: 30% "
            "of its gain: the two read alike (faster)") in note
    note = timed_rows.lesson_07_note(m, ours, "slower than one device: no speed-up")
    assert "the two read differently (slower here, faster there): different launches" in note
    empty = _fake_ledger(monkeypatch, tmp_path / "empty", {})
    assert "the ledger holds no figure of it yet (run lesson 07 to record it)" in timed_rows.lesson_07_note(
        empty, ours, "faster, under the bound: 30% of its gain")
