"""Where in the course a claim is measured, as "lesson 03 §3": read from the lessons' own headings, so that
a reference cannot point at a section that moved.

Introduced in lesson 09. A claim names a lesson (or a lab) and a few words of the heading it means;
``cite(ref)`` finds that heading in ``notebooks/NN_*.ipynb`` (or ``labs/``) and writes its number:

    cite(("03", "How much faster"))     # "lesson 03 §3": "## 3 · How much faster are two workers?"
    cite(("04", "Do zeros make"))       # "lesson 04 §3": a sub-heading takes its section's number
    cite(("00", "The articles on links"))  # "lesson 00 'The articles on links'": a heading with no number
    cite(("lab 00", None))              # "lab 00": the whole lab

``tests/test_articles_checked.py`` resolves every claim's references: a heading renamed fails there.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
THIS_LESSON = "09"
# "## 3 · Title", "### 4a · Title", "## 1. Title" (lesson 08 numbers its sections this way)
NUMBERED = re.compile(r"^(#{2,4})\s+(\d+[a-z]?)\s*[·.]\s+(.*)$")
HEADING = re.compile(r"^(#{2,4})\s+(.*)$")


def notebook(where: str) -> Path:
    """"03" -> notebooks/03_*.ipynb; "lab 00" -> labs/00_*.ipynb."""
    folder, number = ("labs", where.split()[1]) if where.startswith("lab") else ("notebooks", where)
    found = sorted((ROOT / folder).glob(f"{number}_*.ipynb"))
    if len(found) != 1:
        raise FileNotFoundError(f"no single {folder}/{number}_*.ipynb (found {len(found)})")
    return found[0]


@lru_cache(maxsize=None)
def headings(where: str) -> tuple[tuple[str | None, str], ...]:
    """Every ## (and deeper) heading of a lesson's markdown cells as (section number, title); a heading with
    no number of its own takes the number of the numbered section it sits in (None before the first)."""
    cells = json.loads(notebook(where).read_text())["cells"]
    out, section = [], None
    for cell in cells:
        if cell["cell_type"] != "markdown":
            continue
        for line in "".join(cell["source"]).splitlines():
            numbered, plain = NUMBERED.match(line), HEADING.match(line)
            if numbered:
                depth, number, title = numbered.groups()
                section = number if len(depth) == 2 else section
                out.append((number, title.strip()))
            elif plain:
                depth, title = plain.groups()
                section = None if len(depth) == 2 else section  # an unnumbered ## ends the numbered one
                out.append((section, title.strip()))
    return tuple(out)


def find(where: str, words: str) -> tuple[str | None, str]:
    """The one heading of lesson ``where`` whose title is ``words``, else the one that contains them (case does
    not matter)."""
    exact = [h for h in headings(where) if words.lower() == h[1].lower()]
    hits = exact or [h for h in headings(where) if words.lower() in h[1].lower()]
    if len(hits) != 1:
        raise LookupError(f"{len(hits)} headings of {notebook(where).name} contain {words!r}: make the words "
                          "name one")
    return hits[0]


def cite(ref: tuple[str, str | None]) -> str:
    """("03", "How much faster") -> "lesson 03 §3"; an unnumbered heading is quoted by its first clause."""
    where, words = ref
    name = "this lesson" if where == THIS_LESSON else (where if where.startswith("lab") else f"lesson {where}")
    if words is None:
        return name
    number, title = find(where, words)
    return f"{name} §{number}" if number else f"{name} '{title.split(',')[0].split(':')[0]}'"


def cite_all(refs) -> str:
    """Several references in one phrase, the same lesson's sections joined: "lesson 02 §3, §5; lesson 03 §3"."""
    parts: list[str] = []
    for ref in refs:
        text = cite(ref)
        lesson, _, section = text.partition(" §")
        if section and parts and parts[-1].startswith(lesson + " §"):
            if section not in re.findall(r"§(\w+)", parts[-1]):  # two sub-headings of one section: cited once
                parts[-1] += f", §{section}"
        else:
            parts.append(text)
    return "; ".join(parts)
