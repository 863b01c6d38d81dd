"""Lesson 02, twenty-seventh reading, second pass (t27_02): fabricated figures; no timing."""

import json
from pathlib import Path

from utils import devices, ledger
from utils.lessons.model_split import report, runs

ROOT = Path(__file__).resolve().parents[1]


def _row(speedups, batch=32, process_bounds=()):
    """A naive-split row whose paired rounds are ``speedups`` (its median and ± come from them)."""
    return runs.Row(batch, 1, "naive", 0.1, 0.1, [0.05, 0.05], naive=True, speedups=list(speedups),
                    alone=[0.05, 0.05] if process_bounds else [], process_bounds=list(process_bounds))


# --- lesson 09's request: each launch's paired rounds in the naive split's ledger record --------------------


def test_the_naive_split_record_carries_each_launchs_rounds(monkeypatch, tmp_path):
    """Three launches of one step: ``launch_rounds`` names each launch and keeps its paired rounds in order,
    beside the fields the record already had (value, bound, rounds, launches, launch_spreads)."""
    monkeypatch.setenv(ledger.ENV, str(tmp_path))
    launches = [("section 3", "a", _row([1.00, 1.02, 1.04, 1.08, 1.09])),
                ("section 5", "b", _row([0.92, 0.93, 0.95, 0.97, 0.99])),
                ("section 8", "c", _row([0.96, 0.97, 1.01, 1.05, 1.06]))]
    ledger.record("naive_split_speedup", 1.04, "x", bound=1.0, lesson="02", rounds=[1.0, 1.04],
                  **report.launch_fields(launches))
    got = ledger.figure("naive_split_speedup", mode=devices.mode())
    assert got["launch_rounds"] == [{"where": "section 3", "rounds": [1.00, 1.02, 1.04, 1.08, 1.09]},
                                    {"where": "section 5", "rounds": [0.92, 0.93, 0.95, 0.97, 0.99]},
                                    {"where": "section 8", "rounds": [0.96, 0.97, 1.01, 1.05, 1.06]}]
    assert (got["value"], got["bound"], got["rounds"]) == (1.04, 1.0, [1.0, 1.04])
    assert (got["launches"], got["launch_spreads"]) == ([1.04, 0.95, 1.01], [0.03, 0.02, 0.04])
    # JSON as written: a reader gets plain lists and strings
    assert json.loads(json.dumps(got["launch_rounds"])) == got["launch_rounds"]


def test_a_single_launch_gives_one_entry():
    assert report.launch_fields([("section 3", "a", _row([1.0, 1.1, 1.2]))])["launch_rounds"] == [
        {"where": "section 3", "rounds": [1.0, 1.1, 1.2]}]
