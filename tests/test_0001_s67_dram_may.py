"""Twenty-ninth reading (t29_0001 #3), lesson 00: the half-cache rule counts bytes, it does not measure where
they came from, so STREAM's rate within half of the L3 "may" not be DRAM's alone, in both places that say so;
beyond half of it, it is counted as DRAM's, as before. Fabricated figures."""

from types import SimpleNamespace as NS

from utils.lessons.start_here.bandwidth import CopyPoint
from utils.lessons.start_here import summary

MIB = 2**20
BIG_L3, SMALL_L3 = {"L2": 2 * MIB, "L3": 480 * MIB}, {"L2": 2 * MIB, "L3": 32 * MIB}


def test_section_1_says_may_within_half_the_cache():
    said = summary.stream_sentence(32 * MIB, BIG_L3)
    assert "the memory bandwidth above may be a rate beyond the smaller caches, not DRAM's alone" in said
    assert "bandwidth above is a rate" not in said
    assert "counted as DRAM's" in summary.stream_sentence(32 * MIB, SMALL_L3)


def test_section_2_says_may_by_its_rule_and_nothing_past_half_the_cache():
    dram = CopyPoint("host memcpy", 256 * MIB, 256 * MIB / 5.9e9, 6e9, "DRAM", False)
    stream = NS(name="fp32 memory bandwidth, 1 thread, STREAM copy, 32 MiB arrays", best=18.7e9)
    within = summary.dram_reference_sentence(960 * MIB, BIG_L3, [dram], stream, 32 * MIB)
    assert within.endswith("; and its arrays fit within half of the L3, so by section 2's rule it may not be "
                           "DRAM's rate alone.")
    assert "so it is not DRAM's rate here" not in within
    beyond = summary.dram_reference_sentence(960 * MIB, BIG_L3, [dram], stream, 256 * MIB)  # 512 MiB > 240
    assert beyond.endswith("figures measured alike.") and "may not be DRAM's" not in beyond
