"""Lesson 02, the thirty-second reading (t32_02, other problems, still present from t31): section 8's probe line
lists the median extra time with the other readings, so "every one of them" covers every reading the page prints
of it. Fabricated placements, CPU only; each branch of the count."""

from utils.lessons.model_split import report  # noqa: F401,I001 (report loads first)
from utils.lessons.model_split import placement, runs


def _placements(extra_rounds, placed_s=0.229):
    """12 more messages at a probe's 0.076 ms each and 1.83 ms an activation (0.9 + 21.0 = 21.9 ms)."""
    def row(seconds):
        return runs.Row(32, 1, "x", seconds, 0.22, [0.1, 0.1], naive=True, speedups=[1.0])
    return {"layers": {"row": row(0.214), "crossings": 1}, "attn/ffn": {"row": row(placed_s), "crossings": 7},
            "extra_rounds": [x / 1e3 for x in extra_rounds],
            "message": {"tiny": 7.6e-5, "activation": 1.83e-3, "activation_bytes": 2**20}}


def test_every_one_of_them_includes_the_median():
    said = placement.price_support(_placements([22.0, 24.0, 25.0, 26.0, 30.0], placed_s=0.24))
    assert "the extra time read 25.0 ms (the paired median), 26.0 ms (the paired median plus its spread)" in said
    assert said.endswith("every one of them reaches that cost"), said


def test_a_median_below_the_cost_is_counted_out():
    # median 20.0 ms under the 21.9 ms the messages would cost; its spread, the medians' difference and the
    # highest round reach it
    said = placement.price_support(_placements([15.0, 19.0, 20.0, 23.0, 30.0], placed_s=0.24))
    assert "20.0 ms (the paired median)" in said
    assert said.endswith("3 of 4 reach that cost (the paired median plus its spread, the table's median steps' "
                         "difference and the highest of 5 rounds)"), said
