"""Lesson 01 on the course's shared rules (read-back items 1, 5 and 11): section 3's sentence and the closing
table's verdict judge a batch of token ids by the same figures, section 5's gain range is
``claims.gain_share_range``, and section 4's flattest axis and best fit are compared as printed."""

import random
from types import SimpleNamespace as NS

import pytest

from utils import claims
from utils.lessons.why_slow import link_report, transfers
from utils.lessons.why_slow.algorithms import Comparison
from utils.lessons.why_slow.scaling_report import flat_and_fit_sentence

SIZES = [8, 512, 4096, 8192, 524288, 2**20]  # the small messages, the ids (8,192 = 512 x 16), the activations


def _link(us, accuracy, beta=3.0e9, alpha=90.0e-6):
    """A link measured at SIZES (times in µs), its fit ``alpha``, ``beta``, worst miss ``accuracy``."""
    return NS(name="gloo", fit=NS(sizes=SIZES, alpha=alpha, beta=beta), seconds=[u * 1e-6 for u in us],
              accuracy=accuracy)


def _ids(link):
    return transfers.batch_costs(link, 16, 64, 128)[0]


# the ids (8,192 bytes) in 80.0 µs beat the fastest small-message time (95.0 µs: 119%); the fastest rate this
# run measured is 0.15 GB/s (2^20 bytes in 7,000 µs), at which its bytes take 54.6 µs: 68% of its 80.0 µs
BEAT = [100.0, 95.0, 98.0, 80.0, 3500.0, 7000.0]


def test_a_rejected_fits_beta_no_longer_times_the_verdicts_bytes_so_sentence_and_verdict_agree():
    """Read-back item 1: the sentence timed the bytes at the fastest measured rate (the fit rejected: "half
    its time or more: ... not shown") while the verdict timed them at the rejected fit's β (2.7 µs of 80.0 µs:
    "holds: latency dominates"). Both now read ``_bytes_rate`` and one share test."""
    link = _link(BEAT, accuracy=0.9)  # the fit misses some size by 90 %: it cannot predict
    ids = _ids(link)
    assert round(ids.latency_share, 2) > 1
    said, verdict = link_report._ids_sentence(ids, link), link_report.mostly_latency_verdict(link, ids)
    assert ("Its bytes take 54.6 µs at the fastest rate this run measured (0.15 GB/s), half its time or more: "
            "how much of it is latency is not shown.") in said
    assert verdict.startswith("does not hold: the message took less than the fastest small-message time (a latency share of 119%, past "
                              "the whole, which the table prints as not measurable): "
                              "bytes 54.6 µs of 80.0 µs")
    assert verdict.endswith("the bytes take 68% of its time") and "2.7 µs" not in verdict
    # the other branch: a fit that predicts times the bytes at its β in both (2.7 µs of 80.0 µs)
    fits = _link(BEAT, accuracy=0.3)
    said, verdict = link_report._ids_sentence(_ids(fits), fits), link_report.mostly_latency_verdict(fits, _ids(fits))
    assert "Its bytes take 2.7 µs at β, so latency dominates it." in said
    assert verdict.startswith("holds:") and "bytes 2.7 µs of 80.0 µs" in verdict


def test_the_sentence_and_the_verdict_share_the_threshold_of_most():
    """``most`` moves both alike: bytes at 68 % of the time are under 1 - 0.25 = 75 %, so latency dominates."""
    link = _link(BEAT, accuracy=0.9)
    ids = _ids(link)
    assert "so latency dominates it" in link_report._ids_sentence(ids, link, most=0.25)
    assert link_report.mostly_latency_verdict(link, ids, most=0.25).startswith("holds:")
    assert "25% of its time or more" in link_report._ids_sentence(ids, link, most=0.75)  # 68% is not under 25%
    assert link_report.mostly_latency_verdict(link, ids, most=0.75).startswith("does not hold:")


# the sentence's words for each verdict: one question, one answer
ANSWERS = {"holds: the message": "so latency dominates it.", "does not hold: the message": "or more: how much",
           "within noise": "this run does not say whether it is mostly latency",
           "holds: latency": "): mostly latency", "does not hold: latency": "): not mostly latency"}


@pytest.mark.parametrize("seed", range(4))
def test_sentence_and_verdict_never_disagree_on_any_run(seed):
    """Random links, every branch (share past 100 % or not, the spread covering half or not, the fit kept or
    rejected): the sentence says what the verdict says, with the same figures."""
    rng, seen = random.Random(seed), set()
    for _ in range(400):
        small = [rng.uniform(40, 200) for _ in range(3)]
        us = small + [rng.uniform(30, 400), rng.uniform(200, 6000), rng.uniform(300, 12000)]
        link = _link(us, accuracy=rng.choice([0.2, 0.9]), beta=rng.uniform(0.05e9, 5e9))
        ids = _ids(link)
        verdict = link_report.mostly_latency_verdict(link, ids)
        said = link_report._ids_sentence(ids, link)
        key = next(k for k in ANSWERS if verdict.startswith(k))
        seen.add(key)
        assert ANSWERS[key] in said, (us, verdict, said)
        if key == "within noise":  # the same range, printed alike
            band = verdict.split("(latency ")[1].split(" of its time")[0]
            assert band.replace(" (capped)", "").replace(" to ", " and ") in said
            assert ("(capped)" in band) == (", capped: the slowest small message" in said)  # one cap, both
        if key.endswith("latency"):  # the share printed lies on the side the verdict names
            printed = int(verdict.split("latency ")[1].split("%")[0])
            assert printed > 50 if key.startswith("holds") else printed < 50
        if key.endswith("the message"):  # the same bytes' time, at the same rate
            assert verdict.split(": bytes ")[1].split(" of ")[0] in said
    assert len(seen) >= 3


def test_the_range_test_is_the_course_noise_rule_on_the_printed_ends():
    """A range whose printed end touches half covers it (50% to 60%: within noise); one clear of it does not."""
    link = NS(fit=NS(sizes=[8, 512, 4096, 8192]), seconds=[50e-6, 60e-6, 55e-6, 100e-6])
    assert link_report._latency_side(link, NS(transfers=1, measured=100e-6), 0.5) == (0.5, 0.6, None)
    assert link_report._latency_side(link, NS(transfers=1, measured=90e-6), 0.5)[2] == "above"  # 56% to 67%
    assert link_report._latency_side(link, NS(transfers=1, measured=130e-6), 0.5)[2] == "below"  # 38% to 46%


def test_a_share_on_the_half_is_printed_and_judged_half_up():
    """50.5 µs of 100.0 µs: 50.5 %, printed "51%" as a reader rounds it (``claims.percent``), and judged so:
    mostly latency in the sentence and the verdict alike."""
    link = _link([50.5, 55.0, 60.0, 100.0, 3500.0, 7000.0], accuracy=0.9)
    ids = _ids(link)
    assert "takes 100.0 µs, 51% of it latency" in link_report._ids_sentence(ids, link)
    assert ("): mostly latency across the small messages' whole range (51% to 60%, all above 50%)"
            in link_report._ids_sentence(ids, link))
    assert link_report.mostly_latency_verdict(link, ids) == "holds: latency 51% of its time"


def _old_gain_range(value, spread, ceiling):
    """Lesson 01's own copy before read-back item 5, kept here to show the words did not change."""
    value, spread, ceiling = round(value, 2), round(spread, 2), round(ceiling, 2)
    if not spread:
        return ""
    low, high = (claims.percent(max(0.0, min((v - 1) / (ceiling - 1), 1.0))) for v in (value - spread,
                                                                                         value + spread))
    return f" ({low}-{high} across its ±)" if low != high else ""


def test_the_gain_range_is_the_courses_one_rule_with_the_same_words():
    """Read-back item 5: ``claims.gain_share_range`` gives lesson 01's former words wherever the figures agree.
    ``Comparison.gain_range`` now works its range from the rounds' middle half (reader t32_0001 #1), which for
    reader t10_0001's rounds gives the same 25%-56% as 5.04x ± 1.56 under 11.00x (3.48x and 6.60x)."""
    c = Comparison("gelu", "op_by_op", "fused", 5.04e-3, 1.0e-3, 0.0, round_ratios=(3.0, 3.48, 5.04, 6.6, 7.0),
                   ceiling=11.0)
    assert claims.gain_share_range(5.04, 1.56, 11.0) == " (25%-56% across its ±)"
    assert c.gain_range() == " (25%-56% across its rounds' middle half)"
    assert c.verdict == "faster, under the bound: 40% of its gain (25%-56% across its rounds' middle half)"
    steady = Comparison("gelu", "a", "b", 5.04e-3, 1.0e-3, 0.0, ceiling=11.0)  # no rounds: no ±, no range
    assert steady.gain_range() == "" and steady.verdict == "faster, under the bound: 40% of its gain"
    rng = random.Random(54)
    for _ in range(2000):
        value, spread, ceiling = rng.uniform(1.01, 12), rng.uniform(0, 3), rng.uniform(1.5, 12)
        said = claims.gain_share_range(value, spread, ceiling)
        if "which reaches below 1x" in said:   # a low end under 0% as printed is no longer clipped (t25)
            assert said.startswith(" (-") and _old_gain_range(value, spread, ceiling).startswith(" (0%-")
        else:
            assert said == _old_gain_range(value, spread, ceiling)


def test_the_flattest_axis_and_the_best_fit_are_compared_as_printed():
    """Read-back item 11: the figures are compared as ``claims.as_printed`` gives them (no text parsed back):
    1.104x and 1.096x both print 1.10x, a tie; misses of 3.94% and 3.86% both print 3.9%, a tie too."""
    said = flat_and_fit_sentence({"width": 1.104, "depth": 1.096}, {"width": 0.0394, "depth": 0.0386})
    assert "the flattest axis, width (1.10x, tied with depth's 1.10x), is also the best fit (3.9%, tied with " \
           "depth's 3.9%): the two readings agree" in said
    apart = flat_and_fit_sentence({"width": 1.104, "depth": 1.094}, {"width": 0.0396, "depth": 0.0386})
    assert "depth (1.09x), is also the best fit (3.9%)" in apart  # 3.9% against width's 4.0%
    close = flat_and_fit_sentence({"width": 1.104, "depth": 1.094}, {"width": 0.0386, "depth": 0.0396})
    assert "misses within 10 points of the best fit (4.0%, against width's 3.9%)" in close  # t39: 10-point edge
    differ = flat_and_fit_sentence({"width": 1.104, "depth": 1.094}, {"width": 0.0386, "depth": 0.1496})
    assert "differ here: the flattest axis, depth (1.09x), is not the best fit (15.0%, against width's 3.9%)" in differ
    for w in (0.0395, 0.03949, 0.12345, 0.0005):  # each miss printed as f"{w:.1%}" prints it elsewhere
        assert f"({w:.1%})" in flat_and_fit_sentence({"width": 1.2}, {"width": w})
