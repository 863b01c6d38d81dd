"""Thirty-third reading (t33_0001 #1, #2), lesson 01 section 5: one speed-up, one range, wherever it is printed.
A pair's range is its rounds' middle half, or, where its fastest times' ratio lies off the rounds' median by
more than the 10% noise edge (the rounds disagree; t34_0001 #1), the range between that ratio and the median; the table, the
block's sentences, the fused sentence, the claims row and the payback all print that one range. Fabricated
figures (shaped like the reader's, never one run's output)."""

from utils.lessons.why_slow import algorithms_report, report
from utils.lessons.why_slow.algorithms import Comparison


def pair(fast, slow_ms, fast_ms, rounds, ceiling=11.0, what="GELU", slow="gelu_op_by_op"):
    return Comparison(what, slow, fast, slow_ms * 1e-3, fast_ms * 1e-3, 2e-7, "kernels", round_ratios=rounds,
                      ceiling=ceiling, no_ceiling="" if ceiling else "no bytes to count")


# skewed rounds: median 5.00x, middle half 3.00x-5.20x; the fastest times 9.00 / 3.60 = 2.50x, 17% under its low end
DISTURBED = pair("gelu_fused", 9.00, 3.60, (2.70, 3.00, 5.20, 5.00, 5.60))
# the same rounds, the fastest times 9.00 / 1.80 = 5.00x: the median itself
AGREED = pair("gelu_fused", 9.00, 1.80, (2.70, 3.00, 5.20, 5.00, 5.60))


def test_the_range_is_the_middle_half_unless_the_fastest_ratio_lies_off_the_median_by_more_than_the_edge():
    assert not AGREED.disturbed and AGREED.known_range == (3.0, 5.2)
    assert DISTURBED.disturbed and DISTURBED.known_range == (2.5, 5.0)  # fastest times' ratio to the median
    # 2.90 against a median of 3.10: 7% under it, within the noise edge (reader #2: 2.27x against 2.33x)
    near = pair("fused_attention", 2.90, 1.00, (3.10, 3.00, 3.05, 3.20, 3.40), ceiling=None)
    assert not near.disturbed and algorithms_report.rounds_disagree(near) == ""
    # above: 20.00x over a median of 5.00x
    assert pair("b", 20.0, 1.0, (2.70, 3.00, 5.20, 5.00, 5.60)).disturbed
    assert pair("b", 9.0, 3.0, ()).known_range is None


def test_every_line_prints_the_one_range():
    for c, said in ((AGREED, "5.00x (middle half 3.00x-5.20x)"),
                    (DISTURBED, "5.00x (known only as 2.50x to 5.00x: its rounds disagree, and the median rests "
                                "on slowed rounds)")):
        assert algorithms_report.speedup_text(c) == said
        assert algorithms_report.comparison_rows([c])[0][2] == said
        assert f"{said} beside a bytes ceiling" in report.algorithms_sentence([c])
        assert f"it gave {said}:" in report.fused_bandwidth_sentence(c, 16 * 2**20, 18.7e9)
        assert "±" not in report.algorithms_sentence([c]) and "±" not in report.rounds_sentence([c])


def test_the_gain_shares_are_worked_from_the_same_range():
    # (3.00 - 1) / 10 = 20%, (5.20 - 1) / 10 = 42%; where disturbed (2.50 - 1) / 10 = 15% to 40%
    assert AGREED.verdict == "faster, under the bound: 40% of its gain (20%-42% across its rounds' middle half)"
    assert DISTURBED.verdict == ("faster, under the bound: 40% of its gain (15%-40% as far as is known: its rounds "
                                 "disagree)")
    assert algorithms_report.verdict_word(DISTURBED) == ("faster, 40% of its gain (15%-40% as far as is known: "
                                                         "its rounds disagree)")
    assert algorithms_report.rounds_disagree(DISTURBED).endswith("known only as 2.50x to 5.00x (15% to 40% of its "
                                                                 "gain)")


def test_only_slowdowns_past_the_edge_are_counted():
    # 9.00 / 3.60 = 2.50x; each round x 3.60 / 9.00: 1.08 (noise), 1.20, 2.08, 2.00, 2.24
    assert algorithms_report.slowed_rounds(DISTURBED) == [1.2, 2.08, 2.0, 2.24]
    assert "in 4 of 5 rounds gelu_op_by_op ran at least 1.20x to 2.24x" in algorithms_report.rounds_disagree(
        DISTURBED)


def test_the_claims_row_prints_the_pairs_range_and_verdict():
    faster = pair("fused_attention", 2.40, 1.00, (2.30, 2.35, 2.40, 2.42, 2.50), ceiling=None)
    row = report.speedup_claim("fused beats naive", faster, "not faster than the naive one")
    assert (row.measured, row.against, row.verdict) == ("2.40x (middle half 2.35x-2.42x)", "baseline 1.00x",
                                                         "faster than the baseline")
    noisy = pair("fused_attention", 1.02, 1.00, (0.90, 0.95, 1.02, 1.10, 1.20), ceiling=None)
    assert report.speedup_claim("x", noisy, "not faster than the naive one").verdict == "within noise: no effect shown"
    slower = pair("fused_attention", 0.80, 1.00, (0.78, 0.79, 0.80, 0.81, 0.82), ceiling=None)
    assert report.speedup_claim("x", slower, "not faster than the naive one").verdict == (
        "not faster than the naive one: no speed-up")
    rough = pair("fused_attention", 9.00, 3.60, (2.70, 3.00, 5.20, 5.00, 5.60), ceiling=None)
    assert report.speedup_claim("x", rough, "slower").measured.endswith("known only as 2.50x to 5.00x: its rounds "
                                                                        "disagree, and the median rests on slowed "
                                                                        "rounds)")


def test_the_payback_range_follows_the_known_range_and_names_it():
    # op by op 9.00 ms, compiled 1.80 ms fastest (5.00x, the median): the middle half
    agreed = pair("compiled GELU", 9.00, 1.80, (2.70, 3.00, 5.20, 5.00, 5.60))
    assert algorithms_report.across(agreed) == algorithms_report.ACROSS
    # compiled 2.50 ms (3.60x); median 5.00x: the known range 3.60x to 5.00x, 6.5 to 7.0 ms (the cap 6.5)
    rough = pair("compiled GELU", 9.00, 2.50, (4.00, 4.50, 5.00, 6.00, 6.50))
    assert rough.disturbed and rough.known_range == (3.6, 5.0)
    assert algorithms_report.across(rough) == algorithms_report.KNOWN
    assert algorithms_report.payback_range(1.7, rough) is None  # 6.5 ms at both ends, capped: one figure
