"""Twenty-ninth reading's fixes in lessons 03 and 04 (t29_0304)."""
from utils.lessons.compression.quantruns import compile_alone

# lesson 04's eager profile at batch 256: 7% of the pass outside the matmuls, so fusing removes at most 1.08x
EAGER = [("aten::addmm", .93), ("aten::copy_", .04), ("aten::clamp_min", .03)]


def test_compile_alone_reads_the_fusion_ceiling_with_the_courses_noise_rule():
    # t29_0304 #1: 1.15x ± 6% spreads 0.07 (the ratio times its noise), so 1.08-1.22 reaches the 1.08x ceiling
    edge = compile_alone(256, 1.15, "beyond noise", 0.06, 1.0, EAGER)
    assert "1/(1 - 0.07) = 1.08x" in edge
    assert "passes that 1.08x by no more than the round-to-round noise (±6%)" in edge
    assert "more than fusing" not in edge
    # the same gain with a 2% noise spreads 0.02: 1.13-1.17 is clear of 1.08x, so the rest is the matmuls'
    beyond = compile_alone(256, 1.15, "beyond noise", 0.02, 1.0, EAGER)
    assert "more than fusing those steps can remove" in beyond and "by no more than" not in beyond
    # a ratio printed at the ceiling fits within it, whatever the unrounded figures
    assert compile_alone(256, 1.0801, "beyond noise", 0.06, 1.0, EAGER).endswith("can remove.")
    # the spread is a share of the ratio, not of the ceiling: 1.15 x 5% = 0.0575 prints 0.06, 1.09-1.21,
    # clear of 1.08x
    assert "more than fusing" in compile_alone(256, 1.15, "beyond noise", 0.05, 1.0, EAGER)


def test_small_messages_defines_alpha_as_lesson_00_does_one_way():
    # t29_0304 #2: lesson 00's α is a round trip halved, one message one way; never "a round trip"
    from utils.lessons.ddp import allreduce

    rows = [{"bytes": size, "seconds": ms * 1e-3, "low": ms * 1e-3, "high": ms * 1e-3}
            for size, ms in ((4096, 0.256), (2**16, 0.414))]
    said = allreduce.small_messages(rows)
    assert "like lesson 00's α (the cost of sending one message one way, through the socket or the driver)" in said
    assert "round trip" not in said
