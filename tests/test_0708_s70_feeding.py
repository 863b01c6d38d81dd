"""t31_0708 #2: lesson 08 printed "0.08 ms" of loading beside a table row of 0.0001 s, and its share (0.1%)
and bound (1.001x) each followed another of the two. Now the sentence, the guide's bound and the share all
read the table's printed load and step (``guide.printed_feeding_bound``, ``profile_words.loading_sentence``)."""

import pytest

from utils.lessons.putting_it_together import guide, profile_words

SHARES = {"load": 0.00008, "matmul": 0.1179, "memory-bound": 0.0377, "Python & dispatch": 0.0071}


def test_the_bound_is_worked_from_the_printed_load_and_step():
    # 0.0001 s of a 0.1628 s step: 0.1628 / 0.1627 = 1.0006, 1.001x; from the unprinted 0.08 ms it is 1.000x
    assert guide.printed_feeding_bound(SHARES) == pytest.approx(0.1628 / 0.1627)
    assert f"{guide.feeding_bound(0.00008, 0.16278):.3f}" == "1.000"


def test_the_sentence_quotes_the_table_s_figures():
    text = profile_words.loading_sentence(SHARES)
    assert text == ("Loading a batch takes 0.1 ms of the table's 162.8 ms step (162.7 ms of compute): feeding can "
                    "buy at most 1.001x")
    assert profile_words.parts_rows(SHARES)[0][0] == ("load", "0.0001", "0.1%")


def test_the_guide_s_feeding_line_reads_the_same_figures():
    step = guide.feeding_step(None, guide.Profile(dict(SHARES), noise=0.05))
    assert "loading is 0.1% of a step" in step.why and "at most 1.001x" in step.why
    heavy = dict(SHARES, load=0.0400)   # 0.2027 s step: 0.2027 / 0.1627 = 1.246x, beyond the noise
    assert "at most 1.246x, more than the 5% noise" in guide.feeding_step(
        type("Plan", (), {"simulated": True})(), guide.Profile(heavy, noise=0.05)).why
