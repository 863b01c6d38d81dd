"""The fortieth reading of lessons 03 and 04 (t40_0304): a claim label that stated an outcome its verdict did not
show, one model's latency printed four ways with nothing setting them side by side, a roofline reason that told
compiled fp32 of weight bytes it does not save, and a code listing that never showed."""
import ast
from pathlib import Path

import nbformat

from utils.bench import Measurement
from utils.lessons.compression import roofline
from utils.lessons.compression.report import FOLD_CLAIM, baseline_again, speedup_claim
from utils.lessons.compression.train import linear_heavy_mlp

ROOT = Path(__file__).resolve().parents[1]
LESSON_04 = ROOT / "notebooks" / "04_compression.ipynb"


def _runs(median_ms: float, spread: float) -> Measurement:
    """Five runs whose median is ``median_ms`` and whose middle half spreads by about ``spread`` of it."""
    m, d = median_ms * 1e-3, median_ms * 1e-3 * spread / 2
    return Measurement([m - 2 * d, m - d, m, m + d, m + 2 * d], warmup=0)


def _cell(notebook: Path, words: str) -> str:
    return next(c.source for c in nbformat.read(notebook, 4).cells if c.cell_type == "code" and words in c.source)


def test_04_fold_claim_names_what_is_compared_not_an_outcome():
    """t40_0304 #1: "folding BN gains about BN's share of the time" beside "faster: 44% of the reference's gain"
    (1.04x ±3% against 1.09x). The label now states no outcome; the verdict carries it, whichever way it went."""
    assert "about" not in FOLD_CLAIM and "gains" not in FOLD_CLAIM
    short = speedup_claim(FOLD_CLAIM, 1.04, 1.09, 0.03, kind="reference", slower="slower than the unfolded model")
    assert short.claim == FOLD_CLAIM and short.verdict == "faster: 44% of the reference's gain"
    at = speedup_claim(FOLD_CLAIM, 1.08, 1.09, 0.03, kind="reference", slower="slower than the unfolded model")
    assert at.verdict == "at the reference (within noise)"
    source = _cell(LESSON_04, "bn_alone = Replay(")
    assert "speedup_claim(FOLD_CLAIM" in source and "gains about" not in source


def test_04_one_model_timed_in_several_rounds_is_set_side_by_side():
    """t40_0304 #2: the fp32 CNN printed 33.6, 34.9, 31.4 and 34.53 ms in four tables, 11% apart against
    spreads of up to 5%, with no line setting them side by side. Both branches, from the printed figures."""
    earlier = {"section 3, sparsity": _runs(33.6, 0.03), "section 3, channels": _runs(34.9, 0.04),
               "section 5": _runs(31.4, 0.05)}
    drifted = baseline_again("The fp32 CNN's median latency", earlier, _runs(34.53, 0.03))
    assert "33.6 ms (section 3, sparsity)" in drifted and "31.4 ms (section 5)" in drifted
    assert "34.53 ms (here)" in drifted and "4 sets of rounds" in drifted
    assert "11% above the fastest" in drifted  # 34.9 / 31.4 = 1.111, half up
    assert "beyond the largest spread of those runs (5%" in drifted and "another speed" in drifted
    steady = baseline_again("The fp32 MLP's median latency", {"section 4": _runs(10.3, 0.04)}, _runs(10.23, 0.04))
    assert "10.3 ms (section 4), 10.23 ms (here)" in steady
    assert "1% above the fastest" in steady and "within the largest spread" in steady and "timed again" in steady
    source = _cell(LESSON_04, "Timed again in this table's rounds")
    assert source.count("baseline_again(") == 2 and "how_measured(" in source and "say(" not in source


def test_04_compute_bound_reason_fits_the_row_bytes():
    """t40_0304 #3: compiled fp32 (4 bytes a weight -> 4) read "fewer weight bytes do not shorten the
    arithmetic". Not fewer now reads as such; int8 and int4 weight-only keep the old reason."""
    mlp = linear_heavy_mlp(1024, 3)
    rates = roofline.Rates(fp32_flops=100e9, int8_ops=400e9, bandwidth=25e9, shape=(256, 1024, 1024))
    same = roofline.int8_reference(mlp, 256, rates, weight_bytes=4, int8_compute=False)
    assert same.kind == "compute-bound" and "fewer weight bytes" not in same.why
    assert "4 bytes a weight -> 4 (no fewer)" in same.why
    more = roofline.int8_reference(mlp, 256, rates, weight_bytes=17, int8_compute=False)
    assert "4 bytes a weight -> 17 (no fewer)" in more.why
    fewer = roofline.int8_reference(mlp, 256, rates, weight_bytes=1, int8_compute=False)
    assert fewer.why.startswith("the matmul stays a float matmul: fewer weight bytes do not shorten")


def test_no_listing_is_lost_by_not_being_the_cells_last_value():
    """t40_0304 (lesson 03, cell 49): ``show_source(knobs.grad_copy_bytes)`` opened the cell, so its listing
    was never displayed (a value shows only when it is the cell's last). No notebook or lab does that now."""
    lost = []
    for notebook in sorted([*ROOT.glob("notebooks/*.ipynb"), *ROOT.glob("labs/*.ipynb")]):
        for k, cell in enumerate(nbformat.read(notebook, 4).cells):
            if cell.cell_type != "code":
                continue
            try:
                body = ast.parse("\n".join(l for l in cell.source.splitlines() if not l.lstrip().startswith(("%", "!"))))
            except SyntaxError:
                continue
            lost += [f"{notebook.name} cell {k}" for st in body.body[:-1] if isinstance(st, ast.Expr)
                     and isinstance(st.value, ast.Call) and getattr(st.value.func, "id", "") == "show_source"]
    assert not lost, lost


def test_04_quantization_intro_keeps_its_core_visible_and_the_rest_collapsed():
    """t39/t40_0304: section 4's opening markdown ran to 437 words. Each visible paragraph is now under 150
    words; the rest sits in a <details> block one click away, and torchao / torch.ao are told apart."""
    intro = next(c.source for c in nbformat.read(LESSON_04, 4).cells
                 if c.cell_type == "markdown" and c.source.startswith("## 4 · Quantization"))
    visible, collapsed = intro.split("<details>")
    assert all(len(p.split()) < 150 for p in visible.split("\n\n"))
    assert "Mind the dot" in visible and "STREAM" in collapsed and "</details>" in collapsed
