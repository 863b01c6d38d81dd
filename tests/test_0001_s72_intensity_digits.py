"""Thirty-third reading (t33_0001 #4), lesson 01 section 2: a memory-bound op's printed ceiling follows from its
printed intensity times the printed bandwidth; the intensity gets the figures that takes (3 at least).
Fabricated figures shaped like the reader's matrix-vector row."""

from types import SimpleNamespace as NS

from utils import claims
from utils.lessons.why_slow import roofline
from utils.lessons.why_slow.peak import Ceilings

ROOF = Ceilings.of(NS(best=180e9, dtype="fp32", name="peak"), NS(best=18.7e9, name="bw"))


def point(flops: float, n_bytes: float, bound: str = "memory") -> roofline.Point:
    op = roofline.Op("op", flops, n_bytes, lambda: None)
    return roofline.Point(op, flops / 9.1e9, 0.1, ROOF.attainable(op.intensity), bound)


def test_the_intensity_gets_the_figures_its_ceiling_needs():
    mv = point(3.36e7, 6.7232e7)  # 0.49976 FLOPs/byte: "0.5" x 18.7 = 9.35, 9.4, beside a ceiling of 9.3
    row = roofline.points_rows([mv])[0]
    assert row[6] == "9.3" and row[3] == "0.4998"
    assert f"{claims.half_up(float(row[3]) * 18.7, 1):.1f}" == row[6]
    assert row[7] == claims.percent(9.1 / 9.3)  # the share from the printed figures: 98%


def test_three_figures_where_they_suffice_and_for_a_compute_bound_op():
    assert roofline.points_rows([point(1.0, 12.0)])[0][3] == "0.0833"
    assert roofline.intensity_text(point(3.36e7, 6.7232e7, "compute")) == "0.5"
