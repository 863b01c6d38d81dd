"""The course map, generated from the notebooks on disk, so that it cannot go stale.

Introduced in lesson 00. Each lesson's title is the first line of its first cell; its lab is the lab of the
same number; its run time is what ``make execute`` measured (``results/run-times.json``, with the machine).
A lesson not on disk is not listed: nothing here says "ready" or "planned" by hand.

    show(course_map())
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from utils import claims
from utils.tables import Table

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Entry:
    number: str  # "00"
    title: str  # "Start here: the course, your hardware, and a first measurement"
    path: str  # "notebooks/00_start_here.ipynb"
    seconds: float | None  # measured run time on a 2-core CPU, None where not measured yet


def _title(path: Path) -> str:
    """The first cell's heading without its "# 00 ·" or "# Lab 00 ·" prefix."""
    cells = json.loads(path.read_text())["cells"]
    first = "".join(cells[0]["source"]).splitlines()[0] if cells else path.stem
    return first.lstrip("# ").split("·", 1)[-1].strip()


def entries(folder: str, root: Path = ROOT) -> list[Entry]:
    """Every ``NN_*.ipynb`` of ``folder`` (notebooks or labs), in order, with its measured run time."""
    times_file = root / "results" / "run-times.json"
    times = json.loads(times_file.read_text())["notebooks"] if times_file.is_file() else {}
    out = []
    for path in sorted((root / folder).glob("[0-9][0-9]_*.ipynb")):
        key = path.relative_to(root).as_posix()
        out.append(Entry(path.name[:2], _title(path), key, times.get(key, {}).get("seconds")))
    return out


def course_map(root: Path = ROOT, printed_in: str | None = None) -> Table:
    """Lesson | its lab | CPU run times (lesson + lab): one row per lesson on disk.

    ``printed_in``: the notebook (e.g. ``"notebooks/00_start_here.ipynb"``) whose run prints the map. Its own
    time is recorded only once that run ends, so the map could only give its previous run's, which its header
    (rewritten from the new record) need not match: its row points to the header instead."""
    labs = {e.number: e for e in entries("labs", root)}
    rows = []
    for e in entries("notebooks", root):
        lab = labs.get(e.number)
        rows.append((e.number, e.title, lab.title if lab else "none",
                     _times(e, lab, printed_in)))
    if not rows:
        raise FileNotFoundError(f"no lessons found under {root / 'notebooks'}: is the course checked out whole?")
    # the times as ``stated`` rounds them, said in the title so that 47.7 s in run-times.json reads as 50 s
    title = "The course, as it is on disk (run times: whole seconds under 20 s, to the nearest 5 s above)"
    return Table(["#", "lesson", "its lab", "run time (2-core CPU)"], rows, title=title, wrap=52)


def stated(seconds: float) -> int:
    """How a run time is written: whole seconds under 20 s, else to the nearest 5 s (runs vary by more). Every
    lesson's header, README's course map and lesson 00's map round this one way (``utils.tools.runtimes``).
    Half up, as a reader rounds the file's figure by hand: 8.5 s is 9 s (``round`` gives 8, half to even)."""
    if seconds < 20:
        return int(claims.half_up(seconds, 0))
    return 5 * int(claims.half_up(seconds / 5, 0))


def _times(lesson: Entry, lab: Entry | None, printed_in: str | None) -> str:
    """``30 s + 8 s`` (lesson + lab); on the page that prints the map, whose own time is not recorded yet:
    ``this page: see its header; its lab 8 s`` (a "+" after "header" would read as adding to an unseen figure)."""
    if lesson.path == printed_in:
        return "this page: see its header" + (f"; its lab {_seconds(lab)}" if lab else "")
    return " + ".join(_seconds(x, printed_in) for x in (lesson, lab) if x)


def _seconds(e: Entry, printed_in: str | None = None) -> str:
    """Rounded as every lesson's header states it (``stated``), so that the map and the header agree."""
    if e.path == printed_in:
        return "this page: see its header"
    return f"{stated(e.seconds)} s" if e.seconds is not None else "not timed yet"
