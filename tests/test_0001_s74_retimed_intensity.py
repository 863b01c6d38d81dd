"""Thirty-fifth reading (t35_0001 #2), lesson 01 section 2: the roof against the probe re-timed beside the ops is
worked from the intensity as the table prints it (0.4998, not 0.5), and the table's intensity has the figures
both roofs need. Fabricated figures shaped like a matrix-vector row (0.49976 FLOPs per byte)."""

from types import SimpleNamespace as NS

from utils import claims
from utils.lessons.why_slow import memory_roof, roofline
from utils.lessons.why_slow.peak import Ceilings

CEILINGS = Ceilings.of(NS(best=180e9, dtype="fp32", name="peak"), NS(best=18.7e9, name="bw"))


def _mv(achieved=8.7e9, n_bytes=6.7232e7):
    op = roofline.Op("matrix-vector", 3.36e7, n_bytes, lambda: None)
    return roofline.Point(op, op.flops / achieved, 0.2, CEILINGS.attainable(op.intensity), "memory")


def _roof(retimed_gbs):
    return NS(from_profile=True, retimed=(None, NS(best=retimed_gbs * 1e9)), ceilings=CEILINGS,
              bandwidth=NS(name="bw", best=18.7e9), threads=1, points=[])


def test_the_retimed_roof_is_worked_from_the_tables_intensity():
    mv, roof = _mv(), _roof(14.9)
    row = roofline.points_rows([mv], roof)[0]
    assert row[3] == "0.4998"  # 0.49976: "0.5" would give 0.5 x 14.9 = 7.45, 7.5; the exact product is 7.4
    assert memory_roof.retimed_roof_said(mv, roof) == "0.4998 × 14.9 GB/s = 7.4 GFLOP/s"
    assert memory_roof.retimed_reading(mv, roof) == "8.7 / 7.4 GFLOP/s = 118%"  # 8.7 / 7.4 = 1.1757
    assert f"{claims.half_up(float(row[3]) * 14.9, 1):.1f}" == "7.4"


def test_the_intensity_takes_the_figures_the_retimed_roof_needs_even_where_the_profiles_does_not():
    mv = _mv(n_bytes=6.7192e7)  # 0.500060: "0.5" x 18.7 = 9.35 -> 9.4, as the exact 9.351 -> 9.4
    assert roofline.intensity_text(mv) == "0.5"
    # against 29.7 GB/s the exact 14.852 is 14.9, and "0.5" gives 14.85, 14.9: three figures still serve both
    assert roofline.intensity_text(mv, also=29.7) == "0.5"
    # against 9.9 GB/s: 0.50006 x 9.9 = 4.9506 -> 5.0, and "0.5" x 9.9 = 4.95 -> 5.0 (half up)
    assert roofline.intensity_text(mv, also=9.9) == "0.5"
    tight = _mv(n_bytes=6.7232e7)  # 0.49976 x 15.0 = 7.496 -> 7.5, "0.4998" x 15.0 = 7.497 -> 7.5
    assert roofline.intensity_text(tight, also=15.0) == "0.4998"
    assert roofline.retimed_gbs(_roof(14.93)) == 14.9 and roofline.retimed_gbs(NS(retimed=())) is None
    assert roofline.retimed_gbs(None) is None
