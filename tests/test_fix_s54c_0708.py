"""Fourteenth reading, lessons 07 and 08 (t14_0708): the decode loss compared like for like (the exchange with
both ranks inside against section 4's price, the wait named apart), the int8 serving verdict and the MFU
judged and printed as the page prints them."""

from __future__ import annotations

import json
import math
import textwrap
from pathlib import Path

from utils.lessons.putting_it_together import ladder, report

ROOT = Path(__file__).resolve().parents[1]


def _cell(notebook: str, marker: str) -> str:
    nb = json.loads((ROOT / "notebooks" / notebook).read_text())
    return next("".join(c["source"]) for c in nb["cells"] if marker in "".join(c["source"]))


# lesson 08, item 1: int8 "0.96x ± 0.04" touches 1x as printed


def test_the_serving_verdict_is_judged_on_the_printed_median_and_spread():
    # the reader's run: a median of 0.9553 prints 0.96x; ± 0.04 reaches 1.00x: within noise, as printed
    assert report.serving_verdict(0.9553, 0.04) == "within noise: no effect shown"
    # the other outcome: 0.95x ± 0.04 reaches 0.99x only: slower
    assert report.serving_verdict(0.9549, 0.04) == "slower than fp32 compiled: no speed-up"
    assert report.serving_verdict(1.0651, 0.04) == "faster than fp32 compiled"   # 1.07 - 0.04 = 1.03
    assert report.serving_verdict(1.0449, 0.04) == "within noise: no effect shown"   # 1.04 - 0.04 = 1.00
    # no spread (under 4 rounds): a median printed 1.00x is no faster, whatever its unrounded side
    assert report.serving_verdict(0.9996, 0.0) == "no faster than fp32 compiled: no speed-up"


def test_the_serving_claim_row_carries_the_verdict_as_printed():
    serving = {"times": {"fp32": [1.0] * 4, "fp32 compiled": [1.0, 1.0, 1.0, 1.0],
                         "int8": [1.0 / 0.9553] * 4},
               "latency_s": {"fp32": 0.082, "fp32 compiled": 0.0824, "int8": 0.0852},
               "loss": {"fp32": 2.9678, "int8": 2.9677}, "bytes": {"fp32": 100, "int8": 27},
               "output_error": 0.0014, "tolerance": 0.05}
    gain, noise = report.serving_gain(serving)
    assert f"{gain:.2f}" == "0.96" and noise == 0.0
    assert report.serving_verdict(gain, 0.04) == "within noise: no effect shown"


def test_the_serving_cell_says_int8_paid_only_where_the_verdict_is_faster():
    cell = _cell("08_putting_it_together.ipynb", "SERVE = serve.serve_int8(")
    assert 'report.serving_verdict(gain, noise).startswith("faster")' in cell
    assert "gain - noise > 1" not in cell


# lesson 08, item 2: the kept step's MFU "39%" beside "39.5%"


def test_the_mfu_in_whole_percent_is_rounded_half_up_from_the_printed_tenth():
    assert report.mfu_text(0.39459) == "40%"   # prints 39.5% in the compile step's bound: 40%, not 39%
    assert report.mfu_text(0.39449) == "39%"   # 39.4%
    assert report.mfu_text(0.7351) == "74%"
    _, said = ladder.compile_bound(0.39459, "bf16")   # the bound's words print the same MFU to a tenth
    assert "which take 39.5% of the step's measured time" in said


def test_the_ledger_and_the_step_line_print_the_mfu_with_the_same_rule():
    row = {"step": "two devices", "kept": True, "mfu": 0.39459, "bound": 2.0, "x_prev": 1.51, "x_base": 2.28,
           "tokens_per_s": 8875.0, "peak": 63.3 * 2**20, "loss": 2.9678, "dloss": -0.0023, "tol": 0.03,
           "loss_ok": True, "same_maths": True}
    table = report.headline_table([row])
    assert table.rows[0][1] == "8,875 (40%)"
    row["mfu"] = math.nan
    assert report.headline_table([row]).rows[0][1] == "8,875"
    cell = _cell("08_putting_it_together.ipynb", "def run_step(name):")
    assert "(MFU {report.mfu_text(CLIMB.mfu[name])})" in cell and "CLIMB.mfu[name]:.0%" not in cell
