"""t31_0708 #4: "(LoRA's FLOPs: ..., their gradients at 100 % MFU)" read as the gradients' MFU. The MFU now
comes first in the bracket, for both plans' FLOPs."""

from types import SimpleNamespace as NS

from utils.lessons.putting_it_together import guide


def _why(choice: str) -> str:
    shape = NS(parameters=lambda: 6.86e9, context=2048)
    profiled = guide.Profile({"matmul": 0.1}, low_peak=1535.2e9)
    return guide._with_step_time(guide.Step("memory", choice, "fits"), shape, 8, 2, profiled, 5000).why


def test_the_mfu_comes_before_what_the_flops_count():
    lora = _why("QLoRA r=16 (4-bit weights), DDP over 2")
    assert "(at 100 % MFU; LoRA's FLOPs: forward and the activations' gradients" in lora
    assert "their gradients at 100 % MFU" not in lora and lora.count("100 % MFU") == 1
    assert "(at 100 % MFU; full training's FLOPs, 6 a weight a token)" in _why("full, DDP over 2")
