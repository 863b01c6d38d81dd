"""Lesson 09, the forty-second reading (t42_09): rows A10 and B5's short cell names which figure holds each
launch's finding (a launch whose median is 0.97x holds a round past 1x, never its median) (#1); the note under
§1's counts quotes every launch of the split alone, not section 3's alone (#2); the short answer counts the rows
above a bound as §1's sentence does, the summary rows named apart (#3). Every branch on fabricated figures."""

from __future__ import annotations

from test_articles_checked import _figures, _recorded

from utils.lessons.articles_checked import claims, report, split_alone, verdicts

# the committed run's shape: section 3's median past 1x, section 5's median under it with one round past it
LAUNCH_ROUNDS = [
    {"where": "section 3", "rounds": [1.08, 1.02, 0.98, 1.05, 1.06], "verdict": "above the bound: a finding to explain"},
    {"where": "section 5", "rounds": [0.97, 1.006, 0.97, 0.91, 0.97], "verdict": "slower than one device: no speed-up; "
     "1 of 5 rounds above the bound (up to 1.01x): beyond the rounds' spread of the median (± 0.00): a finding to explain"},
    {"where": "section 8", "rounds": [1.02, 1.057, 0.99, 1.03, 0.97], "verdict": "within noise: no effect shown; 3 of 5 "
     "rounds above the bound (up to 1.06x): 1 of them beyond the rounds' spread of the median (± 0.02): a finding to "
     "explain"}]


def _split():
    return _recorded(1.05, 1.0, reference=1.03, lesson="02", launches=[1.05, 0.97, 1.02],
                     launch_spreads=[0.02, 0.0, 0.02], launch_rounds=LAUNCH_ROUNDS, rounds=LAUNCH_ROUNDS[0]["rounds"])


def test_each_launch_names_the_figure_that_holds_its_finding_a_median_or_a_round():
    said = split_alone.findings_text(_split().record)
    assert said == "section 3's median 1.05x, section 5's round 1.01x and section 8's round 1.06x"


def test_the_short_cell_keeps_which_figure_passed_in_a_launch_whose_median_is_under_1x():
    m = _figures(naive_split=_split(), pipeline=_recorded(1.6, 1.78), ddp=_recorded(1.6))
    for claim_id in ("A10", "B5"):
        row = verdicts.judge(claims.BY_ID[claim_id], m, {})
        assert row.check == verdicts.ABOVE
        assert "above the bound in every launch: a finding to explain in section 3's median 1.05x, section 5's " \
               "round 1.01x and section 8's round 1.06x" in report.short_cell(row)


def test_the_note_quotes_every_launch_of_the_split_not_one():
    said = split_alone.note_figure(_split().record)
    assert said.startswith("1.05x ± 0.02, 0.97x ± 0.00 and 1.02x ± 0.02 in 3 launches")
    assert "section 5's round 1.01x" in said


def test_the_note_quotes_the_median_where_the_ledger_keeps_one_launch():
    older = _recorded(1.08, 1.0)
    assert split_alone.note_figure(older.record).endswith("against a bound of 1.00x")
    assert "launch" not in split_alone.note_figure(older.record)


class _Row:
    def __init__(self, row_id):
        self.id, self.check = row_id, verdicts.ABOVE


def test_the_short_answer_counts_rows_above_a_bound_with_the_summary_rows_apart():
    rows = [_Row(i) for i in ("A10", "A17", "A19", "B5", "B18")]
    said = report.above_bound_answer(rows)
    assert said.startswith("3 rows above a bound in this run (A10, A19, B5), and the summary rows A17, B18 "
                           "through them: a finding to explain")
    assert report.above_bound_answer([_Row("A10")]).startswith("1 row above a bound in this run (A10): a finding")
