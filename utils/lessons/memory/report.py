"""Lesson 06's tables: every estimate next to its measurement, with the error.

    show(compare_table({"fp32": (budget, measured)}, title=...))
"""

from __future__ import annotations

from utils.lessons.memory.calculator import Budget
from utils.lessons.memory.measure import Measured
from utils.tables import Table

MB = 1e6


def relative_error(estimated: float, measured: float) -> float:
    """(estimate - measured) / measured. Lesson 06."""
    return (estimated - measured) / measured


def compare_table(rows: dict[str, tuple[Budget, Measured]], title: str) -> Table:
    """One row per configuration: the calculator's peak and its moment, the measured peak, the error. Lesson 06."""
    body = [(name, f"{b.peak / MB:.2f}", b.peak_moment, f"{m.peak / MB:.2f}",
             f"{relative_error(b.peak, m.peak):+.1%}") for name, (b, m) in rows.items()]
    return Table(["configuration", "calculator (MB)", "peak at", "measured (MB)", "error"], body, title=title)


def lines_table(budget: Budget, measured: Measured, title: str) -> Table:
    """The lines live at the peak: the calculator's and, where the tracker sorts them, the measured. Lesson 06."""
    names = [k for k in budget.at_peak if budget.at_peak[k] or measured.lines.get(k)]
    names += [k for k in measured.lines if k not in names]
    body = [(k, f"{budget.at_peak.get(k, 0.0) / MB:.2f}",
             f"{measured.lines[k] / MB:.2f}" if k in measured.lines else "-",
             line_error(budget.at_peak.get(k, 0.0), measured.lines.get(k))) for k in names]
    body.append(("total (peak)", f"{budget.peak / MB:.2f}", f"{measured.peak / MB:.2f}",
                 line_error(budget.peak, measured.peak)))
    return Table(["line", "calculator (MB)", "measured (MB)", "error"], body, title=title)


def line_error(predicted: float, measured: float | None) -> str:
    """A line's error: MB off (calculator - measured) and, where the measured line is not near zero, percent."""
    if measured is None:
        return "-"
    off = f"{(predicted - measured) / MB:+.2f} MB"
    return off + (f" ({relative_error(predicted, measured):+.0%})" if measured > 0.01 * MB else "")
