"""Fourteenth reading, labs (t14_labs04, t14_labs58): the words of labs 00, 01, 02 and 05 follow from the figures
printed beside them on every outcome."""

from __future__ import annotations

from types import SimpleNamespace as NS

import pytest

from utils.labs.fix_the_article import rounds

BAND = (0.86, 1.10)  # the reader's run: the fit's own sizes measured 0.86-1.10x what it predicts


# --- lab 00-1 and 00-2: the split judged on the band first; a ping-pong out of it told by the link table ------


def test_the_readers_split_inside_the_band_is_no_miss_and_its_ping_pong_is_told_by_the_link_table():
    """The reader's run: the frozen plan's split 0.96x the prediction (inside 0.86-1.10x), its ping-pong 0.72x,
    160 µs against the link table's 192.6 µs for the same message (0.83x): "at that size the fit itself missed"
    and "not the split's miss alone" were printed beside "the link drifted"."""
    said = rounds.owner_words(0.96, 0.72, BAND, 1.55, (160.0, 192.6, 222.2))
    # t23_labs03 #6: inside the band only because the ping-pong left it the other way: said to be a coincidence
    assert said.startswith("no miss of the model, but only because two gaps cancelled")
    assert "the model's agreement here is a coincidence. The split's excess" in said, said
    assert said.split(". ", 1)[1].startswith("The split's excess over the ping-pong of the same bytes, round by "
                    "round: the median "
                    "of its rounds' ratios is 1.55x; "
                    "the split over the prediction: 0.96x, inside the fit's band 0.86-1.10x, and the ping-pong of "
                    "the same bytes 0.72x, under it (the fit's own miss at these sizes, the link table's 192.6 µs "
                    "against 222.2 µs fitted, 0.87x; the ping-pong against that table, 160 µs against 192.6 µs, "
                    "0.83x: the link now against when fitted, or the rounds' briefer ping-pong, not told apart).")
    learns = rounds.owner_words(0.98, 0.67, BAND, 1.42, (300.0, 385.2, 444.4))
    assert ("300 µs against 385.2 µs, 0.78x: the link now against when fitted, or the rounds' briefer ping-pong, "
            "not told apart).") in learns and learns.startswith("no miss of the model")
    for text in (said, learns):
        assert "the fit itself missed" not in text and "not the split's miss alone" not in text


@pytest.mark.parametrize("split_x, pp_x, pair, words, verdict", [
    # t24_labs03 #1: the ping-pong's gap split in two by the link table (the fit's own miss at these sizes, the
    # ping-pong against the table), never "inside the band" for the second ratio
    (1.30, 1.20, (160.0, 150.0, 133.3), "prediction: 1.30x, above the fit's band 0.86-1.10x, and the ping-pong of the same "
     "bytes 1.20x, above it (the fit's own miss at these sizes, the link table's 150.0 µs against 133.3 µs fitted, "
     "1.13x; the ping-pong against that table, 160 µs against 150.0 µs, 1.07x: the link now against when fitted, "
     "or the rounds' briefer ping-pong, not told apart).", "a miss, not the split's alone (the ping-pong of the same "
     "bytes left the band on that side too)"),
    (1.30, 1.20, None, "1.20x, above it (the link table holds no time for these message sizes: the fit's miss at "
     "them, the link now against when fitted, or the rounds' briefer ping-pong, not told apart).",
     "a miss, not the split's alone (the ping-pong of the same bytes left the band on that side too)"),
    (1.30, 1.20, (300.0, 200.0, 250.0), "the link table's 200.0 µs against 250.0 µs fitted, 0.80x; the ping-pong "
     "against that table, 300 µs against 200.0 µs, 1.50x: the link now against when fitted, or the rounds' "
     "briefer ping-pong, not told apart).",
     "a miss, not the split's alone (the ping-pong of the same bytes left the band on that side too)"),
    (1.30, 0.70, (100.0, 150.0, 142.9), "100 µs against 150.0 µs, 0.67x: the link now against when fitted, or the "
     "rounds' briefer ping-pong, not told apart).", "the miss is the split's own"),
    (1.30, 1.00, None, "prediction: 1.30x, above the fit's band 0.86-1.10x, and the ping-pong of the same bytes 1.00x, "
     "inside it.", "the miss is the split's own"),
    (0.80, 0.70, None, "prediction: 0.80x, under the fit's band 0.86-1.10x, and the ping-pong of the same bytes 0.70x, "
     "under it (the link table holds no time", "a miss under the prediction, not the split's excess (the ping-pong "
     "of the same bytes left the band on that side too)"),
    (0.80, 0.90, None, "prediction: 0.80x, under the fit's band 0.86-1.10x, and the ping-pong of the same bytes 0.90x, "
     "inside it.", "a miss under the prediction, not the split's excess"),
    (1.104, 1.00, None, "prediction: 1.10x, inside the fit's band 0.86-1.10x", "no miss of the model"),  # 1.10 as printed
    (1.106, 1.00, None, "prediction: 1.11x, above the fit's band 0.86-1.10x", "the miss is the split's own"),  # past it
])
def test_whose_miss_judges_the_split_on_the_band_first_on_every_branch(split_x, pp_x, pair, words, verdict):
    """The verdict first (t33_labs03: it came at the end of a 7-line sentence), then the figures it rests on."""
    said = rounds.owner_words(split_x, pp_x, BAND, 1.40, pair)
    assert said.startswith(f"{verdict}. The split's excess over the ping-pong of the same bytes, round by round: "
                           "the median of its rounds' ratios is 1.40x"), said
    assert words in said, said
    assert "the fit itself missed" not in said and "not the split's miss alone" not in said
    assert "inside the band" not in said and "ran faster than when fitted" not in said
    if split_x < 0.86 and pp_x < 0.86:
        assert said.startswith("a miss under the prediction, not the split's excess (the ping-pong of the same "
                               "bytes left the band on that side too). ")
    if 0.86 <= pp_x <= 1.10:
        assert "left the band" not in said


def test_the_report_passes_each_cases_link_table_time_to_whose_miss():
    gap = [1.9, 2.1, 2.4, 1.2, 2.0, 2.2, 1.7, 2.0, 2.5]   # 9 of 9 rounds above 1: the split's messages longer
    text = " ".join(rounds.miss_sentence([0.96], [0.72], BAND, {"frozen": gap}, None, [(160.0, 192.6, 222.2)]).split())
    assert ("- frozen: no miss of the model, but only because two gaps cancelled") in text
    assert ("coincidence. The split's excess over the ping-pong of the same bytes, round by round: the median of the "
            "9 rounds' ratios is 2.00x; "
            "the split over the prediction: 0.96x, inside the fit's band") in text
    assert ("160 µs against 192.6 µs, 0.83x: the link now against when fitted, or the rounds' briefer ping-pong, "
            "not told apart).") in text


def test_the_take_aways_largest_miss_reads_the_same_link_table_time():
    from utils.labs.fix_the_article import checks as lab

    run = lab.SplitRun(lab.CASES[0])
    run.steps = [[lab.split.Message(1000, 0, 250e-6)] for _ in range(9)]
    run.ping_pong = [[150e-6] for _ in range(9)]
    said = " ".join(lab._miss_owner(run, 200e-6, BAND).split())  # ping-pong 0.75x
    # the take-away points to the report block's whose-miss line (printed once, t21_labs03), which reads the
    # same link table time
    assert "whose miss it is, from both figures, is this plan's line in the report's block above" in said
    from utils.labs.fix_the_article import rounds
    block = " ".join(rounds.owner_words(1.25, 0.75, BAND, 1.67, (150.0, 200.0, 200.0)).split())
    assert ("prediction: 1.25x, above the fit's band 0.86-1.10x, and the ping-pong of the same bytes 0.75x, under it "
            "(the fit's own miss at these sizes, the link table's 200.0 µs against 200.0 µs fitted, 1.00x; the "
            "ping-pong against that table, 150 µs against 200.0 µs, 0.75x: the link now against when fitted, or "
            "the rounds' briefer ping-pong, not told apart)") in block, block


# --- lab 01-1: the turning length's intensity from the exact counts, printed in full ----------------------------


def test_the_turning_lengths_intensity_is_the_division_of_the_exact_counts_on_the_page():
    """The reader's run: length 31, causal fp32: 554,631,168 / 138,657,792 = 4.00 exactly; the 3-figure counts
    5.55e+08 / 1.39e+08 gave 3.99, printed beside the ridge 4.00 that chose the length."""
    from utils.labs.predict_the_roofline import report

    at = NS(flops=554_631_168, n_bytes=138_657_792, bound="compute")
    said = report.turning_limit_sentence(at, 31, NS(ridge=96.5 / 24.5), 4.00)
    assert ("the rounds that timed it measured the ridge at 3.94, and the op's own intensity at that length, "
            "554,631,168 / 138,657,792 = 4.00 FLOPs/byte, is at or above that ridge too: the table's limit is "
            "compute, as predicted.") in said
    assert "3.99" not in said


@pytest.mark.parametrize("flops, ridge, bound, words", [
    # the exact 4.0000 at or above a ridge of 3.9950, the 3-figure counts 5.55e+08 / 1.39e+08 = 3.9928 under it
    (554_631_168, 3.995, "memory", "554,631,168 / 138,657,792 = 4.0000 FLOPs/byte, is at or above that ridge; the "
     "table's limit, worked from your counts to 3 figures (5.55e+08 / 1.39e+08 = 3.9928), reads memory: the two "
     "differ only by that rounding"),
    # the exact 3.9950 under a ridge of 3.9980, the 3-figure counts 4.00e+03 / 1e+03 = 4.0000 above it
    (3995.0, 3.998, "compute", "3,995 / 1,000 = 3.9950 FLOPs/byte, is under that ridge; the table's limit, worked "
     "from your counts to 3 figures (4.00e+03 / 1.00e+03 = 4.0000), reads compute"),
])
def test_a_ridge_between_the_exact_and_the_three_figure_intensity_is_said_so(flops, ridge, bound, words):
    from utils.labs.predict_the_roofline import report

    n_bytes = 138_657_792 if flops > 1e6 else 1000.0
    said = report.turning_limit_sentence(NS(flops=flops, n_bytes=n_bytes, bound=bound), 31, NS(ridge=ridge), None)
    assert words in said, said
    assert "as predicted" not in said and "so on those ceilings" not in said


# --- lab 01-2: shares in whole percent half up, times with their trailing zeros ----------------------------------


def _row(roof_ms: float, measured_ms: float, spread: float = 0.05):
    """A compared row whose roof is ``roof_ms`` (compute-bound on a peak of 1e11 FLOP/s)."""
    op = NS(flops=roof_ms * 1e-3 * 1e11, bytes=1.0)
    return NS(op=NS(name="causal attention", dims={}), bound="compute", predicted=roof_ms * 1e-3,
              point=NS(op=op, seconds=measured_ms * 1e-3, spread=spread))


def test_the_table_prints_the_share_half_up_and_keeps_three_figures_of_every_time():
    """The reader's run: 11.1 ms over 20 ms printed 55% (``:.0%`` of 0.55499...); 11.1 / 20.0 is 55.5%: 56%."""
    from utils.labs.predict_the_roofline import report

    ceilings = NS(flops=1e11, bandwidth=1e12)
    row = _row(11.1, 20.0)
    table = report.compared_table([row], ceilings).to_text()
    assert "56%" in table and "55%" not in table
    assert "20.0 ms" in table and "11.1 ms" in table
    assert "1.90 ms" in report.compared_table([_row(1.9, 1.9)], ceilings).to_text()
    assert report.ms_text(5.9e-3) == "5.90 ms" and report.ms_text(70e-3) == "70.0 ms"


def test_every_share_sentence_is_judged_on_the_percent_it_prints():
    from utils.labs.predict_the_roofline import report

    assert report.conv_sentence(1.005).startswith("The convolution reached 101% of the peak: above the measured")
    assert report.conv_sentence(1.004).startswith("The convolution reached 100% of the peak: with 64 channels")
    assert "80% of the peak: with 64 channels" in report.conv_sentence(0.795)
    assert "79% of the peak: the peak is" in report.conv_sentence(0.794)
    assert report.rough_note(0.504) == ""   # 50%, not over 50%
    assert "Its rounds spread 51% (over 50%)" in report.rough_note(0.505)
    ceilings = NS(flops=100.0, bandwidth=10.0)  # ridge 10: an op at the ridge pays 50% in turn
    at_ridge = NS(point=NS(op=NS(flops=1000.0, bytes=100.0)), op=NS(dims={"batch": 8, "length": 31}))
    assert "It ran at or above that" in report.no_overlap_sentence(at_ridge, ceilings, 0.495)  # prints 50%
    assert "It ran below even that" in report.no_overlap_sentence(at_ridge, ceilings, 0.494)   # prints 49%


def test_the_lookups_shares_print_half_up():
    from utils.labs.predict_the_roofline import lookup

    gpu = lookup.LookupCeiling(1.0, 1.0, 1.0)
    said = lookup.lookup_sentence(0.905, 0.285, gpu)
    assert said.startswith("The lookup reached 91% of its memory roof"), said
    said = lookup.lookup_sentence(0.495, 0.585, gpu)   # 50% of the roof, its spread 59% covers the gap
    assert said.startswith("The lookup reached 50% of its memory roof") and "spread of 59%" in said, said


# --- lab 02 (other problem 1): "systematic" only where every m missed ---------------------------------------------


def _pipelined(predicted: list[float]):
    from utils.labs.balance_the_pipeline import checks as lab
    from utils.lessons.model_split import runs

    row = lambda m, speedups: runs.Row(64, m, "gpipe", 1.0, 1.0, [0.5, 0.5], split_points=(2,),  # noqa: E731
                                       speedups=speedups)
    rows = [row(8, [1.24, 1.25, 1.26, 1.27, 1.28]), row(16, [1.64, 1.66, 1.67, 1.68, 1.70]),
            row(32, [1.48, 1.50, 1.52, 1.54, 1.56]), row(64, [0.80, 0.90, 0.93, 1.00, 1.05])]
    return lab.Pipelined(rows[1], rows, rows[1], 1.0, lab.MIN_MARGIN, dict(zip((r.key for r in rows), predicted)),
                         False, "")


def test_a_miss_at_some_m_is_not_called_systematic():
    """The reader's run: under-predicted at m=8, 16 and 32, met at m=64 (0.97 against 0.93 ± 0.09), and the
    paragraph called the misses "a systematic miss"."""
    from utils.labs.balance_the_pipeline import reading

    said = " ".join(reading._misses_by_m(_pipelined([1.15, 1.50, 1.32, 0.97])).split())
    assert "under-predicted at m=8, 16, 32" in said and "yet at m=64 your model met the measurement." in said
    assert "beyond the rounds' noise (past the ±, or in every round), a miss at those m's, not at every m timed." \
        in said
    assert "systematic" not in said
    every = " ".join(reading._misses_by_m(_pipelined([1.15, 1.50, 1.32, 0.80])).split())
    assert "under-predicted at every m timed" in every and "a systematic miss" in every
    one = " ".join(reading._misses_by_m(_pipelined([1.26, 1.67, 1.52, 1.20])).split())
    assert "over-predicted at m=64" in one and "a miss at that m, not at every m timed." in one, one


# --- lab 05-1: which C the bound took, chosen on the printed figures ----------------------------------------------


def test_steps_that_print_as_c_alone_leave_the_bound_on_c_measured_alone():
    """The reader's run: 1.36 s with 0.06 s of waits, steps 1.30 s, C alone just under 1.30 s: the words said
    "C the 1.30 s your epoch's own steps took, within noise of the 1.30 s measured alone"."""
    from utils.labs.feed_the_gpu.against_bound import _bound_uses, epoch_bound
    from utils.lessons.data_prefetch.epoch import EpochResult

    epoch, compute = EpochResult(1.36, 32, 0.06), 1.2996
    limit = epoch_bound(epoch, load=1.07, compute=compute, loaders=2)
    assert limit == compute
    assert _bound_uses(epoch, limit, 1.07, compute, 2) == (
        " (max(L/2, C), C the 1.30 s measured alone; your epoch: 1.30 s of its own steps + 0.06 s of waits for "
        "data = 1.36 s)")
    slower = EpochResult(1.37, 32, 0.06)   # steps 1.31 s: longer than 1.30 as printed
    limit = epoch_bound(slower, load=1.07, compute=compute, loaders=2)
    assert limit == 1.31
    said = _bound_uses(slower, limit, 1.07, compute, 2)
    assert "C the 1.31 s your epoch's own steps took, within the course's 2% timing noise of the 1.30 s measured alone (+1%)" in said, said
    busy = EpochResult(1.50, 32, 0.06)
    said = _bound_uses(busy, epoch_bound(busy, 1.07, compute, 2), 1.07, compute, 2)
    assert "C the 1.44 s your epoch's own steps took, longer than the 1.30 s measured alone (+11%, past" in said, said
