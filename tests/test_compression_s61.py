"""Lessons 03-04, twenty-third reading (t23_0304): a pass's bytes priced at DRAM's rate are not said to come from
DRAM, and its own time says whether they could have; a front pair's difference is counted in images beside the
rounded percentages; names holding commas are parted by semicolons. Fabricated figures only."""
import torch

from utils.lessons.compression import roofline
from utils.lessons.compression.accuracy import front_pairs, rounded_note
from utils.lessons.compression.report import load_sentence
from utils.lessons.compression.train import linear_heavy_mlp

TERMS = dict(fp32_flops=100e9, int8_ops=400e9, bandwidth=25.1e9, shape=(256, 1024, 1024))
MLP = linear_heavy_mlp(1024, 3)  # 11.67 MB a pass at batch 1


def test_a_model_that_fits_without_an_l3_rate_is_labelled_l3_or_dram_and_priced_at_drams_rate():
    fits = roofline.Rates(**TERMS, last_cache=32 << 20)  # fits; STREAM's three arrays do not: no L3 rate
    ref = roofline.int8_reference(MLP, 1, fits)
    assert ref.label == "memory-bound (L3 or DRAM)" and ref.regime == "L3 or DRAM"
    assert "read from DRAM" not in ref.why and "priced at DRAM's rate (it fits in the L3" in ref.why
    assert ref.ridge_point == 100e9 / 25.1e9  # the ridge point still uses DRAM's measured rate
    small = roofline.Rates(**TERMS, last_cache=8 << 20)  # the model does not fit: its bytes come from DRAM
    assert roofline.int8_reference(MLP, 1, small).label == "memory-bound (DRAM)"
    assert "read from DRAM" in roofline.int8_reference(MLP, 1, small).why
    gpu = roofline.Rates(**TERMS)  # no cache size known
    assert roofline.int8_reference(MLP, 1, gpu).label == "memory-bound (DRAM)"


def test_the_pass_rate_note_says_a_pass_faster_than_dram_read_part_of_its_bytes_from_a_cache():
    fits = roofline.Rates(**TERMS, last_cache=32 << 20)
    fast = roofline.pass_rate_note(fits, MLP, 1, 374.7e-6)  # 11.67 MB / 374.7 µs = 31.14 GB/s
    assert "moves 11.67 MB in 374.7 µs (median): 31.1 GB/s, faster than STREAM's 25.1 GB/s from DRAM" in fast
    assert "part of its bytes at least came from a cache" in fast and "\"L3 or DRAM\" is here at least partly" in fast
    assert fast.endswith("though a pass served partly from a cache can pass them.")  # the by-hand row's 0.42x
    slow = roofline.pass_rate_note(fits, MLP, 1, 600e-6)  # 19.45 GB/s: no faster than DRAM, nothing proven
    assert "19.5 GB/s, no faster than STREAM's 25.1 GB/s" in slow and "does not say whether" in slow
    # a model too large for the last cache, faster or not
    small = roofline.Rates(**TERMS, last_cache=8 << 20)
    assert "a cache holds part of what it reads" in roofline.pass_rate_note(small, MLP, 1, 374.7e-6)
    assert "too large for the last-level cache" in roofline.pass_rate_note(small, MLP, 1, 600e-6)
    gpu = roofline.Rates(**TERMS)
    assert roofline.pass_rate_note(gpu, MLP, 1, 600e-6).endswith("no faster than STREAM's 25.1 GB/s from DRAM.")
    # the L3's own rate measured: a pass faster than DRAM is what that regime expects
    warm = roofline.Rates(**TERMS, cache_bandwidth=100e9, cache_bytes=32 << 20, last_cache=32 << 20)
    assert "as its L3 regime expects" in roofline.pass_rate_note(warm, MLP, 1, 374.7e-6)
    # compute-bound: the time says nothing of the bytes
    assert roofline.pass_rate_note(fits, MLP, 256, 16e-3) == ""


def test_the_rate_is_worked_from_the_time_as_printed_and_compared_with_drams_as_printed():
    # 11.67 MB over 1.1 ms as printed (1.1449 ms) is 10.6 GB/s, not 10.19 from the unrounded time
    note = roofline.pass_rate_note(roofline.Rates(**TERMS, last_cache=32 << 20), MLP, 1, 1.1449e-3)
    assert "in 1.1 ms (median): 10.6 GB/s" in note
    # a pass printed at DRAM's figure exactly is not "faster"
    at = roofline.Rates(**{**TERMS, "bandwidth": 31.14e9}, last_cache=32 << 20)
    assert "no faster than STREAM's 31.1 GB/s" in roofline.pass_rate_note(at, MLP, 1, 374.7e-6)


def test_no_cache_rate_no_longer_says_every_reference_uses_drams_bytes():
    line = roofline.no_cache_rate(roofline.Rates(**TERMS, last_cache=32 << 20), 11.67e6, "MLP")
    assert "every reference here uses DRAM's bandwidth" not in line
    assert "the ridge points above use DRAM's bandwidth" in line and "\"L3 or DRAM\"" in line


def answers(wrong, n=360):
    right = torch.ones(n)
    right[wrong] = 0
    return right


def variant(name, wrong):
    a = answers(wrong)
    return dict(family="CNN", name=name, acc=a.mean().item(), answers=a, front=True)


def test_a_front_pair_whose_rounded_percentages_subtract_otherwise_says_both():
    # the reader's pair: 344 and 340 of 360 (95.6% and 94.4%): -4/360 = -0.011, the percentages give -0.012
    (line,) = front_pairs([variant("scratch", list(range(16))), variant("distilled", list(range(20)))])
    assert "accuracy 95.6% and 94.4% (344 and 340 of 360 images right)" in line
    assert "paired difference -0.011 ± " in line and "(-4 of 360 images, #2 less #1" in line
    assert "the printed percentages, which are rounded, subtract to -0.012 (as section 6 works a gap), the image " \
           "counts to -0.011" in line


def test_rounded_note_is_silent_where_the_two_agree():
    assert rounded_note(350 / 360, 340 / 360, -10 / 360) == ""  # 97.2% - 94.4% = -0.028, counts -0.028
    assert rounded_note(344 / 360, 340 / 360, -4 / 360).startswith("; the printed percentages")


def test_the_names_of_pairs_apart_are_parted_by_semicolons():
    said = load_sentence([("torchao int8 dynamic, compiled", "3.10x", "3.20x"), ("channels removed", "1.3x", "1.4x"),
                          ("fp32", "1.00x", "1.00x")])
    assert "(torchao int8 dynamic, compiled; channels removed)" in said
