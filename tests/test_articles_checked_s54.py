"""Lesson 09, session 54's fixes (readback items 2, 6, 7, 14): one printer for each GPU's share of its rate,
its words decided from the speed-up as printed (a 1.99x run reads 99.5% and "falls" in rows A19, A24, B21,
never 100% or "holds"); B12's zeroed time read by ``claims.within_noise``; one wording, with one separator,
for a reference or single rounds past 2 devices' 2x wherever lesson 09 says it."""

from __future__ import annotations

from test_articles_checked import _figures, _recorded

from utils import claims as course
from utils.lessons.articles_checked import checks, claims, figures, report, shares, verdicts, wording

BOUND_8 = 16 / 9  # 2m/(m+1) for m = 8


def test_the_share_printer_prints_100_percent_only_for_all_of_it():
    assert shares.percent_text(0.885) == "89" and shares.percent_text(0.605) == "61"  # claims.percent
    assert shares.percent_text(0.995) == "99.5" and shares.percent_text(0.9996) == "99.96"  # under all of it
    assert shares.percent_text(1.0) == "100"
    assert shares.percent_text(1.004) == "100.4" and shares.percent_text(1.005) == "101"  # over it: never 100
    assert shares.share_text(1.99) == "99.5" and shares.share_text(1.77) == "89"
    assert shares.share_text(1.999) == "100"  # printed 2.00x: all of it
    assert shares.share_of_rate(1.99) == 100  # the whole per cent a line is judged by, never printed
    # one printer: the modules that print a share read it from shares
    assert figures.share_text is shares.share_text and figures.percent_text is shares.percent_text
    assert wording.per_worker_words is shares.per_worker_words


def test_the_share_words_follow_the_speed_up_as_printed_every_branch():
    assert [shares.share_went(x) for x in (1.99, 1.999, 2.0, 2.01)] == ["falls", "holds", "holds", "rises"]
    each = "of one worker's work a second each (speed-up / 2:"
    assert shares.per_worker_words(1.99) == f"99.5% {each} it falls)"
    assert shares.per_worker_words(1.999) == f"100% {each} it holds)"
    assert shares.per_worker_words(2.01) == f"101% {each} it rises: superlinear, a finding to explain)"
    assert shares.per_worker_words(1.77) == f"89% {each} it falls)"


def _evidence(claim_id: str, m: dict) -> str:
    return verdicts.judge(claims.BY_ID[claim_id], m, {}).evidence


def test_a_1_99x_run_reads_one_share_in_rows_a19_a24_b21_and_a4():
    assert "falls at any speed-up under 2x (equal at 2x;" in claims.BY_ID["A24"].why
    m = _figures(ddp=_recorded(1.99), capstone=_recorded(1.99), pipeline=_recorded(1.6, BOUND_8))
    a19 = _evidence("A19", m)
    assert "data parallel kept 99.5% of each GPU's rate, above the row's 60% line" in a19, a19
    assert "1.99x one, 99.5% each (speed-up / 2" in a19 and "100%" not in a19, a19
    assert "none kept all of each GPU's rate (data parallel came nearest, 99.5%)" in a19, a19
    for claim_id in ("A24", "B21"):
        said = _evidence(claim_id, m)
        assert "99.5% of one worker's work a second each (speed-up / 2: it falls)" in said, (claim_id, said)
        assert "100%" not in said and "it holds" not in said, (claim_id, said)
    a4 = _evidence("A4", m)
    assert "1.99x (bound 2x): the time 50% of one GPU's" in a4, a4
    assert "2 / 1.99 = 1.01x the GPU-hours of one GPU (not past 2x: none saved)" in a4, a4
    # the other outcome: 2.00x as printed (1.999): all of it, "it holds", in every row
    m = _figures(ddp=_recorded(1.999), capstone=_recorded(1.999), pipeline=_recorded(1.6, BOUND_8))
    a19 = _evidence("A19", m)
    assert "data parallel kept 100% of each GPU's rate" in a19 and "2.00x one, 100% each" in a19, a19
    assert "data parallel kept all of it or more" in a19, a19
    for claim_id in ("A24", "B21"):
        assert "100% of one worker's work a second each (speed-up / 2: it holds)" in _evidence(claim_id, m)
    assert "2 / 2.00 = 1.00x the GPU-hours of one GPU (not past 2x: none saved)" in _evidence("A4", m)


def test_a19_prints_the_share_nearest_its_line_as_every_share_is_printed():
    said = wording.kept_most_words({"the article's split": 0.46, "data parallel": 0.995})
    assert "the share nearest that line here: the article's split 46%" in said, said
    said = wording.kept_most_words({"the article's split": 1.2, "data parallel": 0.995})  # 100 is nearer 60
    assert "the share nearest that line here: data parallel 99.5%" in said and " 100%" not in said, said


def _prune(zeroed_ms: float) -> dict:
    return {"dense": 10e-3, "zeroed": zeroed_ms * 1e-3, "removed": 5e-3}


def test_zeroed_side_is_the_course_noise_rule_on_the_ratio_as_printed_both_sides():
    # two fastest times beyond the floor decide nothing since t26_09 #1 ("unpaired"; test_09_s64 pairs them)
    for zeroed_ms, side in ((10.0, "within"), (10.2, "within"), (9.8, "within"), (9.7, "unpaired"),
                            (10.3, "unpaired")):
        prune = _prune(zeroed_ms)
        assert figures.zeroed_side(prune) == side, (zeroed_ms, figures.zeroed_side(prune))
        # the same answer as claims.within_noise on the ratio rows B11 and B12 print, floor ± 0.02
        ratio = figures.zeroed_ratio(prune)
        assert (side == "within") == course.within_noise(ratio, figures.LEDGER_NOISE), ratio
    assert figures.zeroed_no_faster(_prune(9.8)) and not figures.zeroed_no_faster(_prune(10.3))
    assert not figures.zeroed_no_faster(_prune(9.7))


PAST = {"value": 1.97, "bound": BOUND_8, "reference": 2.05, "rounds": [2.03, 1.97, 1.87, 2.05, 1.97]}
QUIET = {"value": 1.84, "bound": BOUND_8, "reference": 1.87, "rounds": [1.80, 1.82, 1.84, 1.86, 1.88]}
ROUNDS = ("2 of its 5 rounds above 2 devices' 2x (2.03x, 2.05x): a finding to explain, which no reference "
          "explains")
REFERENCE = ("its reference, 2.05x, is itself past 2 devices' 2x, which equal work on 2 devices cannot give: "
             "past 2x it counts work the split saved, not overlap, so it explains no figure past 2x")


def test_a_reference_and_rounds_past_2x_read_in_one_wording_in_every_place():
    assert figures.rounds_past_two_words(PAST) == ROUNDS
    assert figures.reference_past_two_words(2.05) == REFERENCE
    # the four places lesson 09 says it: the note's explanation, §9's reading, make bench's runs, the rows
    capital = report.capitalised
    assert report.past_two_words(PAST, 2.05) == f" {capital(REFERENCE)}. {capital(ROUNDS)}."
    explained = report.explained_words(PAST, 2.05)
    assert explained == f": explained by the reference in the median; {ROUNDS}; {REFERENCE}.", explained
    assert report.bench_rounds_past_two(PAST) == f"; {ROUNDS}"
    assert checks.pipeline_explanation(PAST).endswith(f"as lesson 02 §5 reads it; {REFERENCE}")
    assert " / " not in report.explained_words(PAST | {"rounds": [2.0024, 2.03, 1.99, 1.77, 1.98]}, 2.05)


def test_nothing_past_2x_says_nothing_of_it_in_every_place():
    assert figures.rounds_past_two_words(QUIET) == "" and figures.reference_past_two_words(1.87) == ""
    assert figures.reference_past_two_words(None) == ""
    assert figures.reference_past_two_words(2.004) == ""  # printed 2.00x: not past 2x
    assert report.past_two_words(QUIET, 1.87) == "" and report.past_two_words(QUIET, None) == ""
    assert report.explained_words(QUIET, 1.87) == ": explained by the reference."
    # no round past 2x: nothing of 2x; its 1.88x round past the 1.87x reference beyond 1.84 + 0.02 is read as
    # lesson 02's rounds are (s55c)
    assert "2 devices' 2x" not in report.bench_rounds_past_two(QUIET)
    assert report.bench_rounds_past_two(QUIET | {"rounds": [1.80, 1.82, 1.84, 1.86, 1.87]}) == ""
    assert checks.pipeline_explanation(QUIET).endswith("as lesson 02 §5 reads it")
    # a reference past 2x with no round past it: the reference's words alone
    ref_only = QUIET | {"reference": 2.05}
    assert report.past_two_words(ref_only, 2.05) == f" {report.capitalised(REFERENCE)}."
    assert checks.pipeline_explanation(ref_only).endswith(f"; {REFERENCE}")
