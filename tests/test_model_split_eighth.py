"""Lesson 02's eighth reading (session 52, round 3): each sentence follows from the figures printed beside it,
in both outcomes. Unit tests on synthetic rows, CPU only."""

from utils.lessons.model_split import balance, bounds, link as link_module, report, runs


def _m1(speedups):
    return runs.Row(32, 1, "gpipe", 0.160, 0.150, [0.07, 0.08], speedups=speedups)


def test_a_round_printed_with_a_third_digit_is_counted_and_starred_as_printed():
    # session 52: rounds "0.93 1.005 0.90 0.99 1.01" counted as "1 of 5 rounds above the bound (up to 1.01x)"
    assert [report.round_text(s) for s in (1.0049, 1.9996, 2.0004, 2.0024, 0.93)] == [
        "1.0049", "1.9996", "2.0004", "2.002", "0.93"]  # 2.000 never: the digits show the side
    # (1.0049, not 1.005: a reader rounds 1.005 to 1.01, not the round's own 1.00; t33_02 #2)
    said = report.rounds_above_bound(_m1([0.93, 1.0049, 0.90, 0.99, 1.01]))
    assert said.startswith("2 of 5 rounds above the bound (up to 1.01x)")
    # the other outcome: 0.9996 prints 0.9996, under 1x, and is not counted
    assert report.rounds_above_bound(_m1([0.93, 0.9996, 0.90, 0.99, 1.01])).startswith("1 of 5 rounds above")


def test_a_round_printed_2002_is_starred_and_listed_past_2x():
    # session 52: ZBV "2.002 2.03* 1.99 1.77 1.98" without a star on 2.002, and "1 of 5 rounds above ... (2.03x)"
    zbv = runs.Row(64, 4, "zbv", 0.1, 0.2, [0.09, 0.09], speedups=[2.0024, 2.03, 1.99, 1.77, 1.98])
    assert report.every_round(zbv) == "2.002* 2.03* 1.99 1.77 1.98"
    assert report.rounds_past_devices(zbv).startswith("2 of 5 rounds above 2 devices' 2x (2.002x, 2.03x)")
    under = runs.Row(64, 4, "zbv", 0.1, 0.2, [0.09, 0.09], speedups=[1.9996, 2.03, 1.99, 1.77, 1.98])
    assert report.every_round(under) == "1.9996 2.03* 1.99 1.77 1.98"
    assert report.rounds_past_devices(under).startswith("1 of 5 rounds above 2 devices' 2x (2.03x)")


def test_the_summary_reads_the_link_share_at_the_price_section_8_leaves_standing():
    # session 52: "under it at section 5's price, 16.4% at the probe's: above it there" where section 8 refutes
    # the probe's 7.8x price and the most a message cost there is 3.9x: 2.1% x 3.9 = 8.2%
    refuted = report.planning_verdict(0.021, 7.8, 3.9)
    assert refuted == ("under the planning figure at both prices (8.2% at the most this launch's placements allow "
                       "(3.90x; the probe's 7.80x refuted))")
    assert "above it there" in report.planning_verdict(0.021, 7.8, 5.0)  # 2.1% x 5.0 = 10.5%
    # the probe's price not refuted: it is the one read
    assert report.planning_verdict(0.021, 7.8) == "under it at section 5's price, 16.4% at the probe's: above it there"
    assert report.planning_verdict(0.021, 1.6) == "under the planning figure at both prices (3.4% at the probe's)"
    assert report.planning_verdict(0.12, 1.6).startswith("above the planning figure")


def test_the_probe_price_is_worked_from_alpha_and_beta_as_printed():
    # session 52: "α + bytes/β: 0.504 ms" beside α 84.0 µs, β 2.50 GB/s: 0.084 + 1.048576 / 2.50 = 0.503 ms
    link = runs.Link(84.04e-6, 2.4951e9, "a fit", 0.76, True)
    assert round(link_module.message_time(link, 2**20) * 1e3, 4) == 0.5034
    said = report.probe_reading(3.93e-3, 2**20, link, 0.021)
    assert "α + bytes/β: 0.503 ms for this 1.0 MiB activation" in said
    assert report.probe_price(3.93e-3, link, 2**20) == 3.93 / 0.503


def test_a_stage_cost_is_the_sum_of_its_layers_as_printed():
    # session 52: "stage costs 9.9 / 29.3 ms" beside layers printed 0.33 + 9.62 = 9.95; the prediction 1.24x
    costs = [0.000334, 0.009616, 0.0146, 0.01467]  # printed 0.33, 9.62, 14.60, 14.67
    per_stage = balance.printed_stage_costs(costs, [2])
    assert per_stage == [9.95, 29.27]
    assert f"{bounds.predicted_speedup(per_stage, 4):.2f}x" == "1.23x"  # 4 x 39.22 / (39.22 + 3 x 29.27) = 1.235
    assert f"{balance.imbalance(costs, [2]):.2f}" == "1.49"  # 29.27 / ((9.95 + 29.27) / 2)
    # the other outcome: layers whose printed sum is the rounded sum give the same stage cost either way
    assert balance.printed_stage_costs([0.0095, 0.0289], [1]) == [9.5, 28.9]


def _one_micro_batch(speedups, cpu, one, schedule="x", naive=True):
    return runs.Row(32, 1, schedule, 0.160, 0.155, [0.05, 0.05], naive=naive, speedups=speedups, cpu=cpu,
                    baseline_cpu=one, cpu_workers=True)


def test_with_one_micro_batch_the_prediction_is_the_work_scaled_reference_printed_and_read_once():
    # session 52: attn/ffn "above its work-scaled reference (0.93x) by more than the rounds' spread (± 0.02): a
    # finding to explain" then "above what the measured work predicts (0.94x), within the rounds' spread": 163/174
    row = _one_micro_batch([0.94, 0.96, 0.97, 0.95, 0.99], [0.071, 0.103], 0.163)
    assert row.prediction_is_reference and row.predicted == row.work_bound
    line = report.explain_row(row)
    assert "the work-scaled reference is 0.93x (what that work predicts)" in line
    assert "predict 0.94x" not in line and "what the measured work predicts" not in line
    assert line.count("work-scaled reference (0.93x") == 1  # with its rounding edge (t40_02): one reading
    # the other outcome: m=4, the prediction is its own figure, printed and read beside the reference
    m4 = runs.Row(128, 4, "gpipe", 0.400, 0.6893, [0.37, 0.38], speedups=[1.65, 1.63, 1.74, 1.74, 1.61],
                  cpu=[0.307, 0.314], baseline_cpu=0.687, cpu_workers=True)
    assert not m4.prediction_is_reference and "CPU times predict" in report.explain_row(m4)


def test_a_row_says_the_bound_is_within_the_rounds_spread_once():
    # session 52: "... which explains them" then "; the bound within the rounds' spread of the median"
    line = report.explain_row(_one_micro_batch([0.93, 1.0049, 0.90, 0.99, 1.01], [0.078, 0.080], 0.150,
                                               "gpipe", naive=False))
    assert "2 of 5 rounds above the bound (up to 1.01x)" in line and "which explains them" in line
    assert "the bound within the rounds' spread" not in line
    # the other outcome: no round above the bound: the reading is kept, said once
    alone = report.explain_row(_one_micro_batch([0.97, 0.98, 0.99, 0.99, 1.00], [0.078, 0.080], 0.150, "gpipe",
                                                naive=False))
    assert alone.count("the bound within the rounds' spread of the median") == 1


def test_section_8s_visible_line_ends_with_its_conclusion_about_the_link():
    # session 52: "3 of 3 change" at the probe's price and at the ceiling, the conclusion only in the block
    fast = [runs.Row(32, m, "gpipe", 0.1, 0.139, [0.05, 0.05], speedups=[s] * 5, messages=2 * m, bytes_sent=2 * 2**20)
            for m, s in ((2, 1.20), (4, 1.30), (8, 1.40))]
    link = runs.Link(84e-6, 2.5e9, "a fit", 0.76, True)
    every = link_module._ceiling_conclusion(3, 3)
    assert every == ": for these rows the link's part of the loss is not decided by this run"
    assert link_module._ceiling_conclusion(0, 3) == ": this run does not change section 5's reading of the link"
    line = report.probe_line(7.8, fast, link, refuted=True, ceiling=3.9)
    assert line.endswith("(3.90x the fit's price), 3 of 3 change" + every)


def test_section_7s_rule_compares_the_profiles_prediction_with_the_works():
    # session 52: split [3], profile 1.58x against the work's 1.45x, never compared where a learner sees it
    said = balance.profile_against_work([3], 1.581, 1.449, 1.40, 0.02)
    assert said == ("split [3]: the profile predicts 1.58x, the stages' CPU times predict 1.45x "
                    "(imbalance included, unlike the work-scaled reference; |1.58 - 1.45| = 0.13, "
                    "more than the rounds' spread, ± 0.02): the profile missed work the stages did (messages, work "
                    "per micro-batch)")
    assert balance.profile_against_work([2], 1.23, 1.24, 1.16, 0.02).endswith(
        "these rounds do not tell them apart; the measured 1.16x ± 0.02 is under both by more than its spread: "
        "the gap is waiting (time outside the work both count)")  # session 53: only where it is under both
    assert balance.profile_against_work([2], 1.23, 1.40, 1.16, 0.02).endswith(
        "the stages did less work than the profile timed")
    assert "not compared" in balance.profile_against_work([2], 1.23, None, 1.16, 0.02)


def test_the_gain_divides_the_rounds_at_the_digits_they_are_printed_with():
    # a round printed "1.004" is divided as 1.004, not as 1.00 (the rows table prints round_text)
    slow = runs.Row(32, 4, "gpipe", 0.1, 0.139, [0.05, 0.05], speedups=[1.0044] * 3)
    fast = runs.Row(32, 4, "gpipe", 0.1, 0.139, [0.05, 0.05], speedups=[1.26] * 3)
    assert report.split_gain(slow, fast)[0] == 1.26 / 1.004
    # the other outcome: rounds printed with two digits divide as before
    assert report.split_gain(runs.Row(32, 4, "gpipe", 0.1, 0.139, [0.05, 0.05], speedups=[1.20] * 3), fast)[0] == 1.26 / 1.20
