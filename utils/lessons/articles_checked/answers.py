"""Lesson 09's answers at a glance: each section's narrow table (claim, verdict, this run's check) and the page's
one plot, how many rows this run's evidence supports, contradicts, or cannot test.

Introduced in lesson 09. A section answers with ``narrow_table`` and ``report.group_sentence``; its wide table
(``report.group_table``) and each row's evidence in full sit in the collapsed block under it. ``outcomes_plot``
and ``outcomes_sentence`` answer the page's question from the rows' checks, never from a count typed here.
"""

from __future__ import annotations

from utils.lessons.articles_checked import claims
from utils.lessons.articles_checked.checks import ABOVE, AGREES, BUSY, DISAGREES, NOISY, SUMMED, WAITING
from utils.lessons.articles_checked.verdicts import Row
from utils.tables import Table

# What this run made of a row, in the plot's order: its check, grouped so that each bar is one answer.
# "cannot test": judged by datasheets, papers or arithmetic, a framing, or not testable on this machine.
OUTCOMES = (("supports", (AGREES,)), ("contradicts", (DISAGREES,)), ("above its bound", (ABOVE,)),
            ("inconclusive", (NOISY, BUSY, WAITING)), ("cannot test", (None,)))


def check_word(row: Row) -> str:
    """The row's check in a few words for the narrow table ("agrees", "above its bound"), or what it was judged
    by where nothing was measured (a datasheet, arithmetic), or why it has no check."""
    if row.check:
        return row.check + (" (summary row)" if row.id in SUMMED else "")
    if row.judged_by:
        return f"no check: judged by {row.judged_by}"
    return "no check: " + ("not testable here" if row.verdict == claims.NOT_TESTABLE else "a framing")


def narrow_table(title: str, ids: list[str], rows: list[Row]) -> Table:
    """One section's answer: # | the article says | verdict | this run's check (the why and the evidence are in
    the collapsed block)."""
    by_id = {r.id: r for r in rows}
    return Table(["#", "the article says", "verdict", "this run's check"],
                 [(i, by_id[i].says, by_id[i].verdict, check_word(by_id[i])) for i in ids], title=title, wrap=40)


def outcome_counts(rows: list[Row]) -> dict[str, dict[str, int]]:
    """{outcome: {article letter: rows}} over every row but the summaries (they follow the rows they sum up, so
    counting them would count those rows twice)."""
    counted = [r for r in rows if r.id not in SUMMED]
    return {name: {a: sum(r.check in states and r.id.startswith(a) for r in counted) for a in claims.ARTICLES}
            for name, states in OUTCOMES}


def outcomes_plot(rows: list[Row]):
    """One bar an outcome, split by article: how many rows this run's evidence supports, contradicts, leaves
    inconclusive, or cannot test."""
    from utils.plots import device_color, finish, new_figure

    counts = outcome_counts(rows)
    fig, (ax,) = new_figure(width=9.0, row_height=2.6)
    names = list(counts)[::-1]  # the first outcome on top
    left = [0] * len(names)
    for k, article in enumerate(claims.ARTICLES):
        widths = [counts[n][article] for n in names]
        ax.barh(names, widths, left=left, color=device_color(k), label=f"article {k + 1}")
        left = [a + b for a, b in zip(left, widths)]
    for y, total in enumerate(left):
        ax.text(total + 0.3, y, str(total), va="center", fontsize=9)
    ax.set_xlim(0, max(left) + 3)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel(f"rows: claims and code blocks (the {len(SUMMED)} summary rows aside)")
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8)
    return finish(fig, f"What this run made of the articles' {sum(left)} rows")


def outcomes_sentence(rows: list[Row]) -> str:
    """The plot's answer in one sentence, each count from the rows' checks; a count of none is said too, so
    the sentence reads right whatever the run found."""
    total = {name: sum(by_article.values()) for name, by_article in outcome_counts(rows).items()}
    supports, contradicts, above, inconclusive, untested = total.values()
    return (f"Of {sum(total.values())} rows (the {len(SUMMED)} summary rows aside), this run's evidence supports "
            f"{supports} verdicts and contradicts {contradicts or 'none'}; {above or 'none'} "
            f"{'shows' if above == 1 else 'show'} a figure above its bound (a finding to explain, never support), "
            f"{inconclusive or 'none'} {'is' if inconclusive == 1 else 'are'} inconclusive, and "
            + (f"{untested} cannot be tested by a measurement here (judged by datasheets, papers or arithmetic, "
               "a framing, or not testable on this machine)." if untested else "every one was tested here."))
