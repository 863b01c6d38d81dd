"""Forty-first reading, lessons 07 and 08: the ledger's MFU and whole bound read as what they are, the profile's
overhead named."""

from utils.lessons.putting_it_together import mfu_words, profile_words, report

PEAKS = {"fp32": 174.7e9, "bf16": 1124.1e9}


def _row(step, x_prev, bound, mfu, precision="bf16", workers=1, tokens=1000.0, x_base=1.0, kept=True):
    return {"step": step, "x_prev": x_prev, "bound": bound, "mfu": mfu, "precision": precision,
            "workers": workers, "tokens_per_s": tokens, "x_base": x_base, "kept": kept, "paid": kept,
            "noise": 0.05, "same_maths": False, "why": "", "ratios": [x_prev] * 3, "within": True}


def _ledger():
    """t41's ledger: the MFU falls from 58.3% to 9.5% while every kept step pays."""
    return [_row("baseline", 1.0, None, 0.5834, "fp32", tokens=5125.0),
            _row("precision", 1.53, 2.55, 0.141, tokens=7966.0, x_base=1.53),
            _row("optimizer", 1.11, 1.13, 0.140, tokens=7920.0, x_base=1.70),
            _row("two devices", 1.35, 2.00, 0.0952, workers=2, tokens=10790.0, x_base=2.29),
            _row("compile", 1.06, 10.53, 0.103, workers=2, tokens=11628.0, kept=False)]


def test_the_mfu_fall_is_said_as_its_denominator_rising_more_than_the_speed():
    said = mfu_words.mfu_change(_ledger(), PEAKS)
    assert said.startswith("MFU fell from 58.3% (baseline) to 9.5% (two devices) while tokens/s went 2.11x")
    assert "not the run getting worse" in said and "went 12.87x (from 174.7 GFLOP/s" in said
    assert "to 2,248.2, bf16 on 2" in said
    # the other branch: one denominator throughout, MFU moves with the speed
    same = [_row("baseline", 1.0, None, 0.30, tokens=1000.0), _row("optimizer", 1.2, 1.3, 0.36, tokens=1200.0)]
    said = mfu_words.mfu_change(same, PEAKS)
    assert "MFU rose from 30.0%" in said and "did not change, so MFU moved with the speed" in said


def test_the_whole_ledger_bound_is_named_and_set_beside_the_steps_own_bounds():
    serving = {"latency_s": {"fp32": 1.0, "int8": 0.99}, "times": {"fp32": [1.0] * 4, "int8": [1.0] * 4},
               "loss": {"fp32": 2.9, "int8": 2.9}, "bytes": {"fp32": 4, "int8": 1}}
    total = next(c for c in report.claim_rows(_ledger(), serving) if c.claim == "kept steps: x baseline")
    assert total.against == "bound 24.11x (100 % MFU: a loose ceiling)"
    assert total.verdict.endswith("of their own bounds' gains the kept steps reached precision 34%, "
                                  "optimizer 85%, two devices 35%")


def test_the_profiled_step_names_the_profiler_overhead_it_did_not_show():
    shares = {"load": 0.0003, "matmul": 0.1378, "memory-bound": 0.0476, "Python & dispatch": 0.0112}
    said = profile_words.profiled_against_timed(0.1827, shares)
    assert "own recording did not show" not in said
    assert "recording every op (the profiler's overhead) added no time that shows" in said
