"""Lesson 08 fixes from the twenty-fourth reading (t24_0708)."""

from utils.lessons.putting_it_together import allreduce_fit


def test_the_all_reduce_fit_s_bytes_term_is_worked_from_the_printed_gb_and_beta():
    """t24_0708 #1: beta 2.486 GB/s prints as 2.49; 12,898,304 B print as 0.0129 GB. The bytes term was
    worked from the unrounded beta (5.19 ms); a reader dividing the printed figures gets 0.0129 / 2.49 = 5.18."""
    said = allreduce_fit.against_gap((184e-6, 2.486e9, 0.2), 4 * 3_224_576, 33.90, "the rest")
    assert "(alpha 184 us, beta 2.49 GB/s, worst residual 20%" in said
    assert "prices one call of the 0.0129 GB of gradients at 0.18 + 5.18 = 5.36 ms" in said
    assert ": 16% of the gap, if none of it hid behind backward; the other 28.5 ms are the rest" in said


def test_alpha_s_term_is_the_printed_whole_microseconds_in_ms():
    """Alpha prints in whole us (185 us); its ms term is that figure rounded half up (0.19), not 0.18 from the
    float 0.000185 rounding down."""
    said = allreduce_fit.against_gap((185.4e-6, 1.28e9, 0.3), 12.9e6, 31.0, "the rest")
    assert "(alpha 185 us" in said and "at 0.19 + 10.08 = 10.27 ms" in said
    assert "could explain all" not in said
    past = allreduce_fit.against_gap((185.4e-6, 0.3e9, 0.3), 12.9e6, 31.0, "the rest")
    assert "could explain all of the gap" in past               # 0.19 + 43.00 ms: past the gap


def test_fsdp_s_two_devices_row_sets_ddp_beside_it_with_the_same_checkpointing():
    """t24_0708 #3: the two-devices row printed FSDP with selective checkpointing (70.8 GB) beside DDP with
    none (167 GB), while the memory row priced DDP with selective checkpointing (154 GB). DDP's figure is now
    the same plan's: the row names its checkpointing and prints the memory row's DDP figure."""
    import re

    from test_guide import answers

    steps = answers("2 of 8 H100", "7B")
    two, memory = steps["two devices"].why, steps["memory"].why
    said = re.search(r"usable with selective checkpointing \(DDP with the same: ([\d.]+ GB)\)", two)
    assert said, two
    assert f"ddp with selective checkpointing: {said.group(1)}" in memory


def test_ddp_beside_fsdp_without_checkpointing_names_none(monkeypatch):
    """The branch where FSDP fits with no checkpointing: the row says so and DDP's bytes are for none too."""
    from types import SimpleNamespace as NS

    from utils.lessons.putting_it_together import fit, guide

    asked = []
    monkeypatch.setattr(fit, "held", lambda shape, micro, prec, strategy, n, ckpt: asked.append(
        (micro, strategy, n, ckpt)) or NS(peak=167e9))
    found = guide.Fit("fsdp", 2, False, 4, NS(peak=81e9), [])
    assert guide._ddp_alike(None, found, "bf16") == " with no checkpointing (DDP with the same: 167 GB)"
    assert asked == [(4, "ddp", 2, False)]                     # the same micro-batch and checkpointing


def test_a_step_in_minutes_prints_three_figures_so_the_run_s_hours_check_either_way():
    """t24_0708 other 3: 6 x 6.86 bn x 16,384 / 2,719 GFLOP/s = 248 s printed as "4.1 min", and 5,000 steps
    from it as 342 h, where the seconds give 344 h. The minutes now carry 3 figures: 4.13 min, 344 h."""
    from types import SimpleNamespace as NS

    from utils.lessons.putting_it_together import guide

    shape = NS(parameters=lambda: 6.86e9, context=2048)
    memory = guide.Step("memory", "full training", "fits")   # 6 FLOPs a weight
    said = guide._with_step_time(memory, shape, 8, 1, NS(low_peak=2719e9), 5000).why
    assert "/ (1 x 2,719.0 GFLOP/s, the measured peak) = 4.13 min" in said
    assert "(5,000 steps: at least 344 h); rent GPUs" in said    # 4.13 x 5,000 / 60 = 344.2
    quick = guide._with_step_time(memory, shape, 8, 1, NS(low_peak=2719e12), 50).why
    assert "= 0.248 s" in quick and "50 steps: at least 0.0 h" in quick and "impractical" not in quick
