"""Lesson 09's tables: the claims by group (at most 8 rows each), the verdict count, and README's summary.

Introduced in lesson 09. ``readme_markdown()`` is the table README's "The articles' claims, checked" holds;
``tests/test_articles_checked.py`` checks that README and this agree.
"""

from __future__ import annotations

from collections import Counter

from utils.lessons.articles_checked import claims
from utils.tables import Table

GROUPS = [("Article 1: why, and how two GPUs talk", ["A1", "A2", "A3", "A4", "A5", "A6"]),
          ("Article 1: the three techniques and their code", ["A7", "A8", "A9", "A10", "A11", "A12", "A13", "A14"]),
          ("Article 2: four reasons for slowness", ["B1", "B2", "B3", "B4"]),
          ("Article 2: cures for compute and transfers", ["B5", "B6", "B7", "B8", "B9", "B10"]),
          ("Article 2: cures for complexity and algorithms, and the code", ["B11", "B12", "B13", "B14", "B15",
                                                                            "B16", "B17"])]


def group_table(title: str, ids: list[str], rows: list[tuple]) -> Table:
    """One group's rows: id | the article says | verdict | evidence [its source], wrapped to 110 columns."""
    by_id = {r[0]: r for r in rows}
    return Table(["#", "the article says", "verdict", "evidence (source)"],
                 [(i, by_id[i][1], by_id[i][2], f"{by_id[i][3]} [{by_id[i][4]}]") for i in ids],
                 title=title, wrap=36)


def verdict_counts(rows) -> Table:
    counts = Counter(r[2] for r in rows)
    return Table(["verdict", "claims"], [(v, counts.get(v, 0)) for v in claims.VERDICTS])


def readme_markdown() -> str:
    """README's summary: claim, verdict, the lesson that measures it."""
    lines = ["| # | the article says | verdict | measured in |", "| --- | --- | --- | --- |"]
    lines += [f"| {c.id} | {c.says} | {c.verdict} | {c.lesson} |" for c in claims.CLAIMS]
    return "\n".join(lines)
