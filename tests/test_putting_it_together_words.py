"""Lesson 08's sentences on x baseline and the kept steps' product, each branch, from the figures printed."""
from utils.lessons.putting_it_together import report


def _rows(ratios_two=(1.24, 1.26, 1.30)):
    base = {"step": "baseline", "tokens_per_s": 4990.0, "x_base": 1.0, "kept": True, "ratios": [],
            "skipped": False}
    kept = {"step": "two devices", "tokens_per_s": 9369.0, "x_base": 1.97, "kept": True,
            "ratios": list(ratios_two), "skipped": False}
    return [base, kept]


def test_x_baseline_is_said_with_its_basis_beside_the_rows_tokens_ratio(monkeypatch):
    monkeypatch.setattr(report, "ran", lambda rows: rows)
    monkeypatch.setattr(report, "final", lambda rows: rows[-1])
    said = report.x_base_words(_rows())
    assert said.startswith("1.97x the baseline's speed by the product of the kept steps' paired ratios")
    assert "(1.88x as a ratio of the two rows' tokens/s)" in said


def test_the_products_verdict_gives_its_basis_in_both_outcomes(monkeypatch):
    monkeypatch.setattr(report, "ran", lambda rows: rows)
    assert "every round of every kept step was above 1x" in report.product_basis(_rows())
    said = report.product_basis(_rows((0.98, 1.26, 1.30)))
    assert "not every round did" in said and "two devices 1 of 3 (lowest 0.98x)" in said


def test_within_noise_prints_the_figures_the_keep_rule_reads():
    """Session 49's reader: "median 1.064x ± 0.061" read as kept (1.003 > 1); the rule reads two decimals."""
    from utils.lessons.putting_it_together import ladder

    said = ladder.within_noise([1.03, 1.06, 1.15])   # 1.06 - 0.06 = 1.00: not above 1x, every round above
    assert not ladder.paid([1.03, 1.06, 1.15])
    assert "median 1.06x ± 0.06, less the spread 1.00x, not above 1x; 3 of 3 rounds above 1x)" in said
    said = ladder.within_noise([1.30, 1.20, 0.99, 0.98])   # clear of 1x less the spread? no; half the rounds
    assert "not above 1x" in said and "2 of 4 rounds above 1x, not more than half" in said
    said = ladder.within_noise([1.30, 1.25, 0.99, 0.98, 1.28])   # the other branch's words (this one is kept)
    assert ladder.paid([1.30, 1.25, 0.99, 0.98, 1.28])
    assert "less the spread 1.10x, above 1x; 3 of 5 rounds above 1x)" in said


def test_a_compile_never_paying_back_says_so_plainly():
    from utils.lessons.putting_it_together import guide

    slower = guide.Profile({"step": 0.0695}, compile_s=13.5, compiled_step_s=0.0711, noise=0.0)
    why = guide.compile_step(slower, 5000).why
    assert "the compiled step (71.1 ms) was not faster than eager (69.5 ms): compile never pays back" in why
    faster = guide.Profile({"step": 0.0695}, compile_s=13.5, compiled_step_s=0.0595, noise=0.0)
    assert "= 1,350 steps" in guide.compile_step(faster, 5000).why


def _ledger(compile_kept=False, two_devices=True):
    rows = [{"step": "baseline", "x_prev": 1.0, "x_base": 1.0, "kept": True, "bound": None},
            {"step": "feeding", "skipped": "loading is 0.1% of a step"},
            {"step": "precision", "x_prev": 1.4712, "x_base": 1.47, "kept": True, "bound": 2.02}]
    if two_devices:
        rows.append({"step": "two devices", "x_prev": 1.49, "x_base": 1.47 * 1.49, "kept": True,
                     "bound": 2.0})
    chain = rows[-1]["x_base"] * (0.98 if compile_kept else 1.0)   # x baseline: the kept steps' product
    rows.append({"step": "compile", "x_prev": 0.98, "x_base": chain, "kept": compile_kept, "bound": None})
    return rows


def test_the_waterfalls_caption_ties_its_bars_to_the_tables_columns():
    """Session 50's reader: the waterfall stood above the table without a line saying what to read from it."""
    said = report.waterfall_caption(_ledger())
    assert "each bar is a step's x previous" in said and "the bound in that column's brackets" in said
    assert "precision 1.47x (line 2.02x), two devices 1.49x (line 2.00x), compile 0.98x (no bound" in said
    assert "multiply to the last x baseline: 1.47 x 1.49 = 2.19x" in said
    assert "the hatched bar (compile) not kept, adding nothing to it." in said
    one = report.waterfall_caption(_ledger(two_devices=False))
    assert "The solid bar, the one step kept, is the last x baseline, 1.47x" in one
    every = report.waterfall_caption(_ledger(compile_kept=True, two_devices=False))
    assert "hatched" not in every and "1.47 x 0.98 = 1.44x" in every
    none = [{"step": "baseline", "x_prev": 1.0, "x_base": 1.0, "kept": True, "bound": None},
            {"step": "precision", "x_prev": 0.97, "x_base": 1.0, "kept": False, "bound": 2.02}]
    assert "No bar is solid: no step was kept, and x baseline stays 1.00x" in report.waterfall_caption(none)
    assert "No step ran after the baseline" in report.waterfall_caption(none[:1])


def test_compiles_bound_says_plainly_what_it_counts_as_removable():
    """Session 50's reader: 2.57x beside a 0.98x compile; the bound now says what it counts."""
    from utils.lessons.putting_it_together import ladder

    bound, what = ladder.compile_bound(0.389, "bf16")
    assert round(bound, 2) == 2.57 and "at most 2.57x (one over that share)" in what
    assert "counts as removable everything in the kept step but its matmuls at the bf16 peak" in what
    assert "what regional compile leaves eager (the embedding, the loss, the optimizer" in what


def test_the_waterfall_is_shown_once_with_its_caption_under_it():
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "notebooks" / "08_putting_it_together.ipynb"
    code = ["".join(c["source"]) for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]
    cell = next(c for c in code if "report.plot_waterfall(" in c)
    assert cell.index("display(fig)") < cell.index("report.waterfall_caption(ROWS)")
    assert any("from IPython.display import display" in c for c in code)
