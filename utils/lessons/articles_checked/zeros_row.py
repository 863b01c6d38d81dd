"""Row B12's second reading of zeroed weights (its first, this page's own paired rounds, is ``zeroed.figure_words``):
lesson 04 §3's figure of the same question, from the ledger, as a part of its own (so the short cell keeps
B12's measured clause whole)."""

from __future__ import annotations

from utils.lessons.articles_checked import sections, zeroed
from utils.lessons.articles_checked.sources import LEDGER, Part


def zeros_04_part(results: dict) -> Part:
    """Lesson 04 §3's paired figure of the same question (zeros in a dense kernel), from the ledger where it keeps
    it, else what to run: a part of its own, so that the row's measured clause stays whole in the short cell."""
    found, cite = results.get(zeroed.LESSON_04), sections.cite(("04", "Do zeros make"))
    if found is None:
        return Part(zeroed.lesson_04_words(None, cite), LEDGER, "not recorded: run lesson 04 first")
    return found.part(zeroed.lesson_04_words(found.record, cite))
