"""Lesson 02's sixth reading (session 52): each sentence follows from the figures printed beside it, in both
outcomes. Unit tests on synthetic rows, CPU only."""

import statistics

from utils.lessons.model_split import balance, placement, report, runs
from utils.timeline import Span


def _zbv(speedups):
    return runs.Row(128, 4, "ZBV", 0.354, 0.728, [0.33, 0.33], cpu=[0.45, 0.45], baseline_cpu=1.0,
                    speedups=speedups, bound_override=1.92)


def test_zbv_with_every_round_under_p_is_short_of_it_not_within_noise():
    # session 52: "within noise of p (1.94x ± 0.06 covers 2x)" beside rounds 1.83-1.997, all under 2x
    short = report.p_at_this_m(_zbv([1.83, 1.90, 1.94, 1.997, 1.96]))
    assert "short of p = 2x in every round (up to 1.997x)" in short and "within noise" not in short
    # the other outcome: rounds on both sides of 2x, the median ± its spread covering it: noise
    near = report.p_at_this_m(_zbv([1.97, 2.04, 1.99, 1.95, 2.02]))
    assert near.endswith("within noise of p (1.99x ± 0.03 covers 2x).")


def _placed(extra_rounds, activation, layers=0.152, placed=0.173):
    row = lambda s: runs.Row(32, 1, "x", s, 0.145, [0.05, 0.05], naive=True, speedups=[1.0])  # noqa: E731
    return {"layers": {"row": row(layers), "crossings": 1}, "attn/ffn": {"row": row(placed), "crossings": 7},
            "extra_rounds": extra_rounds, "message": {"tiny": 6.24e-5, "activation": activation,
                                                      "activation_bytes": 2**20}}


def test_the_largest_reading_of_the_extra_time_includes_the_highest_round():
    # session 52: "at most 18.2 / 12 = 1.52 ms" beside rounds up to +22.6 ms (22.6 / 12 = 1.88 ms)
    got = _placed([0.0080, 0.0120, 0.0143, 0.0150, 0.0226], 1.97e-3, placed=0.156 + 0.0143)
    assert placement.overpriced(got)
    assert "at most 22.6 / 12 = 1.88 ms in this launch, under the probe's 1.97 ms" in placement.probe_refuted(got)
    # the other outcome: the highest round above the probe's price for 12 messages: not refuted
    dear = _placed([0.0080, 0.0120, 0.0143, 0.0150, 0.0250], 1.97e-3, placed=0.156 + 0.0143)
    assert not placement.overpriced(dear) and placement.probe_refuted(dear) == ""


def _naive(process_bounds, speedups=(1.05, 1.09, 1.04, 1.18, 1.09)):
    """Section 3's naive split, its stages' work 0.86x one device's: a work-scaled reference (1.16x) that
    section 3 never prints would explain 1.09x."""
    return runs.Row(32, 1, "gpipe", 0.150, 0.163, [0.075, 0.078], naive=True, speedups=list(speedups),
                    process_bounds=list(process_bounds), cpu=[0.07, 0.07], baseline_cpu=0.163)


SPANS = [Span("stage 0", "forward", 0, 0.0, 0.05), Span("stage 1", "forward", 0, 0.05, 0.1)]


def test_the_naive_row_has_one_verdict_section_3s_in_every_place():
    # session 52: section 3 "above the per-process reference (1.06x) ...: a finding to explain", the blocks
    # "above the bound, within the work-scaled reference: explained by the reference" (never printed there)
    past = _naive([1.05, 1.09, 1.01, 1.14, 1.06])
    said = report.headline_verdict(past)
    assert said.startswith("above the bound and above the per-process reference by more than the paired spread, "
                           "round by round (each round's speedup over its own round's reference: median 1.03x "
                           "± 0.01; no round under it): a finding to explain") and "work-scaled" not in said
    assert f"The median, 1.09x, is above 1x (1.09x ± 0.02): {said}." in report.naive_reading(past, SPANS)
    m1 = runs.Row(32, 1, "gpipe", 0.152, 0.150, [0.07, 0.07], speedups=[0.97, 0.98, 0.99, 0.99, 0.98])
    note = report.same_step_note([("section 3", "hand-written", past), ("section 5", "GPipe m=1", m1)], (3,))
    assert f"Section 3 (hand-written): 1.09x ± 0.02, {said};" in note and "explained by" not in note
    assert report.speedup_claim("naive", past).verdict == said
    # the other outcome: the median within the per-process reference (1.10x): explained by it, everywhere
    within = _naive([1.08, 1.10, 1.09, 1.14, 1.11])
    said = report.headline_verdict(within)
    assert said.startswith("above the bound, under the per-process reference, round by round")
    # t20_09 #2: round 4 (1.18x / 1.14x = 1.04x) lies past its own round's reference beyond 0.98 + 0.01: named
    assert ("round 4 lies past its own round's reference, beyond the ratios' spread (1.18x / 1.14x = 1.04x, above 1 "
            "and above 0.98 + 0.01 = 0.99): a finding to explain; the median and the other 4 rounds: explained by "
            "the reference") in said and said in report.naive_reading(within, SPANS)
    # every launch above 1x: the claims row leaves each section's verdict to read it, explained or not
    again = _naive([1.08, 1.10, 1.09, 1.14, 1.11], [1.06, 1.08, 1.07, 1.10, 1.09])
    claim = report.launches_claim("x", [("section 3", "a", past), ("section 8", "b", again)])
    assert claim.verdict.startswith("above the 1x bound in every launch, by up to 0.09: each section's verdict "
                                    "reads it against its own reference") and "explains it" not in claim.verdict


def test_the_imbalance_is_worked_from_the_stage_costs_as_printed():
    # session 52: "stage costs 9.5 / 28.9 ms, imbalance 1.50" (28.9 / ((9.5 + 28.9) / 2) = 1.505: 1.51)
    costs, points = [0.00954, 0.02886], [1]  # stage costs printed to two decimals since session 52's eighth reading
    assert balance.printed_stage_costs(costs, points) == [9.54, 28.86]
    assert f"{balance.imbalance(costs, points):.2f}" == "1.50"  # 28.86 / ((9.54 + 28.86) / 2) = 1.503
    # the other outcome: even stages read 1.00
    assert balance.imbalance([0.0188, 0.0188], [1]) == 1.0


def test_the_loss_to_the_bound_is_worked_from_the_figures_its_tables_print():
    # session 52: "lost 4.7 ms" beside 1.28x and a bound printed 1.33x (150.3 / 1.28 - 150.3 / 1.33 = 4.4)
    fit = runs.Link(88.0e-6, 1.35e9, "a fit", 0.93, True)
    m2 = runs.Row(32, 2, "gpipe", 0.117, 0.1503, [0.076, 0.076], speedups=[1.19, 1.28, 1.25, 1.28, 1.28],
                  messages=4, bytes_sent=4 * 2**20)
    row = report.link_table([m2], fit.alpha, fit.beta, "a fit", "t").rows[0]
    assert row[8:] == ("150", "1.28x", "1.33x", f"{150 / 1.28 - 150 / 1.33:.1f}")  # whole ms, as every table
    table = report.price_table([m2], fit, 2.3)
    assert table.rows[0][3:7] == ("150", "1.28x", "1.33x", "4.4")
    # the other outcome: a median printed at the bound loses nothing, whatever the unrounded 4/3
    at = runs.Row(32, 2, "gpipe", 0.113, 0.1503, [0.076, 0.076], speedups=[1.33, 1.33, 1.33, 1.33, 1.33])
    assert report.lost_time(at) == 0.0


def test_the_link_time_is_worked_from_alpha_and_beta_as_printed():
    # session 52: 24 messages, 24.0 MiB beside α 88.0 µs and β 1.35 GB/s printed 20.7 ms (the reader's 20.75)
    row = runs.Row(128, 4, "ZBV", 0.4, 0.7, [0.3, 0.3], speedups=[1.7], messages=24, bytes_sent=24 * 2**20)
    assert f"{report.link_time(row, 88.04e-6, 1.3549e9) * 1e3:.1f}" == f"{24 * 0.088 + 24 * 1.048576 / 1.35:.1f}"
    assert f"{report.link_time(row, 88.04e-6, 1.3549e9) * 1e3:.1f}" == "20.8"


def test_work_vs_one_device_is_divided_from_the_whole_ms_printed_beside_it():
    # session 52: "work vs 1 dev" 1.04x from an unprinted one-device CPU time; printed now: (77 + 80) / 150
    r = runs.Row(32, 2, "gpipe", 0.117, 0.1503, [0.076, 0.079], cpu=[0.0772, 0.0801], baseline_cpu=0.1504,
                 speedups=[1.28, 1.27, 1.29])
    assert r.work_ms == ([77.0, 80.0], 150.0) and f"{r.work_inflation:.2f}" == f"{(77 + 80) / 150:.2f}" == "1.05"
    table = report.rows_table(runs.PipelineRun([r], [], (3,), 1, True))
    row = dict(zip(table.columns, table.rows[0]))
    assert (row["CPU ms per stage"], row["one device CPU ms"], row["work vs 1 dev"]) == ("77 / 80", "150", "1.05x")
    # section 8's table prints the same operands beside its work
    got = {"layers": {"row": r, "crossings": 1, "bytes": 2**21}, "attn/ffn": {"row": r, "crossings": 7,
                                                                                "bytes": 14 * 2**20}}
    full = placement.placements_table(got, "t", full=True)
    row = dict(zip(full.columns, full.rows[0]))
    assert (row["CPU ms per stage"], row["one device CPU ms"], row["work vs 1 dev"]) == ("77 / 80", "150", "1.05x")
    # the other outcome, on GPUs: the stages' device time, named as such
    gpu = runs.Row(32, 2, "gpipe", 0.117, 0.1503, [0.076, 0.079], baseline_busy=0.1504, cpu_workers=False,
                   speedups=[1.28])
    table = report.rows_table(runs.PipelineRun([gpu], [], (3,), 1, False))
    row = dict(zip(table.columns, table.rows[0]))
    assert (row["busy ms per stage"], row["one device busy ms"], row["work vs 1 dev"]) == ("76 / 79", "150", "1.03x")


def _with_work(rise_s):
    got = _placed([0.0080, 0.0120, 0.0143, 0.0160, 0.0226], 1.97e-3, layers=0.156, placed=0.170)
    got["layers"]["row"].cpu = [0.070, 0.070]
    got["attn/ffn"]["row"] = runs.Row(32, 1, "x", 0.170, 0.145, [0.05, 0.05], naive=True, speedups=[1.0],
                                      cpu=[0.070 + rise_s / 2, 0.070 + rise_s / 2])
    return got


def test_the_refuted_probes_tail_keeps_the_work_and_waiting_split_section_8_printed():
    # session 52: the summary said "the difference is not split into causes" beside section 8's line "The
    # stages' measured work rose by +11.2 ms ...; the other 3.1 ms is waiting"
    got = _with_work(0.0112)
    line, tail = placement.placement_split(got), placement.probe_refuted(got)
    # (76 + 76) - (70 + 70) = +12 ms from the per-stage ms as printed (session 52, seventh reading)
    assert "rose by +12 ms" in line and "the other 2.3 ms is waiting" in line
    assert tail.endswith("the messages' share of the extra time is not decided by the probe; of the extra time, "
                         "the stages' measured work rose by +12 ms and the other 2.3 ms is waiting")
    assert "not split into causes" not in tail and tail in placement.extra_note(got)
    # the other outcome: the work covers the extra time, and the tail says so as the line does
    got = _with_work(0.0260)  # +26 ± 2 ms, past every reading (t21_02: +16 covers the median and 14 ms only)
    assert "that alone accounts for the extra step time at every reading of it" in placement.placement_split(got)
    assert placement.probe_refuted(got).endswith("the stages' measured work, +26 ms, accounts for every reading of the "
                                                 "extra time, up to 22.6 ms (the highest of 5 rounds)")
    got = _with_work(0.0150)
    assert placement.probe_refuted(got).endswith("+16 ms, accounts for the median extra time (+14.3 ms) and 14 ms (the "
                                                 "table's median steps' difference), not 22.6 ms (the highest of 5 "
                                                 "rounds); within the ± 2 ms its whole-ms figures leave, it may or may "
                                                 "not reach 16.3 ms (the paired median plus its spread)")


def _section_5():
    fit = runs.Link(88.8e-6, 2.27e9, "a fit", 0.91, True)
    m1 = runs.Row(32, 1, "gpipe", 0.155, 0.1501, [0.075, 0.078], speedups=[0.96, 1.05, 0.82, 0.91, 0.97],
                  messages=2, bytes_sent=2 * 2**20)  # 17% of its loss at the fit's price
    m2 = runs.Row(128, 2, "gpipe", 0.484, 0.650, [0.32, 0.32], speedups=[1.41, 1.27, 0.87, 1.28, 1.35],
                  messages=4, bytes_sent=8 * 2**20)  # 21%
    m4 = runs.Row(32, 4, "gpipe", 0.118, 0.1501, [0.08, 0.08], speedups=[1.42, 1.26, 1.01, 1.27, 1.39],
                  messages=8, bytes_sent=2 * 2**20)  # 7%
    return fit, [m1, m2, m4]


def test_a_refuted_probe_price_is_replaced_by_the_ceiling_the_placements_allow_in_block_table_and_line():
    # session 52: the line said the probe's price "does not hold here", the block "this run does not tell which
    # price ... not decided" and the table read every row at the refuted 2.3x
    got = _placed([0.0080, 0.0120, 0.0143, 0.0150, 0.0226], 1.97e-3, placed=0.156 + 0.0143)
    link = runs.Link(88e-6, 1.358e9, "a fit", 0.93, True)  # 1 MiB: 0.86 ms
    assert f"{placement.price_ceiling(got, link):.1f}" == f"{1.88 / 0.86:.1f}" == "2.2"
    assert placement.price_ceiling(_placed([0.0080, 0.0120, 0.0143, 0.0150, 0.0250], 1.97e-3), link) is None
    fit, rows = _section_5()
    said = report.probe_reading(0.94e-3, 2**20, fit, 0.022, rows=rows, ceiling=1.6)  # probe 1.7x, ceiling 1.6x
    assert "would change for 2 of 3 rows, but this launch's placements refute that price" in said
    assert "each extra message cost at most 1.60x the fit's price" in said
    assert "2 of 3 rows change between the fit's price and that ceiling (batch 32 gpipe m=1, batch 128 gpipe m=2)" in said
    assert "this run does not tell which price" not in said
    table = report.price_table(rows, fit, 1.7, refuted=True, ceiling=1.6)
    assert "share at the ceiling (1.60x)" in table.columns and "the probe's 1.70x: refuted" in table.title
    assert [r[-1] for r in table.rows] == ["not decided by this run", "not decided by this run", "stands"]
    assert report.probe_line(1.7, rows, fit, refuted=True, ceiling=1.6).endswith(
        "at the most a message cost there (1.60x the fit's price), 2 of 3 change: for those 2 the link's part of the "
        "loss is not decided by this run; the other rows' readings stand")
    # the other outcome: a ceiling under which no reading changes: every row stands, said everywhere
    said = report.probe_reading(0.94e-3, 2**20, fit, 0.022, rows=rows, ceiling=1.1)
    assert "Every row's reading stands from the fit's price up to that ceiling" in said and "not decided" not in said
    table = report.price_table(rows, fit, 1.7, refuted=True, ceiling=1.1)
    assert [r[-1] for r in table.rows] == ["stands"] * 3
    assert report.probe_line(1.7, rows, fit, refuted=True, ceiling=1.1).endswith(
        "(1.10x the fit's price), all 3 stand: this run does not change section 5's reading of the link")
    # not refuted: the probe's price stands, read as before
    assert "this run does not tell which price" in report.probe_reading(0.94e-3, 2**20, fit, 0.022, rows=rows)


def test_the_probes_price_is_divided_from_the_two_ms_printed():
    link = runs.Link(88e-6, 1.358e9, "a fit", 0.93, True)  # 1 MiB at α 88.0 µs, β 1.36 GB/s as printed: 0.859 ms
    said = report.probe_reading(1.9749e-3, 2**20, link, 0.028)
    assert "0.859 ms for this 1.0 MiB activation, which took 1.97 ms here (2.29x that price)" in said
    assert report.probe_price(1.9749e-3, link, 2**20) == 1.97 / 0.859


def test_section_9_reads_the_links_share_of_each_loss_by_section_5s_rule():
    # session 52: interleaved ZB's 20.7 ms of link time against 26.1 ms lost (79%) was never read
    zb = runs.Row(128, 4, "interleaved ZB", 0.391, 0.6903, [0.32, 0.35], speedups=[1.81, 1.72, 1.79, 1.88, 1.74],
                  bound_override=1.92, messages=24, bytes_sent=24 * 2**20)
    said = report.link_reading([zb], 88.0e-6, 1.35e9, reread=False)
    assert "20.8 ms (the link's fit, an estimate) of the 690 / 1.79 - 690 / 1.92 = 26.1 ms it lost (80%)" in said
    assert "the link's own time explains most of the loss" in said and "section 8" not in said
    # section 5's rows: section 8 reads them again, and the sentence says so
    assert "section 8 times one activation" in report.link_reading([zb], 88.0e-6, 1.35e9)


def test_section_3_closes_on_what_this_run_explains_in_every_branch():
    past = _naive([1.05, 1.09, 1.01, 1.14, 1.06])  # 1.09x ± 0.02 beside a 1.06x reference
    said = report.naive_closing(past)
    assert said.startswith("In short, this run's naive split: 1.09x ± 0.02 against its 1x bound; above it, and "
                           "above the per-process reference by more than the paired spread, round by round")
    assert "(1.09 - 1.06" not in said  # never the two medians subtracted (t16_02 #2)
    within = _naive([1.08, 1.10, 1.09, 1.14, 1.11])
    assert "explained by each stage's lower cost in its own process" in report.naive_closing(within)
    noise = _naive([1.06, 1.07, 1.08, 1.09, 1.10], speedups=(0.97, 1.02, 0.99, 1.02, 1.00))  # none past 1.02
    assert report.naive_closing(noise).endswith("within noise of it, as theory says: nothing left to explain.")
    slow = _naive([1.06, 1.07, 1.08, 1.09, 1.10], speedups=(0.90, 0.91, 0.92, 0.91, 0.90))
    assert "slower than one device, as the bound allows" in report.naive_closing(slow)
    weak = _naive([1.09, 1.27, 1.31, 0.97, 1.09], speedups=(1.23, 1.10, 1.09, 1.12, 1.08))
    assert "is itself within noise of 1x: this run does not explain the excess" in report.naive_closing(weak)
    assert report.verdict(past) != report.LESS_WORK_VERDICT  # explain_row's reading: no unprinted reference


def test_two_layouts_prices_are_compared_from_the_two_ms_printed():
    pinned = runs.Link(0.0, 2**20 / 0.8651e-3, "pinned", 0.2, True)  # 1 MiB: β printed 1.21 GB/s, 0.867 ms
    placed = runs.Link(0.0, 2**20 / 0.4049e-3, "placed", 0.2, False)  # 1 MiB: β printed 2.59 GB/s, 0.405 ms
    _, said = report.link_sources(None, pinned, placed)
    assert "0.867 ms by it; 0.405 ms between workers" in said  # 3 figures, as section 8 prints a price
    assert "costs 2.14x what it costs in lesson 00's" in said  # 0.867 / 0.405, the two ms printed
