"""t32_0708 #2 and #3: lesson 08's guide, the options that fit when full training does not.
#3: the 2xT4 row priced QLoRA's compute at 6·P·tokens while the CPU row gave LoRA's 4·P; each option is now
priced at its own FLOPs a weight a token, and its traffic set against its own backward (2 of 4 for LoRA, 4
of 6 for full training). #2: the CPU row said "no compute time to set it against" beside its own step time;
it now says why nothing is taken to hide (CPU workers share the cores the link uses). Fabricated shapes and
links, every branch of ``_by_link``'s reason."""

from pathlib import Path

from utils import devices
from utils.lessons.putting_it_together import guide
from utils.lessons.putting_it_together.plan import LARGE, LARGE_BATCH
from utils.tools.fake_nvml import T4, fake_layer


def _memory(plan, hw, link=None):
    return {s.step: s for s in guide.guide(LARGE, LARGE_BATCH, plan, hw, measured_link=link,
                                           host_bytes=32e9)}["memory"]


def test_each_option_is_priced_at_its_own_flops_and_backward():
    compute, backward, words = guide._option_compute(0.648, "QLoRA r=16 (4-bit weights), DDP over 2")
    assert (compute, backward) == (0.432, 0.216) and words == ("0.432 s of compute (4·P·tokens), its backward "
                                                               "(2 of the 4) 0.216 s")
    compute, backward, words = guide._option_compute(0.135, "8-bit AdamW, FSDP over 2")
    assert (compute, backward) == (0.135, 0.09) and "(6·P·tokens), its backward (4 of the 6)" in words


def test_the_t4_row_prices_qlora_at_4p_and_sets_its_traffic_against_half():
    hw = devices.hardware(layer=fake_layer([T4, T4], p2p_read=False, ancestor=50), n_gpus=2)
    why = _memory(devices.plan(2, mode_name="2gpu", n_gpus=2), hw).why
    assert "(compute at the fp16 datasheet peak)" in why and "6·P·tokens" not in why
    assert "= 0.0243 s against 0.432 s of compute (4·P·tokens), its backward (2 of the 4) 0.216 s" in why
    assert "QLoRA r=16 (4-bit weights), DDP over 2 is the first whose traffic hides behind backward" in why


def test_a_slow_link_hides_nothing_and_says_so():
    hw = devices.hardware(layer=fake_layer([T4, T4], p2p_read=False, ancestor=50), n_gpus=2)
    why = _memory(devices.plan(2, mode_name="2gpu", n_gpus=2), hw, guide.KnownLink(1e6, "a slow link")).why
    assert "none hides behind backward: QLoRA r=16 (4-bit weights), DDP over 2 moves the fewest bytes" in why


def test_the_cpu_row_says_why_nothing_hides_not_that_it_has_no_compute_time():
    why = _memory(devices.plan(2, mode_name="cpu", n_gpus=0), None, guide.KnownLink(3.48e9, "loopback")).why
    assert "no compute time" not in why and " s of compute" not in why
    assert ("CPU workers share the cores the link uses, so no traffic is taken to hide behind backward: QLoRA "
            "r=16 (4-bit weights), DDP over 2 moves the fewest bytes") in why


def test_an_unknown_rate_is_named():
    why = _memory(devices.plan(2, mode_name="cpu", n_gpus=0), None).why
    assert "the link's rate is unknown: QLoRA r=16 (4-bit weights), DDP over 2 moves the fewest bytes" in why


def test_the_link_row_counts_parameters_as_the_model_line_does():
    """t32_0708 other (still present): 08 printed "3.22 M" (the model line), "3.225 M" (the guide's link row)
    and "3.2 M" (the reference table). The link row and the table now print it as the model line does (2 decimals in M), the row's bytes
    worked from that figure."""
    from utils.lessons.putting_it_together import link_cost
    from utils.lessons.memory.calculator import Shape

    shape = Shape(vocab=95, context=64, width=256, depth=4, heads=4)
    p = shape.parameters()
    said = link_cost.link_reason(shape, "ddp", 2, "bf16", None, devices.plan(2, mode_name="cpu", n_gpus=0),
                                 None, 64, guide.KnownLink(3.48e9, "loopback"))
    assert f"all-reduce 2(n-1)/n x 4 B x {p / 1e6:.2f} M = " in said and shape.describe().endswith(
        f"{p / 1e6:.2f} M parameters")
    nb = (Path(__file__).resolve().parents[1] / "notebooks" / "08_putting_it_together.ipynb").read_text()
    assert 'parameters() / 1e6:.2f} M\\", S.shape' in nb and 'parameters() / 1e6:.1f} M' not in nb
