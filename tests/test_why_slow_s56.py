"""Twentieth reading (t20_0001), lesson 01: the profiler's move is set against section 1's rounds as a ratio
only, never as a span of ms the profiled step lies outside; where it lies outside, the sentence says so."""

from utils.lessons.why_slow import profile

READER_ROUNDS = [77.86e-3, 84.28e-3, 78.82e-3, 80.1e-3]  # section 1's rounds: 77.86 to 84.28 ms, +8.2%


def _step(profiled: float, alone: float) -> profile.StepProfile:
    return profile.StepProfile(profiled, {}, [], None, None, None, unprofiled_seconds=alone)


def test_the_readers_step_above_every_round_is_said_to_be_so_beside_the_ratio():
    said = _step(85.2e-3, 79.6e-3).overhead_sentence(READER_ROUNDS)
    assert "85.2 ms / 79.6 ms = 1.07x that (+7.0%)." in said
    assert ("That +7.0% is within the +8.2% a moment moves one step (section 1's rounds: the slowest over the "
            "fastest, 84.28 / 77.86 ms; the profiled 85.2 ms lies above every round, 84.28 ms at most): this run "
            "cannot tell what recording every op costs") in said
    assert "77.86 to 84.28 ms" not in said  # no span of ms the step is said to be "within"


def test_a_step_inside_the_rounds_gets_no_note_and_one_below_them_is_named():
    inside = _step(80.0e-3, 79.6e-3).overhead_sentence(READER_ROUNDS)  # +0.5%, 80.0 ms within 77.86-84.28
    assert "(section 1's rounds: the slowest over the fastest, 84.28 / 77.86 ms): this run cannot tell" in inside
    assert "lies above" not in inside and "lies below" not in inside
    below = _step(76.0e-3, 79.6e-3).overhead_sentence(READER_ROUNDS)  # -4.5%: within +8.2%, under every round
    assert "That -4.5% is within the +8.2%" in below
    assert "the profiled 76.0 ms lies below every round, 77.86 ms at least" in below
    faster = _step(70.0e-3, 79.6e-3).overhead_sentence(READER_ROUNDS)  # -12.1%: past the range, faster
    assert "ran faster than the unprofiled one, by more than the +8.2%" in faster and "lies below every" in faster


def test_a_step_past_the_rounds_shows_the_recordings_cost_and_where_it_lies():
    said = _step(95.0e-3, 79.6e-3).overhead_sentence(READER_ROUNDS)  # +19.3%
    assert "That +19.3% is past the +8.2% a moment moves one step" in said
    assert "the profiled 95.0 ms lies above every round, 84.28 ms at most): recording every op" in said
    assert "recording every op adds time here" in said



def test_a_band_clear_of_half_is_said_to_lie_all_on_one_side_of_it_never_beyond_its_own_end():
    """Reader t20_0001 (other 1): "mostly latency, beyond the small messages' spread (77% to 84%)", where 77% is
    the band's own low end: every end of the band lies above 50%, and the sentence now says that."""
    from tests.test_why_slow_s54 import _ids, _link
    from utils.lessons.why_slow import link_report

    link = _link([50.5, 55.0, 60.0, 100.0, 3500.0, 7000.0], accuracy=0.9)  # the ids: 51% to 60% latency
    said = link_report._ids_sentence(_ids(link), link)
    assert "mostly latency across the small messages' whole range (51% to 60%, all above 50%)" in said
    assert "beyond" not in said
    slow = _link([40.0, 42.0, 45.0, 100.0, 3500.0, 7000.0], accuracy=0.9)  # the ids' 100.0 µs: 40% to 45%
    said = link_report._ids_sentence(_ids(slow), slow)
    assert "not mostly latency across the small messages' whole range (40% to 45%, all below 50%)" in said


def test_axes_fitted_alone_with_differing_fixed_costs_say_per_axis_once_and_d_differs_once():
    """Reader t20_0001 (other 2): "fitted per axis within the ±10% tolerance, per axis only (d differs across
    axes), each axis with its own c and d": now "fitted on each axis alone" once, and that d differs once."""
    from tests.test_why_slow_s55 import axis
    from utils.lessons.why_slow import report, scaling

    series = {"width": axis("width", 9.1e-3), "depth": axis("depth", 1.5e-3), "context": axis("context", 4.6e-3)}
    said, table = report.scaling_sentence(series, scaling.fit), report.scaling_verdict(series, scaling.fit)
    head = "one fixed cost d fitted on each axis alone: within ±10% on every axis (3 of 3): width within"
    assert head in said and "per axis" not in said
    assert table.startswith("fitted on each axis alone: within ±10% on every axis (3 of 3); a finding across")
    assert table.count("differs") == 1 and "per axis" not in table and "holds" not in table
    same = {"width": axis("width", 1e-3), "depth": axis("depth", 1e-3)}  # one fixed cost: one model, "holds"
    assert report.scaling_verdict(same, scaling.fit) == "holds on every axis (2 of 2)"
    assert "fitted per axis within the ±10% tolerance, holds on every axis (2 of 2)" in report.scaling_sentence(
        same, scaling.fit)
