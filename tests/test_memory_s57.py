"""Twenty-first reading, lesson 06 (t21_0506): a step time's ratio is the median of each round's own ratio
(``measure.step_ratio``), not the fastest step of each taken from different rounds, and every round beyond the
printed ± is named: across 1x, beside the median's verdict; otherwise an outlying moment of this run (cell 26 and its
claims row, cell 43's threads, cell 21's 16-bit formats)."""
from utils.lessons.memory import measure, report, summary

# cell 26's printed rounds (ms): ratios 1.028, 0.990, 1.096, 1.165, 1.109; fastest of each 148.8 / 138.1
CE = {"plain cross-entropy": [0.1687, 0.1503, 0.1442, 0.1525, 0.1381],
      "chunked, 4 slices": [0.1735, 0.1488, 0.1580, 0.1776, 0.1532]}
NAME, REF = "chunked, 4 slices", "plain cross-entropy"


def test_the_readers_rounds_give_their_median_not_the_fastest_of_each():
    ratio, noise, each = measure.step_ratio(CE, NAME, REF)
    assert f"{ratio:.2f}x ± {noise:.2f}" == "1.10x ± 0.04"   # not 1.08x: 148.8 / 138.1 from rounds 2 and 5
    assert [f"{r:.2f}" for r in each] == ["1.03", "0.99", "1.10", "1.16", "1.11"]


def test_the_readers_rounds_outside_the_spread_are_each_named():
    said = summary.chunked_cost(*measure.step_ratio(CE, NAME, REF))
    assert said.startswith("slower than the plain loss beyond noise: backward makes each slice's logits again")
    assert ("round 2's 0.99x was faster than the plain loss, past the ± (1.10 - 0.04 = 1.06x): not slower in "
            "every round, so the verdict holds for the rounds' median, not for each round") in said
    # t23_0506 #1: round 1's 1.03x is the middle half's low end, which the ± is made from: not named
    # t27_0506 (other): round 4's 1.16x lies 0.02 past 1.03-1.14x, not more: the highest of 5, not named
    assert "round 4" not in said and "outlying" not in said and "of 5 rounds" not in said
    assert "round 1" not in said and "round 3" not in said and "round 5" not in said


def test_the_claims_row_prints_the_same_median_and_names_the_same_rounds():
    ratio, noise, each = measure.step_ratio(CE, NAME, REF)
    verdict = summary.chunked_cost(ratio, noise, each)
    assert f"{ratio:.2f}x ± {noise:.2f}" == "1.10x ± 0.04" and "round 2's 0.99x" in verdict


def test_rounds_within_the_spread_name_nothing_and_the_other_outcomes_read_right():
    assert summary.time_verdict(1.10, 0.04, "fp32", [1.08, 1.10, 1.12]) == "slower than fp32 beyond noise"
    faster = summary.time_verdict(0.90, 0.02, "fp32", [0.90, 0.89, 0.91, 1.01, 0.90])
    assert faster.startswith("faster than fp32 beyond noise; round 4's 1.01x was slower than fp32, past the ± "
                             "(0.90 + 0.02 = 0.92x): not faster in every round, so the verdict holds for the "
                             "rounds' median, not for each round (no cause timed apart here)")
    within = summary.time_verdict(1.01, 0.02, "fp32", [1.00, 1.01, 1.02, 1.08, 0.99])
    assert within.startswith("within noise: no effect shown; round 4's 1.08x lies more than 0.02 outside both "
                             "the rounds' middle half (1.00-1.02x) and the ± (1.01 ± 0.02: 0.99-1.03x): 1 of 5 "
                             "rounds, an outlying moment of this run")
    assert summary.time_verdict(1.13, 0.02, "fp32") == "slower than fp32 beyond noise"   # no rounds: no names
    faster_loss = summary.chunked_cost(0.95, 0.02, [0.95, 0.94, 0.96])
    assert faster_loss.startswith("faster than the plain loss beyond noise: not the small cost")


def test_the_details_block_works_the_same_median_and_spread_as_the_sentence():
    said = report.rounds_rule(CE, NAME, REF)
    assert "the median of these 5 rounds' own ratios, 1.10x" in said
    assert "(1.11 - 1.03) / 2 = 0.040, ± 0.04" in said
    assert "divide to 148.8 / 138.1 = 1.08x (from different rounds, chunked, 4 slices: round 2; plain " \
        "cross-entropy: round 5): the verdict reads the rounds pair by pair" in said
    assert "divide to" not in report.rounds_rule(CE, NAME, REF, fastest=False)
    for chunked in ([0.150, 0.160, 0.153, 0.142, 0.165], [0.1735, 0.1488, 0.1580], [0.14, 0.15, 0.16, 0.17]):
        rounds = {REF: CE[REF][:len(chunked)], NAME: chunked}
        _, noise, _ = measure.step_ratio(rounds, NAME, REF)
        assert f"± {noise:.2f}" in report.rounds_rule(rounds, NAME, REF)   # the block's ± is the sentence's
    rows = [line.split() for line in str(report.rounds_table(CE, NAME, REF, "t")).splitlines()[3:]]
    assert [row[-1] for row in rows] == ["1.03x", "0.99x", "1.10x", "1.16x", "1.11x"]


def test_the_peaks_table_prints_the_median_where_given():
    b = m = type("Peak", (), {"peak": 1e6})()
    rows = {"fp32": (b, m), "bf16": (b, m)}
    table = summary.peaks_table(rows, {"fp32": 0.1, "bf16": 0.108}, relative_to="fp32", spreads={"bf16": 0.04},
                                ratios={"bf16": 1.10}).to_text()
    assert "1.10x ± 0.04" in table and "1.08x" not in table


def test_the_threads_round_beyond_the_spread_is_an_outlying_moment():
    # cell 43: 1.15x ± 0.20 reaches 1.35; the 1.50x round passes no bound (2x) and lies beyond it
    said = summary.threads_reading([1.11, 1.15, 1.50], 2, 0.4)
    assert ("(every round above 1.00x); round 3's 1.50x lies more than 0.02 beyond the ± (1.15 ± 0.20: "
            "0.95-1.35x): an outlying moment of this run; more threads divide the step") in said
    assert "outlying" not in summary.threads_reading([1.11, 1.15, 1.19], 2, 0.4)


def test_rounds_named_as_findings_are_not_named_again_as_moments():
    # a round past the bound is a finding (named once); a round across 1x too
    past = summary.threads_reading([2.5, 1.45, 1.5, 1.55, 1.4], 2, 0.4)
    assert "round 1's 2.50x passes the 2x" in past and "round 1's 2.50x lies" not in past
    across = summary._rounds_verdict([(1, 0.79), (2, 1.29), (3, 1.55)], 1.29, 0.26, 2)
    assert "round 1's 0.79x was slower than one thread" in across and "0.79x lies" not in across


def test_the_accumulation_verdict_names_its_rounds_in_the_sentence_and_the_claims_row():
    # section 3 (t21 other 1): its ratio is the rounds' median too, and a round beyond the ± is named
    rounds = {"one batch": [0.0825, 0.0830, 0.0840, 0.0820, 0.0835],
              "micro-batches": [0.0889, 0.0900, 0.0910, 0.0800, 0.0905]}
    ratio, noise, each = measure.step_ratio(rounds, "micro-batches", "one batch")
    assert f"{ratio:.2f}x ± {noise:.2f}" == "1.08x ± 0.02"
    said = summary.accumulation_verdict(ratio, noise, each)
    assert said.startswith("slower beyond noise; round 4's 0.98x was faster than one batch, past the ± "
                           "(1.08 - 0.02 = 1.06x): not slower in every round, so the verdict holds for the "
                           "rounds' median, not for each round (no cause timed apart here)")
    assert summary.accumulation_verdict(1.10, 0.02) == "slower beyond noise"   # no rounds: nothing named
    assert summary.accumulation_verdict(1.08, 0.02, [1.07, 1.08, 1.09]) == "slower beyond noise"
    rule = report.rounds_rule(rounds, "micro-batches", "one batch", fastest=False)
    assert f"± {noise:.2f}" in rule and "the median of these 5 rounds' own ratios, 1.08x" in rule
