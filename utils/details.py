"""A collapsed "How this was measured" block: everything measured stays one click away, out of the way.

Introduced in lesson 00. A section answers its question with one plot or one narrow table and one sentence;
the rounds, spreads, per-round verdicts and wide tables behind that answer go into a block like this one:

    how_measured("copy rates, every size and path", points_table, fit_table, "Each copy is timed ...")

In JupyterLab the block is an HTML ``<details>`` element, closed until the reader opens it. Its plain-text
fallback (``text/plain``: what nbval, a console or a script sees) holds the same parts in full, so nothing
measured is lost anywhere. Parts may be strings, tables (``utils.tables.Table`` or anything with
``_repr_html_`` / ``to_text``) and matplotlib figures (embedded as PNG).
"""

from __future__ import annotations

import base64
import html
import io

TITLE = "How this was measured"
# The first characters of the block's HTML: tests/test_form.py reads them to tell collapsed output from visible.
MARK = "<details class='twogpu-how'>"


class Details:
    """A titled block of parts (text, tables, figures), shown collapsed in a notebook."""

    def __init__(self, title: str, *parts, open: bool = False):
        if not parts:
            raise ValueError(f"'{title}': a block needs something in it (text, a table or a figure)")
        self.title = title
        self.parts = parts
        self.open = open

    def _repr_html_(self) -> str:
        mark = MARK.replace(">", " open>") if self.open else MARK
        body = "".join(f"<div style='margin:0.4em 0'>{_part_html(p)}</div>" for p in self.parts)
        return f"{mark}<summary><b>{html.escape(self.title)}</b> (click to open)</summary>{body}</details>"

    def to_text(self) -> str:
        lines = [f"[{self.title}] (collapsed in JupyterLab)"]
        for part in self.parts:
            lines += ["  " + line for line in _part_text(part).splitlines()]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.to_text()


def how_measured(what: str, *parts) -> None:
    """The lesson's "How this was measured: <what>" block, displayed now in a notebook (printed elsewhere).
    ``parts``: the wide tables, per-round figures and notes behind the section's answer. Returns nothing, so
    that a cell ending with it shows the block once (``Details(...)`` is the block itself, to keep)."""
    from utils.tables import show

    show(Details(f"{TITLE}: {what}", *parts))


def is_collapsed_html(text: str) -> bool:
    """True for the HTML of a ``Details`` block that is closed (what the form test leaves out)."""
    return text.lstrip().startswith(MARK)


def _is_figure(part) -> bool:
    return hasattr(part, "savefig") and hasattr(part, "axes")


def _part_html(part) -> str:
    if isinstance(part, str):
        return f"<pre style='white-space:pre-wrap;margin:0'>{html.escape(part)}</pre>"
    if _is_figure(part):
        buffer = io.BytesIO()
        part.savefig(buffer, format="png", dpi=80, bbox_inches="tight")
        data = base64.b64encode(buffer.getvalue()).decode("ascii")
        return f"<img style='max-width:100%' src='data:image/png;base64,{data}'/>"
    if hasattr(part, "_repr_html_"):
        return part._repr_html_()
    return f"<pre style='margin:0'>{html.escape(repr(part))}</pre>"


def _part_text(part) -> str:
    if isinstance(part, str):
        return part
    if _is_figure(part):
        title = part._suptitle.get_text() if getattr(part, "_suptitle", None) else "figure"
        return f"(figure: {title})"
    if hasattr(part, "to_text"):
        return part.to_text()
    return repr(part)
