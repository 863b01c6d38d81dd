"""Twenty-fourth reading, lesson 03 (t24_0304): ZeRO-1's split is read as exact, near-even or uneven from the two
MiB figures the memory line prints, in the sentence and in the closing table's row."""

from utils.lessons.ddp import knobs

MIB = 2**20


def _knob(plain_mib: float, zero1_mib: float) -> dict:
    return {"grad_copy_bytes": {False: int(3.15 * MIB), True: 0}, "grad_bytes": int(3.15 * MIB),
            "optimizer_bytes": {"AdamW": int(plain_mib * MIB), "ZeRO-1": int(zero1_mib * MIB)}}


def test_zero1_split_is_exact_only_where_half_the_plain_figure_is_the_zero1_figure_to_the_digit():
    # Reader t24_0304 #5: "6.30 MiB plain, 3.16 MiB with ZeRO-1" beside "ZeRO-1 divides ... by the world size"
    assert knobs.zero_split(_knob(6.30, 3.15))[1] == "even"
    assert knobs.zero_split(_knob(6.30, 3.16))[1] == "near-even"    # 50% as printed, not half of 6.30
    assert knobs.zero_split(_knob(6.30, 3.60))[1] == "more"         # 57%
    assert knobs.zero_split(_knob(6.30, 2.80))[1] == "less"         # 44%


def test_the_memory_line_says_near_even_and_why_where_the_split_is_not_exact():
    said, share = knobs.memory_reading(_knob(6.30, 3.16))
    assert "6.30 MiB plain, 3.16 MiB with ZeRO-1 (50% of plain: near 1/world size = 50%, not exactly it" in said
    assert "whole tensors" in said and "exactly 1/world" not in said
    said, _ = knobs.memory_reading(_knob(6.30, 2.80))
    assert "(44% of plain: not the even share, 1/world size = 50%" in said and "holds less" in said


def test_the_closing_row_names_each_split_from_the_mib_figures():
    row = knobs.zero_claim(_knob(6.30, 3.16))
    assert row.measured == "3.16 of 6.30 MiB on rank 0 (50%)"
    assert row.verdict == "near-even shares (whole tensors per rank)"
    assert knobs.zero_claim(_knob(6.30, 3.15)).verdict == "equal shares"
    assert knobs.zero_claim(_knob(6.30, 3.60)).verdict == "unequal shares"
    assert knobs.zero_claim(_knob(6.30, 2.80)).verdict == "unequal shares"
