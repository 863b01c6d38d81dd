"""Lesson 00: every figure worked from others (a share, a ratio, a half, a rate) follows from its operands as
the page prints them (``utils.claims``' rule), with the figures of reading t4_0001."""

from types import SimpleNamespace as NS

import pytest

from utils import claims
from utils.lessons.start_here import bandwidth, loopback, summary
from utils.lessons.start_here.bandwidth import CopyPoint
from utils.lessons.start_here.printed import micros, micros_time_share

KIB, MIB = 2**10, 2**20
DRAM_REF = 9.6449e9  # half a 19.2898 GB/s read: printed 9.64


def test_a_rate_is_the_size_over_the_time_as_printed():
    small = CopyPoint("host memcpy", 64 * KIB, 2.1344e-6, 39.84e9, "L2", False)
    assert micros(small.seconds) == "2.13" and micros(7089.04e-6) == "7,089.0"
    assert f"{small.rate / 1e9:.2f}" == "30.77"  # 65,536 B / 2.13 µs, not 30.70 from the unrounded time
    assert round(micros_time_share(0.8712e-6, 2.1344e-6), 2) == 0.41  # 0.87 / 2.13


def test_dram_share_from_the_printed_rate_and_reference_both_sides():
    under = CopyPoint("host memcpy", 64 * MIB, 7089.0e-6, DRAM_REF, "DRAM", False)  # 9.47 against 9.64
    row = bandwidth.regimes_table([under]).rows[0]
    assert row[2] == "9.64 GB/s" and row[4] == "98%"  # 9.47 / 9.64 = 98.2%
    said = summary.copies_sentence([under])
    assert "Out of DRAM (64 MiB): 9.47 GB/s, 98% of its reference (9.64 GB/s), under it." in said
    claim = summary.lesson_claims(_profile(), [under], [], None, [])[-1]
    assert (claim.measured, claim.against, claim.verdict) == ("9.47 GB/s", "reference 9.64 GB/s",
                                                              "98% of the reference")
    over = CopyPoint("host memcpy", 16 * MIB, 16 * MIB / 11.58e9, DRAM_REF, "DRAM", False)
    assert "11.58 GB/s, 120% of its reference (9.64 GB/s), above it" in summary.copies_sentence([over])


def test_a_copy_above_dram_reads_its_shares_from_the_printed_rates():
    warm = summary.Passed(16 * MIB, 11.58e9, 8.64e9, DRAM_REF)  # cold under: a cache
    said = warm.sentence(32 * MIB)
    assert "warm 11.58 GB/s = 120% of the reference beyond the caches (9.64 GB/s)" in said  # 11.58 / 9.64
    assert "cold (caches flushed first) 8.64 GB/s = 90%." in said and warm.grade == "cache"  # 8.64 / 9.64
    at = summary.Passed(16 * MIB, 11.58e9, 9.6449e9 * 1.006, DRAM_REF)  # 9.70 printed: 101%, 19 points down
    assert at.grade == "cache" and "9.70 GB/s = 101%" in at.sentence(32 * MIB)


def test_the_reference_is_half_the_printed_read_exactly():
    for read, said in ((19.2898e9, "19.29 GB/s / 2 = 9.645 GB/s"), (19.2812e9, "19.28 GB/s / 2 = 9.64 GB/s")):
        dram = CopyPoint("host memcpy", 64 * MIB, 7089.0e-6, read / 2, "DRAM", False)
        assert said in summary.dram_reference_sentence(128 * MIB, {"L2": 2 * MIB, "L3": 32 * MIB}, [dram])
    # reader t10_0001: 17.81 / 2 = 8.905 beside "8.90 GB/s in the tables" (from the unrounded 8.9049): the
    # reference is now half the printed read rate, rounded half up where printed (8.91), twice it still 17.81
    from utils.lessons.start_here import regimes

    ref = regimes.printed_half(17.8098e9)
    dram = CopyPoint("host memcpy", 64 * MIB, 7670.3e-6, ref, "DRAM", False)
    said = summary.dram_reference_sentence(128 * MIB, {"L2": 2 * MIB, "L3": 32 * MIB}, [dram])
    # t38_0001 #4: the tables print the half whole too (8.905), so the block no longer names a second figure
    assert "17.81 GB/s / 2 = 8.905 GB/s (a copy counts each byte twice: read, then written)." in said
    assert f"{ref / 1e9:.2f}" == "8.91" and claims.printed_ratio(10.07e9, ref, 2, 1e9) == pytest.approx(10.07 / 8.91)
    assert f"{regimes.printed_half(17.80e9) / 1e9:.2f}" == "8.90"  # no tie: the plain half


def test_the_dram_buffers_size_is_said_with_the_rule_that_set_it():
    """Reader t7_0001: the lesson said "a buffer twice the last cache" where the run printed 4.0x the 32 MiB L3
    (twice the 64 MiB largest copy). The sentence now names the rule this run's sizes chose."""
    from utils.lessons.start_here import regimes

    caches = {"L2": 2 * MIB, "L3": 32 * MIB}
    dram = CopyPoint("host memcpy", 64 * MIB, 7089.0e-6, 9.6e9, "DRAM", False)
    read = regimes.dram_read_size(64 * MIB, caches)
    said = summary.dram_reference_sentence(read, caches, [dram], largest=64 * MIB)
    assert read == 128 * MIB and ("The buffer is 4.0x the 32 MiB L3 this machine reports (2 x the 64 MiB "
                                  "largest copy, more than 2 x the L3), so no cache") in said
    big_l3 = {"L2": 2 * MIB, "L3": 480 * MIB}
    read = regimes.dram_read_size(64 * MIB, big_l3)
    said = summary.dram_reference_sentence(read, big_l3, [dram], largest=64 * MIB)
    # t30_0001: the L3's size is said once, before the rule; t32_0001: its multiple too
    assert read == 960 * MIB and ("2.0x the 480 MiB L3 this machine reports (also at "
                                  "least 2 x the 64 MiB largest copy)") in said
    assert regimes.dram_read_rule(2048 * MIB, 64 * MIB, {"L3": 1536 * MIB}).startswith("capped at 2048 MiB")
    assert regimes.dram_read_rule(128 * MIB, 64 * MIB, {}) == "2 x the 64 MiB largest copy"


def test_gloo_slower_by_is_the_ratio_of_the_printed_columns():
    mem = [CopyPoint("host memcpy", 64 * KIB, 2.1344e-6, 39.84e9, "L2", False)]
    gloo = [CopyPoint(loopback.PATH, 64 * KIB, 215.84e-6, None)]
    row = loopback.compare_table(mem, gloo).rows[0]
    assert row[1:] == ("2.13", "215.8", "101.3x")  # 215.8 / 2.13 µs as printed, not 101.1x from the unrounded


def test_the_fixed_cost_share_is_worked_from_the_printed_times():
    small = CopyPoint("host memcpy", 64 * KIB, 2.1344e-6, 39.84e9, "L2", False)
    said = summary.copies_sentence([small], 0.8712e-6)
    assert "it takes 2.13 µs, a sizeable part of it the call's own fixed cost" in said
    assert "takes 0.87 µs (41% of it)." in said
    most = summary.copies_sentence([small], 1.90e-6)
    assert "most of it the call's own fixed cost" in most and "takes 1.90 µs (89% of it)." in most


def _profile():
    from types import SimpleNamespace as NS

    one = NS(threads=1)
    return NS(peak=lambda *a, **k: one, ceilings=[])


def test_the_in_cache_median_is_the_median_of_the_printed_shares():
    def at(size, gbs, ref, regime):
        return CopyPoint("host memcpy", size, size / (gbs * 1e9), ref * 1e9, regime, False)

    four = [at(64 * KIB, 30.71, 39.84, "L2"), at(256 * KIB, 45.37, 39.84, "L2"), at(1 * MIB, 42.13, 45.47, "L3"),
            at(4 * MIB, 43.85, 45.47, "L3")]
    shares = [f"{p.fraction_of_bound:.0%}" for p in four]
    assert shares == ["77%", "114%", "93%", "96%"]
    # (93 + 96) / 2 = 94.5, to the whole percent the shares carry, half up (t23_0001 #7)
    assert summary.in_cache_claim(four, None).verdict.startswith("median 95% of the reference")
    assert summary.in_cache_claim(four[:3], None).verdict.startswith("median 93% of the reference")


def test_a_median_of_copies_served_from_the_next_level_is_worked_from_their_printed_rates():
    l3 = CopyPoint("host memcpy", 16 * MIB, 16 * MIB / 13.9e9, 14.2e9, "L3", False)
    slow = CopyPoint("host memcpy", 64 * MIB, 64 * MIB / 7.38e9, 14.2e9, "L3", False)
    drams = [CopyPoint("host memcpy", n * MIB, n * MIB / r, 9.35e9, "DRAM", False)
             for n, r in ((128, 6.684e9), (256, 6.506e9))]  # printed 6.68 and 6.51: median 6.595
    said = summary.out_of_cache_sentence([l3, slow, *drams])
    assert "the 2 copies served from DRAM in this run (their median) (6.595 GB/s)" in said  # (6.68 + 6.51) / 2
    drams[1] = CopyPoint("host memcpy", 256 * MIB, 256 * MIB / 6.502e9, 9.35e9, "DRAM", False)  # 6.50
    assert "(their median) (6.59 GB/s)" in summary.out_of_cache_sentence([l3, slow, *drams])


def test_a_thread_ratio_is_worked_from_the_two_ceilings_as_printed():
    from types import SimpleNamespace as NS

    def ceiling(best, threads):
        return NS(best=best, median=best, threads=threads, spread=0.1, formatted=lambda: f"{best / 1e9:.1f} GB/s")

    said = summary.threads_reading("memory bandwidth", ceiling(29.96e9, 1), ceiling(40.04e9, 2))
    assert said.startswith("2 threads reach 1.33x one thread's memory bandwidth (40.0 GB/s on 2 against 30.0 GB/s")


def test_a_miss_from_the_profiles_line_is_worked_from_its_printed_alpha_and_beta():
    from utils.lessons.start_here import line_check

    fit = NS(alpha=106.04e-6, beta=3.984e9)  # printed 106.0 µs and 3.98 GB/s
    (n, t, line, miss), = line_check.misses(fit, [MIB], [640.04e-6])
    assert f"{line * 1e6:.1f}" == "369.5"  # 106.0 + 1,048,576 B / 3.98 GB/s
    assert miss == (640.0 - 369.5) / 640.0  # from the two µs as printed

