"""Lesson 09, the thirty-sixth reading (t36_09 #1): a figure from a loaded machine (not evidence either way) hides
neither a contradiction nor a finding from the figures that were not disturbed: ``checks.all_hold`` reads every
figure, says a contradiction first, then a finding (``AboveBound``), and only then "inconclusive". Fabricated
figures."""

from __future__ import annotations

import pytest
from test_articles_checked import _figures, _recorded

from utils.lessons.articles_checked import checks, claims, report, verdicts

BUSY = dict(cpu_busy=[0.65, 0.79])  # lesson 02 §5's pipeline, marked loaded
QUIET = dict(cpu_busy=[1.04, 1.02])
PAST = [1.94, 1.96, 1.99, 2.01, 2.02]  # median 1.99, past a 1.78x bound beyond its spread, no reference kept


def _raise(error):
    def read():
        raise error("x")
    return read


@pytest.mark.parametrize("reads, expected", [
    ((_raise(checks.Busy), lambda: False), False),  # a contradiction after a busy figure is said
    ((_raise(checks.Busy), _raise(checks.AboveBound)), checks.AboveBound),  # so is a finding
    ((_raise(checks.Noisy), _raise(checks.AboveBound)), checks.AboveBound),
    ((lambda: True, _raise(checks.Busy), _raise(checks.Noisy)), checks.Busy),  # the first inconclusive answer
    ((_raise(checks.Missing), lambda: True), checks.Missing),
    ((lambda: True, lambda: True), True),
])
def test_all_hold_reads_past_an_inconclusive_figure(reads, expected):
    if isinstance(expected, bool):
        assert checks.all_hold(*reads) is expected
    else:
        with pytest.raises(expected):
            checks.all_hold(*reads)


def _a19(schedule) -> verdicts.Row:
    m = _figures(pipeline=_recorded(1.17, 1.6, **BUSY), ddp=_recorded(1.78, 1.92),
                 interleaved_1f1b=schedule)
    return verdicts.judge(claims.BY_ID["A19"], m, {}), m


def test_a19_says_an_undisturbed_schedule_past_its_bound_before_a_busy_pipeline():
    row, m = _a19(_recorded(1.99, 16 / 9, rounds=PAST, **QUIET))
    assert row.check == verdicts.ABOVE, row.check
    assert report.check_counts([row])[verdicts.ABOVE] == ["A19"]


def test_a19_stays_inconclusive_where_only_the_busy_figure_could_decide():
    row, _ = _a19(_recorded(1.70, 16 / 9, **QUIET))  # within its bound: the busy pipeline is all that is left
    assert row.check == verdicts.BUSY, row.check
