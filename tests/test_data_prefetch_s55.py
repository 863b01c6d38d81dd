"""Lesson 05, section 5 (sixteenth reading, items 1-2): the uint8 verdict judged with every round, and the
rounds said to read as the net verdict only where they do (utils/lessons/data_prefetch/plan.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from utils.lessons.data_prefetch import transfer
from utils.lessons.data_prefetch.plan import MODES, compression_outcome, images_row, rounds_agree
from utils.lessons.data_prefetch.report import gain_verdict, speedup_claim

MS = 1e-3


def rounds(float_ms, uint8_ms, convert_ms) -> transfer.Compression:
    """Section 5's paired rounds from their three times (ms), a batch 4x the bytes as float32."""
    return transfer.Compression(400, 100, float_link=[f * MS for f in float_ms],
                                uint8_link=[u * MS for u in uint8_ms], convert=[c * MS for c in convert_ms])


# the reader's run: 2.67x, 1.67x, 1.36x; 1.67x ± 1.00 (the ± reaches round 1), every round faster
SEEN = rounds([8.129, 5.229, 5.621], [1.219, 1.346, 1.486], [1.825, 1.788, 2.636])


def test_the_readers_rounds_are_what_the_page_printed():
    assert [f"{r:.2f}" for r in SEEN.ratios] == ["2.67", "1.67", "1.36"]
    assert f"{SEEN.speedup:.2f} ± {SEEN.spread:.2f}" == "1.67 ± 1.00"
    assert SEEN.rounds_faster == 3


def test_every_round_faster_is_not_noise_in_the_net_verdict():
    # without the rounds the ± covers 1x: the old "within noise" the reader found beside 3 of 3 rounds faster
    assert compression_outcome(SEEN.speedup, SEEN.spread) == "noise"
    assert compression_outcome(SEEN.speedup, SEEN.spread, SEEN.ratios) == "pays"
    verdict = gain_verdict(SEEN.speedup, SEEN.byte_ratio, SEEN.spread, "slower than float32",
                           rounds=SEEN.ratios)
    assert verdict == ("faster, under the bound: 22% of its gain (-11% to 56% across its ±, which reaches "
                       "below 1x) (every round above 1.00x)")
    # the other outcomes: rounds on both sides of 1x stay noise; every round slower reads slower
    straddling = [1.28, 1.19, 0.92]
    assert compression_outcome(1.19, 0.27, straddling) == "noise"
    slower = [0.70, 0.95, 0.97]
    assert compression_outcome(0.95, 0.25, slower) == "slower"
    assert compression_outcome(0.95, 0.25) == "noise"


def test_the_claims_row_judges_with_the_rounds():
    row = speedup_claim("uint8 + convert on the device (x float32)", SEEN.speedup, SEEN.byte_ratio,
                        SEEN.spread, "slower than float32", rounds=SEEN.ratios)
    assert not row.verdict.startswith("within noise") and row.verdict.startswith("faster, under the bound")
    assert row.verdict.endswith("(every round above 1.00x)")
    both_sides = speedup_claim("c", 1.19, 4.0, 0.27, "slower than float32", rounds=[1.28, 1.19, 0.92])
    assert both_sides.verdict == "within noise: no effect shown"


def test_the_recipes_images_row_follows_the_rounds():
    measured = (SEEN.speedup, SEEN.spread, SEEN.ratios)
    knob, *columns, why = images_row(measured, "cpu")
    assert "the bytes saved outweighed the conversion (every round above 1.00x)" in why
    assert "within noise" not in why and "either" not in why
    _, *columns, _ = images_row(measured, "1gpu")
    assert dict(zip(MODES, columns))["1gpu"] == "uint8, convert on the GPU (paid here)"
    # the rounds on both sides: noise, either; every round slower: float32, every round below 1x said
    assert "within noise" in images_row((1.19, 0.27, [1.28, 1.19, 0.92]), "cpu")[-1]
    slow = images_row((0.95, 0.25, [0.70, 0.95, 0.97]), "1gpu")
    assert dict(zip(MODES, slow[1:-1]))["1gpu"] == "float32 (uint8 slower here)"
    assert "(every round below 1.00x)" in slow[-1]
    # the two-figure form still reads as before: no rounds, the ± alone decides
    assert "within noise" in images_row((SEEN.speedup, SEEN.spread), "cpu")[-1]


@pytest.mark.parametrize("ratios, net, said, unsaid", [
    # the reader's run, after the fix: every round and the net verdict read faster
    (SEEN.ratios, "pays", "every round's own net figure (1.36x-2.67x) reads as the net verdict does "
                          "('faster'), so the net verdict does not rest on its median round", "alone"),
    # the reader's run before the fix: every round faster, the net verdict noise: never "reads as" it
    (SEEN.ratios, "noise", "reads 'faster' alone (its 2 % floor), the net verdict 'within noise': its ± (to "
                           "the farthest round) covers 1x", "reads as the net verdict does"),
    # each round within 2 % alone, all above 1x: the net verdict rests on their side, not on one round
    ([1.01, 1.015, 1.012], "pays", "figure (1.01x) reads 'within noise' alone (its 2 % floor), the net "
                                   "verdict 'faster': it rests on every round lying above 1x",
     "reads as the net verdict does"),
    # rounds that disagree with one another: each named, and how many read as the net verdict does
    ([0.95, 1.00, 1.10], "noise", "0.95x ('slower'), 1.00x ('within noise'), 1.10x ('faster')), do not all "
                                  "read the same way: 1 of 3 reads as the net verdict does ('within noise')",
     "does not rest"),
    ([0.70, 0.90, 0.95], "slower", "every round's own net figure (0.70x-0.95x) reads as the net verdict does "
                                   "('slower')", "alone"),
])
def test_rounds_agree_compares_each_round_with_the_net_verdict(ratios, net, said, unsaid):
    clause = rounds_agree(ratios, net)
    assert said in clause and unsaid not in clause


def test_the_net_verdict_and_rounds_agree_share_one_outcome_on_every_branch():
    # "reads as the net verdict does" only where each round alone gives the outcome the net line printed
    branches = (SEEN.ratios, [1.01, 1.015, 1.012], [0.95, 1.00, 1.10], [0.70, 0.90, 0.95], [1.3, 1.35, 1.4])
    for ratios in branches:
        c = transfer.Compression(400, 100, float_link=[r * MS for r in ratios], uint8_link=[0.5 * MS] * 3,
                                 convert=[0.5 * MS] * 3)
        net = compression_outcome(c.speedup, c.spread, c.ratios)
        each = {compression_outcome(r, 0.02 * r) for r in c.ratios}
        clause = rounds_agree(c.ratios, net)
        assert clause.startswith("every round's own net figure") == (len(each) == 1)
        assert ("does not rest on its median round" in clause) == (each == {net})


def test_lesson_05_passes_the_rounds_to_every_verdict_of_section_5():
    path = Path(__file__).resolve().parents[1] / "notebooks" / "05_data_prefetch.ipynb"
    code = [" ".join("".join(c["source"]).split()) for c in json.loads(path.read_text())["cells"]
            if c["cell_type"] == "code"]
    net = next(c for c in code if "COMPRESSION = gain_verdict(" in c)
    assert 'slower="slower than float32", rounds=squeeze.ratios)' in net
    assert "OUTCOME = compression_outcome(squeeze.speedup, squeeze.spread, squeeze.ratios)" in net
    assert "rounds_agree(squeeze.ratios, OUTCOME)" in net
    assert any("COMPRESSED = (squeeze.speedup, squeeze.spread, squeeze.ratios)" in c
               and "recipe(S, devices.cpu_cores(), COMPRESSED," in c for c in code)
    row = next(c for c in code if "uint8 + convert on the device (x float32" in c)
    assert "spread=squeeze.spread, rounds=squeeze.ratios)" in row and "rounds=rounds)" in row
