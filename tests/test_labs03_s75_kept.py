"""Lab 01's ceilings beside lesson 01's kept ones (t36_labs03 other 3): every branch, on fabricated ceilings."""

from utils.labs.predict_the_roofline import kept
from utils.lessons.why_slow.peak import Ceilings
from utils.machine import Ceiling, MachineProfile

LAB = Ceilings(180.1e9, 14.9e9)  # a ridge of 12.09


def _profile(peak: float, bandwidth: float) -> MachineProfile:
    return MachineProfile("cpu", [Ceiling("matmul peak", "fp32", 1, "1024³", peak, peak, 0.01, "FLOP/s"),
                                  Ceiling("memory bandwidth", "fp32", 1, "STREAM copy", bandwidth, bandwidth, 0.01,
                                          "B/s")])


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_none_kept_says_run_lesson_01_first():
    assert "run lesson 01 first to compare" in kept.lesson_ceilings_words(LAB, None)
    assert kept.lesson_ceilings(None, 1) is None
    # a profile with lesson 00's link alone, or ceilings on other threads: nothing lesson 01 quoted
    assert kept.lesson_ceilings(MachineProfile("cpu", [_profile(1e9, 1e9).ceilings[0]]), 1) is None


def test_the_lesson_ceilings_are_read_as_printed():
    shown = kept.lesson_ceilings(_profile(180.04e9, 18.76e9), 1)
    assert (shown.flops, shown.bandwidth) == (180.0e9, 18.8e9)


def test_ceilings_apart_name_which_and_the_percents_from_the_printed_figures():
    said = _flat(kept.lesson_ceilings_words(LAB, Ceilings(180.0e9, 18.8e9)))  # ridge 9.57
    assert "peak 180.1 GFLOP/s against 180.0 GFLOP/s (0%)" in said
    assert "bandwidth 14.9 GB/s against 18.8 GB/s (-21%)" in said
    assert "ridge 12.09 against 9.57 (+26%)" in said  # 12.09 / 9.57 = 1.2633
    assert "bandwidth and ridge more than 10% apart" in said and "peak and" not in said


def test_ceilings_within_the_noise_line_are_one_machine():
    said = _flat(kept.lesson_ceilings_words(LAB, Ceilings(172.0e9, 14.0e9)))  # +4.7 %, +6.4 %, ridge -1.6 %
    assert "all three within 10%" in said and "apart" not in said


def test_the_noise_line_is_judged_on_the_percent_as_printed():
    # 110.0 against 100.0 is +10%: within; 110.1 is +10.1%, printed +10%: within too, the line judged as shown
    assert "all three within" in kept.lesson_ceilings_words(Ceilings(110.1e9, 11.0e9), Ceilings(100.0e9, 10.0e9))
    said = _flat(kept.lesson_ceilings_words(Ceilings(110.6e9, 11.1e9), Ceilings(100.0e9, 10.0e9)))
    assert "peak and bandwidth more than 10% apart" in said and "(+11%)" in said
