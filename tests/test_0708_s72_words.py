"""Thirty-third reading, lesson 07 cell 29 (t33_0708 other #3): the answer closed on "widths where half the
compute outweighs the all-reduces and the waits", hard to parse. It now names the compute each rank saves
(half one device's) and the waits as its waits for the other rank. Fabricated figures."""

import pytest

from test_tensor_parallel import _row
from utils.lessons.tensor_parallel import cost, report


@pytest.fixture
def story():
    sizes = [4096, 65536, 262144]
    got = {"rows": [_row(512, 0.020, 0.016, 0.002, 0.007)], "peer_rows": [_row(512, 0.020, 0.017, 0.001, 0.008)],
           "sizes": sizes, "seconds": [1e-4 + n / 1e9 for n in sizes], "load": (4.9, 4.9), "cores": 2,
           "corun": {"alone": 0.011, "together": 0.014, "together_core": 0.99}}
    m = cost.miss(cost.analyse(got))
    return m, max(m["ranks"], key=lambda r: r["step"])


def test_a_wait_that_dominates_names_the_saved_compute_and_the_rank_s_waits(story):
    m, slow = story
    for r in m["ranks"]:
        r.setdefault("waited", 0.002)
    said = report._largest_cause(m, slow, {"waiting for the other rank": 0.002}, [], "waiting for the other rank")
    assert said.endswith("What would show the model's speed-up: widths where the compute each rank saves (half "
                         "one device's) outweighs its all-reduces and its waits for the other rank, whatever they "
                         "cost.")
    assert "half the compute" not in said


def test_another_part_that_dominates_names_the_saved_compute(story):
    m, slow = story
    said = report._largest_cause(m, slow, {"the late return": 0.002}, [], "the late return")
    assert said.endswith("widths where the compute each rank saves (half one device's) outweighs its all-reduces, "
                         "whatever they cost.")
    assert "half the compute" not in said
