"""Lesson 08, twenty-first reading: the two-devices gap prices the all-reduce at the very figure the guide's
table prints (3.24 ms, 3 figures), so its share of the gap is worked from it (3.24 / 20.7 = 16%, not 15%)."""

from utils.lessons.putting_it_together import ladder
from test_putting_it_together_printed import _compared


def test_the_gap_prices_the_all_reduce_at_the_guides_printed_figure():
    # the reader's run: 195.4 ms over 1.65x give 118.4 ms against 97.7 at the bound: 20.7 ms a step
    c = _compared("two devices", 0.1954, [1.65] * 3, workers=2)
    said = ladder.two_devices_gap(c, 3.98e9, 3.225e6, simulated=False)   # 0.0129 GB over 3.98 GB/s
    assert "20.7 ms a step the bound does not see" in said
    assert "The all-reduce the guide priced, 3.24 ms," in said and "That estimate is 16% of the gap" in said
    # the other outcome: a floor the size of the gap or more
    assert "priced, 32.4 ms" in (big := ladder.two_devices_gap(c, 0.398e9, 3.225e6, simulated=False))
    assert "could explain all of the gap" in big


def test_a_step_not_kept_is_said_in_full_once_and_referred_to_after():
    # the reader's run: compile 0.97x within noise, its compiled step slower than eager: never pays back
    c = _compared("compile", 0.1327, [0.97, 0.94, 1.04], first_step_s=21.8)
    assert not ladder.paid(c.ratios)
    brief = ladder.brief_reason(c)
    assert brief == "within noise, no saving shown to pay back its compile (section 4)"
    full = ladder.within_noise(c.ratios) + "; " + ladder.compile_break_even(c, 5000)
    assert full.startswith("within noise") and "compile never pays back" in full   # the same verdict
    # the other outcome: a compile within noise whose median is faster works no break-even from it (t42_0708 #2)
    faster = _compared("compile", 0.1327, [1.02, 0.98, 1.03], first_step_s=2.0)
    assert ladder.brief_reason(faster) == brief
    assert "no break-even is worked from it" in ladder.compile_break_even(faster)
    # a step shown slower says so, as its full reason (why_slower) and the claims table do
    slower = _compared("memory", 0.1327, [0.80, 0.81, 0.79])
    assert ladder.shown_slower(slower) and ladder.brief_reason(slower) == "slower (section 4)"
