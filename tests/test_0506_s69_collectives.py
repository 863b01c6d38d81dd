"""Lesson 06 section 4, thirtieth reading (t30_0506 #2): the extra time inside FSDP2's collectives is set
against the gap in step time only where the steps show one beyond their noise, and a share above 100% is said
for what it means. Every outcome of the account (``collectives_sentence``) and of the answer
(``collectives_answer``). Fabricated figures only."""

import pytest

from utils.lessons.memory import collectives


def _run(step, step_range, seconds):
    calls = {k: 2 for k in seconds}
    return [{"mean_step_seconds": step, "step_range": step_range, "collective_seconds_per_step": seconds,
             "calls_per_step": calls, "sent_per_step": {k: 3.3e6 for k in calls}}]


def _runs(fsdp_step, fsdp_range, fsdp_inside, ddp_range=(0.040, 0.050)):
    """DDP: 45.0 ms a step, 10.0 ms inside its all-reduce; FSDP2 as given (its two collectives' ms)."""
    return {"ddp": _run(0.0450, ddp_range, {"all-reduce": 0.0100}),
            "fsdp": _run(fsdp_step, fsdp_range, dict(zip(("all-gather", "reduce-scatter"), fsdp_inside)))}


def test_a_gap_within_the_steps_noise_gets_no_share():
    # the reader's run: 43.1 - 10.1 = 33.0 ms more inside, "250% of the gap" (13.2 ms) the range said is not shown
    runs = _runs(0.0582, (0.041, 0.070), (0.0200, 0.0230))   # 58.2 / 45.0; 43.0 - 10.0 = 33.0 ms
    answer, account = collectives.collectives_answer(runs)
    assert "the range spans 1x" in account and "%" not in account.split("the range spans 1x")[1]
    assert ("the step times do not differ beyond their noise, so the 33.0 ms more inside the collectives is not "
            "set against their 13.2 ms gap.") in account
    assert "Candidates" not in account   # no rest of a gap to account for
    assert answer.endswith("; 33.0 ms more inside the collectives, not set against a gap the noise does not show "
                           "(the details).")


def test_more_than_the_whole_gap_says_the_step_outside_them_took_less():
    runs = _runs(0.0582, (0.052, 0.066), (0.0200, 0.0230))   # slower in every pairing: 52 / 50 > 1
    answer, account = collectives.collectives_answer(runs)
    assert ("the extra time inside collectives (33.0 ms) is more than the whole gap in step time (13.2 ms): outside "
            "the collectives FSDP2's step measured 19.8 ms less than DDP's (not timed apart here).") in account
    assert "%" not in account.split("Inside them")[1] and "Candidates" not in account
    assert answer.endswith("; 33.0 ms more inside the collectives, more than the whole 13.2 ms gap: outside them "
                           "its step measured 19.8 ms less (the details).")


def test_a_share_of_a_gap_shown_is_rounded_half_up_and_the_rest_has_its_candidates():
    runs = _runs(0.0850, (0.070, 0.100), (0.0105, 0.0149))   # 40.0 ms gap; 25.4 - 10.0 = 15.4 ms: 38.5% -> 39%
    answer, account = collectives.collectives_answer(runs)
    assert "(15.4 ms) is 39% of the gap in step time (40.0 ms)." in account and "Candidates" in account
    assert answer.endswith("; 15.4 ms more inside the collectives, 39% of the 40.0 ms gap (how and what else: the "
                           "details).")


def test_no_more_inside_the_collectives_puts_the_whole_gap_outside_them():
    runs = _runs(0.0850, (0.070, 0.100), (0.0040, 0.0050))   # 9.0 against 10.0 ms inside
    answer, account = collectives.collectives_answer(runs)
    assert ("FSDP2 spent no more time inside its collectives than DDP (-1.0 ms): the whole gap in step time "
            "(40.0 ms) lies outside them.") in account and "Candidates" in account
    assert answer.endswith("; no more time inside the collectives (-1.0 ms): the 40.0 ms gap lies outside them "
                           "(what else: the details).")


@pytest.mark.parametrize("inside, said", [((0.0040, 0.0050), "1.0 ms less"), ((0.0050, 0.0050), "no more time"),
                                          ((0.0050, 0.0060), "1.0 ms more")])
def test_within_noise_says_more_or_less_in_words(inside, said):
    runs = _runs(0.0582, (0.041, 0.070), inside)
    assert f"so the {said} inside the collectives is not set against" in collectives.collectives_answer(runs)[1]


def test_without_the_steps_ranges_the_share_is_read_as_before():
    runs = _runs(0.0850, (0.070, 0.100), (0.0105, 0.0149))
    for r in runs.values():
        r[0]["step_range"] = None
    assert "39% of the gap in step time (40.0 ms)" in collectives.collectives_sentence(runs)
