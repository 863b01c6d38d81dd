"""Twenty-eighth reading, lessons 07 and 08 (t28_0708): a run's hours and the mean all-reduce round half up,
the price of an all-reduce names the late return, and section 1's drawn compute a call is set beside the base
section 4 uses. Every figure here is fabricated, not one run's output."""

import json
from pathlib import Path
from types import SimpleNamespace as NS

from utils.lessons.putting_it_together import guide
from utils.lessons.tensor_parallel import cost, pass_step, verdicts

NOTEBOOK = Path(__file__).parents[1] / "notebooks/07_tensor_parallel.ipynb"


def _cells():
    return ["".join(c["source"]) for c in json.loads(NOTEBOOK.read_text())["cells"]]


def test_a_run_s_hours_round_half_up_from_the_printed_minutes():
    """#1: 4.71 min x 5,000 / 60 = 392.5 h printed 392 (``:,.0f`` rounds half to even); now 393."""
    shape = NS(parameters=lambda: 6.86e9, context=2048)
    memory = guide.Step("memory", "full training", "fits")   # 6 FLOPs a weight
    said = guide._with_step_time(memory, shape, 8, 1, NS(low_peak=2385.8e9), 5000).why
    assert "= 4.71 min" in said and "(5,000 steps: at least 393 h); rent GPUs" in said


def test_a_short_run_s_hours_round_half_up_to_one_decimal():
    """The ``.1f`` branch: 0.18 s x 5,000 / 3,600 = 0.25 h prints 0.3 (``:.1f`` gives 0.2)."""
    shape = NS(parameters=lambda: 1e9, context=2048)
    memory = guide.Step("memory", "full", "fits")
    peak = 6 * 1.0 * 8 * 2048 / 0.18 * 1e9   # GFLOP/s that make the step 0.180 s
    said = guide._with_step_time(memory, shape, 8, 1, NS(low_peak=peak), 5000).why
    assert "= 0.18 s" in said and "5,000 steps: at least 0.3 h" in said and "impractical" not in said


def test_the_mean_all_reduce_is_the_printed_time_inside_over_the_calls_half_up():
    """#2: (10.70 + 10.38) / 8 = 2.635 printed 2.63 (the float 2.63499...); now 2.64."""
    window = (0.0, 0.02451)
    comm = {"rank 0": 0.01070 / 0.02451, "rank 1": 0.01038 / 0.02451}
    said, mean = verdicts.inside_allreduces(comm, window, 8)
    assert "rank 0 10.70 ms (44%), rank 1 10.38 ms (42%)" in said
    assert f"{mean * 1e3:.2f}" == "2.64"
    # the share is the chart's comm label (``claims.percent`` of the unrounded share, half up: 0.385 is 39%, as
    # 7.70 / 20.00 is); where the printed ms divide to another whole percent half up (7.698 ms, 38.49% on the
    # chart, prints 7.70: 38.5%), that division is shown beside it (t29_0708 #1)
    said, _ = verdicts.inside_allreduces({"rank 0": 0.0077 / 0.02}, (0.0, 0.02), 4)
    assert "rank 0 7.70 ms (39%)" in said
    said, _ = verdicts.inside_allreduces({"rank 0": 0.007698 / 0.02}, (0.0, 0.02), 4)
    assert "rank 0 7.70 ms (38% on the chart, from the unrounded times; 7.70 / 20.00 = 38.5% as printed)" in said


def test_section_1_s_drawn_compute_is_named_beside_the_base_every_way():
    """#4: cell 10's 3.48 ms (a rank's own compute in the pass drawn) and cell 27's 3.1 ms (half one device's
    fastest time over a rank's 4 all-reduces) were both "a rank's compute"; now each is named, side by side."""
    blocks = NS(depth=2, width=512)
    row = {"width": 512, "speedup": 1.84, "spread": 0.05, "one": 22.48e-3}
    base = cost.half_per_call(25.0e-3, 1, 4)   # 3.125 -> 3.1 ms
    text = pass_step.pass_beside_step(0.99, 0.10, base, blocks, row, drawn_compute=3.48e-3)
    assert "about 3.1 ms of compute in section 1 (4 calls) and about 5.6 ms here (22.48 ms / 2 / 2 calls): in " \
           "both, half one device's" in text
    assert "not a rank's own compute (the pass drawn in section 1 measured 3.48 ms of a rank's own compute " \
           "before each, more than that half: a rank's half ran slower than half one device's fastest " \
           "pass)" in text
    assert "less than that half: a rank's half ran faster" in pass_step.drawn_beside(2.96e-3, base)
    assert pass_step.drawn_beside(3.14e-3, base).endswith("3.14 ms of a rank's own compute before each, that "
                                                          "half to 0.1 ms)")   # 3.14 is 3.1 to 0.1 ms
    assert pass_step.drawn_beside(None, base) == ""
    assert "the pass drawn" not in pass_step.pass_beside_step(0.99, 0.10, base, blocks, row)
    # agreeing within noise quotes no compute a call at all, so nothing to set beside
    same = {"width": 512, "speedup": 1.05, "spread": 0.05, "one": 22.48e-3}
    assert "agree within their noise" in pass_step.pass_beside_step(0.99, 0.10, base, blocks, same,
                                                                    drawn_compute=3.48e-3)


def test_lesson_07_names_the_late_return_in_the_price_and_passes_the_drawn_compute():
    """#3 and #4 in the notebook's sources: cell 11 names all three parts the block above cuts out, cell 10
    names its compute as the rank's own in this pass, cell 27 hands it to ``pass_step``."""
    cells = _cells()
    price = next(c for c in cells if c.startswith("In this split both rows have work"))
    assert "stays inside after the other has returned (a late return" in " ".join(price.split())
    assert "ms of its rank's own \"\n    f\"compute in this pass" in "\n".join(cells)
    assert "drawn_compute=compute_per_call" in "\n".join(cells)
    assert "report.pass_beside_step" not in "\n".join(cells)


def test_the_shard_s_ratios_are_worked_from_the_printed_ms_half_up():
    """A cheap sweep of the same rule (#1's grep): 3.15 / 2.00 ms is 1.58x, as a reader divides them."""
    from utils.lessons.tensor_parallel import report

    assert report._times(3.15e-3, 2.00e-3) == 1.58
    assert report._times(3.1549e-3, 2.0049e-3) == 1.58   # the ms as printed, not the unrounded seconds
    assert report._times(0.25e-3, 0.20e-3, 1) == 1.3     # 1.25, half up to one decimal


def test_the_batch_trend_prints_the_ranges_it_judges_by():
    """Other (cell 34): "the steps ... lie within that spread" stood beside bare speed-ups; each now has its
    ±, the speed-up as printed times its rounds' spread (``printed_noise``)."""
    from utils.lessons.tensor_parallel import inference

    rows = [{"batch": b, "one device": 1.0, "tensor parallel": 1.0 / x, "pipeline": 1.0 / x,
             "spread": {"one device": n, "tensor parallel": n, "pipeline": n}}
            for b, x, n in ((1, 0.35, 0.37), (4, 0.61, 0.36), (16, 0.88, 0.06))]
    said = inference.batch_trend(rows, 1, ("tensor parallel",))
    assert "0.35x ± 0.13 at batch 1, 0.61x ± 0.22 at batch 4, 0.88x ± 0.05 at batch 16" in said


def test_the_profiled_step_names_the_timed_compute_it_is_set_against():
    """Other (08 cell 10): 190 ms against "the timed median (197 ms)", the compute, beside "the timed step"
    of 196.8 ms; the sentence now names the compute."""
    from utils.lessons.putting_it_together import profile_words

    said = profile_words.profiled_against_timed(0.190, {"load": 0.0002, "matmul": 0.1966})
    assert "took 190.0 ms, -3% against the timed compute's median (196.6 ms)" in said   # 190.0 / 196.6 - 1


def test_the_claims_table_writes_a_tolerance_as_one_and_int8_s_reference_as_the_serving_table():
    """Other (08 cell 43): "baseline 2.9701 ± 0.03" wrote a tolerance as ±; "fp32 compiled, 54.1 ms" beside the
    serving table's 54.11."""
    from test_putting_it_together import _rows

    from utils.lessons.putting_it_together import report

    times = {"fp32": [1.0] * 4, "fp32 compiled": [1.0] * 4, "int8": [1.0] * 4}
    serving = {"latency_s": {"fp32": 0.0601, "fp32 compiled": 0.05411, "int8": 0.0533}, "times": times,
               "loss": {"fp32": 2.9, "int8": 2.9}, "bytes": {"fp32": 4, "int8": 1}}
    rows = report.claim_rows(_rows(), serving)
    int8 = next(c for c in rows if "x fp32 compiled's speed" in c.claim)
    assert int8.against == "1.00x (fp32 compiled, 54.11 ms)"
    losses = [c for c in rows if "held-out loss at step N" in c.claim]
    assert losses and all(c.against.startswith("baseline ") and ", tolerance " in c.against
                          and "±" not in c.against for c in losses)
