"""Lesson 09, the sixth reading (t6_09): the split alone read against its per-process reference by the rounds'
spread (lesson 02 §3's rule); every ± of recorded rounds from ``claims.printed_spread`` (lesson 02's figure);
shares of a GPU's rate rounded half up; row B8's saving worded by its sign; rounds printed as lesson 02 prints
them (1.997x, never 2.00x under 2 devices' 2x)."""

from __future__ import annotations

import pytest
from test_articles_checked import _figures, _recorded

from utils.lessons.articles_checked import checks, report, timed_rows, verdicts, wording

# the reader's ledger (lesson 02, 2026-12-06): the split alone and §9's interleaved 1F1B and ZBV
SPLIT = dict(value=1.086215, bound=1.0, reference=1.055849, rounds=[1.050067, 1.087100, 1.040757, 1.182791, 1.086215])
INTERLEAVED = dict(value=1.759839, bound=16 / 9, reference=1.873684,
                   rounds=[1.846565, 1.718654, 1.712618, 1.876352, 1.759839])
ZBV = dict(value=1.937256, bound=1.92, reference=1.979381, rounds=[1.937256, 1.833989, 1.946777, 1.996572, 1.835233])


def test_the_split_alone_beyond_its_reference_by_the_spread_is_a_finding_not_explained():
    # 1.09 - 0.02 = 1.07 > 1.06: lesson 02's words, not "within the per-process reference" (t6_09 #1)
    said = checks.split_alone_words(SPLIT)
    assert said.startswith("above the bound"), said
    assert said == ("above the bound: a finding to explain; above the per-process reference (1.06x) too, by more "
                    "than the rounds' spread (± 0.02): not explained by it (lesson 02 §3)")
    assert "explained by the reference" not in said
    # the other branch: a reference the median less its spread reaches (1.09 - 0.02 = 1.07 <= 1.08)
    within = checks.split_alone_words(SPLIT | {"reference": 1.08})
    assert within.endswith("within the per-process reference 1.08x: explained by the reference (lesson 02 §3)")
    # under its bound: no reading against the reference at all
    assert "per-process" not in checks.split_alone_words(SPLIT | {"value": 0.97, "rounds": [0.96, 0.97, 0.98]})


@pytest.mark.parametrize("reference", [1.0558, 1.08])
def test_the_split_alone_past_its_bound_is_a_finding_either_way(reference):
    # both branches: "a finding to explain" (lesson 02's reading), never "the stages did not take turns"
    m = _figures(naive_split=_recorded(**SPLIT | {"reference": reference}), pipeline=_recorded(1.7, 16 / 9))
    assert verdicts.run_check("A10", m, {}) == verdicts.ABOVE
    said = report.split_above_words(m["results"]["naive_split"].record)  # the note's paragraph on the split
    assert "did not take turns" not in said
    assert "median less the rounds' spread" in said


def test_every_recorded_spread_is_lesson_02s_printed_spread():
    # rounds as printed 1.85 1.72 1.71 1.88 1.76: (1.85 - 1.72) / 2 = 0.065, half up 0.07 (t6_09 #2)
    assert checks.spread_of(INTERLEAVED) == 0.07
    said = wording.two_stage_parts(_figures(interleaved_1f1b=_recorded(**INTERLEAVED)),
                                   lambda m, name: "at the bound (within noise)")[0]
    text = " ".join(part.text for part in said)
    assert "± 0.07" in text and "± 0.06" not in text, text
    # the rounds a row prints (B8, B22) spread by the same rule: 1.81 1.73 1.64 1.18 1.05 -> 0.275 -> 0.28
    assert checks.paired([1.81, 1.73, 1.64, 1.18, 1.05]) == (1.64, 0.28)


def test_shares_of_a_gpus_rate_round_half_up_as_a_reader_does():
    # 1.77 / 2 = 88.5% -> 89%, 1.79 / 2 = 89.5% -> 90% (``:.0%`` gave 88% and 90%) (t6_09 #3)
    assert wording.share_of_rate(1.77) == 89 and wording.share_of_rate(1.79) == 90
    assert wording.share_of_rate(1.7726) == 89  # the speed-up as printed (1.77), not its unrounded value
    ranked = wording.kept_most_words({"lesson 02 §5's pipeline": 1.77 / 2, "interleaved 1F1B": 1.76 / 2})
    assert "lesson 02 §5's pipeline 89%, interleaved 1F1B 88%" in ranked, ranked
    assert wording.per_worker_words(1.77).startswith("89% of one worker's work a second each (speed-up / 2: it falls")
    assert "it holds" in wording.per_worker_words(1.999)  # printed 2.00x: 100%, as the page shows it


def test_row_b8_words_its_saving_by_its_sign():
    # 1286 µs for 4 MiB against 1380 µs for 1 MiB: nothing saved, never "save -94 µs" (t6_09 #4)
    lost = timed_rows.saved_words(1286 - 1380)
    assert "-94" not in lost and "no saving is read" in lost and "took 94 µs longer" in lost, lost
    # t23_09 #6: no saving read from noise; the condition fails where packing alone outcosts the whole plain send
    assert timed_rows.condition_words("fails", -94, 1286, 2126) == (
        "at least the whole plain send (2126 against 1286 µs): no saving from the bytes, at most that whole send, "
        "could repay it, so the condition fails whatever the noise")
    # the other branches: a saving, and none at all
    assert timed_rows.saved_words(94) == "so the 3 MiB not sent save 94 µs"
    assert timed_rows.condition_words("fails", 94) == "more than they save: the condition fails"
    assert "no saving is read from these two times (the two took the same time" in timed_rows.saved_words(0)


def test_rounds_print_as_lesson_02_prints_them_under_2x():
    # ZBV's round 1.9966 prints 1.997x, as lesson 02 prints it: "2.00x" would read as all of each GPU's rate
    said = checks.rounds_above_words(ZBV)
    assert said.startswith("3 of 5 rounds above the bound (up to 1.997x)"), said
    assert "2.00x" not in said
    # a round clear of 2x keeps two decimals
    assert "(up to 1.95x)" in checks.rounds_above_words(ZBV | {"rounds": [1.937, 1.834, 1.947, 1.95, 1.835]})


def test_an_inconclusive_check_is_named_noise_bound_not_only_within_a_spread():
    # rows B2 and B10 are inconclusive because message times are out of size order, no spread involved (t6_09
    # other #2): the label names every cause, and "within a spread" is one of them
    row = verdicts.Row(id="B2", says="", verdict="true under conditions", why="why", where="lesson 00 §3",
                       parts=(), check=verdicts.NOISY)
    assert report.verdict_cell(row) == (f"true under conditions -- INCONCLUSIVE, noise-bound ({report.NOISY_WHY}): why "
                                        "(lesson 00 §3)")
    assert report.NOISY_WORDS == ("inconclusive, noise-bound (within a spread, with none recorded, timings out of "
                                  "order, or launches that disagree: its evidence says which)")


def _pair(slow: float, fast: float, ratios, ceiling=None, difference=1e-7):
    from utils.lessons.why_slow.algorithms import Comparison

    return Comparison("gelu", "gelu_op_by_op", "gelu_fused", slow, fast, difference, round_ratios=tuple(ratios),
                      ceiling=ceiling, no_ceiling="" if ceiling else "the fused kernel also skips FLOPs")


def test_b4_and_b14_print_their_speed_up_beside_lesson_01s_ceiling():
    # B14: 9.10 / 2.84 = 3.20x beside its bytes ceiling (22 reads and writes cut to 2: 11x) (t6_09 other #3)
    gelu = _pair(9.1e-3, 2.84e-3, (3.1, 3.15, 3.2, 3.25, 3.3), ceiling=11.0)
    said = wording.fused_words(gelu, ("GELU op by op", "fused into one kernel"), "one thread")
    assert said.startswith("GELU op by op 9.10 ms, fused into one kernel 2.84 ms (one thread, the fastest of 5 "
                           "interleaved rounds each, which need not come from one round); each round's own ratio (slow over fast in one round): "
                           "median 3.20x ± 0.05 (its 5 rounds, listed in the collapsed block of quick measurements "
                           "after section 9), the same result (largest difference 1e-07, within 1e-05); against its "
                           "bytes ceiling 11.00x (22 whole-tensor reads and writes cut to 2, lesson 01 §5): faster, "
                           "under the bound"), said
    m = _figures() | {"algorithms": {"gelu": gelu, "attention": _pair(5.12e-3, 2.98e-3, (1.7, 1.71, 1.72, 1.73))},
                      "others": {}}
    assert checks.fused_holds(m, "gelu") and checks.fused_holds(m, "attention")
    # B4: no bytes ceiling, lesson 01's reason given
    assert "no bytes ceiling (lesson 01 §5: the fused kernel also skips FLOPs): faster than the baseline" in \
        wording.fused_words(m["algorithms"]["attention"], ("naive attention", "fused"), "one thread")
    # the other outcomes: within the spread (inconclusive), past the ceiling (a finding), results apart (no)
    with pytest.raises(checks.Noisy):
        checks.fused_holds(m | {"algorithms": {"gelu": _pair(1e-3, 1e-3, (0.8, 0.9, 1.1, 1.2))}}, "gelu")
    with pytest.raises(checks.AboveBound):
        checks.fused_holds(m | {"algorithms": {"gelu": _pair(12e-3, 1e-3, (12, 12, 12, 12), ceiling=11.0)}}, "gelu")
    apart = _pair(9.1e-3, 2.84e-3, (3.2,) * 5, difference=1e-3)
    assert not checks.fused_holds(m | {"algorithms": {"gelu": apart}}, "gelu")
    assert "results apart by 1e-03, past 1e-05" in wording.fused_words(apart, ("a", "b"), "c")


def test_row_b8_in_this_run_says_why_its_condition_failed_by_the_sign_of_the_saving():
    from utils.lessons.articles_checked import timed_rows as rows

    def compressed(bytes_us: float) -> dict:
        return {"plain": [1286e-6] * 9, "packed": [2512e-6] * 9, "bytes": [bytes_us * 1e-6] * 9,
                "packing": [2126e-6] * 9}

    lost = rows.b8_in_this_run(_figures() | {"compressed": compressed(1380)})  # the reader's run
    assert lost.startswith("; in this run the condition failed (the packing alone cost more than the whole plain "
                           "send, which no saving could repay)"), lost
    saved = rows.b8_in_this_run(_figures() | {"compressed": compressed(1000)})  # 286 µs saved, 2126 µs to pack
    assert saved.startswith("; in this run the condition failed (packing cost more than it saved)"), saved
