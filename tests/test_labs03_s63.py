"""Labs 00-03, reading t25_labs03. Lab 02: a timing on held cores judges nothing (check 3 neither passes nor
fails the choice on it, the take-away reads no miss from it, #1); check 3's share says it is the paired rounds'
median (#2); the largest m among the fastest says something only where fewer micro-batches ran slower (#3).
Every branch on fabricated figures."""

from __future__ import annotations

from tests.test_lab_balance_the_pipeline import PROFILE, _fake_measure, _steps, choose_config, predict_speedup
from utils import checks
from utils.labs.balance_the_pipeline import checks as lab
from utils.lessons.model_split import runs

ROUNDS = [1.10, 1.15, 1.18, 1.20, 1.22, 1.25, 1.30]


def _said(text):
    return " ".join(text.split())


def _whole(p):
    """The take-away and its collapsed block: what the cell prints, visible or collapsed."""
    return lab.take_away(p) + "\n" + lab.take_away_detail(p)


def _row(m, speedups=ROUNDS, cpu=(0.5, 0.5)):
    return runs.Row(4096, m, "1f1b", 1.0, 1.0, [0.5, 0.5], split_points=(10,), cpu=list(cpu), speedups=speedups)


def _run(rows, mine=0, fastest=0, cpu=(0.5, 0.5)):
    rows = [_row(m, s, cpu) for m, s in rows]
    predicted = {r.key: 1.20 for r in rows}
    return lab.Pipelined(rows[mine], rows, rows[fastest], 1.0, lab.MIN_MARGIN, predicted, False, "")


def test_held_cores_judge_nothing_even_where_the_choice_ran_fastest(monkeypatch):
    monkeypatch.setattr(lab, "measure_pipeline", _fake_measure(_steps(), busy=0.3))
    verdict, p = lab.check_pipelined(choose_config, predict_speedup, PROFILE)
    said = _said(verdict.message)
    assert verdict.status == checks.PASSED and "does not judge your choice; check 2 did" in said
    assert "ran only 30% of the time" in said and "no configuration measured here ran faster" not in said
    take = _said(_whole(p))
    assert "Pipelining paid here" in take and ", though the workers' threads ran only 30%" in take
    assert "not judged, here or at any other m timed (the cores were held" in take and "a miss" not in take


def test_free_cores_judge_and_the_take_away_reads_the_model():
    p = _run([(8, ROUNDS)], cpu=(0.5, 0.5))  # cpu / busy: 100%
    assert not lab.cores_held(p)
    assert "not judged" not in _said(_whole(p)) and "within the rounds' noise" in _said(_whole(p))
    p = _run([(8, ROUNDS)], cpu=(0.35, 0.5))  # 70%: at the line, not under it
    assert not lab.cores_held(p)
    p = _run([(8, ROUNDS)], cpu=(0.34, 0.5))  # 68%
    assert lab.cores_held(p) and "not judged" in _said(_whole(p))


def test_the_share_says_it_is_the_paired_rounds_median(monkeypatch):
    steps = _steps()
    monkeypatch.setattr(lab, "measure_pipeline", _fake_measure(lambda c: steps(c) * (0.78 if c.m == 8 else 1)))
    verdict, _ = lab.check_pipelined(choose_config, predict_speedup, PROFILE)
    assert verdict.status == checks.PASSED
    assert ("round by round (the median of the 7 paired rounds' ratios, not one median over the other: a busy "
            "round slows both alike) you reached") in _said(verdict.message)


def test_the_largest_m_among_the_fastest_says_only_what_the_rounds_tell():
    every = _run([(8, ROUNDS), (16, ROUNDS), (32, ROUNDS)])  # every m ties
    said = _said(_whole(every))
    assert "Every m timed ties: this run does not tell whether the bubble or one more micro-batch" in said
    assert "the bubble still cost more" not in said
    assert "The paired rounds cannot tell m=8, m=16 and m=32 apart: they tie for the fastest" in said
    slow = [0.50, 0.52, 0.53, 0.55, 0.56, 0.58, 0.60]
    told = _run([(2, slow), (8, ROUNDS), (16, ROUNDS)], mine=1, fastest=1)  # m=2 slower in every round
    said = _said(_whole(told))
    assert "fewer micro-batches ran slower: the bubble still cost more than a micro-batch" in said
    assert "Every m timed ties" not in said
    alone = _run([(8, ROUNDS)])  # one m timed: nothing to say of the bubble
    said = _said(_whole(alone))
    assert "bubble still cost" not in said and "Every m timed ties" not in said


def test_the_quiz_gate_opens_only_once_every_check_ran_passed(monkeypatch):
    monkeypatch.setattr(checks, "HISTORY", {})
    assert not checks.all_passed()  # nothing ran yet
    checks.HISTORY["a"] = checks.Verdict("a", checks.PASSED, "")
    assert checks.all_passed()
    checks.HISTORY["b"] = checks.Verdict("b", checks.FAILED, "")
    assert not checks.all_passed()
