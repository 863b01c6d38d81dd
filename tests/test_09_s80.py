"""Lesson 09's page-level answer (t40_09 learner items): each section's visible table is narrow (claim, verdict,
check), and one plot with one sentence says how many rows this run supports, contradicts or cannot test."""

from utils.lessons.articles_checked import answers, claims, report
from utils.lessons.articles_checked.checks import ABOVE, AGREES, DISAGREES, NOISY, SUMMED
from utils.lessons.articles_checked.sources import ARITHMETIC, MEASURED, Part
from utils.lessons.articles_checked.verdicts import Row


def _row(id_, check, verdict=claims.TRUE, judged_by=None):
    part = Part("1.82x ± 0.04", MEASURED) if judged_by is None else Part("2 x 3 = 6", ARITHMETIC)
    return Row(id=id_, says="a claim", verdict=verdict, why="a reason", where="lesson 03 §3", parts=(part,),
               check=check)


ROWS = [_row("A1", AGREES), _row("A2", None, judged_by="arithmetic"), _row("A3", DISAGREES),
        _row("B1", AGREES), _row("B2", NOISY), _row("B9", None, verdict=claims.NOT_TESTABLE, judged_by="none"),
        _row("A17", ABOVE)]  # A17 is a summary row: it follows the rows it sums up


def test_a_sections_visible_table_has_four_narrow_columns_and_no_evidence_text():
    table = answers.narrow_table("a group", ["A1", "A2", "B9"], ROWS)
    assert table.columns == ["#", "the article says", "verdict", "this run's check"]
    text = table.to_text()
    assert "1.82x" not in text and "no check: judged by arithmetic" in text and "not testable here" in text
    assert max(len(line) for line in text.splitlines()) <= 110


def test_the_outcome_counts_come_from_the_checks_by_article_leaving_summary_rows_out():
    counts = answers.outcome_counts(ROWS)
    assert counts["supports"] == {"A": 1, "B": 1}
    assert counts["contradicts"] == {"A": 1, "B": 0}
    assert counts["inconclusive"] == {"A": 0, "B": 1}
    assert counts["cannot test"] == {"A": 1, "B": 1}
    assert sum(sum(c.values()) for c in counts.values()) == len(ROWS) - 1  # A17 in SUMMED
    assert "A17" in SUMMED


def test_the_outcome_sentence_writes_both_branches_of_every_count():
    said = answers.outcomes_sentence(ROWS)
    assert "Of 6 rows" in said and "supports 2 verdicts and contradicts 1;" in said
    assert "none show a figure above its bound" in said and "1 is inconclusive" in said
    quiet = answers.outcomes_sentence([_row("A1", AGREES)])
    assert "contradicts none" in quiet and "none are inconclusive" in quiet and quiet.endswith("every one was tested here.")


def test_the_outcomes_plot_draws_one_bar_an_outcome_with_no_overprinted_labels():
    from utils.plots import labels_outside, overlapping_labels

    fig = answers.outcomes_plot(ROWS)
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == [name for name, _ in answers.OUTCOMES][::-1]
    assert overlapping_labels(fig) == [] and labels_outside(fig) == []


def test_lesson_09_shows_the_narrow_table_and_collapses_the_wide_one():
    import nbformat

    nb = nbformat.read("notebooks/09_articles_checked.ipynb", 4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert code.count("show(answers.narrow_table(") == len(report.GROUPS)
    assert "show(report.group_table(" not in code and "show(answers.outcomes_plot(ROWS))" in code
    visible_intro = nb.cells[0].source.split("<details>")[0]  # what a learner reads before the first block
    assert all(len(paragraph.split()) <= 150 for paragraph in visible_intro.split("\n\n"))
