"""Twenty-seventh reading, lessons 07 and 08 (t27_0708): figures worked from printed figures round half up,
int8's held-out loss is compared as printed, one base for compute a call, the model crossover's words, and
the guide's estimate names the timed step. Every figure here is fabricated, not one run's output."""

from types import SimpleNamespace

from utils.lessons.putting_it_together import guide
from utils.lessons.putting_it_together import report as capstone_report
from utils.lessons.tensor_parallel import cost, model_claims, pass_step


def test_int8_loss_is_compared_as_the_table_prints_it():
    # the unrounded pair differs by under 0.00005, the printed pair by 0.0001: the words follow the print
    assert capstone_report.serving_loss_words({"int8": 2.96774, "fp32": 2.96776}) == (
        "differs from fp32's by -0.0001 (as printed)")
    assert capstone_report.serving_loss_words({"int8": 2.96786, "fp32": 2.96784}) == (
        "differs from fp32's by +0.0001 (as printed)")
    # the other way round: unrounded figures that differ, printed figures that do not (2.9675 both)
    assert capstone_report.serving_loss_words({"int8": 2.96751, "fp32": 2.96749}) == (
        "is the same as fp32's to 4 decimals")
    assert "+0.0120" in capstone_report.serving_loss_words({"int8": 2.98, "fp32": 2.968})


def _got(one_ms: float, nbytes: int) -> dict:
    # a link fitted exactly at alpha 100 us and beta 1.00 GB/s; one width at ``one_ms`` on one device
    sizes = [1e3, 1e4, 1e5, 1e6]
    row = {"width": 64, "one": one_ms * 1e-3, "two": one_ms * 1e-3, "bytes": nbytes,
           "one_rounds": [one_ms * 1e-3] * 4, "two_rounds": [one_ms * 1e-3] * 4}
    big = {**row, "width": 512, "one": 20e-3, "one_rounds": [20e-3] * 4, "two_rounds": [12e-3] * 4}
    return {"sizes": sizes, "seconds": [100e-6 + n / 1e9 for n in sizes], "rows": [row, big]}


def test_model_speedup_rounds_a_tie_half_up():
    # 2 x (100 + 65,000 B / 1.00 GB/s) us = 0.33 ms; 0.94 / 2 + 0.33 = 0.80 ms; 0.94 / 0.80 = 1.175 -> 1.18x
    row = cost.analyse(_got(0.94, 65_000))["rows"][0]
    assert round(row["predicted"] * 1e3, 6) == 0.80
    assert row["predicted_speedup"] == 1.18
    assert f"{row['predicted_speedup']:.2f}" == "1.18"
    # and measured over model, as section 4 prints it: 0.37 / 1.18 = 0.3136 -> 0.31; a tie 0.59 / 1.18 = 0.5
    assert model_claims.measured_over_model({"speedup": 0.37, "predicted_speedup": 1.18}) == 0.31
    assert model_claims.measured_over_model({"speedup": 0.63, "predicted_speedup": 1.4}) == 0.45


def test_model_crossover_words_every_branch():
    widths = [32, 64, 128, 256, 512]
    assert model_claims.model_crossover_words((35.2, 20.0, 57.4), widths, 0.35) == (
        "35 (from 32 or below up to 57, with every all-reduce off by the fit's 35%)")
    assert model_claims.model_crossover_words((300.0, 250.0, None), widths, 0.3) == (
        "300 (from 250 to beyond the largest width swept (512), with every all-reduce off by the fit's 30%)")
    assert model_claims.model_crossover_words((30.0, 20.0, 31.0), widths, 0.1) == (
        "32 or below, with or without every all-reduce off by the fit's 10%")
    assert model_claims.model_crossover_words((None, None, None), widths, 0.1) == (
        "never (up to 512), with or without every all-reduce off by the fit's 10%")


def test_section_1_and_section_4_share_one_base_for_compute_a_call():
    # half one device's time over a rank's all-reduces, from the times as printed, half up to 0.1 ms
    assert round(cost.half_per_call(25.3e-3, 1, 4) * 1e3, 6) == 3.2   # 3.1625
    assert round(cost.half_per_call(22.78e-3, 2, 2) * 1e3, 6) == 5.7   # 5.695
    assert round(cost.half_per_call(0.6e-3, 1, 4) * 1e3, 6) == 0.1    # 0.075 -> 0.1, half up
    blocks = SimpleNamespace(depth=2, width=512)
    row = {"width": 512, "speedup": 1.30, "spread": 0.05, "one": 22.78e-3}
    text = pass_step.pass_beside_step(1.06, 0.12, cost.half_per_call(25.3e-3, 1, 4), blocks, row,
                                      pass_one=25.3e-3)
    assert "about 3.2 ms of compute in section 1 (25.3 ms / 2 / 4 calls) and about 5.7 ms here (22.78 ms" in text
    assert "in both, half one device's fastest time over a rank's all-reduces" in text and "a candidate" in text
    assert "not less in" in pass_step.pass_beside_step(1.06, 0.12, 8e-3, blocks, row)


def test_the_guides_estimate_names_the_timed_step_as_section_2_prints_it():
    # parts that print 0.1905 s: the estimate reads 190.5 ms, never 190 or 191
    profile = guide.Profile(parts={"load": 0.0087, "matmul": 0.1384, "memory-bound": 0.0434})
    seconds, words = guide._compute_seconds(None, 512, None, None, None, profile, profiled_tokens=1024)
    assert "the timed step's 190.5 ms (section 2's table) x 512 / 1,024 tokens" in words
    assert round(seconds * 1e3, 6) == 95.25
