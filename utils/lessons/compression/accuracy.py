"""How sure an accuracy is, lesson 04 (``notebooks/04_compression.ipynb``): on 360 test images one image is
0.0028 of the accuracy, so a difference of one or two images is not a finding until it is set beside its
standard error.

    standard_error(0.975, 360)               # 0.0082: an accuracy's own sampling error
    paired_drop(cnn, pruned, test_set)       # (before, after, drop, its paired standard error)
"""

from __future__ import annotations

import math

from torch import nn

from utils import claims, models
from utils.lessons.compression import pareto

__all__ = ["standard_error", "paired_drop", "paired_difference", "within", "recovery_text", "front_pairs", "why_both",
           "rounded_note", "images_above"]


def standard_error(accuracy: float, n: int) -> float:
    """The standard error of an accuracy measured on ``n`` test images: sqrt(p (1 - p) / n). Lesson 04."""
    return math.sqrt(max(accuracy * (1 - accuracy), 0.0) / n) if n else float("nan")


def paired_drop(baseline: nn.Module, model: nn.Module, test_set) -> tuple[float, float, float, float]:
    """Accuracy before and after, the drop, and the drop's *paired* standard error. Lesson 04 and its lab.

    Both models answer the same images, so only the images on which they disagree carry the difference:
    per image 1 (lost), -1 (gained) or 0; the drop is the mean, its standard error the standard deviation
    over sqrt(n). Much narrower than two independent accuracies' errors would make it.
    """
    before, after = models.correct_answers(baseline, test_set), models.correct_answers(model, test_set)
    differences = before - after  # (n,)
    n = len(differences)
    error = differences.std().item() / math.sqrt(n) if n > 1 else float("nan")
    return before.mean().item(), after.mean().item(), differences.mean().item(), error


def paired_difference(correct_a, correct_b) -> tuple[float, float]:
    """Accuracy of b minus accuracy of a on the same images, and its paired standard error. ``correct_a``,
    ``correct_b``: (n,) 0/1 tensors, one entry per test image (``models.correct_answers``). Lesson 04."""
    differences = correct_b.float() - correct_a.float()  # (n,): 1 gained, -1 lost, 0 the same
    n = len(differences)
    return differences.mean().item(), differences.std().item() / math.sqrt(n) if n > 1 else float("nan")


DECIMALS = 3  # the lesson prints every accuracy difference and its standard error to 0.001


def within(difference: float, error: float, k: float = 2.0, decimals: int = DECIMALS) -> bool:
    """True where ``difference`` is within ``k`` standard errors of zero: not a measured difference. Read on
    the figures as printed (``decimals``), so that "0.011 ± 0.006" is within two standard errors (0.012) on
    the page and in the verdict alike."""
    shown, se = abs(claims.as_printed(difference, decimals)), claims.as_printed(error, decimals)
    return shown <= k * se + 1e-12  # the tolerance only absorbs binary rounding of k * se


def recovery_text(cost: tuple[float, float], change: tuple[float, float]) -> str:
    """Does fine-tuning recover what pruning cost? ``cost``: the dense model's accuracy less the pruned one's,
    before fine-tuning; ``change``: fine-tuning's gain (after less before); each with its paired standard error,
    read with ``within`` (two standard errors). Lesson 04."""
    # ``moved`` is the accuracy's change, not the cost's: "it" would read a fall in accuracy as a cost recovered
    paid, moved = f"{cost[0]:.3f} ± {cost[1]:.3f}", f"{change[0]:+.3f} ± {change[1]:.3f}"
    if within(*cost):
        return (f"Pruning's cost, {paid} (paired standard error), is within two standard errors of none: no cost "
                f"is shown here, so there is none shown to recover (fine-tuning moved the accuracy by {moved}).")
    if within(*change):
        return (f"Recovery not shown: pruning cost {paid} (paired standard error) and fine-tuning moved the "
                f"accuracy by {moved}, within two standard errors of no change.")
    if change[0] > 0:
        return (f"Fine-tuning recovered part or all of it: pruning cost {paid} (paired standard error) and "
                f"fine-tuning won back {moved}, beyond two standard errors.")
    lost = f"{-change[0]:.3f} ± {change[1]:.3f}"  # "lost a further 0.012", not "a further -0.012"
    return (f"Fine-tuning did not recover it: pruning cost {paid} (paired standard error) and fine-tuning lost a "
            f"further {lost} of accuracy, beyond two standard errors.")


def images_above(accuracy: float, seed_accuracies: list[float], n: int) -> tuple[int, float, float]:
    """How many more of the ``n`` test images one model gets right than a mean over seeds, worked from counts
    as a reader redoes it: ``(right, mean_right, gap)``, the one model's count, the seeds' mean count printed
    to 0.1 (half up) and the count less that printed mean (0.1, half up). An accuracy on ``n`` images is a
    whole count over ``n``, so 97.5% of 360 is 351 and a mean of 3 counts is a multiple of 1/3: 351 against
    344, 340 and 343 is +8.7, where the rounded percentages' gap times 360 (2.4 x 3.6) would give 8.6
    (t38_0304 #1). Lesson 04, section 6."""
    right = round(accuracy * n)
    mean_right = claims.half_up(sum(round(a * n) for a in seed_accuracies) / len(seed_accuracies), 1)
    return right, mean_right, claims.half_up(right - mean_right, 1)


# Two-sided 95% critical values of Student's t, by degrees of freedom (seeds - 1): with few seeds the standard
# error is itself a rough estimate, so a difference must clear more than two of them.
T_95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23, 15: 2.13,
        20: 2.09, 30: 2.04}


def t_critical(samples: int) -> float:
    """The two-sided 95% t critical value for a mean over ``samples`` values (``samples - 1`` degrees of
    freedom); between tabled degrees the next smaller one (the larger value), past 30 the normal 1.96."""
    df = samples - 1
    if df < 1:
        raise ValueError("a standard error needs at least two samples")
    if df > 30:
        return 1.96
    return T_95[max(d for d in T_95 if d <= df)]


def front_pairs(variants: list[dict], size_tie: float = 0.0, latency_tie: dict[str, float] | None = None) -> list[str]:
    """One line for each pair of variants of one family that are both on the Pareto front while their
    accuracies print differently (94.4% and 95.6%): the paired difference on the same test images with its
    standard error, and whether it is within two of them (a tie, so accuracy decides nothing between the
    two) or beyond (a difference: the line names the more accurate one, and what keeps the other on the
    front, ``why_both``). The table shows two accuracies and two "yes": these lines let a reader check the
    tie. ``variants``: dicts with ``family``, ``name``, ``acc``, ``answers`` ((n,) 0/1,
    ``models.correct_answers``), ``mb``, ``ms`` and ``front``, numbered from 1 in the table's order;
    ``size_tie`` and ``latency_tie`` (by family) the ties ``pareto_front`` was given. Lesson 04, section 7."""
    front = [(k, v) for k, v in enumerate(variants, 1) if v["front"]]
    lines = []
    for i, (k, a) in enumerate(front):
        for m, b in front[i + 1:]:
            if a["family"] != b["family"] or f"{a['acc']:.1%}" == f"{b['acc']:.1%}":
                continue
            difference, error = paired_difference(a["answers"], b["answers"])  # b less a, image by image
            two = claims.as_printed(error, DECIMALS) * 2
            if within(difference, error):
                reading = f"within two standard errors ({two:.3f}): a tie, so accuracy decides nothing between them"
            else:
                noise = (latency_tie or {}).get(a["family"], 0.0)
                more, less = ((m, b), (k, a)) if difference > 0 else ((k, a), (m, b))
                reading = (f"beyond two standard errors ({two:.3f}): a difference: "
                           + why_both(more, less, size_tie, noise))
            right_a, right_b, n = int(a["answers"].sum()), int(b["answers"].sum()), len(a["answers"])
            lines.append(f"#{k} and #{m} ({a['family']} {a['name']}, {b['family']} {b['name']}), both on the "
                         f"front: accuracy {a['acc']:.1%} and {b['acc']:.1%} ({right_a:,} and {right_b:,} of "
                         f"{n:,} images right), paired difference {difference:+.3f} ± {error:.3f} "
                         f"({right_b - right_a:+,} of {n:,} images, #{m} less #{k}, on the same test images)"
                         f"{rounded_note(a['acc'], b['acc'], difference)}, {reading}.")
    return lines


# The front's other two coordinates: the variant's key, what the line calls it, and its word for the lower one
SIZE_AND_LATENCY = (("mb", "size", "smaller"), ("ms", "latency", "faster"))


def why_both(more: tuple[int, dict], less: tuple[int, dict], size_tie: float, latency_tie: float) -> str:
    """Why two front variants whose accuracies differ are both on the front: the more accurate one stays by
    its accuracy, the less accurate one only by the coordinates where it is lower beyond a tie (sizes within
    ``size_tie``, latencies within ``latency_tie``, shares, as ``pareto_front`` reads them). ``more``,
    ``less``: (the table's #, the variant). "#7 is the more accurate; #4 stays on the front by its size
    (latency: a tie)". Lesson 04, section 7."""
    (h, high), (l, low) = more, less
    ties = {"mb": size_tie, "ms": latency_tie}
    low_wins = [name for key, name, _ in SIZE_AND_LATENCY if pareto.lower_beyond(low[key], high[key], ties[key])]
    high_wins = [word for key, _, word in SIZE_AND_LATENCY if pareto.lower_beyond(high[key], low[key], ties[key])]
    tied = [name for key, name, _ in SIZE_AND_LATENCY
            if name not in low_wins and not pareto.lower_beyond(high[key], low[key], ties[key])]
    said = f"#{h} is the more accurate" + (f", and the {' and the '.join(high_wins)}" if high_wins else "") + "; "
    if low_wins:  # what a front variant that is less accurate must have: the lower size or latency
        said += f"#{l} stays on the front by its {' and '.join(low_wins)}"
    else:  # only where the front was taken with other ties than these
        said += f"#{l} is neither smaller nor faster beyond a tie, so these ties would not keep it on the front"
    return said + (f" ({' and '.join(tied)}: {'a tie' if len(tied) == 1 else 'ties'})" if tied else "")


def rounded_note(acc_a: float, acc_b: float, difference: float) -> str:
    """Where the two accuracies as printed (0.1%) subtract to another figure than the paired difference as
    printed (``DECIMALS``): the percentages are rounded, the difference is counted in images, so both are
    shown (95.6% and 94.4% give -0.012; 340 less 344 of 360 images is -0.011), and section 6, which works
    its per-seed gaps from the printed percentages, is not contradicted. "" where the two agree."""
    shown = lambda acc: float(f"{acc:.1%}"[:-1]) / 100  # as the line prints it
    from_printed = claims.half_up(shown(acc_b) - shown(acc_a), DECIMALS)
    if from_printed == claims.as_printed(difference, DECIMALS):
        return ""
    return (f"; the printed percentages, which are rounded, subtract to {from_printed:+.{DECIMALS}f} (as section 6 "
            f"works a gap), the image counts to {difference:+.{DECIMALS}f}")
