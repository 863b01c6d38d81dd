"""Eighteenth reading, lesson 09 (t18_09): the note names a round past 2x that its clause before already counted
(never "1 past 2 devices' 2x too", which reads as one more round), and the markdown states pruning's outcome as
the expectation, pointing to rows B11 and B12 for what the run showed."""
from __future__ import annotations

import json
from pathlib import Path

from utils.lessons.articles_checked import two_stages

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "09_articles_checked.ipynb"


def test_one_round_past_two_already_counted_is_named_not_counted_again():
    # the reader's run: 1F1B's 2.09x round, past its 2.00x reference beyond the spread, and past 2x
    said = two_stages.past_two_counted({"rounds": [1.71, 2.09, 1.90, 1.6, 1.5]}, [2.09], [2.09], [])
    assert said == "the 2.09x round is past 2 devices' 2x too: "


def test_two_and_three_rounds_past_two_are_named_together():
    both = two_stages.past_two_counted({"rounds": [2.26, 2.16, 1.7]}, [2.26, 2.16], [2.26, 2.16], [])
    assert both == "the 2.26x and 2.16x rounds are past 2 devices' 2x too: "
    three = two_stages.past_two_counted({"rounds": [2.3, 2.2, 2.1]}, [2.3, 2.2, 2.1], [2.3, 2.2, 2.1], [])
    assert three == "the 2.30x, 2.20x and 2.10x rounds are past 2 devices' 2x too: "


def test_rounds_said_past_two_before_need_no_clause():
    assert two_stages.past_two_counted({"rounds": [2.09]}, [2.09], [], [2.09]) == ""


def _markdown(index: int) -> str:
    return "".join(json.loads(NOTEBOOK.read_text())["cells"][index]["source"])


def test_pruning_s_outcome_is_an_expectation_the_rows_print_for_this_run():
    section, summary = _markdown(18), _markdown(23)
    assert section.startswith("## 8 · Article 2") and summary.startswith("## Summary")
    assert "Pruning cuts time when it removes neurons" not in section
    assert "so it should save none (rows B11 and B12 print what each did in this run)" in section
    assert "pruning must remove neurons;" not in summary
    assert "pruning must remove neurons to cut the operations (rows B11 and B12 print what removing" in summary
    assert max(len(line) for line in section.splitlines()) <= 110
