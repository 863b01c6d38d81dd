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
                         "one device's) outweighs its all-reduces and its waits for the other rank.")
    assert "half the compute" not in said


def test_another_part_that_dominates_names_the_saved_compute(story):
    m, slow = story
    said = report._largest_cause(m, slow, {"the late return": 0.002}, [], "the late return")
    assert said.endswith("widths where the compute each rank saves (half one device's) outweighs its "
                         "all-reduces.")   # no "whatever they cost" (t36_0708 other #1)
    assert "half the compute" not in said


def test_gloo_s_figures_go_to_the_block_unless_they_are_a_candidate():
    """t33_0708 other #4: the visible answer ran to 25 lines; gloo's threads, where they explain nothing, now
    sit in the collapsed block beside what was ruled out; a candidate stays in the answer."""
    rank = lambda compute, waited, other: {  # noqa: E731
        "step": compute + waited + 0.0017, "allreduce": waited + 0.0017, "compute": compute,
        "thread_cpu": compute + waited + 0.0017, "other_threads_cpu": other, "waited": waited,
        "after_both": 0.0017, "after_other": 0.0}
    m = {"model_compute": 0.01789, "model_comm": 0.00066, "model_step": 0.01855, "one": 0.03578, "others": 0.0,
         "steal": 0.0, "paired": True, "residual": 0.46, "waiting_core": 0.01,
         "corun": {"alone": 0.01815, "together": 0.01849, "together_core": 1.0},
         "ranks": [rank(0.01898, 0.00092, 0.00088), rank(0.01986, 0.0, 0.00073)]}
    shared = report.miss_answer(m, "")[0][-1]   # CPU time past the step: cores shown shared, kept in the answer
    assert ("the rank waited for: they do not explain the wait by themselves"
            in shared and "oversubscription" in shared)   # the gap named by its figure (t36_0708 #2)
    for r in m["ranks"]:   # CPU time under the step: nothing shown, so the figures go to the block
        r["thread_cpu"] -= 0.0030
    answer, block = (" ".join(said) for said in report.miss_answer(m, ""))
    assert "what held rank 1 back is not known from this run. What would show" in answer and "gloo" not in answer
    assert " The worker's other threads (gloo's) used 0.88 ms of CPU on rank 0 and 0.73 ms on rank 1" in block
    m["ranks"][1]["other_threads_cpu"] = 0.00120   # the later rank's threads used more: a candidate, kept
    answer, block = (" ".join(said) for said in report.miss_answer(m, ""))
    assert ("is not known from this run; one candidate for the wait this run "
            "does not rule out") in answer
    assert "one candidate for the wait" not in block   # said once, in the answer
