"""Lessons 07 and 08, the twenty-ninth reading's items left after its first round (t29_0708): each collective
names its own ring factor; the guide's link time is named as such beside the compute it is set against; the
chart's comm share rounds half up, as the chart's label; cell 29's candidates and cell 38's loss paragraph
leave the visible answer and the loss table's own figures to the table and the block; lesson 08's exercise 1
says which runs take --compile. Fabricated figures throughout, no run's output."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from utils.lessons.memory.calculator import Shape
from utils.lessons.putting_it_together import fit, guide, link_cost
from utils.lessons.tensor_parallel import decode_loss, report, timed_rounds, verdicts
from utils.lessons.tensor_parallel.miss_parts import COMPUTE_PART
from tests.test_tensor_parallel_twelfth import _reader_run

ROOT = Path(__file__).resolve().parents[1]


def _cells(name: str) -> list[str]:
    return ["".join(c["source"]) for c in json.loads((ROOT / "notebooks" / name).read_text())["cells"]]


# --- 08: each collective its own factor (t29_0708 other: "all-gather x2 2(n-1)/n") ------------------------

SHAPE = Shape(vocab=32000, context=512, width=1024, depth=8, heads=16)


@pytest.mark.parametrize("n", [2, 4])
def test_each_collective_names_its_own_ring_factor_and_the_bytes_follow_it(n):
    """An all-gather or a reduce-scatter moves (n-1)/n of a tensor, an all-reduce 2(n-1)/n: the words name how
    many of each, and the bytes are that count times the factor, so no reader multiplies a factor twice."""
    p, ring = SHAPE.parameters(), (n - 1) / n
    lora, said = fit.link_bytes(SHAPE, "lora", n)
    assert said.startswith("two all-gathers, 2 x (n-1)/n x 2 B x ") and lora == pytest.approx(2 * ring * 2 * p)
    fsdp, said = fit.link_bytes(SHAPE, "8-bit", n)
    assert said.startswith("two all-gathers + a reduce-scatter, 3 x (n-1)/n x 2 B x ")
    assert fsdp == pytest.approx(3 * ring * 2 * p)
    _, said = fit.link_bytes(SHAPE, "qlora", n)
    assert said.startswith("all-reduce 2(n-1)/n x 4 B x ")   # one all-reduce: its own factor
    for kind in ("lora", "8-bit", "offload", "qlora"):
        assert "x2 2(n-1)/n" not in fit.link_bytes(SHAPE, kind, n)[1]


def test_the_guides_fsdp_reason_counts_its_three_collectives():
    from tests.test_guide import answers

    why = answers("2 of 8 H100", "7B")["two devices"].why
    assert "two all-gathers + a reduce-scatter, 3 x (n-1)/n x 2 B" in why and "all-gather x2" not in why
    memory = answers("2xT4 PCIe", "7B")["memory"].why
    assert "two all-gathers, 2 x (n-1)/n x 2 B x 6.86 bn = 13.7 GB" in memory


# --- 08: the link's ms named apart from the compute's (t29_0708 other: two "98.1 ms") ---------------------

def test_the_link_time_is_named_as_the_links_beside_the_compute():
    """20.6 GB / 210 GB/s = 98.1 ms on the A100 row, and this CPU's compute estimate 98.1 ms: two quantities
    that print alike. Each is now named: 'ms on the link against ... ms of compute'."""
    from tests.test_guide import answers

    for name, size in (("2xA100 NVLink", "7B"), ("2xT4 PCIe", "small")):
        why = answers(name, size)["two devices"].why
        assert re.search(r"= [\d.,]+ ms on the link against [\d.,]+ ms of compute", why), why
    unknown = link_cost.link_reason(SHAPE, "ddp", 2, "bf16", None, None, None, 512, None)
    assert unknown.endswith("a step; the link's rate is unknown") and "on the link" not in unknown


def test_the_split_modules_keep_their_old_names():
    """guide.py and report.py were at their 600-line cap: the link's part and section 1's verdicts moved out,
    and both modules still answer the names the notebooks and older tests use."""
    assert guide.link_reason is link_cost.link_reason and guide.KnownLink is link_cost.KnownLink
    assert guide._on_link is link_cost._on_link and guide.printed_step_s is link_cost.printed_step_s
    assert report.timed_split is timed_rounds.timed_split and report.article_claim is timed_rounds.article_claim
    for module in ("utils/lessons/putting_it_together/guide.py", "utils/lessons/tensor_parallel/report.py"):
        assert len((ROOT / module).read_text().splitlines()) <= 580   # room left under the cap


# --- 07: the chart's comm share, half up as its label -----------------------------------------------------

def test_the_charts_share_rounds_half_up_as_the_charts_label():
    """``timeline._busy_text`` labels with ``claims.percent`` (half up): 0.385 is 39%, where :.0% gives 38%."""
    assert verdicts.chart_share(3.85, 10.00, 0.385) == "39%"
    assert verdicts.chart_share(3.84, 10.00, 0.3849) == "38%"
    # the chart's figure beside the printed ms' own division, where the two round apart
    assert verdicts.chart_share(7.48, 27.20, 0.27496) == (
        "27% on the chart, from the unrounded times; 7.48 / 27.20 = 27.5% as printed")


# --- 07 cell 29: the candidates go to the block -----------------------------------------------------------

def test_the_compute_answer_counts_its_candidates_and_the_block_lists_them():
    answer, block = (" ".join(x) for x in report.miss_answer(_reader_run(together=0.01900), ""))
    count = re.search(r"(\d+) candidates fit, none timed apart \(the block below lists them\)\.", answer)
    assert count and "gloo's threads" not in answer and "f's and g's copies" not in answer
    listed = re.search(r"The compute's (\d+) candidates, none timed apart: gloo's threads \(their CPU time", block)
    assert listed and listed.group(1) == count.group(1)   # the block lists what the answer counts
    assert "What would show the model's speed-up" in answer   # the answer keeps its way forward


def test_the_compute_cause_keeps_the_list_after_what_it_ruled_out():
    m, slow = _reader_run(together=0.01900), _reader_run(together=0.01900)["ranks"][0]
    said = report._compute_cause(m, slow, {COMPUTE_PART: 0.00083})
    kept, moved = verdicts.ruled_apart(said)
    assert "candidates fit, none timed apart (the block below lists them). What would show" in kept
    assert moved.startswith("Ruled out: ") and "The compute's " in moved and "gloo's threads" in moved
    # t34_0708 #2: after "no cause found", the way forward names no cause (it blamed the all-reduces' slowdown)
    assert "slowdown they cause" not in said and "(the block below names no candidate as the cause)." in said


# --- 07 cell 38: the loss paragraph beside its table ------------------------------------------------------

ONE, TP, PRICE, SAVED = 2.47e-3, 11.26e-3, 2.46e-3, 0.20e-3   # fabricated: price 2.46 ms, ±28%: 1.77 to 3.15


def _beside(both: float, rank_0: float = 8.60e-3) -> str:
    inside = {"rank 0": rank_0, "rank 1": 8.0e-3, "both inside": both, "calls": 8.0}
    return decode_loss.loss_by_cause(ONE, TP, inside, PRICE, SAVED, 12, 0.03e-3, 2.5e-6, residual=0.28,
                                     beside_table=True)


def test_beside_the_table_the_loss_says_only_what_the_table_does_not():
    said = _beside(7.50e-3)
    assert said.startswith("Its loss, 8.79 ms a token over one device, is taken apart in the table above. ")
    assert "its fit's worst residual, ±28% (1.77 ms to 3.15 ms; more than the 0.20 ms the halved bytes save)" in said
    assert "the calls' time with both ranks inside lies at most 4.35 ms beyond it." in said   # 7.50 - 3.15
    # the table's rows are not said again: rank 0's time inside, its share, the price's excess
    assert "whose clock timed the token" not in said and "98% of the loss" not in said
    assert "5.04 ms more than that price" not in said
    # the rest outside the all-reduces opens its own sentence, each of rest_clause's outcomes
    assert ". The all-reduces account for the loss, within 5 %: 0.19 ms of it lies outside them" in said
    assert ". The all-reduces take more than the whole loss, by 0.71 ms" in _beside(7.50e-3, 9.50e-3)
    assert ". The all-reduces take less than the loss: the other 2.79 ms (32%)" in _beside(5.0e-3, 6.00e-3)
    assert "The largest part of" in said and len(said) < len(decode_loss.loss_by_cause(
        ONE, TP, {"rank 0": 8.60e-3, "rank 1": 8.0e-3, "both inside": 7.50e-3, "calls": 8.0}, PRICE, SAVED, 12,
        0.03e-3, 2.5e-6, residual=0.28))


def test_beside_the_table_each_side_of_the_prices_band_is_said():
    assert "lies within it: the calls' fixed cost and bytes account for the exchange" in _beside(2.00e-3, 2.0e-3)
    below = _beside(1.50e-3, 1.5e-3)
    assert "lies at least 0.96 ms below the price, under its band: inside the loop the calls cost less" in below


# --- the notebooks' sources -------------------------------------------------------------------------------

def test_lesson_07_passes_the_table_flag_and_drops_the_repeats_under_the_chart():
    code = "\n".join(_cells("07_tensor_parallel.ipynb"))
    assert "beside_table=True" in code
    assert "It is one recorded pass, not the timed rounds" not in code   # the caption under the chart says it
    assert "The recorded passes ran after the timed rounds, with every span recorded.\")" not in code


def test_lesson_08_exercise_1_says_which_runs_take_compile():
    exercises = next(c for c in _cells("08_putting_it_together.ipynb") if c.startswith("## Exercises"))
    first = " ".join(exercises.split("\n2.")[0].split())
    assert "Take section 8's final command with `--compile` (add it where the command lacks it)" in first
    assert "twice, then once more without `--compile`" in first and "with it added, if" not in first
