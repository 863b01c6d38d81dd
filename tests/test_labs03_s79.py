"""Reading t40 (labs 00-03), fixer 79: each lab's take-away shows one answer, the rest one click away.
Lab 02: the visible take-away is the verdict alone (did pipelining pay); the ±, which m won and the learner's
model go in the collapsed block (t39/t40: three answers to one question). Lab 00: "Where to cut" answers which
cut each link picks; how this run's link ranks the two leading cuts goes in a collapsed block. Lab 03: quiz 4
defines error feedback where it uses the term."""

from __future__ import annotations

import tomllib
from pathlib import Path
from types import SimpleNamespace

from utils.labs.balance_the_pipeline import checks as pipeline
from utils.labs.fix_the_article import checks as article  # first: report.py is imported from checks.py
from utils.labs.fix_the_article import report
from utils.lessons.model_split import runs


def _said(text):
    return " ".join(text.split())


def _pipelined():
    row = lambda m, speedups: runs.Row(4096, m, "gpipe", 1.0, 1.0, [0.5, 0.5], split_points=(10,),  # noqa: E731
                                       speedups=speedups)
    rows = [row(8, [1.20, 1.24, 1.26, 1.26, 1.27, 1.30, 1.31]), row(16, [1.52, 1.57, 1.59, 1.61, 1.63, 1.66, 1.70]),
            row(64, [0.70, 0.73, 0.75, 0.76, 0.78, 0.80, 0.82])]
    predicted = dict(zip((r.key for r in rows), (1.19, 1.44, 0.88)))
    return pipeline.Pipelined(rows[1], rows, rows[1], 1.0, pipeline.MIN_MARGIN, predicted, False, "")


def test_lab02_take_away_shows_only_whether_pipelining_paid():
    p = _pipelined()
    shown, detail = _said(pipeline.take_away(p)), _said(pipeline.take_away_detail(p))
    assert shown == "Pipelining paid here: your choice ran 1.61x one worker (± 0.05)."
    for moved in ("The ± is the rounds' noise", "The fastest measured here",
                  "Your model predicted 1.44x for your choice"):
        assert moved not in shown and moved in detail, moved
    assert detail.startswith("The ± is the rounds' noise") and "in the block below" not in detail


def test_lab02_take_away_that_did_not_pay_is_one_sentence_too():
    p = _pipelined()
    slow = runs.Row(4096, 16, "gpipe", 1.0, 1.0, [0.5, 0.5], split_points=(10,),
                    speedups=[0.80, 0.85, 0.90, 0.95, 1.00, 1.02, 1.05])
    p = pipeline.Pipelined(slow, [slow], slow, 1.0, pipeline.MIN_MARGIN, {slow.key: 1.2}, False, "")
    shown = _said(pipeline.take_away(p))
    assert shown.startswith("Pipelining did not clearly pay in this run: your choice ran 0.95x one worker")
    assert shown.count(". ") == 0 and "The ± is" in pipeline.take_away_detail(p)


def test_lab00_where_to_cut_answers_and_leaves_the_ranking_to_the_block(monkeypatch):
    cut = SimpleNamespace(bytes_per_step=262_144, messages=[SimpleNamespace(nbytes=262_144)])
    monkeypatch.setattr(report, "judging_links", lambda link: {"this run's link": link, "NVLink": link})
    monkeypatch.setattr(report, "_best_cut", lambda plan, link, runs: (1, cut))
    monkeypatch.setattr(report, "_ranking_note", lambda plan, link, runs, timed=None:
                        " On this run's link the model gives cut 3 (177 µs) 1.09x the time of cut 1 (163 µs).")
    line = report.link_choice_line(None, {})
    assert line.endswith("the same traffic won on every link here.") and "On this run's link the model" not in line
    assert article.ranking_detail(None, {}, {}).startswith("On this run's link the model gives cut 3")


def test_lab03_quiz_defines_error_feedback_where_it_uses_the_term():
    quiz = tomllib.loads(Path("utils/labs/ddp_from_scratch/quiz.toml").read_text())["question"]
    prompt = next(q["prompt"] for q in quiz if "error feedback" in q["prompt"])
    assert "Without error feedback (each step's rounding error kept and added to the next step's gradient)" in prompt
