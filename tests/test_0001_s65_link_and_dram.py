"""Twenty-seventh reading (t27_0001), lesson 00: the rate's falls are looked for between every pair of
neighbouring sizes, not the two largest only (#1); STREAM is set beside this run's own copy out of DRAM where
that copy passed the read loop (#2); a copy out of DRAM within 10% above its reference is "at it"; a message
slower than a larger one is set beside the profile's line as the line check judges it (other problems)."""

from types import SimpleNamespace as NS

from test_start_here_link import GLOO, SIZES, profile

from utils.lessons.start_here import line_check, summary
from utils.lessons.start_here.bandwidth import CopyPoint
from utils.lessons.start_here.cold_copy import Passed
from utils.linkmodel import AlphaBeta
from utils.machine import LinkFit, link_fit

MIB = 2**20


def rated(gbs):
    """Messages of SIZES at the rates ``gbs`` (GB/s), one per size."""
    return [n / (r * 1e9) for n, r in zip(SIZES, gbs)]


# a fall from 1 MiB to 4 MiB (3.28 -> 2.49 GB/s, -24.1%), up again, then 16 -> 64 MiB (2.79 -> 2.36, -15.4%)
TWO_FALLS = [0.0001, 0.06, 0.79, 2.64, 3.28, 2.49, 2.79, 2.36]


def test_every_fall_between_neighbours_is_found_and_the_largest_is_the_falling_rate():
    falls = line_check.rate_falls(SIZES, rated(TWO_FALLS))
    assert [(a, b) for a, _, b, _ in falls] == [(MIB, 4 * MIB), (16 * MIB, 64 * MIB)]
    before, after = line_check.falling_rate(SIZES, rated(TWO_FALLS))
    assert round(before / 1e9, 2) == 3.28 and round(after / 1e9, 2) == 2.49  # -24.1%, the larger fall
    said = line_check.falling_sentence(SIZES, rated(TWO_FALLS))
    assert ("falls at the largest sizes (2.79 GB/s at 16 MiB, 2.36 at 64 MiB: -15.4%, past the ±10% one noisy "
            "median may miss by), and between smaller neighbours too (3.28 GB/s at 1 MiB, 2.49 at 4 MiB: -24.1%)"
            ) in said
    # a fall within noise (3.28 -> 3.00, -8.5%) is none, and the largest sizes rising leave only the lower fall
    low_only = TWO_FALLS[:6] + [2.79, 2.90]
    said = line_check.falling_sentence(SIZES, rated(low_only))
    assert "falls between neighbouring sizes (3.28 GB/s at 1 MiB, 2.49 at 4 MiB: -24.1%, past the ±10%" in said
    assert "largest sizes" not in said and "each past" not in said
    two_low = [0.0001, 0.06, 3.40, 2.64, 3.28, 2.49, 2.79, 2.90]  # 64 KiB -> 256 KiB and 1 -> 4 MiB
    assert "(3.40 GB/s at 64 KiB, 2.64 at 256 KiB: -22.4%; 3.28 GB/s at 1 MiB, 2.49 at 4 MiB: -24.1%, each past" \
        in line_check.falling_sentence(SIZES, rated(two_low))
    flat = TWO_FALLS[:5] + [3.00, 3.10, 3.20]
    assert line_check.rate_falls(SIZES, rated(flat)) == [] and line_check.falling_sentence(SIZES, rated(flat)) == ""
    assert line_check.falling_rate(SIZES, rated(flat)) is None


def test_the_answer_reads_the_line_only_up_to_the_first_fall():
    kept = profile(0.45)
    on_line = [t * 1.05 for t in kept.seconds]
    # the line's times, but 4 MiB 50% slower: its rate falls from 1 MiB's past ±10%; and 64 MiB 25% slower
    both = [t * {4 * MIB: 1.5, 64 * MIB: 1.25}.get(n, 1.0) for n, t in zip(SIZES, on_line)]
    run = link_fit(GLOO, SIZES, both)
    said = summary.cost_answer(kept, run, summary.FIT_USABLE)
    assert said.endswith("for messages up to 1 MiB: above 1 MiB, where the rate falls (1 MiB to 4 MiB, 16 MiB to "
                         "64 MiB), use the measured times.")
    one_low = [t * (1.5 if n == 4 * MIB else 1.0) for n, t in zip(SIZES, on_line)]
    said = summary.cost_answer(kept, link_fit(GLOO, SIZES, one_low), summary.FIT_USABLE)
    assert said.endswith("for messages up to 1 MiB: above 1 MiB, where the rate falls (1 MiB to 4 MiB), use the "
                         "measured times.")


def kept_line(alpha_us=75.8, beta_gbs=3.48, error=0.45):
    fit = AlphaBeta(alpha_us * 1e-6, beta_gbs * 1e9, tuple(SIZES), (error,) + (0.0,) * 7)
    return LinkFit(GLOO, fit, tuple(fit.time(n) for n in SIZES), "on 2026-12-05")


def test_a_message_slower_than_a_larger_one_is_set_beside_the_profiles_line_on_both_sides_of_its_error():
    us = [97.9, 73.2, 82.8, 99.3, 320.0, 1681.5, 6021.9, 28389.6]  # 4 B slower than 4 KiB
    run = link_fit(GLOO, SIZES, [u * 1e-6 for u in us])
    said = summary.message_times_sentence(run, kept_line())
    assert "so no line fits it exactly, whatever its alpha and beta. This run does not measure why." in said
    # 75.8 µs on the line against 97.9 measured: (97.9 - 75.8) / 97.9 = +22.6%, within ±45%
    assert said.endswith("The profile's line gives 4 B 75.8 µs, measured above the line by 22.6% of the measured "
                         "time (residual +22.6%): within that line's own ±45%.")
    tight = summary.message_times_sentence(run, kept_line(error=0.10))  # +22.6% past ±10% plus 10 points
    assert tight.endswith("(residual +22.6%): past that line's own ±10% plus the 10 points edge.")
    assert "profile's line" not in summary.message_times_sentence(run)  # no kept line: nothing to set beside
    assert "profile's line" not in summary.message_times_sentence(run, run)  # the kept line is this run's


def dram_copy(gbs, ref_gbs=5.95, size=256 * MIB):
    return CopyPoint("host memcpy", size, size / (gbs * 1e9), ref_gbs * 1e9, "DRAM", False)


def test_a_copy_out_of_dram_within_ten_percent_above_its_reference_is_at_it():
    assert "108% of its reference (5.95 GB/s), at it (within the 10% one noisy median may miss by): copied " \
           "again cold below, to check." in summary.copies_sentence([dram_copy(6.43)])
    assert "(5.95 GB/s), above it: copied again cold below." in summary.copies_sentence([dram_copy(6.61)])  # 111%
    assert "(5.95 GB/s), under it." in summary.copies_sentence([dram_copy(5.50)])
    assert "(5.95 GB/s), at it." in summary.copies_sentence([dram_copy(5.95)])


STREAM = "fp32 memory bandwidth, 1 thread, STREAM copy, 32 MiB arrays"
CACHES = {"L2": 2 * MIB, "L3": 480 * MIB}
READ = 960 * MIB


def stream(gbs, spread=0.54):
    return NS(name=STREAM, best=gbs * 1e9, spread=spread)


def test_stream_is_set_beside_this_runs_own_copy_where_that_copy_passed_the_read_loop():
    points = [dram_copy(6.43)]  # the read: 2 x 5.95 = 11.9 GB/s
    low = [Passed(256 * MIB, 6.43e9, 6.61e9, 5.95e9)]  # cold 111%: the reference is low for this copy
    assert low[0].grade == "low"
    said = summary.stream_against_dram(stream(18.7), points, READ, CACHES, low)
    # 18.7 / 11.9 = 1.571: 57% above the read, past 54%; the copy: 2 x 6.61 = 13.2; 18.7 / 13.2 = 1.417: 42%
    assert "(18.7 GB/s) against this run's DRAM read (11.90 GB/s, a buffer no cache holds): 57% above it" in said
    assert ("But this run's own 256 MiB copy out of DRAM, cold, passed that read beyond noise (111% of half that "
            "read): it moved its 2n at 2 x 6.61 = 13.2 GB/s") in said
    assert said.endswith("STREAM is 42% above that copy, within its own 54% spread: this run does not show that a "
                         "cache served part of it.")
    assert "no faster than" not in said
    tight = summary.stream_against_dram(stream(18.7, 0.30), points, READ, CACHES, low)
    assert "STREAM is 42% above that copy, still more than its 30% spread, so either part of STREAM's bytes came " \
           "from the L3 (not DRAM's alone), or this run's read and copy met a busier moment" in tight
    slow = summary.stream_against_dram(stream(13.0, 0.05), points, READ, CACHES, low)  # 9% above, past 5%
    assert slow.endswith("STREAM is at or below that copy's rate: DRAM's rate, as far as this run shows.")
    # a copy within noise of the read (cold 104%): the read is the fastest figure, and the sentence says so
    near = [Passed(256 * MIB, 6.43e9, 6.20e9, 5.95e9)]
    said = summary.stream_against_dram(stream(18.7, 0.30), points, READ, CACHES, near)
    # t35_0001 other: its figures, so the reading can be redone (2 x 6.20 = 12.40; 12.40 / 11.90 = 1.042: 4%)
    assert ("This run's fastest copy out of DRAM, 256 MiB cold, moved its 2n at 12.40 GB/s, 4% above the read's "
            "11.90 GB/s: within the 10% one median may miss by, so either part of STREAM's bytes came from the "
            "L3") in said
    none = summary.stream_against_dram(stream(18.7, 0.30), points, READ, CACHES)
    assert "No copy of this run out of DRAM moved its bytes faster than that read, so either part" in none
    slower = summary.stream_against_dram(stream(18.7, 0.30), points, READ, CACHES,
                                         [Passed(256 * MIB, 6.43e9, 5.80e9, 5.95e9)])
    assert "moved its 2n at 11.60 GB/s, 3% below the read's 11.90 GB/s" in slower


def test_a_rate_printed_zero_is_no_fall_to_judge():
    # 4 B and 4 KiB both print 0.00 GB/s: their "change" is no figure (not -100%), so no fall is read there
    tiny = [0.000002, 0.001, 0.79, 2.64, 3.28, 3.40, 3.50, 3.60]
    assert line_check.rate_falls(SIZES, rated(tiny)) == []
    assert line_check.rate_falls(SIZES[:2], rated([0.004, 0.002])) == []
