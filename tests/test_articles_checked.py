"""Lesson 09, the articles checked: every claim has its row, its verdict from the fixed set and evidence
from a run (or says what would test it); the code blocks fail as written and run as fixed; README agrees."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F

from utils import devices, ledger
from utils.lessons.articles_checked import claims, evidence, report, snippets, verdicts

ROOT = Path(__file__).resolve().parents[1]
# Kept here, apart from claims.py: a claim removed there fails this test instead of vanishing.
EXPECTED_IDS = [f"A{k}" for k in range(1, 18)] + [f"B{k}" for k in range(1, 19)]


def test_every_claim_of_both_articles_has_one_row_in_one_group_with_a_verdict_from_the_set():
    assert claims.IDS == EXPECTED_IDS
    grouped = [i for _, ids in report.GROUPS for i in ids]
    assert sorted(grouped) == sorted(EXPECTED_IDS) and len(grouped) == len(set(grouped))
    assert all(c.verdict in claims.VERDICTS and c.says and c.why and c.lesson for c in claims.CLAIMS)
    assert all(len(ids) <= 8 for _, ids in report.GROUPS)  # a headline table: at most 8 rows
    assert set(verdicts.EVIDENCE) == set(EXPECTED_IDS)


def test_an_average_pool_folds_into_a_strided_convolution_and_a_max_pool_does_not():
    torch.manual_seed(1)
    conv, x = torch.nn.Conv2d(2, 3, 3, padding=1), torch.randn(2, 2, 16, 16)
    folded = evidence.fold_avgpool(conv)
    with torch.no_grad():
        assert torch.allclose(folded(x), F.avg_pool2d(conv(x), 2), atol=1e-5)
        assert not torch.allclose(folded(x), F.max_pool2d(conv(x), 2), atol=1e-2)


def test_results_come_from_the_ledger_first_then_the_benchmarks_file_and_name_their_hardware(monkeypatch, tmp_path):
    monkeypatch.setenv(ledger.ENV, str(tmp_path))
    record, where = evidence.results_figure("ddp_speedup", "ddp", "03")
    assert record is not None and where.startswith("make bench 'ddp', ")  # the committed bench file
    assert ("this machine" in where) != ("another machine: CPU" in where)  # it says which
    ledger.record("ddp_speedup", 1.8, "x", bound=2.0, lesson="03", mode=devices.mode())
    record, where = evidence.results_figure("ddp_speedup", "ddp", "03")
    assert record["value"] == 1.8 and where.startswith("lesson 03, this machine")
    assert json.loads(ledger.path().read_text())["figures"]["ddp_speedup"]["bound"] == 2.0
    none, what = evidence.results_figure("nothing", "nothing", "07")
    assert none is None and what.startswith("run lesson 07 first")


def test_the_hardware_label_loses_only_the_isa_bracket():
    assert evidence.short("CPU AMD EPYC (AVX512; AVX512-VNNI (int8)), 2 cores, no GPU") == "CPU AMD EPYC, 2 cores, no GPU"
    assert evidence.short("1 x GPU (NVIDIA H200); CPU X (AVX2), 8 cores") == "1 x GPU (NVIDIA H200); CPU X, 8 cores"


@pytest.fixture(scope="module")
def measured():
    return verdicts.measure(devices.plan(2))


@pytest.mark.slow
def test_every_verdict_but_not_testable_carries_a_figure_or_an_error_from_the_run(measured):
    rows = verdicts.rows(measured)
    assert [r[0] for r in rows] == EXPECTED_IDS
    for cid, _, verdict, text, source in rows:
        if verdict == claims.NOT_TESTABLE:
            assert "would" in text or "needs" in source, cid  # says what would test it
        else:
            assert re.search(r"\d|Error", text), (cid, text)
    assert all(len(line) <= 110 for _, ids in report.GROUPS
               for line in report.group_table(_, ids, rows).to_text().splitlines())


@pytest.mark.slow
def test_the_code_blocks_stop_as_written_and_run_when_fixed(measured):
    split = measured["split"]
    assert all("Error" in step for step in split[:3]) and split[-1].endswith("runs, output (100, 32)")
    assert measured["os"].startswith("NameError: name 'os'")
    walk = measured["ddp"]
    assert walk[-1][0] == "ran" and "each rank its own batches" in walk[-1][1]
    assert any("no attribute 'step'" in text for _, text in walk)  # DDP has no step(): the optimizer steps


def test_readme_holds_the_claims_table_as_the_lesson_generates_it():
    readme = (ROOT / "README.md").read_text()
    assert report.readme_markdown() in readme, "README's claims table is stale: paste report.readme_markdown()"


def test_the_committed_lesson_shows_every_claim():
    nb = json.loads((ROOT / "notebooks" / "09_articles_checked.ipynb").read_text())
    text = "".join("".join(o.get("data", {}).get("text/plain", "")) for c in nb["cells"] for o in c.get("outputs", []))
    assert all(re.search(rf"^{i}\s", text, flags=re.M) for i in EXPECTED_IDS)
