"""Ninth reading (t9_0304), lesson 04: the figures a sentence works from are the ones printed beside it."""

from utils.lessons.compression.quantruns import compile_alone, compile_part, outside_words
from utils.lessons.compression.roofline import figure_text, printed_rate_ratio


def test_the_16_bit_rate_divides_the_rates_section_4_prints():
    # 220.4 / 100.0 G operations/s as printed: 2.20x, not 2.21x from the unrounded rates
    ratio = printed_rate_ratio(220.44e9, 99.96e9, 1, 1e9)
    assert figure_text(ratio) == "2.20x" and figure_text(220.44e9 / 99.96e9) == "2.21x"
    assert printed_rate_ratio(220.44e9, 99.96e9, 1, 1e9) == 220.4 / 100.0  # section 4's reference, the same way


def test_compile_is_credited_with_part_of_the_figure_only_where_it_sped_fp32_up():
    slower = compile_part(1, 0.73, "beyond noise")  # the ninth reading's run: compile alone slowed fp32
    assert "slows this pass down: fp32 compiled alone runs 0.73x at batch 1 (beyond noise)" in slower
    assert "part of" not in slower.lower()
    faster = compile_part(1, 1.20, "beyond noise")
    assert faster.startswith("Compile alone speeds this pass up") and "part of the int8 figure" in faster
    for alone, verdict in ((0.98, "within noise"), (1.02, "within noise"), (1.004, "beyond noise")):
        level = compile_part(256, alone, verdict)
        assert level.startswith("Compile alone is not what sets") and "part of" not in level


def test_the_operators_named_add_up_to_the_share_printed_or_say_they_are_rounded_apart():
    # the ninth reading: "3% ... (aten::clamp_min 1%, aten::copy_ 1%)" summed to 2%
    rest = [("aten::clamp_min", 0.012), ("aten::copy_", 0.011), ("aten::t", 0.004), ("aten::view", 0.003)]
    line = outside_words(0.03, rest)
    assert line.startswith("3% of its pass") and "aten::clamp_min 1%, aten::copy_ 1%, other operators 1%)" in line
    # parts that round up past the whole: the line says so rather than print a sum that does not add up
    up = [("a", 0.006), ("b", 0.006), ("c", 0.006)]
    apart = outside_words(0.02, up)
    assert "(a 1%, b 1%, c 1%; each share is rounded on its own, so these add up to 3%, not 2%)" in apart
    exact = outside_words(0.2, [("aten::copy_", 0.1), ("aten::clamp_min", 0.09), ("aten::t", 0.01)])
    assert exact == "20% of its pass outside its matmul operators (aten::copy_ 10%, aten::clamp_min 9%, aten::t 1%)"
    assert "none above 0.5% each" in outside_words(0.004, [("x", 0.004)])


def test_compile_alone_prints_its_share_and_fusion_figure_from_the_same_rounded_share():
    ops = [("aten::addmm", 0.974), ("aten::clamp_min", 0.012), ("aten::copy_", 0.011), ("aten::t", 0.003)]
    line = compile_alone(256, 0.98, "within noise", 0.05, 1.0, ops)
    assert "spends 3% of its pass" in line and "1/(1 - 0.03) = 1.03x" in line
    assert "(aten::clamp_min 1%, aten::copy_ 1%; each share is rounded on its own, so these add up to 2%, not 3%)" \
        in line  # the other operators (0.3%) print 0%: not listed, and the sum says why it falls short
