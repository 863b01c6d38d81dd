"""Lessons 05 and 06, twenty-seventh reading (t27_0506) and the lead's items beside it."""

import pytest

from utils import claims
from utils.lessons.data_prefetch import report


def test_the_gain_verdicts_range_uses_the_spread_the_row_prints_half_up():
    # 1.80x ± 0.045 under 2.00x: the row prints ± 0.05 (half up); round() would give 0.04 and a range 70%-90%
    row = report.speedup_claim("c", 1.80, 2.0, 0.045, "slower")
    assert "± 0.05" in row.measured
    assert row.verdict == "faster, under the bound: 80% of its gain" + claims.gain_share_range(1.80, 0.05, 2.0)
    assert row.verdict.endswith(" (75%-85% across its ±)")
    assert report.gain_verdict(1.80, 2.0, 0.045, "slower").endswith(" (75%-85% across its ±)")


# t27_0506 #1: selective's share of full checkpointing's extra time comes from the two medians the verdict
# reads, not from the fastest runs (one round's); its step, for the prediction, is its median x the plain step

from utils.lessons.memory import forward_bound as fb   # noqa: E402


def test_the_share_is_worked_from_the_two_printed_medians_with_both_ranges():
    share, low, high = fb.extra_share((1.18, 0.045), (1.20, 0.045))   # each ± printed half up: 0.05
    assert (claims.percent(share), claims.percent(low), claims.percent(high)) == ("90%", "52%", "153%")
    said = fb.extra_share_words((1.18, 0.05), (1.20, 0.05), "of full checkpointing's extra time")
    assert said == ("90% of full checkpointing's extra time ((1.18 - 1) / (1.20 - 1); 52%-153% within both "
                    "± 0.05 and 0.05)")


def test_a_whole_within_its_noise_of_no_extra_time_gives_an_unread_share():
    assert fb.extra_share((1.10, 0.02), (1.03, 0.05))[2] == float("inf")
    said = fb.extra_share_words((1.10, 0.02), (1.03, 0.05), "of it")
    assert said.startswith("an unread share of it (that step, 1.03x ± 0.05")
    assert fb.extra_share((0.95, 0.02), (1.20, 0.02))[1] == 0.0   # never under nothing


def test_a_steps_time_from_its_median_ratio_is_worked_from_the_printed_figures():
    assert fb.step_from_ratio(1.18, 0.0622) == pytest.approx(0.0734)   # 1.18 x 62.2 = 73.396
    assert fb.step_from_ratio(1.2049, 0.06224) == pytest.approx(0.0746)   # 1.20 x 62.2, not 1.2049 x 62.24


# t27_0506 #2: the share of a forward prints the ms it is worked from, so one division gives it

def test_the_forwards_share_prints_the_ms_it_divides():
    said = fb.ratio_in_forwards(1.20, 0.0622, 0.0199, 0.0199, 0.05 * 0.0622, working=True)
    assert said.startswith("0.63 ± 0.16 of a forward (63% of the predicted extra time: (1.20 - 1) x 62.2 = "
                           "12.44 ms over 19.9 ms; ± 3.1 ms, the rounds' noise)")
    assert round(12.44 / 19.9 + 1e-9, 2) == 0.63   # the printed working gives the printed share
    ranged = fb.ratio_in_forwards(1.17, 0.0697, 0.0200, 0.0217, working=True)
    assert "x 69.7" not in fb.ratio_in_forwards(1.17, 0.0697, 0.0200, 0.0217)   # working=False: the share alone
    assert ": (1.17 - 1) x 69.7 = 11.85 ms over 20.0-21.7 ms; ± at its floor, a tenth of a forward)" in ranged


def test_step_parts_name_the_runs_their_parts_come_from():
    from utils.lessons.memory import summary
    plain, full = {"forward": 0.0204, "step": 0.0622}, {"forward": 0.0200, "step": 0.0746}
    said = summary.step_parts("Full checkpointing", plain, full, {"forward": 0.0, "rest": 0.0199}, 0.0031,
                              basis=" between the fastest runs (the first table)")
    assert said.startswith("Full checkpointing's extra step time between the fastest runs (the first table), "
                           "+12.4 ms")
    assert summary.step_parts("X", plain, full, {"forward": 0.0, "rest": 0.0199}, 0.0031).startswith(
        "X's extra step time, +12.4 ms")


# t27_0506 #3: cell 21's autocast paragraph points at the row autocast raises, worked from printed GB

from utils.lessons.memory import widget   # noqa: E402


def test_autocast_on_section_9s_stripped_row_rises_as_the_calculator_prints_it():
    said = widget.autocast_on_stripped()
    assert said.startswith("with checkpointing, a chunked loss and 4 micro-batches, its peak is ")
    assert said.endswith("rises by 0.15 GB under autocast (2.84 -> 2.99 GB, the calculator)")


@pytest.mark.parametrize("after, moved", [(2.70e9, "falls by 0.14 GB"), (2.842e9, "stays as printed"),
                                          (3.00e9, "rises by 0.16 GB")])
def test_autocast_on_the_stripped_row_reads_every_outcome(monkeypatch, after, moved):
    lines = {"parameters": 0.5e9, "gradients": 0.5e9, "optimizer": 1.0e9, "activations": 0.84e9}

    def fake(shape, batch, precision="fp32", **setup):
        peak = 2.84e9 if precision == "fp32" else after
        return type("B", (), {"peak": peak, "at_peak": lines})()
    monkeypatch.setattr(widget, "estimate", fake)
    said = widget.autocast_on_stripped()
    assert "its peak is 70% weights, gradients and AdamW state" in said and moved in said
