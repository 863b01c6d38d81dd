"""Twenty-ninth reading (t29_0001, the items left after the first round), lessons 00 and 01: the fixed costs'
gap printed (not "of each other"), two runs' move read as a floor, a residual's sign said in words, the plots'
legends in the tables' words and digits, rough spreads judged and printed half up, and shorter visible text
(what moved to the blocks is still said there). Fabricated figures throughout."""

import json
import pytest

from pathlib import Path
from types import SimpleNamespace as NS

import matplotlib.pyplot as plt

from tests.test_0001_s64_between_runs import THEIRS, _kept, _link, _record
from tests.test_why_slow_s55 import axis, reader_run
from utils.lessons.start_here import bandwidth, line_check, summary
from utils.lessons.start_here.cold_copy import Passed
from utils.lessons.why_slow import (algorithms_report, between_runs, peak, plotting, profile, report, roofline,
                                    scaling)


@pytest.fixture(autouse=True)
def _no_size_off_its_neighbours(monkeypatch):
    """These tests are of the move and the profile's line: the neighbour test (t36_0001 #1, every size against
    its two neighbours' line) is tested on its own in test_0001_s75_neighbours, so here it sets nothing apart."""
    monkeypatch.setattr(between_runs, "off_neighbours", lambda us_by_size: [])


KIB, MIB = 2**10, 2**20


# --- the fixed costs' gap (scaling_report.fixed_cost_sentence) ----------------------------------------------

def test_two_fitting_axes_print_their_gap_against_the_tolerance():
    said = report.fixed_cost_sentence(reader_run(), scaling.fit)  # +7.1 and +6.4 ms; depth fails
    assert ("(the axes that fit): they differ by 0.7 ms, no more than 10% of the shortest step of the axes that "
            "fit (") in said
    assert "of each other" not in said


def test_three_fitting_axes_print_their_widest_gap():
    series = {"width": axis("width", 7.1e-3), "depth": axis("depth", 6.8e-3), "context": axis("context", 6.4e-3)}
    said = report.fixed_cost_sentence(series, scaling.fit)
    assert ": their widest gap is 0.7 ms, no more than 10% of the shortest step (16.2 ms), as one fixed cost" in said


def test_a_gap_past_the_tolerance_keeps_its_own_branches():
    apart = {"width": axis("width", 7.1e-3), "context": axis("context", 1.0e-3)}  # 6.1 ms apart, no ±
    said = report.fixed_cost_sentence(apart, scaling.fit)
    assert "cannot differ" in said and "they differ by 6.1 ms" not in said


# --- two runs of the link (between_runs.between_runs_sentence) -----------------------------------------------

def test_two_runs_move_is_what_a_time_is_worth_on_every_branch_past_the_edge():
    on_line = between_runs.between_runs_sentence(_link(), _record(), _kept())
    # t30_0001 #2: two runs bound no third either way, neither a ceiling nor a floor
    assert on_line.endswith("These two runs differed by 0.68x to 1.61x at the same size: a time measured or "
                            "fitted in one run is no better a guide to another than that.")
    assert "can take 0.38x to 2.64x each other's time" in on_line  # the line's ceiling, said before
    far = dict(THEIRS)
    far[MIB] = 150.0
    moved = between_runs.between_runs_sentence(_link(), _record(far), _kept())
    assert "moved between the two runs" in moved and "no better a guide to another than that." in moved
    for said in (on_line, moved):
        assert "within that range" not in said and "at least as much" not in said
        assert ". So " not in said  # t30_0001 #2: no "so ..., so" 


# --- a residual's sign in words (line_check.residual_words) -------------------------------------------------

def test_a_residuals_side_is_said_with_its_sign():
    assert line_check.residual_words(0.318) == ("measured above the line by 31.8% of the measured time "
                                                "(residual +31.8%)")
    assert line_check.residual_words(-0.28) == ("measured below the line by 28.0% of the measured time "
                                                "(residual -28.0%)")
    assert line_check.residual_words(0.0004) == "measured on the line (residual 0.0%)"
    assert line_check.residual_words(-0.0004) == "measured on the line (residual 0.0%)"


def test_the_line_checks_worst_size_says_its_side():
    rows = [(64 * KIB, 170e-6, 169e-6, 0.006), (MIB, 530e-6, 528e-6, 0.004), (8, 59.2e-6, 75.8e-6, -0.28)]
    said = line_check.LineCheck(rows, 0.45).sentence()
    assert ("its worst at 8 B: 59.2 µs measured, 75.8 µs on the line, measured below the line by 28.0% of the "
            "measured time (residual -28.0%)") in said


# --- the plots' legends ---------------------------------------------------------------------------------------

def test_the_roofline_legend_says_what_its_colours_count():
    ceilings = peak.Ceilings(90e9, 25e9)
    ops = [roofline.matmul_op(n, n, n) for n in (64, 1024)] + [roofline.rowwise_op("add", 8192, 1024)]
    points = [roofline.Point(op, op.flops / ceilings.attainable(op.intensity) / 0.5, 0.1,
                             ceilings.attainable(op.intensity), ceilings.bound(op.intensity)) for op in ops]
    fig = plotting.plot_roofline(points, ceilings, " (test)", True)
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert "measured op, left of the ridge (memory-bound by count)" in labels
    assert "measured op, right of the ridge (compute-bound by count)" in labels
    assert not any(label.endswith("bound op (measured)") for label in labels)
    plt.close(fig)


def test_the_message_plots_fit_prints_the_tables_digits():
    sizes = (4, 4096, 65536, MIB)
    pts = [NS(size=n, seconds=75.8e-6 + n / 3.48e9, path="gloo") for n in sizes]
    fit = NS(alpha=75.84e-6, beta=3.4812e9, time=lambda n: 75.84e-6 + n / 3.4812e9, sizes=sizes,
             residuals=(0.3, 0, 0, 0))
    fig, ax = plt.subplots()
    bandwidth._plot_message_times(ax, pts, NS(accuracy=0.3, fit=fit, measured="in this run"))
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any("alpha 75.8 µs + n / (3.48 GB/s)" in label for label in labels)  # not "76 µs", "3.5 GB/s"
    plt.close(fig)


# --- rough spreads, judged and printed half up ----------------------------------------------------------------

def test_a_rough_spread_is_judged_and_printed_as_a_reader_rounds_it():
    assert not summary.is_rough(0.503)  # prints "50%": not over 50%
    assert summary.is_rough(0.505) and summary.is_rough(0.54)  # "51%", "54%"
    assert report.rough_spreads([("its", NS(spread=0.625))]) == "its spread 63%"  # :.0% gives "62%"
    assert report.rough_spreads([("its", NS(spread=0.503))]) == ""
    chain = NS(spread=0.0, median=2.0)
    assert algorithms_report.chain_yardstick(chain, 0.503) == (0.0, "")
    assert algorithms_report.chain_yardstick(chain, 0.625)[0] == 0.63


# --- lesson 01's profile: one clause, and the steps' shares in the block -----------------------------------

def _step(shares):
    return profile.StepProfile(0.1, {"matmul": 0.079, "memory-bound": 0.015, "Python & dispatch": 0.006},
                               [], None, None, None, attention_seconds=0.012, matmul_shares=shares)


def test_the_visible_split_names_the_range_and_the_block_each_step():
    step = _step((0.741, 0.780, 0.792, 0.795, 0.803))
    said = step.split_sentence()
    assert "other ops 15.0%" in said and "elementwise" not in said
    assert "ran 74.1% to 80.3% (± 0.8%" in said and "78.0%" not in said
    note = step.steps_note()
    assert note.startswith("Other ops: elementwise, norms, copies, the optimizer's updates, memory-bound")
    assert "74.1%, 78.0%, 79.2%, 79.5%, 80.3%; its ± 0.8% is half the middle half's range, (79.5 - 78.0) / 2" in note
    one = _step((0.79,))
    assert "One profiled step shows no spread" in one.split_sentence()
    assert one.steps_note().startswith("Other ops: ") and "each profiled step" not in one.steps_note()


def test_the_overhead_past_a_moments_move_is_said_once():
    from tests.test_why_slow_s55c import ROUNDS
    from tests.test_why_slow_s55c import _step as timed

    said = timed(110.0e-3, 79.0e-3).overhead_sentence(ROUNDS)
    assert "more than a moment moves a step" not in said and "ms at most): recording every op adds time" in said


# --- lesson 00's copies: shorter visible text, the detail in the block ---------------------------------------

def test_the_cold_copys_threshold_reason_moves_to_the_block():
    low = Passed(256 * MIB, 6.24e9, 6.71e9, 6.01e9)
    said = low.sentence(480 * MIB)
    assert "by more than the 10% one noisy median may miss by: the reference is low for this copy" in said
    assert "a threshold the course chooses" not in said and "the block below says" not in said
    assert "is a threshold the course chooses" in low.note()


def test_where_a_copy_set_apart_is_left_out_is_said_in_the_block():
    from tests.test_start_here_caches import reader_s2_run, the_run
    from utils.lessons.start_here import cache_copies

    slow, plain = reader_s2_run(None), the_run()  # a 64 KiB copy out of L2; none
    assert "left out of its cache's row" in cache_copies.set_apart_note(slow)
    assert "left out of" not in summary.out_of_cache_sentence(slow)
    assert cache_copies.set_apart_note(plain) == ""


# --- lesson 01's AdamW gloss ------------------------------------------------------------------------------------

def test_adamw_is_named_as_the_optimizer_where_it_is_first_used():
    nb = json.loads((Path(__file__).parents[1] / "notebooks" / "01_why_slow.ipynb").read_text())
    cells = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]
    first = next(c for c in cells if "AdamW" in c)
    assert "AdamW, the optimizer" in first


# --- lesson 01's comparisons block: what the table does not say -----------------------------------------------

def test_the_block_says_a_result_only_where_it_is_past_the_tolerance():
    from utils.lessons.why_slow.algorithms import Comparison

    steady = (2.9, 3.0, 3.1, 3.1, 3.2)
    near = Comparison("causal attention", "naive_attention", "fused_attention", 3.14e-3, 1e-3, 6e-7,
                      "the scores' trips", round_ratios=steady)
    # fastest times 3.10 / 1.00 = 3.10x, within the middle half 3.00x-3.10x: rounds that agree (t31_0001 #2 flags the others)
    far = Comparison("GELU", "gelu_op_by_op", "compiled GELU", 3.1e-3, 1e-3, 2e-3, "kernels", round_ratios=steady)
    said = algorithms_report.algorithms_sentence([near, far])
    assert "fused_attention (the scores' trips): 3.10x (middle half 3.00x-3.10x): faster than the baseline;" in said
    assert said.endswith("compiled GELU (kernels): 3.10x (middle half 3.00x-3.10x): faster than the baseline, results differ by "
                         "2e-03, within the 1e-05 tolerance: no.")
    assert "In short" not in said
