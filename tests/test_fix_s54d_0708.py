"""Fifteenth reading (t15_0708): lesson 07's tolerance judged in printed ms, its batch trend judged on the
± ranges, its cost figure's left panel labelled for what it draws, and lesson 08's MFU rounded once."""

from __future__ import annotations

import math

from utils.lessons.putting_it_together import ladder
from utils.lessons.putting_it_together import report as report08
from utils.lessons.tensor_parallel import inference, report, verdicts


def _rank(compute: float, waited: float) -> dict:
    inside = waited + 0.0017
    return {"step": compute + inside, "allreduce": inside, "compute": compute,
            "thread_cpu": compute + inside, "other_threads_cpu": 0.00103, "waited": waited,
            "after_both": inside - waited, "after_other": 0.0}


# lesson 07, item 2: 1.08 ms over 20.96 ms (5.15 %) was called within the 5 % tolerance


def test_the_gap_is_judged_against_the_tolerance_in_printed_ms():
    # the reader's run: rank 1 waited; rank 0 computed 22.04 ms against rank 1's 20.96 ms
    r = verdicts.wait_reading([_rank(0.02204, 0.0), _rank(0.02096, 0.00113)], 1)
    assert r["gap"] == 1.08 and r["allowed"] == 1.05 and r["beyond"] and r["late"]
    words = verdicts.wait_words(r)
    assert ("rank 0 computed 1.08 ms longer than rank 1 (beyond the lesson's 5 % timing tolerance: "
            "5 % of rank 1's 20.96 ms is 1.05 ms)") in words
    assert "within" not in words
    # the other outcome: a gap at the tolerance as printed is within it, and under half the wait is not late
    r = verdicts.wait_reading([_rank(0.02201, 0.0), _rank(0.02096, 0.00300)], 1)
    assert r["gap"] == 1.05 and not r["beyond"] and not r["late"]
    words = verdicts.wait_words(r)
    assert "(within the lesson's 5 % timing tolerance: 5 % of rank 1's 20.96 ms is 1.05 ms)" in words
    assert words.endswith("so this run does not show rank 0's compute as the wait's cause")


# lesson 07, item 3: 0.37x ± 0.18 and 0.56x ± 0.08 overlap, yet "rose ... beyond the rounds' spread"


def _rows(xs, spreads):
    return [{"batch": b, "one device": 1.0, "tensor parallel": 1.0 / x, "pipeline": 1.0 / x,
             "spread": {"one device": n, "tensor parallel": n, "pipeline": n}}
            for b, x, n in zip((1, 4, 16), xs, spreads)]


def test_a_step_up_is_beyond_the_spread_only_where_the_ranges_do_not_touch():
    assert inference.printed_noise(0.37, 0.49) == 0.18 and inference.printed_noise(0.56, 0.15) == 0.08
    assert not inference.rose_apart(0.37, 0.49, 0.56, 0.15)   # 0.55 reaches past 0.48
    assert inference.rose_apart(0.56, 0.15, 0.98, 0.10)       # 0.64 below 0.88
    trend = inference.batch_trend(_rows((0.37, 0.56, 0.98), (0.49, 0.15, 0.10)), 1, ("tensor parallel",))
    assert "rose with every larger batch, beyond the rounds' spread" not in trend
    assert "rose from batch 1 to batch 16 beyond the rounds' spread (0.37x to 0.98x)" in trend
    assert "the step from batch 1 to 4 lies within that spread" in trend
    # the other outcomes: every range apart; and no range apart end to end
    apart = inference.batch_trend(_rows((0.30, 0.56, 0.98), (0.10, 0.10, 0.10)), 1, ("tensor parallel",))
    assert "rose with every larger batch, beyond the rounds' spread: it lost less" in apart
    flat = inference.batch_trend(_rows((0.37, 0.45, 0.50), (0.49, 0.15, 0.10)), 1, ("tensor parallel",))
    assert "within noise, no trend shown" in flat and "lost less" not in flat


# lesson 07, item 4: the left panel drew each width's fastest round under "measured"


def test_the_cost_plots_left_panel_says_it_draws_the_fastest_round():
    rows = [dict(width=w, one=w * 1e-6, two=w * 6e-7, predicted=w * 5.5e-7, speedup=1.6,
                 predicted_speedup=1.8, spread=0.1) for w in (64, 128, 256)]
    fig = report.plot_cost({"rows": rows}, 2.0, "", True)
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert "1 device, fastest round" in labels and "2 devices, fastest round" in labels
    assert "speed-ups: right panel (paired rounds)" in labels
    assert not any(label.endswith(", measured") for label in labels)


# lesson 08, item 1: 0.56477 printed "57%" (0.565 rounded again)


def test_the_mfu_is_rounded_once_and_agrees_with_the_compile_bound():
    assert report08.mfu_text(0.56477) == "56.5%"
    assert report08.mfu_text(0.5644) == "56.4%"
    _, said = ladder.compile_bound(0.56477, "bf16")
    assert f"which take {report08.mfu_text(0.56477)} of the step's measured time" in said
    row = {"step": "two devices", "kept": True, "mfu": 0.56477, "bound": 2.0, "x_prev": 1.51, "x_base": 2.28,
           "tokens_per_s": 6060.0, "peak": 63.3 * 2**20, "loss": 2.9678, "dloss": -0.0023, "tol": 0.03,
           "loss_ok": True, "same_maths": True}
    assert report08.headline_table([row]).rows[0][1] == "6,060 (56.5%)"
    assert "/ 0.565 =" in report08.total_bound_formula([row])
    row["mfu"] = math.nan
    assert report08.headline_table([row]).rows[0][1] == "6,060"
