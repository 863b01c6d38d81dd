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
    for part in LEDGER_PART.finditer(outputs("09")):
        text, lesson = part.group(1), part.group(2)
        found += [(lesson, f"{figure}x", text) for figure in QUOTED.findall(text)]
    return found


def test_lesson_09_quotes_ledger_figures_at_all():
    assert len({lesson for lesson, _, _ in ledger_quotes()}) >= 3  # lessons 02, 03, 04 at least


@pytest.mark.parametrize("lesson, figure, part", ledger_quotes(), ids=lambda v: v[:40] if isinstance(v, str) else v)
def test_each_figure_lesson_09_quotes_from_the_ledger_is_printed_by_its_lesson(lesson, figure, part):
    assert figure in outputs(lesson), (
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
