"""Lesson 09, t26_09 #1: row B12's zeroed weights are read by paired rounds; a ratio of two fastest times
decides nothing beyond the noise floor; row B18 does not count a zeroed layer faster than B12 expects."""

from types import SimpleNamespace

from utils.lessons.articles_checked import checks, claims, summary_rows, verdicts, zeroed
from tests.test_articles_checked import _figures


def _prune(zeroed_ms: float, rounds=None) -> dict:
    prune = {"dense": 2.90e-3, "zeroed": zeroed_ms * 1e-3, "removed": 1.45e-3}
    return {"prune": prune | ({"zeroed_rounds": rounds} if rounds else {}), "csr": 0.25}


def test_round_ratios_pair_each_round_by_its_faster_run():
    dense, zeroed_times = [2.0, 2.2, 3.0, 3.1], [1.9, 2.5, 3.3, 2.9]  # two runs a round
    assert zeroed.round_ratios(dense, zeroed_times, runs=2) == [1.9 / 2.0, 2.9 / 3.0]


def test_a_fastest_of_ratio_beyond_the_floor_is_inconclusive_every_branch():
    faster = _figures() | _prune(2.80)  # the reader's 0.97x, no rounds
    row = verdicts.judge(claims.BY_ID["B12"], faster, {})
    assert row.check == verdicts.NOISY, row.check
    assert "0.97x the dense time (a ratio of two fastest times, not paired rounds" in row.evidence
    assert "lesson 04 §3 times zeros in a dense kernel in paired rounds too" in row.evidence
    within = _figures() | _prune(2.88, [0.97, 0.99, 1.00, 1.01, 0.98])  # paired: 0.99x ± 0.01, covers 1x
    assert verdicts.judge(claims.BY_ID["B12"], within, {}).check == verdicts.AGREES
    assert "0.99x ± 0.01 the dense time in 5 paired rounds (within noise of 1x" in verdicts.judge(
        claims.BY_ID["B12"], within, {}).evidence
    # every round below 1x, though the median ± spread touches it: not noise
    below = _figures() | _prune(2.88, [0.98, 0.98, 0.99, 0.99, 0.99])
    assert zeroed.side(below["prune"], 0.02) == zeroed.FASTER


def test_b18_does_not_count_a_zeroed_layer_faster_than_b12_expects():
    m = _figures() | _prune(2.70, [0.91, 0.92, 0.93, 0.94, 0.95])
    assert checks.run_check("B12", m, {}) == verdicts.DISAGREES
    earlier = {i: SimpleNamespace(check=verdicts.AGREES) for i in checks.SUMMED["B18"]}
    earlier["B12"] = SimpleNamespace(check=verdicts.DISAGREES)
    assert checks.run_check("B18", m, earlier) == verdicts.AGREES
    earlier["B9"] = SimpleNamespace(check=verdicts.DISAGREES)  # another row's disagreement still counts
    assert checks.run_check("B18", m, earlier) == verdicts.DISAGREES
    assert checks._as_summed("B18", "B12", verdicts.DISAGREES, m) == verdicts.AGREES
    assert checks._as_summed("A17", "B12", verdicts.DISAGREES, m) == verdicts.DISAGREES  # only B18 recounts
    said = summary_rows.zeroed_faster_part(m).render()
    assert "ran faster than the dense layer (0.93x, beyond its paired rounds' spread" in said, said
    assert summary_rows.zeroed_faster_part(_figures() | _prune(2.90, [0.99, 1.0, 1.0, 1.0, 1.01])) is None


def test_b19_says_which_of_its_fastest_step_and_b22s_median_is_higher_both_branches():
    from utils.lessons.articles_checked import timed_rows
    rounds = {"one": [0.0229, 0.0195, 0.0195, 0.0197, 0.0197], "two": [0.0185] * 5}  # median 19.7 ms
    above = timed_rows.one_worker_beside({"cnn_ddp": rounds, "cnn": {"step_s": 0.0202}})
    assert "this page's fastest repeat lies above that median (20.2 ms against 19.7 ms)" in above, above
    assert "at or below a median" not in above
    below = timed_rows.one_worker_beside({"cnn_ddp": rounds, "cnn": {"step_s": 0.0197}})
    assert "lies at or below that median (19.7 ms against 19.7 ms)" in below, below
    assert "different runs of different set-ups" in below and "need not match" in below


def test_a3_quotes_lesson_08s_two_device_spread_with_its_rounds_count():
    # t26_09 #6: lesson 08's record gains steps["two devices"] = {"value", "spread", "rounds"}
    from utils.lessons.articles_checked import capstone
    kept = {"value": 1.3, "what": "two devices 1.28x", "steps": {"two devices": {
        "value": 1.28, "spread": 0.04, "rounds": [1.23, 1.28, 1.31]}}}
    assert capstone.two_devices_text(kept).startswith("1.28x ± 0.04 (its 3 paired rounds' spread)")
    bare = {"value": 1.3, "what": "two devices 1.28x"}
    bench = {"value": 1.3, "steps": {"two devices": {"x_previous": 1.28}}}  # make bench's shape
    assert capstone.capstone_two_devices(bench) == 1.28
    assert "± 0.03 (the 2% floor for a figure kept without rounds)" in capstone.two_devices_text(bare)
