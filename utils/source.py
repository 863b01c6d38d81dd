"""Show the code that runs, in the notebook, with syntax highlighting: ``show_source(train)``.

Introduced in lesson 00 and used by every lesson. Code that must be importable (it runs in forked or spawned
workers, or under ``torchrun``) lives in the lesson's module under ``utils/lessons/<slug>/``; the notebook
shows it right where it is used, so that what the learner reads is exactly what runs.

    show_source(train)                  # the function, headed by its file and line numbers
    show_source(Prefetcher, train_step) # several, one after the other
"""

from __future__ import annotations

import inspect
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]


def where(obj) -> str:
    """``utils/lessons/ddp/recipe.py, lines 12-40``: where ``obj``'s source is, from the repository root."""
    obj = inspect.unwrap(obj)  # a decorated function: the file of the function, not of its decorator
    path = Path(inspect.getsourcefile(obj)).resolve()
    lines, first = inspect.getsourcelines(obj)
    try:
        path = path.relative_to(REPO_ROOT)
    except ValueError:  # defined outside the repository (a notebook cell, an installed package)
        pass
    return f"{path}, lines {first}-{first + len(lines) - 1}"


class Source:
    """Code to show: syntax-highlighted HTML in a notebook (IPython's ``Code``), plain text elsewhere."""

    def __init__(self, objects):
        # (place, text): the source as written in its file, comments included
        self.blocks = [(where(obj), inspect.getsource(obj)) for obj in objects]

    def __str__(self) -> str:
        return "\n".join(f"# {place}\n{text}" for place, text in self.blocks)

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        from IPython.display import Code

        return "".join(f"<p><code>{place}</code></p>" + Code(text, language="python")._repr_html_()
                       for place, text in self.blocks)

    @property
    def line_count(self) -> int:
        return sum(text.count("\n") for _, text in self.blocks)


def show_source(*objects) -> Source:
    """Show each object's source (a function, class or module) as the cell's value (see the module doc)."""
    if not objects:
        raise TypeError("show_source needs at least one function, class or module to show")
    return Source(objects)
