"""Lesson 08, the twentieth reading (t20_0708): the MFU a reader works from the printed operands (the step's
GFLOP to 4 figures over its 16 x 64 tokens, the tokens/s whole, the peak to 0.1 GFLOP/s) is the MFU printed;
the model's printed vocabulary is the corpus's, the one its FLOPs count; the waterfall's caption names the
black line the chart draws at each bound."""
import random

import matplotlib.pyplot as plt

from utils.lessons.putting_it_together import ladder, plan, report, script
from utils.lessons.putting_it_together.report import mfu_text
from tests.test_putting_it_together_words import _ledger

STEP_FLOPS = 20_363_870_208   # c10's "20.36 GFLOP": 4 blocks of width 256, vocabulary 95, 16 x 64 tokens


def test_the_mfu_follows_from_its_printed_operands():
    # the reader's run: 20.36 x 3,850 / 1,024 = 76.55 GFLOP/s over 102.0 is 75.0%, not the 75.1% printed before
    assert mfu_text(ladder.printed_mfu(3850.4, STEP_FLOPS, 1024, 102.04e9, 1)) == "75.0%"
    # two devices: 20.36 x 9,327 / 1,024 = 185.45 GFLOP/s over 2 x 223.2 = 446.4 is 41.5%
    assert mfu_text(ladder.printed_mfu(9326.8, STEP_FLOPS, 1024, 223.21e9, 2)) == "41.5%"


def test_any_run_s_mfu_is_the_readers_division():
    rng = random.Random(56)
    for _ in range(500):
        tokens_s, flops = rng.uniform(500, 20_000), rng.uniform(1e9, 5e12)
        peak, workers, step_tokens = rng.uniform(50e9, 500e12), rng.choice((1, 2)), rng.choice((1024, 8192))
        printed = (f"{tokens_s:,.0f}", f"{flops / 1e9:.4g}", f"{peak / 1e9:.1f}")   # as the page prints them
        ops = [float(x.replace(",", "")) for x in printed]
        reader = ops[0] * ops[1] / step_tokens / (ops[2] * workers)
        assert mfu_text(ladder.printed_mfu(tokens_s, flops, step_tokens, peak, workers)) == mfu_text(reader)


def test_the_climb_measures_its_mfu_from_the_printed_figures():
    base = ladder.Rung("baseline", script.Settings(width=256, depth=4, context=64, batch_per_worker=16), 1, None, "")
    climb = ladder.Climb(base, {}, {"fp32": 102.04e9, "bf16": 223.21e9}, 1.0, 95, held_out={"baseline": 1.0})
    assert ladder.flops_per_token(base.settings, 95) * 1024 == STEP_FLOPS
    climb.measure("baseline", base, [{"tokens_per_s": 3850.4}])
    assert mfu_text(climb.mfu["baseline"]) == "75.0%"


def test_the_printed_shape_counts_the_corpus_s_vocabulary():
    from utils import devices

    S = plan.lesson_settings(devices.plan(2), None, devices.cpu_features())
    assert S.shape.vocab == ladder.vocab_of(S.training)   # the model is built with the corpus's characters
    assert f"vocabulary {ladder.vocab_of(S.training)}," in S.shape.describe()


def test_the_caption_names_the_black_line_the_chart_draws():
    rows = _ledger()
    said = report.waterfall_caption(rows)
    assert "its black line the bound in that column's brackets" in said and "tick" not in said
    assert "precision 1.47x (line 2.02x)" in said and "compile 0.98x (no bound, no line;" in said
    fig = report.plot_waterfall(rows)
    try:   # the bound: a thick black line wider than its bar (0.6), as the legend's "its bound"
        lines = [ln for ln in fig.axes[0].get_lines() if list(ln.get_ydata()) == [2.02, 2.02]]
        assert len(lines) == 1 and lines[0].get_color() == "black"
        low, high = lines[0].get_xdata()
        assert high - low > 0.6
    finally:
        plt.close(fig)
