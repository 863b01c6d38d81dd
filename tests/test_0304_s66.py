"""Reading 28, lessons 03 and 04 (t28_0304): figures compared as printed, a fixed part set beside 2α, shares
added as printed, and two stored sizes that differ no longer called the same. Fabricated figures only."""
from types import SimpleNamespace

import torch
from torch import nn

from utils.lessons.compression.precision import Autocast, autocast_bytes_note, tensor_bytes
from utils.lessons.compression.quantruns import compiled_overhead, compiled_slower, why_legacy_leads
from utils.lessons.compression.report import _beside_reference, verdict_against
from utils.lessons.ddp import allreduce


def test_a_reference_the_printed_spread_just_reaches_is_within_noise():  # t28_0304 #1
    # abs(1.04 - 1.08) is 0.040000000000000036 in floats: as printed, 1.04 ± 0.04 reaches 1.08
    assert _beside_reference(1.04, 1.08, 0.04).startswith("; within noise of the reference 1.08x too")
    assert _beside_reference(1.04, 1.09, 0.04).startswith("; the reference 1.09x lies beyond the noise")
    assert _beside_reference(1.12, 1.08, 0.04).startswith("; within noise of the reference")  # the other side


def test_a_faster_ratio_reaching_its_reference_as_printed_is_at_it_and_shares_round_half_up():
    assert verdict_against(1.54, 1.58, 0.026, "reference") == "at the reference (within noise)"  # 1.54 ± 0.04
    assert verdict_against(1.50, 1.80, 0.01, "reference") == "faster: 63% of the reference's gain"  # 0.625 up


def _row(size, ms, low=None, high=None):
    return {"bytes": size, "seconds": ms * 1e-3, "low": (low or ms) * 1e-3, "high": (high or ms) * 1e-3}


def _link(alpha_us):
    return SimpleNamespace(fit=SimpleNamespace(alpha=alpha_us * 1e-6, beta=3.0e9))


ROWS = [_row(4096, 0.351), _row(2**14, 0.337), _row(2**16, 0.400), _row(2**20, 3.04)]


def test_small_messages_print_the_fixed_part_in_ms_worked_from_the_printed_medians():  # t28_0304 #2
    said = allreduce.small_messages(ROWS)
    # (16 x 0.351 - 0.400) / 15 = 0.34773 -> 0.348 ms; 0.348 / 0.351 = 99 %
    assert "(16 x 0.351 - 0.400) / 15 = 0.348 ms, 99% of the 4 KiB message's 0.351 ms" in said
    assert "like lesson 00's α" in said and "the α of lesson 00" not in said
    assert "2α" not in said  # no link passed: nothing set beside it


def test_small_messages_set_the_fixed_part_beside_two_alpha_every_way():  # t28_0304 #2
    above = allreduce.small_messages(ROWS, link=_link(75.8))  # 2 x 75.8 = 151.6 µs -> 0.152 ms; 0.348 / 0.152
    assert "Lesson 00's α, 75.8 µs, prices one one-way message; an all-reduce pays at least two, 2α = 0.152 ms" \
        in above
    assert "This fixed part is 2.3x 2α: the rest of it is work α does not price" in above
    level = allreduce.small_messages(ROWS, link=_link(174.0))  # 2α = 0.348 ms
    assert ". This fixed part is about 2α (1.0x), as the link model prices it" in level
    under = allreduce.small_messages(ROWS, link=_link(250.0))  # 0.348 / 0.500 = 0.7x
    assert ". This fixed part is under it (0.7x 2α)" in under and "do not bear the model out" in under
    none = allreduce.small_messages([_row(4096, 0.100), _row(2**16, 1.70)], link=_link(75.8))
    assert "2α" not in none and "no fixed cost per message shows" in none


PROFILE = [("## Call CompiledFxGraph ##", 0.114), ("Torch-Compiled Region: 0/2", 0.074),
           ("TorchDynamo Cache Lookup", 0.064), ("aten::addmm", 0.40)]  # unrounded: 25.2 %; printed 11 + 7 + 6


def test_the_compiled_overhead_adds_the_shares_as_the_profile_prints_them():  # t28_0304 #3
    assert compiled_overhead(PROFILE) == 0.24
    assert compiled_overhead([("aten::addmm", 0.5)]) == 0.0
    line = why_legacy_leads(1, ("quantized::linear_dynamic", 0.87, 220.6e-6), ("onednn::qlinear", 0.73, 702.7e-6),
                            compiled_overhead(PROFILE), 0.24, 639.5e-6)
    assert "take 24% of torchao's pass, about 169 µs" in line  # 24 % x 702.7 µs = 168.6
    assert "dynamo's guards take 24% of it" in compiled_slower(0.03, PROFILE, 0.98)


def test_the_autocast_note_reads_the_two_stored_sizes_it_sits_beside():  # t28_0304 #4
    differ = autocast_bytes_note("bf16 autocast", "bf16", (1_727_757, 1_727_885), (1_700_000, 1_700_000))
    assert differ.startswith("bf16 autocast keeps the fp32 weights (the same 1,700,000 bytes of tensors; its saved "
                             "file holds 128 bytes more, which are not weights")
    assert "the same stored bytes" not in differ
    same = autocast_bytes_note("bf16 autocast", "bf16", (1_000, 1_000), (900, 900))
    assert same.startswith("bf16 autocast keeps the fp32 weights (the same stored bytes); it casts each to bf16")
    other = autocast_bytes_note("bf16 autocast", "bf16", (1_000, 1_200), (900, 1_100))
    assert other.startswith("bf16 autocast holds 1,100 bytes of tensors against fp32's 900")


def test_tensor_bytes_counts_the_wrapped_models_weights_alone():
    model = nn.Linear(4, 3)  # 12 + 3 fp32 numbers
    assert tensor_bytes(model) == 15 * 4 == tensor_bytes(Autocast(model, torch.bfloat16))


def _bus(size, gbs, low_gbs=None, high_gbs=None):  # a row whose busbw prints ``gbs`` (2 ranks: bus = bytes)
    seconds = size / (gbs * 1e9)
    return {"bytes": size, "seconds": seconds, "busbw": gbs * 1e9,
            "low": size / ((high_gbs or gbs) * 1e9), "high": size / ((low_gbs or gbs) * 1e9)}


def test_a_lower_busbw_within_the_repeats_is_not_stated_as_a_fall():  # t28_0304 other, cell 59
    noisy = allreduce.trend([_bus(2**22, 1.29, 1.0, 1.4), _bus(2**24, 1.05, 0.9, 1.3)])
    assert noisy.startswith("busbw reads lower after its peak: it peaks at 1.29 GB/s at 4 MiB")
    assert "so the fall may be noise" in noisy and "instead of levelling off" not in noisy
    apart = allreduce.trend([_bus(2**22, 1.29), _bus(2**24, 0.80)])
    assert apart.startswith("busbw falls after its peak instead of levelling off") and "not a plateau" in apart


def test_a_size_exactly_ten_percent_under_the_peak_as_printed_levels_off():
    # 0.9 x 1.20 is 1.0800000000000001 in floats: as printed, 1.08 is 10% under 1.20, within 10%
    assert allreduce.trend([_bus(2**22, 1.20), _bus(2**24, 1.08)]).startswith("The curve levels off from 4 MiB")


def test_the_step_factors_rounding_clause_closes_the_rough_parenthesis():  # t28_0304 other, cell 38
    from utils.lessons.ddp.overlap import step_ratios
    r = step_ratios(121.6e-3, 112.0e-3, 73.4e-3)  # 1.09 x 1.53 = 1.67 against 121.6 / 73.4 = 1.66
    assert r["rounding"].startswith("; the two factors as printed multiply to") and "(" not in r["rounding"]
