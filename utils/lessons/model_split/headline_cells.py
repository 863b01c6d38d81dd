"""Section 5's headline table keeps each verdict's head visible; the rest of it (rounds above the bound, the
work-scaled reference) is printed in full in the "How this was measured" block (lesson 02)."""

from __future__ import annotations

MORE = "; the rest in the block below"  # where a cell was cut: the reader knows there is more, and where


def verdict_head(verdict: str) -> str:
    """The verdict's first clause, the median against its bound ("faster, under the bound: 70% of its gain"),
    and a pointer to the block where the verdict goes on (its rounds and references, ``verdicts_note``)."""
    head, cut, _ = verdict.partition("; ")
    return head + (MORE if cut else "")


def verdicts_note(named: list[tuple[str, str]]) -> str:
    """Every row's verdict in full, one line each, for the block: (row's name, verdict)."""
    return "Each row's verdict in full:\n" + "\n".join(f"{name}: {verdict}" for name, verdict in named)
