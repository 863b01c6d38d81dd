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


def test_a_flattest_axis_fitted_only_with_a_negative_d_is_not_called_the_best_fit():
    """Cell 26: "depth ..., whose fit holds only with a negative d, is also the best fit: the two readings agree"
    beside a sentence saying that fit does not hold. Both readings say the same: no fixed cost."""
    from utils.lessons.why_slow.scaling_report import flat_and_fit_sentence

    said = flat_and_fit_sentence({"width": 1.75, "depth": 1.04}, {"width": 0.07, "depth": 0.031}, negative=("depth",))
    assert said == (" Here depth is the flattest axis (1.04x) and its line misses least (3.1%), but only with a "
                    "negative d, so neither reading gives it a fixed cost.")
    assert "best fit" not in said and "agree" not in said
    # t39: a miss within 10 points of the best fit does not differ from it (the most one noisy point may miss by)
    close = flat_and_fit_sentence({"width": 1.75, "depth": 1.04}, {"width": 0.02, "depth": 0.031}, negative=("depth",))
    assert "misses within 10 points of the best fit (3.1%, against width's 2.0%)" in close
    apart = flat_and_fit_sentence({"width": 1.75, "depth": 1.04}, {"width": 0.02, "depth": 0.15}, negative=("depth",))
    assert "depth (1.04x), whose fit holds only with a negative d, is not the best fit (15.0%" in apart
    plain = flat_and_fit_sentence({"width": 1.75, "depth": 1.04}, {"width": 0.07, "depth": 0.031})
    assert "is also the best fit (3.1%): the two readings agree" in plain
