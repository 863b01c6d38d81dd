"""Seventeenth reading (t17_labs04), labs 00 and 01: the words follow the figures as printed, every branch."""

from __future__ import annotations

from types import SimpleNamespace as NS

from utils.labs.fix_the_article import checks as lab
from utils.labs.fix_the_article.rounds import _measured_times, fit_band, printed_fit
from utils.labs.predict_the_roofline import checks as roof_checks
from utils.labs.predict_the_roofline import report as roof_report

SIZES = (4, 1_024, 16_384, 65_536, 262_144, 1_048_576, 4_194_304)
MEASURED_US = (147.6, 124.3, 143.0, 117.9, 222.1, 848.0, 2_862.9)  # the reader's link table


def _reader_fit():
    """A fit whose alpha and beta print 114.3 µs and 1.74 GB/s, unrounded as the run's was (264.6 µs a
    message of 262,144 bytes, 2 x 264.6 = 529 µs for two), with the reader's measured times."""
    bare = lab.AlphaBeta(114.27e-6, 1.7436e9, SIZES, (0.0,) * 7)
    residuals = tuple(1 - bare.time(n) / (t * 1e-6) for n, t in zip(SIZES, MEASURED_US))
    return lab.AlphaBeta(114.27e-6, 1.7436e9, SIZES, residuals)


def _sent(sizes: list[int]) -> lab.SplitRun:
    run = lab.SplitRun(lab.CASES[0])
    run.steps = [[lab.split.Message(n, 0, 300e-6 / len(sizes)) for n in sizes]] * 3
    run.ping_pong = [[200e-6]] * 3
    return run


def test_a_missing_cut_is_named_with_its_messages_beside_a_timed_cut_of_the_same_number():
    # Reader t17 00-1: "None of your timed cuts sent cut 1's messages" beside the 6.5 MB plan's timed cut 1
    one, two = [262_144], [16_384, 16_384]
    timed = {"6.5 MB": _sent([262_144, 262_144]), "frozen": _sent(two)}
    said = lab._measured_order({1: _sent(one), 3: _sent(two)}, timed)
    assert said == (" None of your timed cuts sent the messages of this plan's cut 1 (one of 262,144 bytes): "
                    "this run measured no order of the two.")
    said = lab._measured_order({1: _sent(one), 3: _sent([16_384, 4_096])}, {"one": _sent(one)})
    assert "this plan's cut 3 (two of 16,384 and 4,096 bytes)" in said
    said = lab._measured_order({1: _sent(one), 3: _sent(two)}, {"one": _sent(one), "two": _sent(two)})
    assert "None of your timed cuts" not in said and "The report timed messages of both sizes" in said


def test_the_printed_fit_is_alpha_and_beta_as_printed_with_the_same_band():
    fit = _reader_fit()
    shown = printed_fit(fit)
    assert round(shown.alpha * 1e6, 6) == 114.3 and round(shown.beta / 1e9, 6) == 1.74
    assert fit_band(shown) == fit_band(fit)
    assert [round(t * 1e6, 1) for t in _measured_times(shown)] == list(MEASURED_US)


def _reference_plan(model, x, link, budget):
    """The lab's answer for the one figure read here: cut 1 sends two messages of 262,144 bytes."""
    return 1, 2 * link.alpha + 2 * 262_144 / link.beta


def test_the_plans_prediction_is_worked_from_alpha_and_beta_as_printed():
    # Reader t17 00-2: the link table prints 265.0 µs for 262,144 bytes and the plan 529 µs for two: 2 x 265 = 530
    fit = _reader_fit()
    assert f"{lab.model_seconds(_sent([262_144, 262_144]), fit) * 1e6:.0f}" == "529"  # the unrounded fit's
    table = lab.plan_table(_reference_plan, fit).to_text()
    assert "530 µs" in table and "529 µs" not in table
    shown, fitted, *_ = lab.size_row(fit, 262_144, 222.1e-6)
    assert fitted == 265.0


def test_the_predicted_column_says_it_is_worked_from_the_counts_as_printed():
    # Reader t17 01-1: 11.5 ms and 5.97 ms are 1.07e+09 and 5.55e+08 FLOPs over the printed 93.0 GFLOP/s
    ceilings = NS(flops=93.0e9, bandwidth=25.4e9, ridge=93.0 / 25.4)
    for flops, ms in ((1_074_790_400, "11.5"), (554_631_168, "5.97")):
        assert f"{roof_checks.predicted(flops, 1e6, ceilings)[1] * 1e3:.3g}" == ms
    moved = roof_report.predicted_again_sentence(NS(flops=84.5e9, bandwidth=21.2e9), ceilings)
    assert "your counts to 3 figures, as the tables print them" in moved and "(peak 93.0 GFLOP/s" in moved
    same = roof_report.predicted_again_sentence(ceilings, ceilings)
    assert "your counts to 3 figures" in same and "same ceilings" in same
