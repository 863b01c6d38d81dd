"""Lesson 03 (t20_0304 other problems 1-3): the bandwidth chart draws each size's repeats as bars and says so;
the by-hand timeline's title names the drawn step and its length beside the table's median; the PowerSGD
trap prints the default buckets' count from the run instead of the markdown's "several"."""

import json
from pathlib import Path

import pytest

from utils.lessons.ddp import allreduce, hooks, picture

NB = Path(__file__).resolve().parents[1] / "notebooks" / "03_ddp.ipynb"


def _rows():
    # t20's 16 KiB: repeats 0.412 to 3.81 ms around a 2.02 ms median
    rows = [{"bytes": 16384, "seconds": 2.02e-3, "low": 0.412e-3, "high": 3.81e-3},
            {"bytes": 2**20, "seconds": 1.2e-3, "low": 1.1e-3, "high": 1.3e-3}]
    return [{**r, "algbw": r["bytes"] / r["seconds"], "busbw": r["bytes"] / r["seconds"]} for r in rows]


def test_the_bars_span_the_slowest_to_the_fastest_repeat():
    below, above = allreduce.repeat_range_gbs(_rows())
    median = 16384 / 2.02e-3 / 1e9
    assert median - below[0] == pytest.approx(16384 / 3.81e-3 / 1e9)  # the slowest repeat: the lowest rate
    assert median + above[0] == pytest.approx(16384 / 0.412e-3 / 1e9)  # the fastest: the highest
    assert min(below + above) >= 0


def test_the_chart_draws_the_bars_and_its_legend_says_what_they_are():
    import matplotlib.pyplot as plt

    fig = allreduce.plot_all_reduce(_rows(), 3.98e9, "reference: β", " (simulated on CPU)")
    fig = getattr(fig, "figure", fig)
    texts = [t.get_text() for ax in fig.axes if ax.get_legend() for t in ax.get_legend().get_texts()]
    assert allreduce.RANGE_LABEL in texts and "slowest to fastest repeat" in allreduce.RANGE_LABEL
    assert any("(median)" in t for t in texts)
    plt.close("all")


def _ranks(steps0, steps1):
    out = []
    for rank, steps in ((0, steps0), (1, steps1)):
        out.append({"rank": rank, "step": sorted(steps)[len(steps) // 2] / 1e3,
                    "steps": [{"start": 0.0, "ready": 0.08, "step": t / 1e3} for t in steps]})
    return out


def test_the_title_gives_the_drawn_steps_length_beside_the_median():
    # t20: by hand drew step 3, 182.3 ms, the slowest of 159.7-182.3 ms, beside the table's 165.8 ms median
    ranks = _ranks([160.1, 159.7, 182.3, 165.8, 170.0], [158.0, 159.0, 181.7, 160.0, 161.0])
    title = picture.drawn_title("by hand", ranks, 2, " (simulated on CPU)")
    assert title == ("by hand: step 3 of 5, the median lag between the ranks (simulated on CPU)\n"
                     "this step took 182.3 ms on rank 0, against the table's median step of 165.8 ms")
    # the other outcome: the drawn step is the median one, and the title says both figures all the same
    assert "took 165.8 ms on rank 0, against the table's median step of 165.8 ms" in picture.drawn_title(
        "by hand", ranks, 3)


@pytest.mark.parametrize("buckets, words", [(2, "(2 buckets a step in section 2's table)"),
                                            (1, "(1 bucket a step in section 2's table; with one there is "
                                                "nothing to interleave)")])
def test_the_trap_prints_the_default_buckets_count_from_the_run(buckets, words):
    line = hooks.trap_heading(buckets, 3, "gloo")
    assert words in line and line.startswith("PowerSGD with DDP's default buckets")


def test_the_markdown_states_no_bucket_count_the_run_can_contradict():
    cells = json.loads(NB.read_text())["cells"]
    text = " ".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    for loose in ("few, large buckets", "travel in several buckets", "so that this small model has several"):
        assert loose not in text
    code = " ".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    assert "hooks.trap_heading(slow[DEFAULT][\"messages\"]" in code and "picture.drawn_title(" in code
