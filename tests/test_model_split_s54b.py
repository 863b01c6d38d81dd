"""Lesson 02's thirteenth reading (t13_02, session 54b): each printed sentence follows from the figures printed
beside it, in every outcome. Synthetic rows, CPU only; each branch."""

import json
from pathlib import Path

from utils.lessons.model_split import balance, report, runs

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "02_model_split.ipynb"


def _row(speedups, bound=None, m=4):
    return runs.Row(128, m, "zbv", 1.0, 1.0, [0.5, 0.5], speedups=speedups, bound_override=bound)


def _cell(index: int) -> str:
    return "".join(json.loads(NOTEBOOK.read_text())["cells"][index]["source"])


# --- item 5: rounds above the bound, round by round (claims.rounds_past_spread) -----------------------------


def test_a_round_above_the_bound_and_beyond_the_median_plus_spread_is_a_finding_whatever_the_bound():
    # t13_09 #2: 1.70x ± 0.08 under a 1.78x bound read a 1.86x round "explained" because the band reached the
    # bound; here 1.68 + 0.09 = 1.77, under both the 1.79x and the 1.86x round: each a finding to explain
    r = _row([1.62, 1.86, 1.70, 1.19, 1.79, 1.66], bound=1.78)
    assert report.printed(r) == (1.68, 0.09)
    said = report.headline_verdict(r)
    assert said.endswith("2 of 6 rounds above the bound (up to 1.86x): beyond the rounds' spread of the median "
                         "(± 0.09): a finding to explain"), said
    assert "which explains" not in said


def test_the_spread_explains_the_rounds_within_it_and_not_the_others():
    both = _row([1.25, 1.29, 1.31, 1.34, 1.38], m=2)  # 1.31 + 0.03 = 1.34: 1.34x within, 1.38x beyond
    assert report.printed(both) == (1.31, 0.03)
    assert report.rounds_above_bound(both) == (
        "2 of 5 rounds above the bound (up to 1.38x): 1 of them beyond the rounds' spread of the median (± 0.03): "
        "a finding to explain; 1 within it, which explains it")
    every = _row([1.22, 1.28, 1.31, 1.34, 1.34], m=2)  # both rounds above the 1.33x bound reach only 1.34
    assert report.printed(every) == (1.31, 0.03)
    assert report.rounds_above_bound(every) == ("2 of 5 rounds above the bound (up to 1.34x): within the rounds' "
                                                "spread of the median (± 0.03), which explains them")
    assert report.rounds_above_bound(_row([1.25, 1.29, 1.31, 1.33, 1.32], m=2)) == ""  # none above 1.33x


def test_a_round_past_2x_within_the_spread_is_still_a_finding():
    only = _row([1.60, 1.73, 1.88, 2.01, 2.02], bound=1.92)  # 1.88 + 0.14 = 2.02: both within, both past 2x
    # t33_02 #3: a round past 2x is named first, a finding by that alone (rule 1), beyond the spread or within it
    assert report.rounds_above_bound(only).endswith(
        "2.01x, 2.02x past 2 devices' 2x: a finding to explain by that alone (cheaper work, or a disturbed "
        "one-device step), which neither the spread nor a reference explains")
    mixed = _row([1.50, 1.62, 1.90, 1.95, 2.01, 2.15], bound=1.92)  # 1.92 + 0.20 = 2.12: 2.15x beyond
    assert report.rounds_above_bound(mixed) == (
        "3 of 6 rounds above the bound (up to 2.15x, 2 of them past 2 devices' 2x): 2.01x, 2.15x past 2 devices' "
        "2x: a finding to explain by that alone (cheaper work, or a disturbed one-device step), which neither the "
        "spread nor a reference explains; the other round: within the rounds' spread of the median (± 0.20), which "
        "explains it")


def test_a_median_above_the_bound_within_noise_reads_its_rounds_by_the_same_rule():
    # the layers placement (t13_02's run): 1.02x ± 0.07 at a 1x bound, rounds up to 1.10x: 1.02 + 0.07 = 1.09
    layers = runs.Row(32, 1, "layers", 0.15, 0.153, [0.07, 0.07], naive=True,
                      speedups=[0.86, 1.02, 1.10, 0.95, 1.09])
    assert report.printed(layers) == (1.02, 0.07)
    said = report.rounds_in_noise(layers)
    assert said == ("3 of 5 rounds above the bound (up to 1.10x): 1 of them beyond the rounds' spread of the "
                    "median (± 0.07): a finding to explain; 2 within it, which explains them")
    calm = runs.Row(32, 1, "layers", 0.15, 0.153, [0.07, 0.07], naive=True, speedups=[0.86, 1.02, 1.08, 0.95, 1.09])
    assert report.rounds_in_noise(calm).endswith("within the rounds' spread of the median (± 0.07), which explains "
                                                 "them")


def test_cell_15_states_the_per_round_rule():
    rule = " ".join(_cell(15).split())
    assert "a round at most $s + d$ lies within the rounds' spread of the median, which explains it" in rule
    assert "a round above both the bound and $s + d$ is \"a finding to explain\", whatever the median" in rule
    assert "$s + d \\ge b$" not in rule


# --- item 2: the timelines draw the median round, and say so -----------------------------------------------


def _round_spans(worker: str, end: float) -> list[dict]:
    return [{"device": worker, "name": "forward", "index": 0, "start": 0.0, "end": end}]


def test_a_chart_draws_the_round_whose_speedup_is_the_median_not_the_last():
    assert runs.median_round([1.70, 1.86, 1.65, 1.72, 1.19]) == 0  # 1.70x, the median, came first
    assert runs.median_round([1.2, 1.1, 1.4, 1.3]) == 0  # an even count: the lower middle, a measured round
    # cell 61: the last round, the slowest (1.19x), drew interleaved 1F1B slower than the table's median says
    row = runs.Row(128, 4, "interleaved 1F1B", 0.497, 0.845, [0.39, 0.39], speedups=[1.70, 1.86, 1.65, 1.72, 1.19])
    raw = [{"spans": {"interleaved 1F1B": [_round_spans("stage 0", e) for e in (0.50, 0.45, 0.51, 0.49, 0.59)]}},
           {"spans": {"interleaved 1F1B": [_round_spans("stage 1", e) for e in (0.50, 0.45, 0.51, 0.49, 0.59)]}}]
    run = runs.PipelineRun([row], raw, (2, 3, 4), 1, True)
    drawn = run.spans("interleaved 1F1B")
    assert sorted(s.device for s in drawn) == ["stage 0", "stage 1"] and {s.end for s in drawn} == {0.50}


def test_the_chart_caption_names_the_median_round():
    from utils.timeline import Span

    row = runs.Row(128, 4, "gpipe", 0.5, 0.8, [0.39, 0.40], speedups=[1.6, 1.5, 1.7])
    spans = [Span("stage 0", "forward", 0, 0.0, 0.4), Span("stage 1", "forward", 0, 0.1, 0.5)]
    fig = report.plot_schedule(spans, simulated=True, row=row)
    label = fig.axes[0].get_xlabel()
    # t16_02 other 1: the drawn round named, and its length (500 ms beside the table's 500 ms step here)
    assert ("bars: round 1 of 3, the median speedup's (1.60x), 500 ms, as long as the median step;\nbusy: the table's, "
            "median of 3 rounds") in label and "last round" not in label


# --- item 1: a median under the work's prediction, within noise of the profile's: no waiting named --------


def _split2():
    """Cell 47's split [2]: 1.19x ± 0.09, the work's 1.32x, the profile's 1.23x (t13_02's run)."""
    return runs.Row(32, 4, "gpipe", 0.199, 0.250, [0.061, 0.169], split_points=(2,),
                    speedups=[1.11, 1.36, 1.19, 1.28, 1.09], cpu=[0.066, 0.172], baseline_cpu=0.248)


def test_the_block_gives_the_visible_lines_answer_where_the_profiles_prediction_is_met():
    r = _split2()
    assert report.printed(r) == (1.19, 0.09) and f"{r.predicted:.2f}" == "1.32"
    line = report.explain_row(r, profile=1.23)
    assert ("waiting, or the work's prediction is off (these rounds do not tell which): 1.19x ± 0.09 under the "
            "work's 1.32x, within noise of the profile's 1.23x") in line
    assert report.WAITING not in line
    assert "waiting, or the work's prediction is off; these rounds do not tell which" in \
        balance.profile_against_work((2,), 1.23, r.predicted, *report.printed(r))  # the visible line's answer
    # the other outcome: the profile's prediction outside the median's noise too: waiting, as the line says
    far = report.explain_row(r, profile=1.40)
    assert f"{report.WAITING}: 1.19x ± 0.09 under the work's 1.32x" in far and "do not tell which" not in far
    assert f"{report.WAITING}: 1.19x ± 0.09 under the work's 1.32x" in report.explain_row(r)  # no profile beside


def test_the_verdict_table_lists_the_new_reading():
    assert any(report.WAITING_OR_OFF in row[0] for row in report.verdict_table().rows)


def test_cell_47_passes_the_profiles_prediction_to_the_block():
    assert "report.explain_row(r, profile=predict[r.split_points])" in _cell(47)


# --- item 3: "section 5's fit" names one fit in a paragraph -------------------------------------------------


def test_the_unpinned_fit_is_not_called_section_5s_fit_beside_the_pinned_one():
    from utils.lessons.model_split import link

    fit = runs.Link(84e-6, 1.1e9, "pinned workers", 0.39, True)  # section 5's fit, the price of the paragraph
    unpinned = runs.Link(90.04e-6, 1.604e9, "workers the OS placed", 0.39)
    probe = link.probe_reading(1.2e-3, 2**20, fit, 0.03, None, unpinned)
    assert probe.startswith("Section 5 priced its messages with the link it used")
    assert "the same message costs 0.745 ms by the fit section 5 made of that layout:" in probe
    assert "section 5's fit" not in probe
    # the other outcome: no unpinned fit, nothing named
    assert "that layout" not in link.probe_reading(1.2e-3, 2**20, fit, 0.03, None, None)


# --- item 4: cell 36's one-device CPU / wall share, from the two medians the table prints ------------------


def _one_device(cpu: float, wall: float) -> runs.Row:
    return runs.Row(32, 2, "gpipe", 0.14, wall, [0.07, 0.07], cpu=[0.07, 0.07], baseline_cpu=cpu,
                    speedups=[1.3, 1.31, 1.32, 1.29, 1.33])


def test_the_one_device_cpu_share_is_divided_from_the_figures_printed_beside_it():
    r = _one_device(0.1840, 0.1853)  # t13_02: "97%" from sums never printed, beside 184 and 185 ms
    table = report.rows_table(runs.PipelineRun([r], [], (3,), 1, True))
    assert table.rows[0][3] == "185" and table.rows[0][-3] == "184"  # one device ms, one device CPU ms
    assert report.baseline_cpu_note(r) == ("one device, batch 32: CPU time / wall time 184 / 185 ms = 99% (medians "
                                           "of 5 rounds, as the table prints them): not below 80%, it ran "
                                           "whenever it worked")
    assert "= 100%" in report.baseline_cpu_note(_one_device(0.7360, 0.7389))  # 736 / 739 = 99.6%, half up
    # the other outcome: under the 80% line as printed, it waited for a core
    assert report.baseline_cpu_note(_one_device(0.140, 0.185)).endswith("140 / 185 ms = 76% (medians of 5 "
                                                                         "rounds, as the table prints them): "
                                                                         "below 80%, it waited for a core")
    assert report.baseline_cpu_note(_one_device(0.148, 0.185)).endswith("= 80% (medians of 5 rounds, as the table "
                                                                        "prints them): not below 80%, it ran "
                                                                        "whenever it worked")


def test_cell_36_prints_the_note_not_a_share_of_sums():
    assert "report.baseline_cpu_note(" in _cell(36) and "sum(cpu) / sum(wall)" not in _cell(36)


# --- item 6: section 3's CPU/busy shares printed half up (claims.percent), as beside_line judges them ---------


def test_the_naive_splits_cpu_busy_shares_are_printed_half_up():
    from utils.lessons.model_split import naive
    from utils.timeline import Span

    # 33 / 40 ms = 0.825: claims.percent prints 83%, ``:.0%`` printed 82%
    r = runs.Row(32, 1, "gpipe", 0.2, 0.16, [0.040, 0.040], naive=True, speedups=[0.78, 0.80, 0.79, 0.81, 0.80],
                 cpu=[0.030, 0.033], baseline_cpu=0.15, process_bounds=[1.05, 1.06, 1.04])
    assert r.cpu_share == [0.75, 0.825] and f"{0.825:.0%}" == "82%"
    assert naive._rest(r) == "the messages, the turn-taking and waiting for a core (CPU/busy 75% / 83%)"
    spans = [Span("stage 0", "forward", 0, 0.0, 0.05), Span("stage 1", "forward", 0, 0.05, 0.1)]
    assert "the rest is the messages, the turn-taking and waiting for a core (CPU/busy 75% / 83%)" in \
        report.naive_reading(r, spans)
    # the other outcome: no stage below 80% as printed: no waiting for a core named
    calm = runs.Row(32, 1, "gpipe", 0.2, 0.16, [0.040, 0.040], naive=True, speedups=[0.78, 0.80, 0.79, 0.81, 0.80],
                    cpu=[0.032, 0.033], baseline_cpu=0.15, process_bounds=[1.05, 1.06, 1.04])
    assert naive._rest(calm) == "the messages and the turn-taking"
    assert "waited for a core" not in report.naive_reading(calm, spans)
