"""Lesson 02's ninth reading (session 53): one figure per quantity on the page, computed once, printed one way.
Unit tests on synthetic runs, CPU only."""

import statistics

from utils.lessons.model_split import balance, link as link_module, report, runs

# section 3's five rounds as the ninth reading saw them (s): one device, the naive split, each stage alone
ONE = [0.15911, 0.15683, 0.155294, 0.17482, 0.17171]
SPLIT = [0.15077, 0.14782, 0.155300, 0.15389, 0.15818]
ALONE = [[0.07161, 0.07192, 0.08459, 0.07381, 0.07879], [0.07641, 0.07731, 0.08012, 0.07539, 0.07982]]


def _naive_run(one=ONE, split=SPLIT, alone=ALONE):
    """A naive row and its run, built from the raw rounds as ``runs.measure_pipeline`` builds them."""
    probe = runs.Row(32, 1, "gpipe", 0.15, 0.16, [0.07, 0.08], naive=True)
    row = runs.Row(32, 1, "gpipe", statistics.median(split), statistics.median(one), [0.07, 0.08], naive=True,
                   speedups=[o / t for o, t in zip(one, split)], alone=[statistics.median(a) for a in alone],
                   process_bounds=[runs.process_reference(o, parts) for o, *parts in zip(one, *alone)])
    times = {"batch 32 one device": one, probe.key: split,
             **{f"{probe.key} stage {k} alone": a for k, a in enumerate(alone)}}
    return runs.PipelineRun([row], [{"times": times}, {}], (3,), 1, True), row


def test_the_per_process_reference_is_the_median_of_the_printed_column():
    # session 53: the column printed 1.07, 1.05, 0.94, 1.17, 1.08 (median 1.07x), the text said 1.08x from the
    # unrounded seconds. Round 1 is 159.1 / (71.6 + 76.4) = 159.1 / 148.0 = 1.075: half up, 1.08x, in both.
    run, row = _naive_run()
    column = [r[-1] for r in report.naive_rounds_table(run, row).rows]
    assert column == ["1.08x", "1.05x", "0.94x", "1.17x", "1.08x"]
    assert f"{row.process_bound:.2f}x" == statistics.median(column) == "1.08x"
    said = report.naive_process_reading(row)
    assert "gives the per-process reference: 1.08x ± 0.02, the median of those ratios" in said
    # the other outcome: a column whose median is 1.07x says 1.07x (round 5 at 171.7 / 161.0 = 1.066)
    other = [ALONE[0][:4] + [0.08079], ALONE[1][:4] + [0.08022]]
    run, row = _naive_run(alone=other)
    column = [r[-1] for r in report.naive_rounds_table(run, row).rows]
    assert statistics.median(column) == f"{row.process_bound:.2f}x" == "1.07x"
    assert "gives the per-process reference: 1.07x" in report.naive_process_reading(row)


def test_an_even_count_of_reference_rounds_rounds_its_median_half_up():
    row = runs.Row(32, 1, "gpipe", 0.15, 0.16, [0.07, 0.08], naive=True, process_bounds=[1.07, 1.08])
    assert row.process_bound == 1.08


def test_a_round_prints_one_way_in_the_headline_and_in_the_rounds_table():
    # session 53: "every round 0.99996-1.14" in the headline, "155.3  155.3  1.00x" in the table
    run, row = _naive_run()
    table = report.naive_rounds_table(run, row).rows
    assert "every round 0.99996-1.14" in report.naive_headline(row)
    assert table[2][1:4] == ("155.294", "155.300", "0.99996x")  # finer ms: their ratio is the round printed
    assert report.round_text(155.294 / 155.300) == "0.99996"
    # the other outcome: a round whose ms at 0.1 divide to it keeps 0.1 ms
    assert table[0][1:4] == ("159.1", "150.8", "1.06x") and report.round_text(159.1 / 150.8) == "1.06"


def test_one_message_has_one_price_on_the_page():
    # session 53: 0.74 ms in section 5's sentence (message_time) and 0.75 ms in section 8's (Link.time)
    fit = runs.Link(84e-6, 1.1e9, "pinned workers", 0.39, True)  # 1.04 ms
    unpinned = runs.Link(90.04e-6, 1.604e9, "workers the OS placed", 0.39)  # .time() 0.7438 ms; as printed 0.7454
    recorded = runs.Link(91e-6, 2.5e9, "lesson 00", 0.5)
    sources = link_module.link_sources(recorded, fit, unpinned)[1]
    probe = link_module.probe_reading(1.2e-3, 2**20, fit, 0.03, recorded, unpinned)
    assert "0.745 ms between workers the operating system placed" in sources
    assert "the same message costs 0.745 ms by the fit section 5 made of that layout" in probe and "0.744 ms" not in probe
    # the layout reading divides the same two printed ms: 1.04 / 0.745 = 1.40, within a factor of 1.64 above
    assert ("The two layouts' prices (1.04 vs 0.745 ms, a factor of 1.40 apart) differ by less than their fits' "
            "accuracy (a factor of 1.39 below, 1.64 above)") in sources


def test_a_speedup_within_noise_of_a_prediction_is_not_waiting():
    # session 53: split [3], profile 1.59x, work 1.50x, measured 1.42x ± 0.11 (covers 1.50): "waiting" was said
    said = balance.profile_against_work([3], 1.59, 1.50, 1.42, 0.11)
    assert said == ("split [3]: the profile predicts 1.59x, the stages' CPU times predict 1.50x "
                    "(imbalance included, unlike the work-scaled reference; |1.59 - 1.50| = 0.09, "
                    "within the rounds' spread, ± 0.11): these rounds do not tell them apart; the measured 1.42x ± "
                    "0.11 is within noise of the work's 1.50x: no waiting shown")
    under = balance.profile_against_work([3], 1.59, 1.50, 1.20, 0.11)
    assert under.endswith("the measured 1.20x ± 0.11 is under both by more than its spread: the gap is waiting "
                          "(time outside the work both count)")
    both = balance.profile_against_work([3], 1.59, 1.50, 1.55, 0.11)
    assert both.endswith("within noise of the profile's 1.59x and the work's 1.50x: no waiting shown")
    above = balance.profile_against_work([3], 1.59, 1.50, 1.75, 0.11)
    assert above.endswith("above both by more than its spread: a finding to explain")
    missed = balance.profile_against_work([3], 1.59, 1.30, 1.20, 0.11)
    assert missed.endswith("more than the rounds' spread, ± 0.11): the profile missed work the stages did "
                           "(messages, work per micro-batch)")
