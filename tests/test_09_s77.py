"""Reader t38_09: lesson 09's contradictions (a median that is a finding explains no round, row B19's one ratio,
counts that say they overlap, the summary's hardware verdict) and two places a learner got lost (a count of
rounds past a reference that leads with them all; terms defined before use). Fabricated figures, shaped like
the committed run's."""

from __future__ import annotations

from types import SimpleNamespace

import nbformat

from utils.lessons.articles_checked import claims, reference_rounds, report, split_alone, verdicts
from utils.lessons.articles_checked.checks import AGREES, NOISY

# lesson 02 §3's split alone as the committed run kept it: 1.06x ± 0.02, its reference 1.03x itself within noise
SPLIT = {"value": 1.0553, "bound": 1.0, "reference": 1.03, "rounds": [1.0958, 1.0553, 0.9947, 1.0512, 1.0785],
         "reference_rounds": [1.08, 1.03, 0.98, 1.12, 1.03]}


def test_rounds_under_a_median_past_its_bound_beyond_its_spread_are_read_with_it():
    said = split_alone.split_rounds_words(SPLIT)
    assert said == "4 of 5 rounds above the bound (up to 1.10x), read with the median"
    assert "which explains" not in said  # a spread around a finding explains no round
    reading = split_alone.split_rounds_reading(SPLIT)
    assert "the 1.10x, 1.06x, 1.05x and 1.08x rounds stay findings to explain, read with the median," in reading


def test_rounds_under_a_median_within_noise_of_its_bound_are_still_read_by_the_spread():
    calm = SPLIT | {"value": 1.02, "rounds": [1.10, 1.04, 0.98, 1.00, 1.02]}  # 1.02 ± 0.02 reaches 1x
    said = split_alone.split_rounds_words(calm)
    assert "read with the median" not in said
    assert "beyond the rounds' spread of the median" in said


def test_row_b19s_verdict_and_evidence_print_one_ratio(monkeypatch):
    fewer = f"{claims.GPT3_PARAMETERS / claims.CNN_PARAMETERS:,.0f} times fewer than GPT-3"
    assert fewer == "405,957 times fewer than GPT-3"
    assert fewer in claims.BY_ID["B19"].why and "400,000" not in claims.BY_ID["B19"].why
    m = {"cnn": {"parameters": claims.CNN_PARAMETERS, "step_s": 0.02}, "plan": None, "hw": None}
    monkeypatch.setattr(verdicts, "one_worker_beside", lambda m: "")  # only the parameter clause is read here
    assert fewer in verdicts.b19(m)[0].text


def test_the_cnns_parameter_count_is_its_layer_shapes():
    from utils.models import ArticleCNN
    assert sum(p.numel() for p in ArticleCNN(seed=0).parameters()) == claims.CNN_PARAMETERS


def _row(id_, check, gap=False):
    evidence = f"x: {report.GAP_BETWEEN_RUNS}" if gap else "x"
    return SimpleNamespace(id=id_, check=check, evidence=evidence, why="")


def test_the_gap_list_says_its_rows_are_counted_by_their_checks_too():
    rows = [_row("B1", AGREES), _row("B4", AGREES, gap=True), _row("A21", NOISY, gap=True)]
    said = report.gaps_words(rows)
    assert said.endswith("each row is counted by its own check too): B4 (agrees), A21 (inconclusive: noise-bound)")
    assert report.gaps_words(rows[:1]) == ""


def test_the_summary_reads_the_hardware_rows_as_their_verdicts_give():
    ids = report.GROUPS[1][1]  # "how two GPUs talk": A5, A6, A18, A7, A8, A9
    verdict = [claims.BY_ID[i].verdict for i in ids]
    assert claims.FALSE not in verdict and verdict.count(claims.CONDITIONS) == 3
    text = "".join(c.source for c in nbformat.read("notebooks/09_articles_checked.ipynb", as_version=4).cells)
    assert "half hold" not in text
    assert "the course reads them as true, three of them only under conditions" in text


def test_the_count_of_rounds_past_a_reference_leads_with_all_of_them():
    record = {"value": 1.87, "bound": 1.78, "rounds": [2.02, 1.96, 1.87, 1.85, 1.81, 1.87, 1.86, 1.88, 1.9, 1.84,
                                                        1.87, 1.83, 1.89, 1.86, 1.87]}
    said = reference_rounds.past_reference_clauses(record, 1.94, "that reference")
    assert said[0].startswith("2 of its 15 rounds past that reference too: 1 (2.02x), beyond the rounds' spread")
    assert said[1].startswith("1 (1.96x), beyond the rounds' spread but within the reference + that spread")
    one = reference_rounds.past_reference_clauses(record | {"rounds": record["rounds"][:1] + record["rounds"][2:]},
                                                  1.94, "that reference")
    assert one[0].startswith("1 of its 14 rounds past that reference too (2.02x), beyond")


def test_cell_0_defines_its_terms_at_their_first_use():
    cell = nbformat.read("notebooks/09_articles_checked.ipynb", as_version=4).cells[0].source
    for term in ("per-process reference", "launches"):
        assert cell.index(f"*{term}*") + 1 == cell.index(term), term
    assert cell.index("*work-scaled reference*") < cell.index("the work-scaled reference + the spread")
    assert "- *gloo*:" in cell and "- *Prefetcher*:" in cell and "`make bench`" in cell
