"""Lessons 05 and 06, the thirty-sixth reading's clarity items: the ± rule of lesson 05's prefetcher in
sentences of one rule each, the breach line promised only where the rounds show one, the paired reading's
basis said beside it, and the offload column's header short."""

import json
from pathlib import Path

NOTEBOOKS = Path(__file__).parents[1] / "notebooks"


def _source(name: str, index: int) -> str:
    cells = json.loads((NOTEBOOKS / name).read_text())["cells"]
    return " ".join("".join(cells[index]["source"]).split())


def test_lesson_05_cell_37_gives_each_rule_its_own_sentence():
    text = _source("05_data_prefetch.ipynb", 37)
    # the rule in cell 38's words (test_0506_s66), the middle half defined after it
    assert "its noise (`paired_noise`): half their middle half's range, at least 2 % of their median (the middle " \
           "half: the rounds between the quartiles)." in text
    assert "One exception: rounds all on one side of 1x are not noise, even where the ± reaches 1x." in text
    assert "; each section names its own ± rule" not in text


def test_lesson_05_cell_43_promises_a_counts_verdict_only_for_a_breach():
    text = _source("05_data_prefetch.ipynb", 43)
    assert "says whether a breach, if the rounds show one, counts." in text


def test_lesson_06_cell_16_says_the_paired_reading_may_lie_below_every_round():
    text = _source("06_memory.ipynb", 16)
    assert "set on one round's plain step, it may lie below every round of the step itself" in text


def test_lesson_06_offload_header_leaves_its_working_to_the_sentence_under_the_table():
    text = _source("06_memory.ipynb", 43)
    assert '"CPU AdamW (each rank\'s share: below)"' in text
    assert 'f"CPU AdamW ({rate}: a reference)"' not in text
    assert 'The CPU AdamW column is {rate}, a reference, not a limit' in text
