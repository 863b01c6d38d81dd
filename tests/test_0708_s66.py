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
    memory = guide.Step("memory", "QLoRA", "fits")
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
    # the share half up too: 7.70 / 20.00 = 38.5% prints 39% (``:.0%`` gives 38%)
    said, _ = verdicts.inside_allreduces({"rank 0": 0.0077 / 0.02}, (0.0, 0.02), 4)
    assert "rank 0 7.70 ms (39%)" in said


def test_section_1_s_drawn_compute_is_named_beside_the_base_every_way():
    """#4: cell 10's 3.48 ms (a rank's own compute in the pass drawn) and cell 27's 3.1 ms (half one device's
    fastest time over a rank's 4 all-reduces) were both "a rank's compute"; now each is named, side by side."""
    blocks = NS(depth=2, width=512)
    row = {"width": 512, "speedup": 1.84, "spread": 0.05, "one": 22.48e-3}
    base = cost.half_per_call(25.0e-3, 1, 4)   # 3.125 -> 3.1 ms
    text = pass_step.pass_beside_step(0.99, 0.10, base, blocks, row, drawn_compute=3.48e-3)
    assert "about 3.1 ms of compute in section 1 and about 5.6 ms here, on one base: half one device's" in text
    assert "not a rank's own compute (the pass drawn in section 1 measured 3.48 ms of a rank's own compute " \
           "before each, more than that half: a rank's half ran slower than half one device's)" in text
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
