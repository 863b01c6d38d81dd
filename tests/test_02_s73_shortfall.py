"""t34_02 #1: a naive split under its per-process reference round by round is never said to reach 100% of
the reference's gain (a share worked from the two medians, which may come from different rounds): the words
give the shortfall round by round, from the paired ratios' median, and name what the shortfall is."""
from utils.lessons.model_split import report, runs


def _naive(speedups, bounds):
    return runs.Row(32, 1, "naive", 0.1, 0.1, [0.05, 0.05], naive=True, speedups=list(speedups),
                    alone=[0.05, 0.05], process_bounds=list(bounds))


def _places(r):
    claim = report.reference_claim("x", r, r.process_bound, "per-process reference", r.process_bounds)
    return (report.headline_verdict(r), report.naive_process_reading(r).split("The naive split ")[-1],
            report.naive_closing(r), claim.verdict)


# equal medians (1.06x and 1.06x), but each round under its own round's reference: 0.98x round by round
EQUAL_MEDIANS = ([1.00, 1.01, 1.06, 1.07, 1.09], [1.02, 1.03, 1.08, 1.09, 1.06])


def test_equal_medians_under_round_by_round_say_the_shortfall_not_100_percent():
    r = _naive(*EQUAL_MEDIANS)
    assert f"{r.speedup:.2f} {r.process_bound:.2f}" == "1.06 1.06"  # the medians' share would read 100%
    for said in _places(r):
        assert "under the per-process reference, round by round" in said
        assert "100%" not in said and "of its gain" not in said and "the rest is" not in said
    head, block, closing, claim = _places(r)
    for said in (head, block, claim):
        assert "explained by the reference; round by round it falls 2% short of it (1 - 0.98)" in said
    assert "falls 2% short of it (1 - 0.98): the messages and the turn-taking" in block
    assert "round by round it falls 2% short of it: the messages and the turn-taking)" in closing


def test_within_noise_of_the_reference_names_no_shortfall():
    s = [1.04, 1.05, 1.06, 1.05, 1.05]
    for said in _places(_naive(s, s)):
        assert "short of it" not in said


def test_slower_than_one_device_keeps_none_of_its_gain():
    _, block, _, _ = _places(_naive([0.95, 0.96, 0.96, 0.97, 0.96], [1.10, 1.11, 1.10, 1.09, 1.10]))
    assert "short of it" not in block and "it reaches none of its gain (0.96x is at or below 1x)" in block
