"""Lesson 02's tenth reading (session 53, round 2): every figure a sentence reads is the figure as printed.
Unit tests on synthetic runs, CPU only; each rule with the figures the reader saw and the other outcome."""

import json
from pathlib import Path

from utils.lessons.model_split import balance, chunks, link as link_module, outputs, report, runs
from utils.timeline import Span


def _naive(**kw):
    return runs.Row(32, 1, "gpipe", 0.150, 0.155, [0.07, 0.08], naive=True,
                    speedups=[1.00, 1.02, 1.03, 1.05, 1.08], **kw)


def _two_stages(first: float, second: float) -> list[Span]:
    """Stage 0 busy ``first`` of a 1 s window from its start, stage 1 busy ``second`` up to its end."""
    return [Span("stage 0", "forward", 0, 0.0, first), Span("stage 1", "forward", 0, 1.0 - second, 1.0)]


def test_the_busy_total_adds_the_shares_as_printed():
    # cell 19 printed 49% + 51% "together 99%" from the unrounded fractions. 49.45% prints 49%, 50.45% 50%:
    # together 99% (the unrounded sum, 99.9%, would print 100%)
    text = report.naive_reading(_naive(), _two_stages(0.4945, 0.5045))
    assert text.startswith("Busy on the timeline: stage 0 49%, stage 1 50%; together 99%: one device works at a time")
    # 55.4% + 55.4% print 55% + 55% = 110%: at the line, one at a time (unrounded 110.8% would say "overlapped")
    text = report.naive_reading(_naive(), _two_stages(0.554, 0.554))
    assert "stage 0 55%, stage 1 55%; together 110%: one device works at a time" in text
    # the other outcome: 60% + 56% = 116%, past it
    text = report.naive_reading(_naive(), _two_stages(0.60, 0.56))
    assert "together 116%: they overlapped a little" in text


def test_a_share_at_another_price_rounds_half_up_as_a_reader_does(monkeypatch):
    # cell 52: 9% x 2.5 printed 22% (0.09 * 2.5 is stored as 0.22499...) beside 17% x 2.5 printed 43%
    row = runs.Row(32, 8, "gpipe", 0.1, 0.15, [0.05, 0.05])
    monkeypatch.setattr(link_module, "lost_time", lambda r: 0.010)  # 10.0 ms lost, as printed
    for link_ms, fit, dear in ((0.9, 0.09, 0.23), (1.7, 0.17, 0.43), (1.0, 0.10, 0.25)):
        monkeypatch.setattr(link_module, "link_time", lambda r, a, b, t=link_ms: t * 1e-3)
        assert link_module.link_share(row, 0.0, 1.0) == fit
        assert link_module.link_share(row, 0.0, 1.0, 2.5) == dear
    assert link_module._short_word(0.25) == "at the 25% line" and link_module._short_word(0.23) == link_module.NOT_IT
    assert link_module.at_price(0.09, 2.5, 2) == 0.23 and link_module.at_price(0.021, 3.9) == 0.082


def _placement(cpu):
    """A one-micro-batch row against its 1x bound, its stages' CPU work ``cpu`` (s) beside one device's 176 ms."""
    return runs.Row(32, 1, "gpipe", 0.202, 0.176, [0.075, 0.109], cpu=cpu, baseline_cpu=0.176,
                    speedups=[0.86, 0.87, 0.88, 0.89, 0.90])


def test_extra_work_is_read_on_the_work_as_printed():
    # cell 52: both placements printed work 1.10x; 194 / 176 = 1.102 read "extra work", 193 / 176 = 1.097 not
    for cpu in ([0.079, 0.115], [0.094, 0.099]):
        r = _placement(cpu)
        assert f"{r.work_inflation:.2f}x" == "1.10x"
        # not extra work; session 53 round 3: 0.88x ± 0.01 under the work's 0.91x is waiting (the noise rule)
        assert report.row_verdict(r) == (report.GAP + report.WAITING + ": 0.88x ± 0.01 under the work's 0.91x")
    # the other outcome: 196 / 176 prints 1.11x, above 1.10x
    r = _placement([0.079, 0.117])
    assert f"{r.work_inflation:.2f}x" == "1.11x" and report.row_verdict(r).startswith(report.GAP + report.EXTRA + ", ")


def test_ninety_percent_of_a_figure_is_read_on_the_printed_figures():
    assert not report._below_share(0.8996, 0.90, 1.0)  # prints 0.90x: not below 90% of 1.00x
    assert report._below_share(0.894, 0.90, 1.0)  # prints 0.89x
    assert not report._below_share(0.99, 0.90, 1.1)  # 0.99 is 90% of 1.10, not below it (0.9 * 1.1 = 0.99000...1)


def _multi(schedule, baseline, speedups):
    return runs.Row(128, 4, schedule, 0.44, baseline, [0.35, 0.37], speedups=speedups)


PLAIN = _multi("1f1b", 0.6688, [1.57, 1.60, 1.63, 1.66, 1.69])  # 1.63x ± 0.03
INTERLEAVED = [1.59, 1.41, 1.64, 1.50, 1.52]  # cell 59's rounds: 1.52x ± 0.05


def test_the_baselines_gap_is_worked_from_the_printed_ms():
    # cell 59: 679 and 669 ms were called "2% apart" (679.2 / 668.8 = 1.6%); as printed 679 / 669 = 1.5%: 1%
    assert chunks.baseline_gap(0.6792, 0.6688) == 0.01 and chunks.baseline_gap(0.6820, 0.6688) == 0.02


def test_section_9_prints_each_rows_spread_beside_its_speedup():
    r = _multi("interleaved 1F1B", 0.6792, INTERLEAVED)
    assert report.measured_text(r) == "1.52x ± 0.05 (1.41-1.64)"
    nb = json.loads(Path("notebooks/02_model_split.ipynb").read_text())
    source = next("".join(c["source"]) for c in nb["cells"] if "bubble_answer(chunked.rows" in "".join(c["source"]))
    # the baselines' gap: worked by report.baseline_gap inside report.baseline_note (session 53, round 4)
    assert "report.measured_text(r)" in source and "report.baseline_note(here, there" in source
    assert "abs(here / there - 1)" not in source


def test_waiting_is_read_against_the_works_prediction():
    # cell 47, split [3]: 1.56x ± 0.07 covers the profile's 1.58x, but 1.63 is under the work's 1.65x
    said = balance.profile_against_work([3], 1.58, 1.65, 1.56, 0.07)
    assert said.endswith("the measured 1.56x ± 0.07 is within noise of the profile's 1.58x, under the work's 1.65x "
                         "by more than its spread: waiting, or the work's prediction is off; these rounds do not "
                         "tell which")
    assert "no waiting shown" not in said
    # covering the work's: no waiting shown (both named where it covers both)
    assert balance.profile_against_work([3], 1.58, 1.65, 1.60, 0.07).endswith(
        "within noise of the profile's 1.58x and the work's 1.65x: no waiting shown")
    # above the work's by more than the spread, within noise of the profile's: a finding
    assert balance.profile_against_work([3], 1.65, 1.58, 1.70, 0.07).endswith(
        "within noise of the profile's 1.65x, above the work's 1.58x by more than its spread: a finding to explain")


def test_the_placement_markdown_promises_the_works_reading_only_where_the_time_clears_the_noise():
    nb = json.loads(Path("notebooks/02_model_split.ipynb").read_text())
    text = " ".join(" ".join(c["source"]).replace("\n", " ") for c in nb["cells"] if c["cell_type"] == "markdown")
    assert ("the block under it says, only where that time clears the noise, what the stages' "
            "measured work says of it") in " ".join(text.split())


def test_rule_3_points_below_at_the_speedups_it_vouches_for():
    one = runs.Row(32, 1, "gpipe", 0.15, 0.155, [0.07, 0.08], naive=True)
    raw = [{"regime": "fp32", "losses": {"batch 32 one device": 5.0}}, {"losses": {one.key: 5.00001}}]
    said = " ".join(outputs.rows_losses(raw, [one], report.config_name).split("\n"))
    assert said.startswith("Outputs (the loss) of the 1 row match one device's loss")
    assert said.endswith("its speed-up below counts, since a speed-up counts only where the split computes the "
                         "loss one device computes.") and "all 1" not in said


def test_a_coarse_link_fit_is_said_up_front_to_give_orders_of_magnitude():
    coarse = runs.Link(70.7e-6, 1.74e9, "gloo loopback fitted now, within ±96% of every size", 0.96, True)
    _, said = report.link_sources(None, coarse)
    assert ("within ±96% of every size. A fit that far off (±96% of the measured time: a factor of 1.96 below, "
            "25.00 above its line) makes every link time, share of a loss and price read from it good to about an order "
            "of magnitude only: an estimate, not a measurement") in said  # t21_02: the residual is a share of the measured time
    assert said.index("order of magnitude") < said.index("The arithmetic below uses this fit")
    _, said = report.link_sources(None, coarse._replace(accuracy=0.30))
    assert "order of magnitude" not in said
