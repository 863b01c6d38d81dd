"""The learner's-path form, read off an executed notebook: what a reader sees without opening anything.

Used by ``tests/test_form.py`` (and the closing notes' before/after figures); learners never need it.

    python -m utils.tools.nbform notebooks/*.ipynb      # per notebook: lines over 110, widest visible table

Visible: stream output (stdout, stderr), and each display's richest form as JupyterLab shows it: HTML where
there is HTML, else plain text. Not visible: a collapsed ``utils.details`` block (its content is one click
away), images (checked for label overlap elsewhere), widgets (their plain text is a fallback for viewers
without widgets: JupyterLab draws the widget).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat

from utils.details import is_collapsed_html

MAX_LINE = 110
MAX_COLUMNS = 7
WIDGET = "application/vnd.jupyter.widget-view+json"


@dataclass(frozen=True)
class Visible:
    cell: int  # index of the cell in the notebook
    text: str  # what the reader sees, as text (for an HTML table: its text/plain fallback, the same cells)
    columns: int  # columns of the widest visible HTML table in this output (0: no table)


def _text(value) -> str:
    return value if isinstance(value, str) else "".join(value)


def _columns(html: str) -> int:
    """Header cells of the widest table in ``html`` (first row of each table)."""
    widest = 0
    for table in re.findall(r"<table.*?</table>", html, flags=re.S):
        first_row = re.search(r"<tr>(.*?)</tr>", table, flags=re.S)
        if first_row:
            widest = max(widest, len(re.findall(r"<t[hd][ >]", first_row.group(1))))
    return widest


def visible_outputs(nb) -> list[Visible]:
    out = []
    for index, cell in enumerate(nb.cells):
        for output in cell.get("outputs", []):
            if output.output_type == "stream":
                out.append(Visible(index, _text(output.text), 0))
                continue
            data = output.get("data", {})
            if WIDGET in data or output.output_type == "error":
                continue
            if "text/html" in data:
                html = _text(data["text/html"])
                if not is_collapsed_html(html):
                    out.append(Visible(index, _text(data.get("text/plain", "")), _columns(html)))
            elif "text/plain" in data and "image/png" not in data:
                out.append(Visible(index, _text(data["text/plain"]), 0))
    return out


def wide_lines(nb, limit: int = MAX_LINE) -> list[tuple[int, str]]:
    """(cell, line) for every visible line longer than ``limit`` characters."""
    return [(v.cell, line) for v in visible_outputs(nb) for line in v.text.splitlines() if len(line) > limit]


def widest_table(nb) -> tuple[int, int]:
    """(columns, cell) of the widest visible table; (0, -1) when there is none."""
    return max(((v.columns, v.cell) for v in visible_outputs(nb)), default=(0, -1))


def read(path) -> object:
    return nbformat.read(str(path), as_version=4)


def main(paths: list[str]) -> int:
    for path in paths:
        nb = read(path)
        columns, cell = widest_table(nb)
        print(f"{Path(path).name:<34} lines over {MAX_LINE}: {len(wide_lines(nb)):>3}   "
              f"widest visible table: {columns} columns" + (f" (cell {cell})" if columns else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
