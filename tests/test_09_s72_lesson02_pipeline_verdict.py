"""Lesson 09, the lead's A19 item (t33): where lesson 02's ledger entry for §5's best pipeline keeps lesson 02's
own verdict (``verdict``), rows A10 and A19 quote it, rounds count kept in the verdict's clause; without it,
the course's reading of the figures as before. Fabricated figures."""

from __future__ import annotations

from test_articles_checked import _figures, _recorded

from utils.lessons.articles_checked import verdicts

LESSON_02 = ("above the bound, within the work-scaled reference (1.96x) plus the rounds' spread (± 0.08): "
             "explained by the reference")
ROUNDS = [1.99, 1.86, 1.84, 1.90, 1.95]


def test_lesson_02s_own_verdict_is_quoted_where_the_ledger_keeps_it():
    kept = _figures(pipeline=_recorded(1.90, 16 / 9, rounds=ROUNDS, reference=1.956, verdict=LESSON_02))
    said = verdicts.noted_words(kept, "pipeline")
    assert said.startswith(LESSON_02) and said.endswith(verdicts.ABOVE_NOTE), said
    note = verdicts._bound_note(kept, "pipeline", kept["results"]["pipeline"].record)
    assert note.startswith("; against a bound of 1.78x: above the bound, ") and "rounds above the bound" in note


def test_without_a_kept_verdict_the_figures_are_read_as_before():
    bare = _figures(pipeline=_recorded(1.90, 16 / 9, rounds=ROUNDS, reference=1.956))
    assert verdicts.noted_words(bare, "pipeline") == (
        verdicts.speedup_words(bare, "pipeline")
        + (f"; {verdicts.ABOVE_NOTE}" if verdicts.past_bound(verdicts.speedup_words(bare, "pipeline")) else ""))
