"""Lessons 05 and 06, twenty-ninth reading (t29_0506): one verdict for checkpointing's cost, the medians set
beside the paired rounds where they point opposite ways, and the link's ceiling read with its own rounds."""

import json
from pathlib import Path

import pytest

from utils.lessons.data_prefetch import transfer
from utils.lessons.memory import forward_bound as fb

NOTEBOOKS = Path(__file__).parents[1] / "notebooks"


def _code(name: str) -> str:
    notebook = json.loads((NOTEBOOKS / name).read_text())
    return "\n".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code")


# t29_0506 #1: the details' parts follow the headline's verdict, not a fixed 10 % band of their own

@pytest.mark.parametrize("ratio, noise, meets", [
    (1.27, 0.07, True),    # 18.06 ms over 22.7: 0.80 of a forward, within ± 4.7 ms (21 %): as predicted
    (1.27, 0.0, False),    # the same share with no noise: past the 10 % floor, less than a forward
    (1.34, 0.0, True),     # 22.75 ms: one forward
    (1.50, 0.02, False),   # 33.45 ms: more than a forward
    (1.10, 0.02, False),   # 6.69 ms: less than a forward
])
def test_the_details_follow_the_headlines_verdict_on_every_outcome(ratio, noise, meets):
    step, forward = 0.0669, 0.0227
    said = fb.ratio_in_forwards(ratio, step, forward, forward, noise * step)
    assert fb.ratio_meets_forward(ratio, step, forward, forward, noise * step) is meets
    assert said.endswith("as predicted") is meets


def test_section_2_decides_the_parts_paragraph_from_the_headlines_verdict():
    code = _code("06_memory.ipynb")
    assert "paid < 0.9" not in code
    assert "if not ratio_meets_forward(full_x, plain_step, *FORWARD_RANGE, noise_seconds(full_noise, plain_step))" \
        in code
    assert 'print(fill(f"Checkpointing\'s extra time: {cost}{S.label}."))' in code   # a measured line, labelled


# t29_0506 #2: full's median over selective's against the rounds paired directly

def test_medians_pointing_against_the_paired_rounds_within_noise_are_reconciled():
    said = fb.medians_against_pairs(0.0850, 0.0843, 0.94, 0.06)
    assert said == ("Full's paired reading / selective's, 85.0 / 84.3 = 1.01x, points the other way from the "
                    "rounds paired directly (full's step / selective's: 0.94x ± 0.06): medians of different pairs "
                    "need not agree; both lie within that ± of 1x, so neither step is shown the faster.")


def test_medians_against_paired_rounds_beyond_noise_defer_to_the_pairs():
    said = fb.medians_against_pairs(0.0850, 0.0843, 0.90, 0.03)
    assert said.endswith("the paired rounds, the figure the verdict reads, are the one to go by.")
    assert "= 1.01x" in said and "0.90x ± 0.03" in said


@pytest.mark.parametrize("full, sel, gain", [
    (0.0850, 0.0843, 1.03),   # both: selective faster
    (0.0843, 0.0850, 0.94),   # both: selective slower
    (0.0850, 0.0850, 0.94),   # the medians flat: no direction to contradict
    (0.0850, 0.0843, 1.00),   # the pairs flat
])
def test_medians_agreeing_with_the_paired_rounds_add_nothing(full, sel, gain):
    assert fb.medians_against_pairs(full, sel, gain, 0.06) == ""


def test_section_2_sets_the_medians_beside_the_paired_rounds():
    assert "medians_against_pairs(full_step, sel_step, gain, noise)" in _code("06_memory.ipynb")


# t29_0506 #3: a close fit speaks for the model on its own sizes; the ceiling is read with the link's rounds

CLOSE = {2**16: 0.08, 2**20: -0.10}


def test_a_close_fit_beside_rounds_above_the_bound_within_noise_neither_keeps_nor_breaks_it():
    said = transfer.fit_reading(CLOSE, 4.0, link_verdict="above the bound, within noise: its ± covers it, "
                                                         "no breach shown")
    assert said.endswith("within 10%, so the fit supports that model on its own sizes; the link alone's rounds "
                         "(above) neither confirm nor break its ceiling, the bytes' ratio, 4x")
    assert "stands" not in said


def test_a_close_fit_beside_rounds_past_the_bound_does_not_keep_the_ceiling():
    said = transfer.fit_reading(CLOSE, 4.0, link_verdict="above the bound: a finding to explain (beyond its ±)")
    assert said.endswith("read past its ceiling, the bytes' ratio, 4x: not one this link was shown to keep")


@pytest.mark.parametrize("verdict", ["at or under the bound in every round, as alpha + n/beta allows",
                                     "at the bound (within noise): its ± covers it, no breach shown",
                                     "under the bound beyond its ±, as alpha + n/beta allows"])
def test_a_close_fit_beside_rounds_at_or_under_the_bound_keeps_the_ceiling(verdict):
    assert transfer.fit_reading(CLOSE, 4.0, link_verdict=verdict).endswith("4x, stands as its ceiling")


def test_a_loose_fit_keeps_no_ceiling_whatever_the_rounds():
    loose = {2**16: 0.69, 2**20: -0.26}
    for verdict in ("", "above the bound, within noise: ...", "at or under the bound in every round, ..."):
        assert transfer.fit_reading(loose, 4.0, link_verdict=verdict).endswith("not one this link was shown to keep")


def test_section_5_reads_the_ceiling_with_the_link_alones_rounds():
    assert "link_verdict=link_ratio_verdict(squeeze)" in _code("05_data_prefetch.ipynb")
