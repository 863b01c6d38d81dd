"""Lesson 04, twenty-first reading (t21_0304): two front variants whose accuracies print apart get their
paired difference printed (the tie checkable), and references worked from printed rates round half up."""
import torch

from utils.lessons.compression.accuracy import front_pairs
from utils.lessons.compression.roofline import figure_text


def answers(wrong: list[int], n: int = 360) -> torch.Tensor:
    right = torch.ones(n)
    right[wrong] = 0
    return right


def variant(family, name, wrong, front=True, mb=1.0, ms=10.0):
    a = answers(wrong)
    return dict(family=family, name=name, acc=a.mean().item(), answers=a, front=front, mb=mb, ms=ms)


def test_a_front_pair_with_accuracies_apart_prints_its_paired_tie():
    # the reader's run: #5 94.4% and #6 95.6% (4 images apart, each lost by #5 alone): 4/360 = +0.011,
    # standard error 0.006, two of them 0.012: a tie
    base = list(range(16))
    rows = [variant("CNN", "fp32", base[:5], front=False), variant("CNN", "distilled", list(range(20))),
            variant("CNN", "scratch", base), variant("MLP", "fp32", [])]
    (line,) = front_pairs(rows)
    assert line.startswith("#2 and #3 (CNN distilled, CNN scratch), both on the front: accuracy 94.4% and 95.6% "
                           "(340 and 344 of 360 images right), paired difference +0.011 ± 0.006 (+4 of 360 "
                           "images, #3 less #2, on the same test images)")
    assert line.endswith("within two standard errors (0.012): a tie, so accuracy decides nothing between them.")
    # the other outcome: 12 images apart, all one way, beyond two standard errors
    far = [variant("CNN", "a", list(range(20)), mb=0.5), variant("CNN", "b", list(range(8)))]
    (line,) = front_pairs(far)
    assert "paired difference +0.033 ± 0.009" in line and "beyond two standard errors (0.018): a difference" in line


def test_pairs_off_the_front_across_families_or_printed_alike_are_not_listed():
    rows = [variant("CNN", "a", [1, 2]), variant("CNN", "b", [1, 2, 3, 4, 5], front=False),
            variant("MLP", "c", [1, 2, 3, 4, 5, 6, 7]), variant("CNN", "d", [3, 4])]  # d prints as a's 99.4%
    assert front_pairs(rows) == []


def test_a_reference_from_printed_rates_prints_half_up():
    assert f"{434.5 / 100.0:.2f}" == "4.34"  # the binary 4.34499...: the trap
    assert figure_text(434.5 / 100.0) == "4.35x"
    assert figure_text(4.25, rough=True) == "~4.3x (rough)"
