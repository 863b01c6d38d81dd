"""Lesson 05 (eighteenth reading, t18_0506 new 1): signed percents are printed half up, away from zero at .5,
as a reader rounds: cell 45's residual (0.280 - 0.343) / 0.280 = -22.5% prints -23%, not the -22% of
Python's ``:+.0%`` (half to even on the float -0.22499...), in the table, the fit's reading and the sweep's."""

from __future__ import annotations

import json
from pathlib import Path

from utils.lessons.data_prefetch import transfer


def test_signed_percent_rounds_half_up_away_from_zero():
    seen = transfer.residual(0.280e-3, 0.343e-3)   # the run's row: 1,048,576 bytes, 0.280 against 0.343 ms
    assert f"{seen:+.0%}" == "-22%"                  # what the page printed
    assert transfer.signed_percent(seen) == "-23%"    # what the reader's division gives
    assert transfer.signed_percent(0.225) == "+23%"   # the positive side, as claims.percent rounds
    assert transfer.signed_percent(-0.2249) == "-22%" and transfer.signed_percent(0.2749) == "+27%"
    assert transfer.signed_percent(-0.004) == "0%"   # no "-0%", no "+0%"
    assert transfer.printed_percent(seen) == -23.0


def test_fit_reading_prints_the_run_residuals_half_up_on_both_sides_of_the_threshold():
    sweep = {2**16: 0.27, 2**18: -0.13, 2**20: transfer.residual(0.280e-3, 0.343e-3), 2**22: 0.09}
    loose = transfer.fit_reading(sweep, 4.0)
    assert "by -23% to +27% of their measured times (the details above): more than 10%" in loose and "-22%" not in loose
    # the threshold is judged on the residuals as printed: -10.5% prints -11%, past 10%; -10.4% prints -10%
    edge = transfer.fit_reading({2**16: -0.105, 2**20: 0.02}, 4.0)
    assert "by -11% to +2%" in edge and "more than 10%" in edge
    inside = transfer.fit_reading({2**16: -0.104, 2**20: 0.02}, 4.0)
    assert "by -10% to +2%" in inside and "within 10%" in inside
    assert transfer.is_loose({1: -0.105}) and not transfer.is_loose({1: -0.104})


def test_sweep_reading_prints_residuals_half_up_and_works_its_reach_from_them():
    seen = transfer.residual(0.280e-3, 0.343e-3)
    sweep = {2**16: 0.265, 2**20: seen}   # +27% and -23% as printed
    c = transfer.Compression(4, 1, float_link=[4.60] * 3, uint8_link=[1.0] * 3, convert=[1.0] * 3)
    note = transfer.link_only_note(c, 0.225, seen, sweep, 4.00)
    assert "the float32 batch sat +23% of its measured time from the fit, the uint8 batch -23% of its own" in note
    # reach from the residuals as printed: (1 + 0.23) / (1 - 0.27) = 1.68, past 4.60 / 4.00 = 1.15
    assert "from -23% to +27%" in note and "up to 1.68 times" in note and "only that loosely" in note
    # the other branch: a scatter that cannot reach the factor, still printed half up
    narrow = transfer.link_only_note(c, -0.025, 0.015, {2**16: -0.025, 2**20: 0.045}, 4.00)
    assert "the float32 batch sat -3% of its measured time from the fit, the uint8 batch +2% of its own" in narrow
    assert "from -3% to +5%" in narrow and "up to 1.08 times" in narrow
    assert "stands out from the sweep's scatter" in narrow


def test_lesson_05_prints_its_signed_percents_through_signed_percent():
    path = Path(__file__).resolve().parents[1] / "notebooks" / "05_data_prefetch.ipynb"
    code = ["".join(c["source"]) for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]
    assert not any(":+.0%}" in source for source in code)
    assert sum("signed_percent(off_fit[n])" in source for source in code) == 1
    assert any("{signed_percent(gap)}" in source for source in code)
