"""Lesson 09's tables: the claims by group (at most 8 rows each), the verdict count, and README's summary.

Introduced in lesson 09. ``readme_markdown()`` is the table README's "The articles' claims, checked" holds;
``tests/test_articles_checked.py`` checks that README and this agree.
"""

from __future__ import annotations

from collections import Counter

from utils.lessons.articles_checked import claims
from utils.tables import Table

GROUPS = [("Article 1: why two GPUs, and what they buy", ["A1", "A2", "A3", "A4"]),
          ("Article 1: how two GPUs talk", ["A5", "A6", "A7", "A8", "A9"]),
          ("Article 1: the three techniques and their code", [f"A{k}" for k in range(10, 18)]),
          ("Article 2: four reasons for slowness", ["B1", "B2", "B3", "B4"]),
          ("Article 2: cures for compute and transfers", ["B5", "B6", "B7", "B8", "B9", "B10"]),
          ("Article 2: cures for complexity and algorithms, and the code", [f"B{k}" for k in range(11, 19)])]


def group_table(title: str, ids: list[str], rows: list[tuple]) -> Table:
    """One group's rows: id | the article says | verdict: its condition (lesson) | evidence [its source],
    wrapped to the course's 110 columns."""
    by_id, why = {r[0]: r for r in rows}, {c.id: c for c in claims.CLAIMS}
    return Table(["#", "the article says", "verdict: why (lesson)", "evidence [source]"],
                 [(i, by_id[i][1], f"{by_id[i][2]}: {why[i].why} ({_lesson(why[i].lesson)})",
                   f"{by_id[i][3]} [{by_id[i][4]}]") for i in ids], title=title, wrap=33)


def verdict_counts(rows) -> Table:
    counts = Counter(r[2] for r in rows)
    return Table(["verdict", "claims"], [(v, counts.get(v, 0)) for v in claims.VERDICTS])


def readme_markdown() -> str:
    """README's summary: claim, verdict, the lesson that measures it."""
    lines = ["| # | the article says | verdict | measured in |", "| --- | --- | --- | --- |"]
    lines += [f"| {c.id} | {c.says} | {c.verdict} | {c.lesson} |" for c in claims.CLAIMS]
    return "\n".join(lines)


def _lesson(where: str) -> str:
    return where if where.startswith("lab") else f"lesson {where}"
