"""Thirty-fifth reading (t35_0001, other problems), lessons 00 and 01: wording. Fabricated figures."""

from types import SimpleNamespace as NS

from utils.lessons.why_slow import report


def _op(name, flops, n_bytes):
    return NS(name=name, flops=flops, bytes=n_bytes, intensity=flops / n_bytes)


def _pt(o, share):
    return NS(op=o, fraction=share, bound="memory", spread=0.1, achieved=share * 1e9, ceiling=1e9,
              above_roof=False)


def test_the_top_intensity_names_every_op_tied_at_it():
    """Cell 36: gelu and layer norm both print 1 in the table; the sentence named gelu alone."""
    rows = [("G", 1e12, "bf16", 8e12, 1e12, 8.0)]
    points = [_pt(_op("gelu", 4e6, 4e6), 0.25), _pt(_op("layer norm", 4.0004e6, 4e6), 0.16),
              _pt(_op("add", 1e6, 12e6), 0.75)]
    roof = NS(points=points, ceilings=NS(bandwidth=9e9), threads=1, bandwidth=NS(name="STREAM copy", spread=0.1))
    said = report.memory_bound_sentence(roof, rows)
    assert "intensities up to 1.00 FLOPs per byte (gelu and layer norm)" in said
    alone = NS(**{**vars(roof), "points": points[:1] + points[2:]})
    assert "intensities up to 1.00 FLOPs per byte (gelu)" in report.memory_bound_sentence(alone, rows)
