"""Read-back items 4, 5, 6, 7 and 8 (session 54): sentences of labs 04 and 06 (fix the article) and of lessons
00, 06 and 07 made by the course's one rule in ``utils.claims`` instead of a private one, so that the words
follow from the printed figures on every outcome."""

import pytest

from utils import claims

# --- item 4: lab 04's plan line says "made the difference" only where the printed over ± spread shows it ------


@pytest.fixture
def lab04(monkeypatch):
    from utils.labs.compress_under_budget import checks as lab04

    widths = {"yours": [276] * 4, "trained": [768] * 4, "whole": [768] * 4, "same": [768] * 4}
    kinds = {"yours": "int8_dynamic", "trained": "float", "whole": "int8_dynamic", "same": "float"}
    monkeypatch.setattr(lab04, "hidden_widths", lambda m: widths[m])
    monkeypatch.setattr(lab04, "quantization_of", lambda m: kinds[m])
    monkeypatch.setattr(lab04, "MEASURED_SPEED", [])
    monkeypatch.setattr(lab04, "KINDS_IN_TEST", kinds, raising=False)   # which type each model is stored as
    return lab04


def _line(lab04, model, kind, speed):
    lab04.KINDS_IN_TEST[model] = kind
    lab04.MEASURED_SPEED[:] = [(lab04.hidden_widths(model), kind, speed)]
    return " ".join(lab04._speed_line(model, "trained", "whole").split())


@pytest.mark.parametrize("over, spread, words", [
    (3.47, 0.27, "your narrower widths made the difference: 3.47x"),   # faster beyond noise: as before
    (1.02, 0.05, "your narrower widths made no difference this run can tell from its noise (its ± covers 1.00x)"),
    (1.04, 0.04, "your narrower widths made no difference this run can tell"),   # 1.04 - 0.04 reaches 1.00
    (0.80, 0.05, "your narrower widths made yours slower, not faster: 0.80x ± 0.05"),
    (1.0, 0.0, "your narrower widths made no difference (1.00x, no spread)"),
])
def test_the_narrower_widths_are_credited_only_where_the_printed_speed_up_shows_it(lab04, over, spread, words):
    said = _line(lab04, "yours", "int8_dynamic", lab04.PairedSpeed(over * 3.26, over, spread, 3.26, 21))
    assert "With int8 in both, " + words in said, said
    assert ("made the difference" in said) == (over == 3.47)


def test_every_branch_that_names_a_cause_reads_the_same_rule(lab04):
    slow = lab04.PairedSpeed(0.95, 0.95, 0.02, 0.90, 21)   # int8 alone slower: the trained model set the bar
    said = _line(lab04, "yours", "float", slow)
    assert "float in both: your narrower widths made yours slower, not faster." in said, said
    said = _line(lab04, "same", "int8_dynamic", lab04.PairedSpeed(1.01, 1.01, 0.03, 0.90, 21))
    assert "the same widths: your weights' type made no difference this run can tell from its noise" in said
    said = _line(lab04, "same", "int8_dynamic", lab04.PairedSpeed(1.30, 1.30, 0.03, 0.90, 21))
    assert said.endswith("the same widths: your weights' type made the difference."), said


def test_int8_alone_at_1_004x_prints_1_00x_and_is_not_the_bar_anywhere(lab04):
    """1.004x prints "1.00x": no faster, so the trained model set the bar, in the plan line, in the check's
    words (``reference_words``), in ``medians_note`` and in the reference ``paired_speed`` divides by."""
    said = _line(lab04, "yours", "int8_dynamic", lab04.PairedSpeed(2.0, 2.0, 0.1, 1.004, 21))
    assert "whole-model int8 ran 1.00x the trained model's speed" in said and "Whole-model int8 bought no speed here" in said
    assert "no faster, so the trained model set the bar" in lab04.reference_words(1.004)
    assert "so it set the bar" in lab04.reference_words(1.006)   # prints 1.01x: int8 set it
    assert not lab04.int8_set_the_bar(1.004) and lab04.int8_set_the_bar(1.006)
    assert lab04.medians_note(lab04.PairedSpeed(2.5, 2.0, 0.1, 1.004, 21)) == ""   # no division by the bar
    speed = lab04.paired_speed({"baseline": [10.04] * 4, "whole": [10.0] * 4, "yours": [5.0] * 4})
    assert speed.over == pytest.approx(10.04 / 5.0)   # over the trained model's time, the bar as printed


# --- item 5: lessons 06 and 07 print the range of the bound's gain with claims.gain_share_range -------------


def test_the_gain_range_of_lessons_06_and_07_is_claims_one_rule():
    from utils.lessons.memory import summary
    from utils.lessons.tensor_parallel import report

    for value, spread, bound in ((1.40, 0.16, 2.0), (1.24, 0.23, 2.0), (1.08, 0.02, 1.26), (1.12, 0.04, 1.15)):
        verdict = f"faster, under the bound: {claims.gain_share(value, bound)} of its gain"
        tail = claims.gain_share_range(value, spread, bound)
        assert tail and summary.gain_range(verdict, value, spread, bound) == verdict + tail
        assert report.gain_range(verdict, value, spread, bound) == verdict + tail
    # ends that are ties, rounded half up as a reader rounds them: (1.63 - 1) / 2 = 31.5% and (1.77 - 1) / 2 =
    # 38.5%; lesson 07's own ``:.0%`` printed "31% to 38%"
    said = report.gain_range("faster, under the bound: 35% of its gain", 1.70, 0.07, 3.0)
    assert said.endswith(" (32%-39% across its ±)"), said
    # no spread, or both ends the same printed share: nothing added, in both lessons
    assert summary.gain_range("faster, under the bound: 50% of its gain", 1.5, 0.0, 2.0).endswith("of its gain")
    assert report.gain_range("faster, under the bound: 50% of its gain", 1.5, 0.0, 2.0).endswith("of its gain")
    assert report.gain_range("within noise: no effect shown", 1.1, 0.2, 2.0) == "within noise: no effect shown"


# --- item 6: lesson 00's margins in points from the percent as claims.percent prints it ---------------------


def test_lesson_00s_printed_percent_and_its_margin_are_one_rule():
    from utils.lessons.start_here import summary

    for share in (0.285, 0.295, 0.125, 0.3049, 0.2951):
        assert summary.percent_shown(share) == int(claims.percent(share)[:-1]) / 100
    assert summary.fit_verdict(0.285) == "within the tolerance, 21 points to spare"   # 29% printed: 50 - 29


def test_the_make_it_fast_share_is_already_half_up_to_one_decimal():
    from utils.labs.make_it_fast.checks import share_text

    assert share_text(0.6345) == "63.5%" and share_text(0.6345) == f"{claims.half_up(63.45, 1):.1f}%"


# --- item 7: lesson 06's policy clause reads claims.within_noise on the printed figures ---------------------


@pytest.mark.parametrize("policy, spread, slower", [
    (1.06, 0.02, True), (1.03, 0.02, True), (1.02, 0.02, False),   # 1.02 - 0.02 reaches 1.00: noise
    (1.0249, 0.0151, False),   # prints 1.02x ± 0.02: within noise, whatever the digits behind the print
    (1.01, 0.0, True), (1.00, 0.0, False), (0.95, 0.02, False),   # faster: no cost of the policy either
])
def test_the_policy_is_named_a_cost_only_where_slower_beyond_its_printed_noise(policy, spread, slower):
    from utils.lessons.memory import summary

    text = summary.policy_clause(policy, spread)
    shown, pm = claims.as_printed(policy, 2), claims.as_printed(spread, 2)
    assert text.startswith(f"its whole forward alone took {shown:.2f}x ± {pm:.2f} the plain one")
    assert ("slower beyond its ±" in text) == slower == (shown > 1 and not claims.within_noise(shown, pm))
    assert ("no cost of the policy shown there" in text) == (not slower)


# --- item 8: lab 06 (fix the article) counts its rounds by claims.round_above -------------------------------


@pytest.mark.parametrize("ratio", [0.994, 0.995, 0.996, 1.0, 1.004, 1.005, 1.006, 0.5, 2.0, 1.015, 0.985])
def test_a_rounds_side_of_1_is_claims_round_above(ratio):
    from utils.labs.fix_the_article.rounds import side_of

    above, below = claims.round_above(ratio, 1.0), claims.round_above(ratio, 1.0, below=True)
    assert side_of(ratio) == ("above" if above else "below" if below else "at")
    assert side_of(ratio) == ("above" if f"{ratio:.2f}" > "1.00" else "below" if f"{ratio:.2f}" < "1.00"
                              else "at")   # as the table prints the round
