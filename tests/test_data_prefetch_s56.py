"""Twentieth reading, lesson 05 (t20_0506): a residual is (measured - fit) / measured, and every place that
prints one names that definition, so "+25%" beside 6.016 against 4.522 ms (a ratio of 1.33) is read as the
page means it; section 5's repeat reading is said once for both batches."""
from types import SimpleNamespace

from utils.lessons.data_prefetch import transfer

RUN = {2**16: (0.117, 0.112), 2**18: (0.158, 0.157), 2**20: (0.300, 0.338), 2**22: (1.009, 1.060),
       2**24: (4.793, 3.950)}   # the run's sweep, ms as printed


def _sweep():
    return {n: transfer.residual(t * 1e-3, f * 1e-3) for n, (t, f) in RUN.items()}


def test_the_fit_line_names_its_residual_and_takes_its_worst_from_the_printed_rows():
    line = transfer.fit_line("gloo loopback, 2 processes", 96.8e-6, 4.35e9, _sweep())
    assert line == (f"gloo loopback, 2 processes: alpha 96.8 µs, beta 4.35 GB/s (fits each of the {len(RUN)} "
                    "sizes it was fitted to within ±18% of its measured time; residual: measured - fit, as a share "
                    "of the measured time)")
    # (4.793 - 3.950) / 4.793 = 17.6%: +18%, the figure a reader finds with the named definition
    assert f"{transfer.residual(4.793e-3, 3.950e-3):+.0%}" == "+18%"


def test_the_batches_residuals_say_of_their_measured_time():
    c = SimpleNamespace(link_ratios=[5.56, 4.81, 4.08], link_ratio=4.81, link_spread=0.75, byte_ratio=4.0)
    f32, u8 = transfer.residual(6.016e-3, 4.522e-3), transfer.residual(1.504e-3, 1.203e-3)
    said = transfer.sweep_reading(f32, u8, _sweep(), 3.76, 4.81)
    assert said.startswith("In the link's sweep above, the float32 batch sat +25% of its measured time from "
                           "the fit, the uint8 batch +20% of its own")
    assert "from -13% to +18% of their measured times off the same fit" in said
    assert "up to 1.38 times" in said   # (1 + 0.13) / (1 - 0.18), the definition's own reach
    assert c.link_ratio > c.byte_ratio


def test_the_fit_reading_says_of_their_measured_times_on_both_branches():
    loose = transfer.fit_reading(_sweep(), 4.0)
    assert "by -13% to +18% of their measured times (the details above): more than 10%" in loose
    close = transfer.fit_reading({2**16: 0.04, 2**20: -0.10}, 4.0)
    assert "by -10% to +4% of their measured times (the details above): within 10%" in close


def test_the_repeat_reading_is_said_once_after_both_batches():
    both = transfer.repeats_reading([("float32", 6.016e-3, [6.495e-3, 5.556e-3, 7.061e-3]),
                                     ("uint8", 1.504e-3, [1.169e-3, 1.155e-3, 1.732e-3])])
    assert both.count("moves that much") == 1 and both.count("read with that much play") == 1
    assert "27% from its quickest to its slowest; the uint8 batch" in both
    assert both.endswith("50% from its quickest to its slowest: this link's time for one size moves that much "
                         "between measurements, so each one, sweep or round, is read with that much play")
    one = transfer.repeats_reading([("float32", 1.000e-3, [1.010e-3]), ("uint8", 1.504e-3, [1.155e-3])])
    assert "between measurements (uint8; the rest within 2 %)" in one
    steady = transfer.repeats_reading([("float32", 1.000e-3, [1.010e-3]), ("uint8", 1.000e-3, [1.020e-3])])
    assert steady.endswith(": each within 2 %, this link repeats its time for one size")


def test_the_kept_workers_ratio_prints_its_bound_beside_it():
    """Cell 20 (carried): 1.17x stood without the 1.25x the claims row judges it against."""
    from utils.lessons.data_prefetch.report import kept_ratio
    said = kept_ratio(1.61, 1.38, 1.29)
    assert said == ("1.61 s / 1.38 s = 1.17x the restarted loader's speed, against its bound 1.25x: "
                    "1.61 s / 1.29 s, the restarted epoch over the ideal max(L/2, C)")
    # the other outcome, kept past the bound: the ratio and the bound are printed as they are, no verdict
    assert "= 1.40x the restarted loader's speed, against its bound 1.25x" in kept_ratio(1.614, 1.15, 1.29)
