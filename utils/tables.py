"""Small tables that render as HTML in a notebook, as Markdown in files and as plain text in a console.

Introduced in lesson 00 (the hardware table); ``utils.bench`` uses it for result tables.
"""

from __future__ import annotations

import html
import textwrap
from dataclasses import dataclass, field


@dataclass
class Table:
    columns: list[str]
    rows: list[tuple] = field(default_factory=list)
    title: str | None = None
    wrap: int | None = None  # the text form wraps any cell wider than this many characters (narrow output)

    def _cells(self) -> list[list[str]]:
        return [[_fmt(v) for v in row] for row in self.rows]

    def to_markdown(self) -> str:
        lines = [f"**{self.title}**", ""] if self.title else []
        lines.append("| " + " | ".join(self.columns) + " |")
        lines.append("|" + "|".join(" --- " for _ in self.columns) + "|")
        lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in self._cells()]
        return "\n".join(lines)

    def to_text(self, max_width: int = 110) -> str:
        """Plain text; with ``wrap``, cells wrap at ``wrap`` characters, narrower still (down to 12) where
        the table would otherwise be wider than ``max_width`` (the course's line limit)."""
        wrap = self.wrap
        while True:
            cells = [[self._wrapped(c, wrap) for c in row] for row in [list(self.columns)] + self._cells()]
            widths = [max(len(line) for r in cells for line in r[i]) for i in range(len(self.columns))]
            if not wrap or sum(widths) + 2 * (len(widths) - 1) <= max_width or wrap <= 12:
                break
            wrap -= 2
        out = [self.title] if self.title else []
        for k, row in enumerate(cells):
            for j in range(max(len(c) for c in row)):  # a wrapped cell makes its row several lines tall
                out.append("  ".join((c[j] if j < len(c) else "").ljust(w) for c, w in zip(row, widths)).rstrip())
            if k == 0:
                out.append("  ".join("-" * w for w in widths))
        return "\n".join(out)

    @staticmethod
    def _wrapped(cell: str, wrap: int | None) -> list[str]:
        if wrap and len(cell) > wrap:
            return textwrap.wrap(cell, wrap) or [""]
        return [cell]

    def _repr_html_(self) -> str:
        head = "".join(f"<th style='text-align:left'>{html.escape(c)}</th>" for c in self.columns)
        body = "".join("<tr>" + "".join(f"<td style='text-align:left'>{html.escape(c)}</td>" for c in row)
                       + "</tr>" for row in self._cells())
        caption = f"<caption style='text-align:left'><b>{html.escape(self.title)}</b></caption>" \
            if self.title else ""
        return f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"

    def __repr__(self) -> str:
        return self.to_text()


def _fmt(value) -> str:
    if isinstance(value, float):
        if value != value:  # NaN
            return "n/a"
        return f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"
    return "" if value is None else str(value)


def show(obj) -> None:
    """Display ``obj`` (a Table, a check's Verdict...) in a notebook, with its HTML and a text fallback in
    the same output; print its text anywhere else (a console, a script, a worker)."""
    try:
        from IPython import get_ipython
        from IPython.display import display

        if get_ipython() is not None:
            display(obj)
            return
    except ImportError:
        pass
    print(obj.to_text() if hasattr(obj, "to_text") else obj)
