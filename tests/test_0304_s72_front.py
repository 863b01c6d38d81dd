"""Lesson 04, thirty-third reading (t33_0304 #1): two front variants whose accuracies differ beyond two paired
standard errors are not both kept by their size or latency: the more accurate one is kept by its accuracy, the
other by the coordinates where it is lower beyond the front's ties (fabricated figures)."""
import torch

from utils.lessons.compression.accuracy import front_pairs, why_both
from utils.lessons.compression.pareto import lower_beyond


def variant(name, wrong, mb, ms, n=360):
    right = torch.ones(n)
    right[list(wrong)] = 0
    return dict(family="CNN", name=name, acc=right.mean().item(), answers=right, front=True, mb=mb, ms=ms)


def test_the_less_accurate_is_kept_by_its_size_with_the_latency_a_tie():
    # a smaller model 8.4 % faster (within 10 % noise), 8 images less accurate, on every image the other gets
    small, big = variant("small", range(17), 0.44, 11.95), variant("big", range(9), 0.52, 13.05)
    (line,) = front_pairs([small, big], size_tie=0.02, latency_tie={"CNN": 0.10})
    assert line.endswith("a difference: #2 is the more accurate; #1 stays on the front by its size (latency: a tie).")
    assert "each stays on the front" not in line


def test_the_less_accurate_is_kept_by_its_size_and_latency():
    small, big = variant("small", range(20), 0.44, 11.32), variant("big", range(9), 0.52, 13.05)  # 13 % faster
    (line,) = front_pairs([big, small], size_tie=0.02, latency_tie={"CNN": 0.10})
    assert line.endswith("#1 is the more accurate; #2 stays on the front by its size and latency.")


def test_the_more_accurate_may_also_be_the_faster():
    more, less = (3, dict(mb=0.52, ms=10.0)), (4, dict(mb=0.44, ms=13.0))
    assert why_both(more, less, 0.02, 0.10) == "#3 is the more accurate, and the faster; #4 stays on the front by its size"


def test_a_less_accurate_one_lower_in_nothing_is_said_to_be_kept_by_no_tie():
    more, less = (1, dict(mb=0.44, ms=12.0)), (2, dict(mb=0.445, ms=12.5))  # within 2 % and within 10 %
    assert why_both(more, less, 0.02, 0.10) == ("#1 is the more accurate; #2 is neither smaller nor faster beyond a "
                                                "tie, so these ties would not keep it on the front "
                                                "(size and latency: ties)")


def test_without_ties_any_lower_value_counts():
    more, less = (1, dict(mb=0.44, ms=12.0)), (2, dict(mb=0.44, ms=11.9))
    assert why_both(more, less, 0.0, 0.0) == "#1 is the more accurate; #2 stays on the front by its latency (size: a tie)"


def test_lower_beyond_reads_the_tie_as_a_share_of_the_larger():
    assert lower_beyond(11.95, 13.05, 0.10) is False  # 1.10 ms, under 1.305
    assert lower_beyond(11.32, 13.05, 0.10) is True
    assert lower_beyond(13.05, 11.32, 0.10) is False  # higher is never lower


def test_held_words_reads_each_compiled_outcome_from_operator_names():
    from utils.lessons.compression.report import held_words
    assert held_words([]) == ""  # eager: it runs on what it stores
    integer = held_words(["mkldnn::_convolution_pointwise", "onednn::qlinear_pointwise", "mkl::_mkl_linear"])
    assert integer.startswith("and the compiled model calls onednn::qlinear_pointwise, an integer kernel")
    floats = held_words(["mkl::_mkl_linear", "mkldnn::_linear_pointwise", "aten::clamp_min"])  # "pointwise" is
    assert floats.startswith("yet the compiled model calls mkl::_mkl_linear, a float matmul")  # not an integer op
    assert "likely holds float weights while it runs" in floats
    assert held_words(["aten::addmm", "aten::relu"]).startswith("and the compiled model's operators name neither")


def test_lesson_04_reads_every_compiled_variant_with_held_words_and_points_under_the_plot():
    import nbformat
    cells = nbformat.read("notebooks/04_compression.ipynb", 4).cells
    table = next(c.source for c in cells if c.cell_type == "code" and "*front_pairs(" in c.source)
    assert "front_pairs(variants7, SIZE_TIE, family_noise)" in table  # the front's own ties
    assert "(the lines under " in table and "the plot say, from the operators each compiled model calls)" in table
    reading = next(c.source for c in cells if c.cell_type == "code" and "held_words(" in c.source)
    assert "held_words(called_ops(INT8_CNN, cnn_int8))" in reading and "held_words(called_ops(name, model))" in reading
