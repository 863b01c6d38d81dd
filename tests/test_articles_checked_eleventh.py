"""Lesson 09, the eleventh reading (t11_09): B12's zeroed weights are read by the 2% floor on both sides of the
dense time (1.01x is noise, as 0.99x is); the passes' line gives each list of rounds its own bound; make bench's
decode prints its bound and the course's verdict beside its speed."""

from __future__ import annotations

import json
from pathlib import Path

from test_articles_checked import _figures
from test_articles_checked_as_printed import _compressed

from utils.lessons.articles_checked import claims, summary_rows, timed_rows, verdicts

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "09_articles_checked.ipynb"


def _zeroed(zeroed_ms: float, dense_ms: float = 5.33) -> dict:
    return {"prune": {"dense": dense_ms * 1e-3, "zeroed": zeroed_ms * 1e-3, "removed": 2.62e-3}, "csr": 0.25}


def _b12(m: dict) -> str:
    return verdicts.judge(claims.BY_ID["B12"], m, {}).evidence


def _paired(zeroed_ms: float, dense_ms: float = 5.33) -> dict:
    """As ``_zeroed``, with five paired rounds around the ratio, ± 0.01 (what pruning_costs keeps since t26)."""
    m, r = _zeroed(zeroed_ms, dense_ms), zeroed_ms / dense_ms
    m["prune"]["zeroed_rounds"] = [r - 0.02, r - 0.01, r, r + 0.01, r + 0.02]
    return m


def test_zeroed_weights_within_the_floor_on_both_sides_are_noise_not_slower():
    # two fastest times only (no rounds): 5.36 ms against 5.33 ms prints 1.01x, within the 2% floor: noise
    m = _figures() | _zeroed(5.36)
    words, said = summary_rows.zeroed_unpaid(m)
    assert said.startswith("within noise of the dense layer"), said
    assert "1.01x the dense time (two fastest times, no paired rounds) (within noise of the dense layer" in words, words
    assert "slower" not in words
    assert ("5.36 ms, 1.01x the dense time (the same time, no gain and no loss: within the 2% noise floor "
            "for two fastest times") in _b12(m)
    # 1.02x ties the floor as printed: still noise; 1.00x too
    for ms, ratio in ((5.44, "1.02x"), (5.33, "1.00x")):
        tie = _figures() | _zeroed(ms)
        assert summary_rows.zeroed_unpaid(tie)[1].startswith("within noise"), ms
        assert (f"{ratio} the dense time (the same time, no gain and no loss: within the 2% noise "
                "floor") in _b12(tie), _b12(tie)
    # beyond the floor either way, two fastest times decide nothing (t26 #1): B12's check is inconclusive
    for ms in (5.49, 5.17):
        unpaired = _figures() | _zeroed(ms)
        assert summary_rows.zeroed_unpaid(unpaired) is None
        assert "not paired rounds: beyond the 2% noise floor, but it decides nothing" in _b12(unpaired)
        assert verdicts.judge(claims.BY_ID["B12"], unpaired, {}).check == verdicts.NOISY
    # with paired rounds, 1.03x ± 0.01 is slower beyond the spread: B12's check agrees (cost as much or more)
    slower = _figures() | _paired(5.49)
    words, said = summary_rows.zeroed_unpaid(slower)
    assert said.startswith("slower than the dense layer, beyond the noise"), said
    assert "1.03x ± 0.01 the dense time in 5 paired rounds (slower" in _b12(slower), _b12(slower)
    assert verdicts.judge(claims.BY_ID["B12"], slower, {}).check == verdicts.AGREES
    # 0.97x ± 0.01 is faster beyond the spread: B12 disagrees, B18 leaves it out of the cures that failed
    faster = _figures() | _paired(5.17)
    assert summary_rows.zeroed_unpaid(faster) is None
    assert "0.97x ± 0.01 the dense time in 5 paired rounds (faster" in _b12(faster)
    assert verdicts.judge(claims.BY_ID["B12"], faster, {}).check == verdicts.DISAGREES


def test_b18_counts_noise_as_no_gain_and_slower_as_did_not_pay():
    paid = {"compressed": _compressed(1900, 200)}  # compression paid: only the zeroed weights named
    noise = verdicts.EVIDENCE["B18"](_figures() | paid | _zeroed(5.36))[0].render()
    assert ("in this run one cure showed no gain: (1) B12's zeroed connections, 1.01x the dense time (two fastest "
            "times, no paired rounds) (within noise of the dense layer") in noise, noise
    slower = verdicts.EVIDENCE["B18"](_figures() | paid | _paired(5.60))[0].render()
    assert ("in this run one cure did not pay: (1) B12's zeroed connections, 1.05x ± 0.01 the dense time in paired "
            "rounds (slower than the dense layer, beyond the noise") in slower, slower


PASSES = {"bound": 2.0, "article split rounds": [0.88, 0.91, 0.93], "tensor parallel rounds": [1.03, 0.95, 1.10]}


def test_the_passes_line_gives_each_list_its_own_bound():
    line = timed_rows.passes_rounds_line(PASSES, "simulated on CPU")
    assert ("each round, one device's time over the pair's (rows A11, A19 and A21 quote their median): the "
            "article's split (bound 1x: halves that take turns) 0.88x, 0.91x, 0.93x; tensor parallel (bound 2x) "
            "1.03x, 0.95x, 1.10x") in line, line
    assert "(simulated on CPU); each round" in line
    # the notebook prints this line, never one bound for both lists
    cells = json.loads(NOTEBOOK.read_text())["cells"]
    source = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    assert "timed_rows.passes_rounds_line(PASSES" in source
    assert "bound {PASSES['bound']:g}x" not in source


def _decode(one_ms: float, tp_ms: float) -> dict:
    return {"bound": 2.0, "decode_seconds_per_token": {"one device": one_ms * 1e-3, "tensor parallel": tp_ms * 1e-3}}


def test_the_decode_prints_its_bound_and_verdict_every_branch():
    # the reader's run: 1.13 ms against 6.84 ms, 0.17x: slower than one device
    said = timed_rows.decode_words(_decode(1.134, 6.836))
    assert said.endswith("6.84 ms: 0.17x one device's speed, bound 2x: slower than one device: no speed-up"), said
    # within the 2% floor of 1x: noise; faster: the share of the bound's gain; past 2x: a finding
    assert timed_rows.decode_words(_decode(1.00, 0.99)).endswith(
        "1.01x one device's speed, bound 2x: within noise: no effect shown")
    assert timed_rows.decode_words(_decode(1.50, 1.00)).endswith(
        "1.50x one device's speed, bound 2x: faster, under the bound: 50% of its gain")
    assert timed_rows.decode_words(_decode(2.50, 1.00)).endswith(
        "2.50x one device's speed, bound 2x: above the bound: a finding to explain")
