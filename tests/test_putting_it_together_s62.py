"""Lesson 08 fixes from the twenty-fourth reading (t24_0708)."""

from utils.lessons.putting_it_together import allreduce_fit


def test_the_all_reduce_fit_s_bytes_term_is_worked_from_the_printed_gb_and_beta():
    """t24_0708 #1: beta 2.486 GB/s prints as 2.49; 12,898,304 B print as 0.0129 GB. The bytes term was
    worked from the unrounded beta (5.19 ms); a reader dividing the printed figures gets 0.0129 / 2.49 = 5.18."""
    said = allreduce_fit.against_gap((184e-6, 2.486e9, 0.2), 4 * 3_224_576, 33.90, "the rest")
    assert "(alpha 184 us, beta 2.49 GB/s, worst residual 20%" in said
    assert "prices one call of the 0.0129 GB of gradients at 0.18 + 5.18 = 5.36 ms" in said
    assert ": 16% of the gap, if none of it hid behind backward; the other 28.54 ms are the rest" in said


def test_alpha_s_term_is_the_printed_whole_microseconds_in_ms():
    """Alpha prints in whole us (185 us); its ms term is that figure rounded half up (0.19), not 0.18 from the
    float 0.000185 rounding down."""
    said = allreduce_fit.against_gap((185.4e-6, 1.28e9, 0.3), 12.9e6, 31.0, "the rest")
    assert "(alpha 185 us" in said and "at 0.19 + 10.08 = 10.27 ms" in said
    assert "could explain all" not in said
    past = allreduce_fit.against_gap((185.4e-6, 0.3e9, 0.3), 12.9e6, 31.0, "the rest")
    assert "could explain all of the gap" in past               # 0.19 + 43.00 ms: past the gap
