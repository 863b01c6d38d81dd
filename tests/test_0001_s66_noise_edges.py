"""Twenty-eighth reading (t28_0001), lesson 00 section 2: a share is judged against the 10% noise in whole
percents as printed, one label and one rule for "above" and "at it", on either side of the reference."""

from types import SimpleNamespace as NS

from utils.lessons.start_here import summary
from utils.lessons.start_here.bandwidth import CopyPoint
from utils.lessons.start_here.cold_copy import Passed, near_reference, past_noise
from utils.lessons.start_here.line_check import LineCheck

MIB = 2**20


def test_a_share_printed_110_percent_is_not_past_the_noise():
    """#1: in floats 1.10 - 1 > 0.1; compared in whole percents 110% is at most 10 points above."""
    assert not past_noise(1.1) and past_noise(1.11) and not past_noise(1.0)
    assert near_reference(1.1) and near_reference(0.9) and near_reference(1.0)
    assert not near_reference(1.11) and not near_reference(0.89)


def test_the_readers_cold_copy_at_110_percent_does_not_call_the_reference_low():
    p = Passed(256 * MIB, 6.53e9, 6.68e9, 6.075e9)  # warm 107%, cold 110%
    said = p.sentence(480 * MIB)
    assert p.grade == "not shown" and "reference is low for this copy" not in said
    assert "Cold ran 3 points faster than warm, within the 10%" in said
    assert "nothing shows that the reference is low either" in said
    assert p.verdict == "not shown: cold ran 3 points faster than warm, within the 10% one noisy median may miss by"
    past = Passed(256 * MIB, 6.53e9, 6.75e9, 6.075e9)  # cold 6.75 / 6.08 = 111%: past the noise
    assert past.grade == "low"
    # warm at 107% is within the noise: cold passes the reference, not "too"
    assert "Cold it passes the reference by more than the 10%" in past.sentence(480 * MIB)
    assert "Cold ran 4 points faster than warm, within that 10%: no cache is needed" in past.sentence(480 * MIB)


def test_a_cold_copy_faster_than_warm_past_the_noise_is_said_so():
    p = Passed(256 * MIB, 6.25e9, 7.20e9, 6.08e9)  # warm 103%, cold 118%: 15 points faster
    said = p.sentence(480 * MIB)
    assert p.grade == "low"
    assert "Cold ran 15 points faster than warm, more than that 10%: no cache is needed" in said
    assert "this run does not measure why cold ran faster" in said and "within that" not in said
    assert p.verdict.endswith("; cold ran 15 points faster than warm, more than the 10% one noisy median may miss by")


def test_the_claims_row_labels_a_copy_as_section_2_grades_it():
    """#2: 107% is "at it" in section 2, so the row does not call it above the reference."""
    from utils import machine

    profile = machine.MachineProfile("cpu", [machine.Ceiling("matmul peak", "fp32", 1, "1024³", 1e11, 1e11, 0.1,
                                                              "FLOP/s")])
    near = [Passed(256 * MIB, 6.53e9, 6.68e9, 6.075e9)]
    rows = summary.lesson_claims(profile, [], [], None, near)
    assert ("a 256 MiB copy out of DRAM at or just above its reference (107%), copied again cold: do caches "
            "explain it?") in [r.claim for r in rows]
    far = [Passed(256 * MIB, 7.00e9, 6.00e9, 6.08e9)]  # warm 115%: past the noise
    rows = summary.lesson_claims(profile, [], [], None, far)
    assert any(r.claim.startswith("a 256 MiB copy out of DRAM above its reference (115%)") for r in rows)


def test_a_copy_out_of_dram_at_110_percent_is_at_its_reference():
    def dram(gbs):
        return CopyPoint("host memcpy", 256 * MIB, 256 * MIB / (gbs * 1e9), 6.08e9, "DRAM", False)

    assert "110% of its reference (6.08 GB/s), at it (within the 10%" in summary.copies_sentence([dram(6.68)])
    assert "(6.08 GB/s), above it: copied again cold below." in summary.copies_sentence([dram(6.76)])  # 111%


def test_in_cache_copies_within_the_noise_below_the_reference_are_at_it_too():
    """#3: 97% is as much at the reference as 101%; below 90%, under it (unless the fixed cost explains it)."""
    def copy(kib, share, regime="L3"):
        return CopyPoint("host memcpy", kib * 1024, kib * 1024 / (share * 10e9), 10e9, regime, False)

    small, mid, four, sixteen = copy(64, 0.52, "L2"), copy(256, 0.73, "L2"), copy(4096, 0.97), copy(16384, 1.01)
    row = summary.in_cache_claim([small, mid, four, sixteen], None)
    assert row.verdict.endswith("; none above it by more than 10%; at it (within 10%, one median's noise): 4 MiB "
                                "(97%), 16 MiB (101%); under it by more than 10%: 64 KiB (52%), 256 KiB (73%)")
    # a copy the call's fixed cost explains is named by that note alone, not listed under it as well
    row = summary.in_cache_claim([small, mid, four], None, fixed=[small])
    assert row.verdict.endswith("under it by more than 10%: 256 KiB (73%)")


def test_a_miss_at_exactly_the_fit_error_plus_the_edge_is_not_beyond():
    """In floats 0.24 + 0.1 < 0.34: +34.0% against ±24% plus 10 points is at the edge, not past it."""
    check = LineCheck([(4, 1.0, 0.66, 0.34), (64, 1.0, 0.9, 0.1)], error=0.24)
    assert check.beyond == [] and check.grade == "edge"
    assert LineCheck([(4, 1.0, 0.659, 0.341)], error=0.24).beyond != []


def test_stream_is_set_beside_the_read_as_printed_to_two_decimals():
    """Other: 18.7 / 12.15 = 54%, the spread itself: the read prints as 12.15 and the share is at its edge."""
    dram = CopyPoint("host memcpy", 256 * MIB, 256 * MIB / 6.53e9, 6.075e9, "DRAM", False)
    stream = NS(name="STREAM copy", best=18.7e9, spread=0.54)
    said = summary.stream_against_dram(stream, [dram], 960 * MIB, {"L2": 2 * MIB, "L3": 480 * MIB})
    assert "against this run's DRAM read (12.15 GB/s, a buffer no cache holds): 54% above it, at the edge of " \
           "STREAM's own 54% spread" in said
