"""Lesson 08: every figure worked from others is worked from its operands as printed (session 51's reader),
so that a reader who redoes the division from the page finds the printed figure."""
import dataclasses

import pytest

from utils import claims
from utils.lessons.putting_it_together import ladder, script


def _compared(name: str, before_s: float, ratios: list[float], workers: int = 1, first_step_s: float = 0.2):
    """A step whose paired rounds gave ``ratios`` over a kept step of ``before_s`` seconds."""
    kept = ladder.Rung("baseline", script.Settings(batch_per_worker=16, context=64), 1, None, "")
    rung = ladder.Rung(name, kept.settings.scaled(compile=name == "compile"), workers, float(workers), "")
    run = {"cpu_s": 1.0, "timed_s": 1.0, "final_loss": 2.9, "wall_s": 1.0}
    before = [dict(run, tokens_per_s=1024 / before_s) for _ in ratios]
    after = [dict(run, tokens_per_s=1024 / before_s * r, first_step_s=first_step_s) for r in ratios]
    return ladder.Compared(rung, kept, before, after)


def test_compile_s_bound_is_one_over_the_share_as_printed():
    """Reader: "34.9% ... at most 2.86x", but 1/0.349 = 2.865, which prints as 2.87."""
    bound, what = ladder.compile_bound(0.34904, "bf16")
    assert f"{bound:.2f}" == "2.87" and "take 34.9% of the step's" in what and "at most 2.87x" in what
    assert "the other 65.1%" in what
    bound, what = ladder.compile_bound(0.5, "fp32")   # a share that prints exactly: 2.00x
    assert bound == 2.0 and "at most 2.00x" in what


def test_precision_s_bound_is_amdahl_of_the_share_and_ratio_as_printed():
    """86% printed beside 2.41x gave a bound of 2.02x from the unrounded 86.3%; the share now prints 86.3%."""
    steps = {"precision": type("S", (), {"applies": True, "choice": "bf16 autocast", "why": ""})()}
    kept = ladder.Rung("baseline", script.Settings(), 1, None, "")
    rung = ladder.next_rung("precision", kept, steps, {"fp32": 1.0, "bf16": 2.1}, 1.0, 96,
                            matmul_share=0.8634, matmul_speedup=2.4083)
    assert "matmuls 86.3% of a step, 2.41x faster" in rung.bound_what
    assert rung.bound == pytest.approx(1 / ((1 - 0.863) + 0.863 / 2.41))


def test_the_two_devices_gap_is_worked_from_the_printed_ms_and_gain():
    """Reader: 199.3 ms over the printed 1.49x is 133.8 ms, not 133.4 (from the unrounded 1.494x)."""
    c = _compared("two devices", 0.19932, [1.4941, 1.4941, 1.4941], workers=2)
    said = ladder.two_devices_gap(c, 4.0e9, 1.6e6, simulated=False)   # 2 x 1/2 x 4 B x 1.6 M / 4 GB/s: 1.6 ms
    ideal = claims.half_up(199.3 / 2, 1)
    gap = claims.half_up(133.8 - ideal, 1)
    assert "the steps before it, 199.3 ms (their median in the same rounds), over the paired gain, 1.49x, " \
        "give 133.8 ms a step" in said
    assert f"against {ideal:.1f} ms at the bound" in said and f"{gap:.1f} ms a step the bound" in said
    assert f"That estimate is {1.6 / gap:.0%} of the gap" in said
    # the other branch: a floor larger than the gap as printed
    assert "could explain all of the gap" in ladder.two_devices_gap(c, 0.1e9, 1.6e6, simulated=False)


def test_the_step_time_beside_a_gain_is_worded_as_worked_not_as_timed():
    """Ninth reading, lesson 08 cell 24: "a step took 110.5 ms" (167.9 / 1.52) stood beside its runs' median
    9,302 tokens/s, which is 110.1 ms a step: the figure is worked from the printed ones, and says so."""
    c = _compared("two devices", 0.1679, [1.52] * 3, workers=2)
    said = ladder.two_devices_gap(c, 4.0e9, 1.6e6, simulated=False)
    assert "the steps before it, 167.9 ms (their median in the same rounds), over the paired gain, 1.52x, " \
        "give 110.5 ms a step (a paired figure: its runs' median tokens/s, timed apart, can give " \
        "another)" in said
    assert "took" not in said and "84.0 ms at the bound" in said and "26.5 ms a step the bound" in said
    # compile's reason, worked the same way (108.9 / 0.98 = 111.12 -> 111.1)
    slow = ladder.why_slower(_compared("compile", 0.1089, [0.98] * 3))
    assert slow == ("the steps before it, 108.9 ms (their median in the same rounds), over the paired rounds' "
                    "median gain, 0.98x, give 111.1 ms a step") and "took" not in slow


def test_the_two_devices_bound_rounds_a_half_up_as_a_reader_does():
    """Reader (eighth): 172.7 / 2 = 86.35 is 86.4 by hand (round gave 86.3), so the gap is
    110.7 - 86.4 = 24.3."""
    c = _compared("two devices", 0.1727, [1.56] * 3, workers=2)
    said = ladder.two_devices_gap(c, 4.0e9, 1.6e6, simulated=False)
    assert "the steps before it, 172.7 ms (their median in the same rounds), over the paired gain, 1.56x, " \
        "give 110.7 ms a step" in said
    assert "against 86.4 ms at the bound (1/2 of those 172.7 ms): 24.3 ms a step the bound" in said
    assert "That estimate is 7% of the gap" in said   # 1.6 / 24.3 = 6.6%
    # the other outcome: a half that does not tie (172.8 / 2 = 86.4), the same words from its own figures
    other = ladder.two_devices_gap(_compared("two devices", 0.1728, [1.56] * 3, workers=2), 4e9, 1.6e6, False)
    assert "give 110.8 ms a step" in other and "against 86.4 ms at the bound" in other
    assert "24.4 ms a step" in other
    # the floor's share of the gap rounds half up too: 3.0 / 24.0 = 12.5% prints 13% (":.0%" gave 12%)
    tie = ladder.two_devices_gap(_compared("two devices", 0.1702, [1.56] * 3, workers=2), 2.0e9, 1.5e6, False)
    assert "24.0 ms a step" in tie and "priced, 3 ms" in tie and "That estimate is 13% of the gap" in tie


def test_a_slower_step_s_ms_is_the_printed_ms_over_the_printed_gain():
    c = _compared("memory", 0.2004, [0.8449, 0.8449, 0.8449])   # 200 ms / 0.84 = 238 ms (not 237, from 0.845)
    assert ladder.why_slower(c).startswith("the steps before it, 200.4 ms (their median in the same rounds), "
                                           "over the paired rounds' median gain, 0.84x, give 238.6 ms a step")


def test_why_slower_prints_the_eager_median_as_compile_s_break_even_does():
    """Tenth reading, lesson 08 cell 28: "the steps before it, 112 ms" beside compile's "eager (112.5 ms": one
    median printed twice, and 112.5 does not round to 112. Both now print it to 0.1 ms, and the worked step
    beside it is the same figure (112.5 / 0.96 = 117.19 -> 117.2) in both clauses."""
    c = _compared("compile", 0.11246, [0.9551, 0.93, 0.99, 0.96], first_step_s=16.8)
    slow, even = ladder.why_slower(c), ladder.compile_break_even(c, 5000)
    assert "the steps before it, 112.5 ms" in slow and "give 117.2 ms a step" in slow and "112 ms" not in slow
    assert "eager (112.5 ms" in even and "the compiled step (117.2 ms" in even


def test_a_step_is_called_slower_only_where_the_claims_table_says_so():
    """Tenth reading, lesson 08: compile printed 0.96x ± 0.04, whose upper edge 1.00x is not below 1x, and the
    claims table read "within noise: not kept"; but the ladder judged the unrounded 0.955 + 0.04 < 1 and gave
    ``why_slower``'s reason. Now both read the figures as printed: the reason is the claims table's verdict."""
    from utils.lessons.putting_it_together import report

    climb = ladder.Climb(_compared("compile", 0.1, [1.0]).kept, {}, {}, 1.0, 96, run_steps=5000)
    cases = {"within noise": [0.90, 0.92, 0.9551, 1.00, 1.02],   # 0.96x ± 0.04: reaches 1.00x
             "slower": [0.80, 0.82, 0.79, 0.81]}   # 0.81x ± 0.01: below 1x on the page
    for expected, ratios in cases.items():
        for name in ("compile", "precision", "feeding"):
            c = _compared(name, 0.1, ratios)
            kept, why = climb.verdict(c)
            row = {"kept": kept, "paid": ladder.paid(ratios)}
            table = report.step_verdict(claims.against_speedup("", c.gain, 2.0, claims.printed_spread(ratios),
                                                               slower="slower than the step before").verdict,
                                        row)
            assert not kept and ladder.shown_slower(c) == (expected == "slower")
            if expected == "slower":
                assert table.startswith("slower") and why.startswith("the steps before it")
            else:
                assert table == "within noise: not kept" and why.startswith("within noise (paired rounds")
                assert "casts autocast adds" not in why and "handing a batch" not in why


def test_compile_s_payback_divides_the_printed_eager_ms_by_the_printed_gain():
    """Reader: "the compiled step (134.7 ms, the eager one over the paired gain)" beside 132.1 ms, 0.98x."""
    never = ladder.compile_break_even(_compared("compile", 0.13210, [0.9807] * 3, first_step_s=16.8), 5000)
    assert "the compiled step (134.8 ms" in never and "eager (132.1 ms" in never
    assert "never pays back" in never
    within = ladder.compile_break_even(_compared("compile", 0.13210, [1.03, 0.98, 1.01], first_step_s=16.8))
    assert "the compiled step (130.8 ms" in within and "no break-even is worked from it" in within


def test_the_rows_tokens_ratio_and_int8_s_bytes_are_worked_from_the_printed_figures():
    from utils.lessons.putting_it_together import report

    rows = [{"step": "baseline", "tokens_per_s": 3864.4, "kept": True},
            {"step": "two devices", "tokens_per_s": 8429.5, "kept": True}]
    assert report.tokens_ratio(rows) == 8430 / 3864   # the two whole tokens/s the ledger prints
    serving = {"bytes": {"int8": 100.4 * 2**10, "fp32": 300.6 * 2**10}}   # printed 100 and 301 KiB
    assert report.bytes_share(serving) == 100 / 301
    claim = report.bytes_claim(serving)
    assert claim.measured == f"{100 / 301:.2f}x" and f"{100 / 301:.0%} of fp32's bytes" in claim.verdict


def test_the_spread_is_half_the_printed_rounds_range_rounded_half_up():
    """Fifth reader: rounds printed 1.49x, 1.47x, 1.46x beside "1.47x ± 0.01"; (1.49 - 1.46)/2 = 0.015 prints
    0.02 half-up and half-even. The spread was taken from the unrounded ratios (0.0149...)."""
    assert claims.printed_spread([1.4912, 1.4711, 1.4613]) == 0.02    # printed 1.49, 1.47, 1.46
    assert claims.printed_spread([1.4849, 1.4711, 1.4651]) == 0.01    # printed 1.48, 1.47, 1.47: 0.005 -> 0.01
    assert claims.printed_spread([1.47, 1.47, 1.47]) == 0.0 and claims.printed_spread([1.5]) == 0.0
    assert claims.printed_spread([1.00, 1.07, 0.98, 1.03]) == 0.02    # 4 rounds: half the middle half, (1.03 - 1.00)/2
    c = _compared("precision", 0.25, [1.4912, 1.4711, 1.4613])
    assert "median 1.47x ± 0.02" in ladder.within_noise(c.ratios)


def test_int8_s_spread_is_worked_from_the_printed_ratios_too():
    """int8's "± 0.06" is the training steps' spread: the middle half of the ratios as printed."""
    from utils.lessons.putting_it_together import report

    times = {"fp32 compiled": [1.0, 1.4649, 1.4851, 2.0], "int8": [1.0] * 4}   # printed 1.46x and 1.49x
    gain, noise = report.serving_gain({"times": times}, "fp32 compiled")
    assert noise == 0.02   # (1.49 - 1.46)/2 = 0.015 half-up; the unrounded (1.4851 - 1.4649)/2 = 0.0101 gave 0.01
