"""Lesson 02's sixth reading (session 52): each sentence follows from the figures printed beside it, in both
outcomes. Unit tests on synthetic rows, CPU only."""

import statistics

from utils.lessons.model_split import placement, report, runs


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
