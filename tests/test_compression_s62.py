"""Twenty-fourth reading, lesson 04 (t24_0304): figures worked from printed figures come out of them to the digit
(the compile seconds' total, the int8 kernels' µs), and the CNN's multiply-adds are counted by layer kind."""

import re

from torch import nn

from utils import models
from utils.lessons.compression.measure import macs
from utils.lessons.compression.quantruns import Run, compile_seconds_total, why_legacy_leads


def test_the_compile_total_is_the_sum_of_the_seconds_as_printed():
    # t24_0304 #1: the block printed 7.3 s and 5.3 s of compile seconds (12.6 s) beside a total of "12 s"
    lo = Run(1, {}, compile_seconds={"a": 2.84, "b": 0.94, "c": 0.96, "d": 1.74, "e": 0.94})     # 7.3 as printed
    hi = Run(256, {}, compile_seconds={"a": 1.04, "b": 0.94, "c": 0.96, "d": 1.46, "e": 0.94})   # 5.3 as printed
    assert sum(lo.compile_seconds.values()) + sum(hi.compile_seconds.values()) > 12.75   # unrounded: 12.8 s
    assert f"{compile_seconds_total({1: lo, 256: hi}):.1f}" == "12.6"
    assert compile_seconds_total({1: Run(1, {})}) == 0.0  # nothing compiled


def test_each_kernels_time_is_its_printed_share_times_its_printed_median():
    # t24_0304 #2: "72% of its pass" x a median printed 748.0 µs is 538.56 µs, printed 539, not the product of the
    # unrounded figures. Here 61.4% (printed 61%) of 512.04 µs (printed 512.0): 312.32 -> 312, not 314
    line = why_legacy_leads(1, ("legacy", 0.5, 200.0e-6), ("compiled", 0.614, 512.04e-6), 0.1, 0.1)
    assert "legacy takes about 100 µs (50% of its pass)" in line
    assert "compiled about 312 µs (61% of its pass;" in line
    shown = [float(x) for x in re.findall(r"about (\d+) µs", line)]
    assert f"{shown[1] / shown[0]:.1f}x slower" in line  # 312 / 100 = 3.1, from the two figures printed
    # a median printed in ms: 1.23456 ms prints 1.2 ms, so 50% of it is 600 µs
    assert "about 600 µs" in why_legacy_leads(1, ("a", 0.5, 1.23456e-3), ("b", 0.5, 1.23456e-3), 0.1, 0.1)


def test_the_cnns_multiply_adds_split_into_convolutions_and_linear_layers():
    # t24_0304 #4: "most of its time in convolutions" was never measured; the page now prints the count
    cnn = models.ArticleCNN(seed=0)
    conv, linear, every = (macs(cnn, (1, 28, 28), kinds) for kinds in ((nn.Conv2d,), (nn.Linear,),
                                                                      (nn.Conv2d, nn.Linear)))
    assert conv + linear == every == macs(cnn, (1, 28, 28)) and conv > linear > 0
