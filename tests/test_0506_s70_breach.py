"""Lesson 05, cells 43-45 (t31_0506 #2): the link alone's breach of the bytes' ratio is judged by cell 43's
rule (the sweep agreeing, beyond the fit's scatter) and its outcome printed on the visible line."""
from test_fix_s54b_030405 import cell_source
from utils.lessons.data_prefetch import transfer

MS = 1e-3
# fabricated: the rounds read 4.60x, 5.00x, 4.30x (median 4.60x ± 0.40), all past 4x beyond 2 %
PAST = transfer.Compression(400, 100, float_link=[4.6 * MS, 5.0 * MS, 4.3 * MS], uint8_link=[1 * MS] * 3,
                            convert=[1 * MS] * 3)
WIDE = {1: -0.12, 2: 0.11}   # a fit missing its own sizes by -12% to +11%
NARROW = {1: -0.03, 2: 0.02}


def test_a_breach_within_the_fits_scatter_is_not_a_finding():
    said = transfer.breach_outcome(PAST, 4.4 * MS, 1.0 * MS, WIDE, 3.90)
    # 4.60 / 3.90 = 1.18; (1 + 0.12) / (1 - 0.11) = 1.26
    assert said == ("the link alone read past 4x in rounds and sweep (4.60x, 4.40x), within what this fit's "
                    "scatter allows (1.18 against up to 1.26): not a finding against the model")


def test_a_breach_beyond_the_fits_scatter_is_a_finding():
    said = transfer.breach_outcome(PAST, 4.4 * MS, 1.0 * MS, NARROW, 3.90)
    # (1 + 0.03) / (1 - 0.02) = 1.05 < 1.18
    assert said == ("the link alone read past 4x in rounds and sweep (4.60x, 4.40x), beyond what this fit's "
                    "scatter allows (1.18 against up to 1.05): a finding to explain (its cause is not tested here)")


def test_a_sweep_outside_the_rounds_band_is_not_a_finding():
    said = transfer.breach_outcome(PAST, 3.9 * MS, 1.0 * MS, NARROW, 3.90)
    assert said == ("the link alone read past 4x in its rounds (4.60x), but its sweep (3.90x) disagrees beyond "
                    "the rounds' ±: not a finding")


def test_no_breach_in_the_rounds_says_nothing():
    under = transfer.Compression(400, 100, float_link=[3.8 * MS, 3.9 * MS, 3.7 * MS], uint8_link=[1 * MS] * 3,
                                 convert=[1 * MS] * 3)
    assert transfer.breach_outcome(under, 3.8 * MS, 1.0 * MS, WIDE, 3.90) == ""


def test_the_loose_fits_line_ends_with_the_outcome():
    said = transfer.fit_reading(WIDE, 4.0, link_verdict=transfer.link_ratio_verdict(PAST),
                                breach=transfer.breach_outcome(PAST, 4.4 * MS, 1.0 * MS, WIDE, 3.90))
    assert said.endswith("not one this link was shown to keep; the link alone read past 4x in rounds and sweep "
                         "(4.60x, 4.40x), within what this fit's scatter allows (1.18 against up to 1.26): not a "
                         "finding against the model")
    assert transfer.fit_reading(WIDE, 4.0).endswith("not one this link was shown to keep")


def test_cells_43_and_45_state_and_apply_the_rule():
    text = " ".join(cell_source("05_data_prefetch.ipynb", 43).split())   # line breaks move as the text is edited
    assert "more than the scatter of the link's own times about the fit allows" in text
    code = cell_source("05_data_prefetch.ipynb", 45)
    assert "breach = breach_outcome(squeeze, crossed[squeeze.float_bytes], crossed[squeeze.uint8_bytes]" in code
    assert "breach=breach)" in code
