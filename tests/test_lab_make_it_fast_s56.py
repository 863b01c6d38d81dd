"""Twentieth reading (t20_labs48, lab 08): the share of peak printed with its route, and the thread rounds
outside the median ± the spread named on either side."""

from types import SimpleNamespace

from utils.labs.make_it_fast import takeaways
from utils.labs.make_it_fast.threads_cost import threads_sentence

FB_MS, MISS_MS = 527.0, 395.0


def _timed(*ratios):
    return {"slow": 16, "launcher": 8, "ratios": list(ratios), "slow_ms": [], "launcher_ms": []}


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_share_of_peak_prints_the_route_it_is_worked_by():
    """"19.2 GFLOP/s, 19.4%" beside 10.70 GFLOP in 558 ms (10.70 / 0.558 / 99.1 = 19.3%): the division the
    share comes from is printed, so every figure follows from printed operands, on every run."""
    peak = SimpleNamespace(best=99.1e9, name="fp32 matmul peak")
    assert takeaways.rate_text(10.70e9, 558.4, peak) == "19.2 GFLOP/s, 19.2 / 99.1 = 19.4%"
    assert takeaways.rate_text(10.70e9, 220.0, peak) == "48.6 GFLOP/s, 48.6 / 99.1 = 49.0%"
    said = _flat(takeaways.rates_sentence(10.70e9, peak, 558.4, 220.0, "the speed check's median"))
    assert "10.70 GFLOP in 558 ms a step = 19.2 GFLOP/s, 19.2 / 99.1 = 19.4% of the machine profile's" in said
    assert "whole step of 220 ms (the speed check's median) = 48.6 GFLOP/s, 48.6 / 99.1 = 49.0% of that" in said
    # a rate whose three figures agree with the unrounded route prints the same way
    assert takeaways.rate_text(10.70e9, 1632.1, peak) == "6.56 GFLOP/s, 6.56 / 99.1 = 6.6%"


def test_a_round_below_the_median_minus_the_spread_is_named_like_one_above():
    """1.95x lay below 2.77 - 0.12 = 2.65x and went unnamed beside the 25.99x round named above."""
    both = _flat(threads_sentence(_timed(1.95, 2.54, 2.77, 2.78, 25.99), FB_MS, MISS_MS))
    # 3 of the 5 rounds outside: what the ± leaves out by design, not outliers (twenty-ninth reading)
    assert ("rounds 1.95x and 2.54x lie below the median - the spread (2.77 - 0.12 = 2.65x); round 25.99x lies "
            "beyond the median + the spread (2.77 + 0.12 = 2.89x): the ± (half the middle half's range) leaves "
            "out 3 of the 5 rounds, 2.54x among them, which the ± is worked from (half the middle half's range, "
            "(2.78 - 2.54) / 2), as a ± built from the middle half of the rounds does by design (about half of "
            "them); the rounds run 1.95x to 25.99x") in both, both
    low = _flat(threads_sentence(_timed(1.95, 2.76, 2.77, 2.78, 2.78), FB_MS, MISS_MS))
    assert ("round 1.95x lies below the median - the spread (2.77 - 0.01 = 2.76x), which the ± does not reach: "
            "an outlying moment of this run") in low, low
    assert "beyond the median + the spread" not in low
    # as printed: 2.76x is at median - spread (2.77 - 0.01), not below it
    edge = _flat(threads_sentence(_timed(2.76, 2.76, 2.77, 2.78, 2.78), FB_MS, MISS_MS))
    assert "below the median - the spread" not in edge and "outlying" not in edge, edge
    # the branch where the slow count is not beaten names a low round too
    slow = _flat(threads_sentence(_timed(0.60, 0.99, 1.00, 1.01, 1.02), FB_MS, MISS_MS))
    assert ("round 0.60x lies below the median - the spread (1.00 - 0.01 = 0.99x); round 1.02x lies beyond "
            "the median + the spread (1.00 + 0.01 = 1.01x): the ± reaches none of them") in slow, slow
