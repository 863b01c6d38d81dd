"""Lesson 02, the thirty-first reading (t31_02 #2, #3): the summary's first row labels its list for what it
holds, the rounds that stay findings (not every round past the spread); section 3's block names a round past
the spread that its own round's reference reaches apart ("explained by its own round's reference") and says
"no cause to read" only of the median and the rounds the spread covers, as cell 15 now defines it.
Fabricated rounds, CPU only; each branch."""

import nbformat
from pathlib import Path

from utils.lessons.model_split import report  # noqa: I001 (report loads first: naive reads it)
from utils.lessons.model_split import naive, noise, runs


def _naive(speedups, references):
    return runs.Row(32, 1, "naive", 0.112, 0.1135, [0.055, 0.058], naive=True, speedups=list(speedups),
                    process_bounds=list(references), cpu=[0.05, 0.05], baseline_cpu=0.11, alone=[0.0534, 0.0584])


# 0.99x ± 0.04: rounds 1 (1.13x) and 4 (1.06x) past 0.99 + 0.04 = 1.03; round 1 past its own reference
# (1.13 / 1.07 = 1.06, past 0.99 + 0.03), round 4 not (1.06 / 1.06 = 1.00)
ONE_EACH = _naive([1.13, 0.98, 0.95, 1.06, 0.99], [1.07, 1.06, 1.01, 1.06, 0.995])


def test_the_summary_label_names_what_its_list_holds():
    verdict = naive.launches_claim("x", [("section 3", "a", ONE_EACH)]).verdict
    assert verdict.endswith("; a round that stays a finding to explain (past the spread, reached by no reference): "
                            "section 3 1.13x"), verdict
    assert "rounds past the spread" not in verdict
    # two findings: plural
    both = _naive([1.13, 0.98, 0.95, 1.12, 0.99], [1.07, 1.06, 1.01, 1.01, 0.995])
    verdict = naive.launches_claim("x", [("section 3", "a", both)]).verdict
    assert verdict.endswith("; rounds that stay findings to explain (past the spread, reached by no reference): "
                            "section 3 1.13x and 1.12x"), verdict


def test_a_round_its_own_reference_reaches_is_named_apart_from_no_cause_to_read():
    assert noise.rounds_past_reference(ONE_EACH, ONE_EACH.process_bounds) == [1]
    assert noise.reached_by_own_reference(ONE_EACH, ONE_EACH.process_bounds) == [4]
    block = report.naive_process_reading(ONE_EACH)
    assert block.endswith("a finding to explain; round 4: explained by its own round's reference; the median and "
                          "rounds 2, 3 and 5: no cause to read."), block
    assert "the other 4 rounds" not in block


def test_without_a_finding_the_reached_rounds_are_still_named():
    # round 1 (1.25x) past 1.09 + 0.02 but reached by its own reference (1.25 / 1.25 = 1.00, the ratios' median)
    row = _naive([1.25, 1.08, 1.05, 1.10, 1.09], [1.25, 1.10, 1.10, 1.08, 1.09])
    assert noise.rounds_past_reference(row, row.process_bounds) == []
    said = noise.reference_reading(row, row.process_bounds, "no cause to read")
    assert said.endswith("under it): round 1: explained by its own round's reference; the median and rounds 2, 3, "
                         "4 and 5: no cause to read"), said
    # "explained by the reference" already covers the round its own reference reaches: said of the whole split
    whole = noise.reference_reading(row, row.process_bounds, "explained by the reference")
    assert whole.endswith("under it): explained by the reference"), whole


def test_nothing_past_the_spread_keeps_the_short_form():
    row = _naive([1.00, 0.98, 0.95, 1.00, 0.99], [1.01, 1.00, 0.95, 1.00, 0.995])
    assert noise.reached_by_own_reference(row, row.process_bounds) == []
    assert noise.reference_reading(row, row.process_bounds, "no cause to read").endswith("): no cause to read")


def test_a_round_past_the_spread_that_no_reference_reaches_is_left_out_of_no_cause_to_read():
    # t33_02 (other): 1.01x lies past 0.99 + 0.01 = 1.00 and the closing names it a finding, so "no cause to
    # read" is said of the median and the 4 rounds within the spread only
    row = _naive([1.01, 0.98, 0.95, 1.00, 0.99], [1.01, 1.00, 0.95, 1.00, 0.995])
    assert noise.reached_by_own_reference(row, row.process_bounds) == []
    said = noise.reference_reading(row, row.process_bounds, "no cause to read")
    assert said.endswith("under it); the median and the 4 rounds within the spread: no cause to read"), said
    assert "a finding to explain" in report.naive_closing(row)


def test_a_reference_within_noise_of_1x_explains_no_round():
    weak = _naive([1.13, 0.98, 0.95, 1.06, 0.99], [1.01, 0.95, 1.04, 1.06, 0.97])
    assert noise.reference_in_noise_of_one(weak.process_bounds)
    assert noise.reached_by_own_reference(weak, weak.process_bounds) == []


def test_cell_15_defines_no_cause_to_read_and_the_reached_round():
    nb = nbformat.read(Path(__file__).resolve().parents[1] / "notebooks/02_model_split.ipynb", 4)
    text = " ".join(nb.cells[15].source.split())
    assert '"explained by its own round\'s reference"' in text
    assert 'read "no cause to read"' in text
    assert "how many rounds lie on each side does not decide it" in text
