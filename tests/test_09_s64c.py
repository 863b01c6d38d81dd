"""Lesson 09's B15 (t26_0708 #3): the size lesson 08 probed its peaks at comes from its ledger record."""
from types import SimpleNamespace

from utils.lessons.articles_checked import verdicts


def _note(monkeypatch, results):
    seen = {}
    monkeypatch.setattr(verdicts, "_peak_part", lambda m, name, units, note: seen.setdefault("note", note))
    verdicts.b15({"results": results, "units": SimpleNamespace(bf16_units=True)})
    return seen["note"]


def test_b15_names_the_probe_size_lesson_08_recorded(monkeypatch):
    note = _note(monkeypatch, {"capstone": SimpleNamespace(record={"probe_size": 1024})})
    assert "lesson 08 times bf16 against fp32 on 1 thread and 1024³ matrices" in note and "512" not in note


def test_b15_says_so_where_the_ledger_keeps_no_size(monkeypatch):
    for results in ({"capstone": None}, {}, {"capstone": SimpleNamespace(record={})}):
        assert "not in the ledger: re-run lesson 08" in _note(monkeypatch, results)
