"""Lesson 09, the thirty-sixth reading (lead's row A21): make bench's MLP block beside lesson 07's split MLP
step (ledger name ``tensor_parallel_mlp_step_speedup``) where lesson 07 recorded it, both figures printed with
their ± and read by the course's rule between runs (``claims.runs_agree``); where it did not, the row says it
does not compare the two runs. Fabricated figures."""

from __future__ import annotations

from test_articles_checked import _figures, _recorded

from utils.lessons.articles_checked import recorded_names, timed_rows, verdicts

BENCH = dict(note="MLP block width 512 (hidden 2048), 256 tokens, forward + backward, gloo (simulated on CPU)",
             decode_seconds_per_token={"one device": 1.13e-3, "tensor parallel": 6.84e-3},
             decode_floor_seconds={"one device": 5.8e-4, "tensor parallel": 2.9e-4})
WHAT = ("one MLP block of width 512 (hidden 2048) on 256 tokens, forward + backward, one device against two "
        "workers splitting it (tensor parallel): the median of 5 paired rounds")


def _a21(mlp=None) -> str:
    m = _figures(decode=_recorded(1.50, 2.0, rounds=None, **BENCH))
    if mlp is not None:
        m["results"]["tensor_parallel_mlp"] = mlp
    return " ".join(p.text for p in timed_rows.a21(m))


def test_the_ledger_name_is_read():
    assert "tensor_parallel_mlp" in recorded_names.WHERE_TO_RECORD


def test_without_lesson_07s_record_the_row_does_not_compare_the_two_runs():
    said = _a21()
    assert "this row does not compare the two runs" in said, said
    assert "lesson 07's own run of its split MLP step" not in said


def test_lesson_07s_step_within_noise_of_make_bench():
    said = _a21(_recorded(1.52, 2.0, rounds=[1.46, 1.50, 1.52, 1.55, 1.58], what=WHAT))
    assert ("make bench's own run, 1.50x ± 0.03 (no rounds kept: the 2% floor); lesson 07's own run of its split "
            "MLP step (one MLP block of width 512") in said, said
    assert "1.52x ± 0.03 (5 rounds, 1.46x to 1.58x): within noise of each other" in said, said
    assert "does not compare" not in said


def test_lesson_07s_step_outside_make_benchs_spread_disagrees():
    said = _a21(_recorded(1.20, 2.0, rounds=[1.18, 1.19, 1.20, 1.21, 1.22], what=WHAT))
    assert "1.20x ± 0.01 (5 rounds, 1.18x to 1.22x; its ± read at the 2% floor, ± 0.02): neither median ± its spread covers the other's, so the two " \
           "runs disagree" in said, said
    assert "within noise of each other" not in said
