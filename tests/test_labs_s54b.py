"""Thirteenth reading, labs (t13_labs04, t13_labs58): the words of labs 00, 01, 04 and 05 follow from the figures
printed beside them on every outcome."""

from __future__ import annotations

from types import SimpleNamespace as NS

import pytest

from utils.labs.fix_the_article import rounds

BAND = (0.83, 1.50)  # the reader's run: the fit's own sizes measured 0.83-1.50x what it predicts


# --- lab 00-1: the split's excess over the ping-pong, named by its statistic; a miss only outside the band -----


def test_a_split_inside_the_band_is_no_miss_of_the_model_and_its_own_part_is_its_excess():
    """The reader's run: the split 190 µs against 187 µs predicted (1.02x), the ping-pong 0.83x, the rounds'
    median excess 1.15x: "the miss is the split's own (the split took 1.02x ...)" pinned a 2% gap on it."""
    said = rounds.owner_words(1.02, 0.83, BAND, 1.15)
    assert said == ("no miss of the model. "
                    "The split's excess over the ping-pong of the same bytes, round by round: the median of its "
                    "rounds' ratios is 1.15x; "
                    "the split over the prediction: 1.02x, inside the fit's band 0.83-1.50x, and the ping-pong of the "
                    "same bytes 0.83x, inside it.")
    assert "the miss is the split's own" not in said


# the verdict first (t33_labs03), then the figures it rests on
@pytest.mark.parametrize("split_x, pp_x, words", [
    (1.71, 1.03, "the miss is the split's own. The split's excess"),
    (1.71, 1.03, "prediction: 1.71x, above the fit's band 0.83-1.50x, and the ping-pong of the same bytes 1.03x, inside "
                 "it."),
    (1.506, 1.03, "prediction: 1.51x, above the fit's band"),   # 1.51 as printed: past the band's printed end
    (1.504, 1.03, "prediction: 1.50x, inside the fit's band"),   # 1.50 as printed: at its end, inside
    (0.80, 0.90, "a miss under the prediction, not the split's excess. The split's excess"),
    (0.80, 0.90, "prediction: 0.80x, under the fit's band 0.83-1.50x, and the ping-pong of the same bytes 0.90x, inside "
                 "it."),
    (1.71, 1.57, "prediction: 1.71x, above the fit's band 0.83-1.50x, and the ping-pong of the same bytes 1.57x, above it"),
])
def test_whose_miss_follows_the_printed_split_and_ping_pong_on_every_branch(split_x, pp_x, words):
    said = rounds.owner_words(split_x, pp_x, BAND, 1.38)
    assert said.split(". ", 1)[1].startswith("The split's excess over the ping-pong of the same bytes, round by "
                                             "round: the median of its rounds' ratios is 1.38x")
    assert words in said, said


# --- lab 00-2: a case out of the band whose messages the link table timed has its gap split in two -------------
# (t24_labs03 #1: the table's measured time against its fitted time is the fit's own miss at those sizes; the
# ping-pong against the table is the same messages now against then, the link or the rounds' briefer ping-pong:
# the band, a spread of the fit's residuals, is no tolerance for that second ratio)


def test_a_case_out_of_the_band_has_its_gap_split_by_the_link_tables_time_for_the_same_messages():
    """Reader 24's run: the 8 MB plan's ping-pong 126 µs, 0.77x its prediction, 2 messages of 16,384 B, rows of
    the link table at 77.9 µs measured and 81.3 µs fitted: 155.8 / 162.6 = 0.96x, the fit's own miss, and
    126 / 155.8 = 0.81x, printed "inside the band" as if the band were a tolerance for it."""
    tables = [(126.0, 155.8, 162.6), None, None]
    said = rounds.drift_sentence([0.77, 0.84, 0.89], (0.80, 1.22), [0, 0, 0], 9, tables)
    assert ("Where the link table timed the same messages, the gap splits in two (at 0.77x, about the product "
            "of two: the fit's own miss at "
            "these sizes, the link table's 155.8 µs against 162.6 µs fitted, 0.96x; the ping-pong against that "
            "table, 126 µs against 155.8 µs, 0.81x: the link now against when fitted, or the rounds' briefer "
            "ping-pong, not told apart).") in said, said
    assert "The rounds' ping-pong is the briefer (fewer repeats): a median of 3 after 1 untimed" in said
    assert "inside the band" not in said and "does not tell which" not in said and "no measured time" not in said
    slower = rounds.drift_sentence([1.03, 1.57], BAND, [0, 0], 9, [None, (587.0, 342.4, 350.0)])
    assert "587 µs against 342.4 µs, 1.71x: the link now against when fitted, or the rounds'" in slower, slower
    assert "the link was slower in those rounds" not in slower


def test_a_case_without_a_table_time_names_three_causes():
    untabled = rounds.drift_sentence([1.03, 1.57], BAND, [0, 0], 9, [None, None])
    assert ("Where its rounds' jumps do not explain it (at 1.57x, no round took over 2x its fastest) and the link "
            "table holds no measured time for its messages' sizes to set beside it, this report does not tell "
            "which of three causes does: the fit's own miss at those sizes, the link faster or slower than when "
            "fitted, or the rounds' briefer ping-pong.") in untabled, untabled
    mixed = rounds.drift_sentence([1.03, 1.57, 0.70], BAND, [0, 0, 0], 9, [None, (587.0, 500.0, 480.0), None])
    assert "the gap splits in two (at 1.57x, about the product of two: the fit's own miss at these sizes, the link table's 500.0 µs " \
           "against 480.0 µs fitted, 1.04x;" in mixed and "(at 0.70x, no round took over 2x its fastest)" in mixed
    assert mixed.count("The rounds' ping-pong is the briefer") == 1, mixed   # how it is shorter: said once
    jumped = rounds.drift_sentence([1.03, 4.00], BAND, [0, 5], 9, [None, (2000.0, 342.4, 350.0)])
    assert "is a jumped round above the band" in jumped and "link table" not in jumped  # jumps first
    assert "ping-pong is the briefer" not in rounds.drift_sentence([1.03, 1.04], BAND, [0, 0], 9)


def test_the_link_tables_time_for_a_steps_messages_adds_its_printed_rows():
    from utils.linkmodel import AlphaBeta

    sizes = (16384, 262144)
    fit = AlphaBeta(100e-6, 3.5e9, sizes, (0.0, 0.0))
    link = NS(fit=fit, seconds=(104.96e-6, 171.24e-6))  # printed 105.0 and 171.2 µs
    assert rounds.table_time(link, [262144, 262144]) == 342.4
    assert rounds.table_time(link, [16384, 16384]) == 210.0
    assert rounds.table_time(link, [16384, 4096]) is None and rounds.table_time(link, []) is None
    # the fitted column: 100 + 262,144 / 3.5e3 = 174.9 µs a message, as the table prints it
    assert rounds.table_time(link, [262144, 262144], column=1) == 349.8
    message = NS(nbytes=262144)
    run = NS(messages=[message, message], ping_pong_seconds=lambda: [580e-6, 587.4e-6, 600e-6])
    lonely = NS(messages=[NS(nbytes=8)], ping_pong_seconds=lambda: [50e-6])
    assert rounds.table_pairs(link, [run, lonely]) == [(587.0, 342.4, 349.8, 2), None]


# --- lab 01-1: the turning length's intensity from the printed counts, half up --------------------------------


def test_the_turning_lengths_intensity_is_33_over_8_rounded_half_up():
    """Length 32, causal fp32: 33/8 = 4.125 printed 4.12 by round-half-even; a reader writes 4.13 (and the
    details table's 5.54e+08 / 1.34e+08 = 4.134 gives 4.13 too)."""
    from utils.labs.predict_the_roofline import report

    exact = report.turning_limit_sentence(NS(flops=33 * 8.0, n_bytes=64.0, bound="compute"), 32, NS(ridge=3.89),
                                          4.01)
    assert "the op's own intensity at that length, 264 / 64 = 4.13 FLOPs/byte, is at or above that ridge" in exact
    counted = report.turning_limit_sentence(NS(flops=5.5404e8, n_bytes=1.3431e8, bound="compute"), 32,
                                            NS(ridge=99.7 / 25.6), 4.01)
    assert "measured the ridge at 3.89, and the op's own intensity at that length, 554,040,000 / 134,310,000 = " \
           "4.13 FLOPs/byte" in counted
    below = report.turning_limit_sentence(NS(flops=3.88e3, n_bytes=1e3, bound="memory"), 31, NS(ridge=4.125), None)
    assert "ridge at 4.13, above the op's own intensity at that length, 3,880 / 1,000 = 3.88 FLOPs/byte" in below


# --- lab 04 (other problem 1): the speed check's line is one sentence; its reading is the plan's Speed line -------


def test_the_plans_speed_line_holds_the_reading_the_check_line_left_each_figure_once(monkeypatch):
    """The reader's run: 11.11x, 3.47x, 3.16x ± 0.29 (11.11 / 3.47 = 3.20x), 5.31x fewer weights. The check
    printed "3.16x ± 0.29" twice and the plan's Speed line repeated the medians clause word for word."""
    from utils.labs.compress_under_budget import checks as lab04

    widths = {"yours": [276] * 4, "trained": [768] * 4, "whole": [768] * 4}
    kinds = {"yours": "int8_dynamic", "trained": "float", "whole": "int8_dynamic"}
    monkeypatch.setattr(lab04, "hidden_widths", lambda m: widths[m])
    monkeypatch.setattr(lab04, "quantization_of", lambda m: kinds[m])
    monkeypatch.setattr(lab04, "MEASURED_SPEED", [([276] * 4, "int8_dynamic",
                                                   lab04.PairedSpeed(11.11, 3.16, 0.29, 3.47, 21, 5.312))])
    said = lab04._speed_line("yours", "trained", "whole")
    assert said == (  # thirty-second reading: the verdict first, the reference on a line of its own
        "Speed: whole-model int8 ran 3.47x the trained model's speed, yours 11.11x it. With int8 in both, your "
        "narrower widths made the difference: 3.16x ± 0.29 whole-model int8's speed (11.11x / 3.47x = 3.20x from "
        "the two medians; the check reads the median of each round's own ratio).\nWere time in proportion to the "
        "work, a multiply-add a weight (5.31x fewer weights than the whole model's), and int8's gain the same at "
        "every width, yours would run 5.31x int8 of the whole model's speed and 5.31 x 3.47 = 18.43x the trained "
        "model's: the measured 11.11x is 60% of that; the costs that do not shrink with the widths (each call's "
        "own, the activations' traffic, the other layers) weigh more in a thinner model, and this run does not "
        "measure which."), said
    kinds["yours"] = "float"   # float, the trained model the bar: the float reference, then the bar's words
    monkeypatch.setattr(lab04, "MEASURED_SPEED", [([276] * 4, "float",
                                                   lab04.PairedSpeed(2.10, 2.10, 0.10, 0.95, 21, 5.312))])
    said = lab04._speed_line("yours", "trained", "whole")
    assert "yours would run 5.31x the trained model's speed: the measured 2.10x is 40% of that" in said, said
    verdict, reference = said.split("\n")   # the verdict, then the reference on its own line
    assert verdict.endswith("float in both: your narrower widths made the difference."), said
    assert reference.startswith("Were time in proportion to the work") and reference.endswith("."), said


# --- lab 05 (other problem 3): steps + waits = the epoch, printed on every branch of the bound's words ------------


@pytest.mark.parametrize("seconds, waits, limit, says", [
    (1.39, 0.09, 1.30, "with C the 1.30 s your epoch's own steps took, within the course's 2% timing noise of the 1.29 s measured alone (+1%)"),
    (1.47, 0.07, 1.40, "with C the 1.40 s your epoch's own steps took, longer than the 1.29 s measured alone (+9%, "
                       "past the course's 2% timing noise): a busy machine"),
    (1.39, 0.14, 1.29, "(max(L/2, C), C the 1.29 s measured alone; your epoch: 1.25 s of its own steps"),
])
def test_the_bounds_words_always_add_the_epochs_steps_and_waits_up_to_the_epoch(seconds, waits, limit, says):
    """The reader's run closed 1.30 + 0.09 = 1.39 only because its steps took longer than C (1.29 s): where they
    took less, "C measured alone" printed no steps, and C + waits overshot the epoch."""
    from utils.labs.feed_the_gpu.checks import _bound_uses
    from utils.lessons.data_prefetch.epoch import EpochResult

    said = _bound_uses(EpochResult(seconds, 32, waits), limit, load=1.08, compute=1.29, loaders=2)
    assert says in said, said
    steps = round(seconds - waits, 2)
    assert f"your epoch: {steps:.2f} s of its own steps + {waits:.2f} s of waits for data = {seconds:.2f} s" in said


def test_the_steps_are_the_printed_epoch_less_the_printed_waits_so_the_bound_and_the_sum_agree():
    """1.394 s with 0.086 s of waits print 1.39 and 0.09: the steps are 1.30 (not 1.308, printed 1.31), and the
    bound that takes them prints the same 1.30."""
    from utils.labs.feed_the_gpu.checks import _bound_uses, epoch_bound, own_steps
    from utils.lessons.data_prefetch.epoch import EpochResult

    epoch = EpochResult(1.394, 32, 0.086)
    assert own_steps(epoch) == 1.30 and epoch_bound(epoch, load=1.08, compute=1.29, loaders=2) == 1.30
    said = _bound_uses(epoch, 1.30, load=1.08, compute=1.29, loaders=2)
    assert "C the 1.30 s your epoch's own steps took" in said and "1.30 s of its own steps + 0.09 s" in said, said
