"""Nineteenth reading (t19_0001), lesson 01: cell 22 prints one latency band in the table, the sentence and the
verdict (capped at 100%, and said so); cell 33 sets the profiler's cost against how far a moment moves a step."""

from types import SimpleNamespace as NS

from utils.lessons.why_slow import link_report, profile, transfers

SIZES = [8, 512, 4096, 8192, 524288, 2**20]  # the small messages, the ids (8,192 = 512 x 16), the activations


def _link(us):
    return NS(name="gloo", fit=NS(sizes=SIZES, alpha=141.9e-6, beta=3.77e9), seconds=[u * 1e-6 for u in us],
              accuracy=0.89, describe=lambda: "gloo: a fit")


# the reader's run: small messages 136.4, 113.8, 174.7 µs; the ids (8 KiB) 157.6 µs; 512 KiB 258.0 µs
READ = [136.4, 113.8, 174.7, 157.6, 258.0, 229.7]


def test_the_token_ids_band_is_the_same_in_the_table_and_the_sentence_with_its_cap_named():
    link = _link(READ)
    costs = transfers.batch_costs(link, 16, 64, 128)
    ids = costs[0]
    cell = link_report.cost_rows(costs, link, False)[0][-1]
    assert cell == "72% – 100% (capped)"  # 113.8 / 157.6 = 72.2%; 174.7 / 157.6 = 110.8%, past the whole
    said = link_report._ids_sentence(ids, link)
    assert ("across the small messages' whole range (72% to 100%, all above 50%, capped: the slowest small "
            "message, 174.7 µs, took longer than this batch, so counting it would give a share over 100%, shown as 100%; the fixed cost itself ran from 113.8 to "
            "174.7 µs on this run)") in said
    assert "111%" not in said and "111%" not in cell
    assert link_report.mostly_latency_verdict(link, ids).startswith("holds: latency 72% of its time")


def test_a_band_under_the_whole_is_printed_alike_without_a_cap():
    link = _link([136.4, 113.8, 150.0, 157.6, 258.0, 229.7])  # 150.0 / 157.6 = 95%
    costs = transfers.batch_costs(link, 16, 64, 128)
    assert link_report.cost_rows(costs, link, False)[0][-1] == "72% – 95%"
    said = link_report._ids_sentence(costs[0], link)
    assert "(72% to 95%, all above 50%)" in said and "capped" not in said


def test_a_band_covering_half_is_capped_alike_in_the_sentence_and_the_verdict():
    link = _link([90.0, 60.0, 180.0, 150.0, 258.0, 229.7])  # 60 / 150 = 40%; 180 / 150 = 120%
    costs = transfers.batch_costs(link, 16, 64, 128)
    assert link_report.cost_rows(costs, link, False)[0][-1] == "40% – 100% (capped)"
    said = link_report._ids_sentence(costs[0], link)
    assert "between 40% and 100% of it latency" in said and ", capped: the slowest small message, 180.0 µs" in said
    assert link_report.mostly_latency_verdict(link, costs[0]).startswith(
        "within noise: no effect shown (latency 40% to 100% (capped) of its time")
    assert "120%" not in said


ROUNDS = [80.72e-3, 83.15e-3, 104.95e-3, 82.0e-3, 85.0e-3]  # section 1's rounds: 80.72 to 104.95 ms, +30.0%


def _step(profiled: float, alone: float) -> profile.StepProfile:
    return profile.StepProfile(profiled, {}, [], None, None, None, unprofiled_seconds=alone)


def test_a_profiled_step_inside_a_moments_move_is_not_put_down_to_the_profiler():
    """The reader's run: 84.7 ms / 79.0 ms = +7.2%, and section 1's rounds ran 80.72 to 104.95 ms (+30.0%)."""
    said = _step(84.7e-3, 79.0e-3).overhead_sentence(ROUNDS)
    assert "84.7 ms / 79.0 ms = 1.07x that (+7.2%)." in said
    # the unprofiled 79.0 ms lies below every round: the range counts it, 104.95 / 79.0 (t23_0001 #6)
    assert ("That +7.2% is within the +32.8% a moment moves one step (section 1's rounds and the unprofiled step "
            "here: the slowest over the fastest, 104.95 / 79.0 ms): "
            "this run cannot tell what recording every op costs from a moment's move.") in said
    assert "Recording every op adds time" not in said and "recording every op adds time" not in said
    # near zero, or faster but within the range: still cannot tell, never "added little"
    for profiled in (79.3e-3, 75.0e-3):
        words = _step(profiled, 79.0e-3).overhead_sentence(ROUNDS)
        assert "this run cannot tell what recording every op costs" in words and "added little" not in words


def test_a_profiled_step_past_a_moments_move_is_said_to_be_past_it():
    said = _step(110.0e-3, 79.0e-3).overhead_sentence(ROUNDS)  # 110.0 / 79.0 = 1.392: +39.2%
    assert ("That +39.2% is past the +32.8% a moment moves one step (section 1's rounds and the unprofiled step "
            "here: the slowest over the fastest, 104.95 / 79.0 ms; the profiled 110.0 ms lies above every round, 104.95 ms at most)"
            ": recording every op adds time here") in said
    assert "more than a moment moves a step" not in said  # t29_0001: the clause said it twice
    faster = _step(50.0e-3, 79.0e-3).overhead_sentence(ROUNDS)  # -36.7%: the profiler cannot speed a step up
    assert "ran faster than the unprofiled one, by more than the +32.8% a moment moves one step" in faster
    assert "this run cannot tell what recording every op costs" in faster and "adds time here" not in faster
    # steady rounds, the unprofiled 79.0 ms counted (82.0 / 79.0: +3.8%): a +4.1% is past them, so the run shows
    # the recording's cost
    steady = _step(82.2e-3, 79.0e-3).overhead_sentence([80.0e-3, 82.0e-3])
    assert "That +4.1% is past the +3.8% a moment moves one step" in steady
    # no rounds passed: the sentence as before, with no claim on a moment's move
    assert "Recording every op adds time" in _step(84.7e-3, 79.0e-3).overhead_sentence()
