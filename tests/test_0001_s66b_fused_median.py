"""Twenty-eighth reading (t28_09 #5), lesson 01 §5: a pair's speed-up is the median of its rounds' own ratios ±
their spread, the ± beside the figure it was measured around ("2.90x ± 0.81" set it beside the fastest times'
ratio, while the rounds' median was 3.43x, which lesson 09 quotes). The fastest times' ratio is printed only in
the details, labelled, with no ±; the ledger keeps both (``value`` the median, ``fastest`` the ratio).
Fabricated pairs throughout."""

from __future__ import annotations

import json
from pathlib import Path

import torch

from utils import ledger
from utils.lessons.why_slow import algorithms_report, fused_ledger, report
from utils.lessons.why_slow.algorithms import Comparison

ROOT = Path(__file__).resolve().parents[1]
ROUNDS = (2.24, 2.9, 3.43, 4.1, 5.03)  # median 3.43, middle half 2.90-4.10: ± 0.60


def gelu(slow_ms=10.1, fast_ms=3.16, rounds=ROUNDS, fast="gelu_fused"):
    """10.1 / 3.16 = 3.20x from the two fastest times; its rounds' median 3.43x (within the 10% edge of it: the
    rounds agree, t34_0001 #1)."""
    return Comparison("GELU", "gelu_op_by_op", fast, slow_ms * 1e-3, fast_ms * 1e-3, 2e-7, "20 of 22",
                      round_ratios=tuple(rounds), ceiling=11.0)


def test_the_speed_up_is_the_rounds_median_and_the_fastest_times_ratio_is_kept_apart():
    c = gelu()
    assert f"{c.fastest_ratio:.2f}" == "3.20" and c.speedup == c.fastest_ratio  # lesson 09 reads the old name
    assert (c.median, c.spread) == (3.43, 0.60)
    assert algorithms_report.speedup_text(c) == "3.43x (middle half 2.90x-4.10x)"  # one range, its rounds' middle half (t33_0001 #1)
    assert "24% of its gain" in c.verdict  # (3.43 - 1) / (11 - 1), from the median, not (3.20 - 1) / 10 = 22%


def test_the_median_is_worked_from_the_rounds_as_printed_half_up():
    even = gelu(rounds=(3.0, 3.204, 3.246, 3.5))  # printed 3.20 and 3.25 in the middle: 3.225, printed 3.23
    assert even.median == 3.23
    assert gelu(rounds=(3.0, 3.5, 4.0)).spread == 0.50  # 3 rounds: half their whole range


def test_a_pair_without_rounds_reads_its_fastest_times_ratio_with_no_spread():
    c = gelu(rounds=())
    assert (c.median, c.spread) == (3.20, 0.0) and algorithms_report.speedup_text(c) == "3.20x"


def test_the_verdict_reads_the_median_not_the_fastest_times_ratio():
    # the fastest times say 1.30x, the rounds spread round 1.02x: within noise, no effect shown
    noisy = Comparison("x", "slow", "fast", 1.3e-3, 1e-3, 0.0, round_ratios=(0.9, 1.0, 1.02, 1.1, 1.2))
    assert noisy.verdict == "within noise: no effect shown" and not noisy.faster
    # the fastest times say 0.98x, every round 1.50x: faster
    clear = Comparison("x", "slow", "fast", 0.98e-3, 1e-3, 0.0, round_ratios=(1.48, 1.49, 1.5, 1.51, 1.52))
    assert clear.verdict == "faster than the baseline" and clear.faster


def test_the_headline_and_sentences_put_the_spread_beside_the_median_only():
    c = gelu()
    row = algorithms_report.comparison_rows([c])[0]
    assert row[2] == "3.43x (middle half 2.90x-4.10x)" and "rounds' median" in algorithms_report.COMPARISON_COLUMNS[2]
    said = algorithms_report.algorithms_sentence([c])
    assert "3.43x (middle half 2.90x-4.10x) beside a bytes ceiling of 11.00x" in said and "fastest" not in said  # the fastest times' ratio (3.20x) is the details'
    assert "the median of the rounds' own ratios, slow over fast within one round, with their middle half" in said
    assert "fastest round against fastest round" not in said
    fused = algorithms_report.fused_bandwidth_sentence(c, 16 * 2**20, 18.7e9)
    assert "it gave 3.43x (middle half 2.90x-4.10x): faster, under the bytes ceiling" in fused and "3.20x ±" not in fused


def test_the_details_label_the_fastest_times_ratio_and_list_every_round():
    table = algorithms_report.comparison_table([gelu(), gelu(rounds=())])
    assert "fastest times' ratio" in table.columns and "±" not in table.to_text()
    assert [dict(zip(table.columns, row))["fastest times' ratio"] for row in table.rows] == ["3.20x", "3.20x"]
    said = report.rounds_sentence([gelu(), gelu(rounds=(), fast="compiled GELU")])
    assert said == ("Each round's own ratio, slow over fast in that round (the speed-up is their median; its range "
                    "their middle half, or where the rounds disagree, the range that is known): "
                    "GELU, gelu_fused: 2.24x, 2.90x, 3.43x, 4.10x, 5.03x: median 3.43x (middle half 2.90x-4.10x); "
                    "GELU, compiled GELU: none kept.")


def test_the_chains_noise_is_the_spread_over_the_median():
    assert algorithms_report.chain_noise(gelu()) == 0.17  # 0.60 / 3.43 = 0.1749..., not 0.60 / 3.20 = 0.19
    assert algorithms_report.chain_noise(gelu(rounds=())) == 0.0


def test_no_payback_prints_the_median_and_its_spread():
    compiled = gelu(slow_ms=3.06, fast_ms=3.0, rounds=(0.8, 0.9, 1.02, 1.1, 1.3), fast="compiled GELU")
    said = report.payback_sentence(1.8, compiled)
    assert "ran 1.02x (middle half 0.90x-1.10x) (within noise: no effect shown), so no payback is shown" in said


def test_the_closing_table_note_says_a_speed_up_is_the_rounds_median():
    from types import SimpleNamespace as NS

    note = report.plus_minus_note(_run(3), NS(matmul_shares=[0.5] * 5))
    assert note.startswith("In the table, a speed-up is the median of its rounds' own ratios, with their middle half")


def test_the_ledger_keeps_the_median_as_its_value_and_the_fastest_times_ratio_apart(monkeypatch, tmp_path):
    monkeypatch.setenv(ledger.ENV, str(tmp_path))
    monkeypatch.setenv("TWOGPU_MODE", "cpu")
    fused_ledger.record_fused_pairs([gelu()], dict(batch=1, heads=1, tokens=8, head_dim=4), torch.zeros(16))
    record = json.loads(ledger.path("cpu").read_text())["figures"]["fused_gelu_speedup"]
    assert (record["value"], record["spread"], record["fastest"]) == (3.43, 0.60, 3.20)
    assert (record["slow_ms"], record["fast_ms"], record["rounds"]) == (10.1, 3.16, list(ROUNDS))


def test_the_notebook_reads_the_median_in_its_closing_row_and_says_so_in_the_details():
    nb = json.loads((ROOT / "notebooks" / "01_why_slow.ipynb").read_text())
    sources = ["".join(c["source"]) for c in nb["cells"]]
    closing = next(s for s in sources if "fused attention beats the naive one" in s)
    # the row prints the pair as section 5 does (``report.speedup_claim``: its median and one range, t33_0001)
    assert "report.speedup_claim(" in closing and "attention.speedup" not in closing
    details = next(s for s in sources if "report.comparison_table(COMPARISONS)" in s)
    assert "the median of the rounds' own ratios" in details and "report.rounds_sentence(COMPARISONS)" in details


def _run(rounds: int):
    """A step's MFU rounds, enough for the note (its MFU range is worked from the step and the peak)."""
    from utils.lessons.why_slow.utilisation import StepUtilisation

    return StepUtilisation(5.309e9, [0.0663] * rounds, [180e9] * rounds, "fp32", 1, "fp32 matmul peak", 180e9)
