"""Lab 02's take-away on the fewest micro-batches timed (``labs/02_balance_the_pipeline.ipynb``): why they ran
slower than the fastest's fewest, naming only causes large enough for the gap (the bubble by its formula, the
learner's model, the split the cap forced), from the figures as printed, every branch written. Used by
``checks.take_away``; split from ``reading`` (the 600-line limit), whose ``Pipelined`` and ``noise`` it reads.
"""

from __future__ import annotations

import math

from utils.claims import as_printed, half_up, printed_ratio
from utils.labs.balance_the_pipeline.reading import Pipelined, noise, tied_with
from utils.lessons.model_split.runs import Row


def _bubble_worth(least: Row, first: Row) -> tuple[list[float], float, float]:
    """The bubble's share of the step by the formula (p-1)/(m+p-1) at ``least`` and ``first`` (whole percent,
    as printed, p = 2), what it can cost of throughput at most as a factor, and the gap measured, as printed."""
    shares = [half_up(100 / (r.m + 1), 0) for r in (least, first)]
    worth = half_up((100 - shares[1]) / (100 - shares[0]), 2)  # the bubble alone, as a factor of throughput
    return shares, worth, half_up(printed_ratio(first.speedup, least.speedup), 2)


def fewest_pair(p: Pipelined) -> tuple[Row, Row] | None:
    """The fewest micro-batches timed and the fastest's fewest (``take_away``'s pair), None where no m below
    the fastest's was timed."""
    top = tied_with(p.rows, p.fastest.key)  # the configurations the paired rounds cannot tell from the fastest
    smaller = [row for row in p.rows if row.m < min(x.m for x in top)]
    if not smaller:
        return None
    return min(smaller, key=lambda x: x.m), min(top, key=lambda x: x.m)


def fewer_detail(p: Pipelined) -> str:
    """For the collapsed block (t26-t29_labs03: the take-away was heavy): where the bubble alone cannot make
    the gap ``fewer_words`` reads, what the learner's model, which prices the bubble, each m's split and each
    micro-batch's size, says of it (every branch written); "" where there is no such pair, the bubble can make
    the gap, or the model left one of the two unpriced (``fewer_words`` then says what else is not measured)."""
    pair = fewest_pair(p)
    if pair is None:
        return ""
    least, first = pair
    _, worth, gap = _bubble_worth(least, first)
    if gap <= worth or least.key not in p.predicted or first.key not in p.predicted:
        return ""
    said = _priced_beyond_bubble(p, least, first, gap)
    return f"Beyond the bubble, m={least.m} against m={first.m}: " + said[:1].lower() + said[1:]


def fewer_words(p: Pipelined, least: Row, first: Row, fewest: str, slower: str) -> str:
    """Why the fewest micro-batches timed (``least``) ran slower than the fastest's fewest (``first``), naming
    only causes large enough for the gap, from the figures as printed (every branch written). The bubble by
    the formula (p-1)/(m+p-1) can cost at most (1 - its share at ``first``) / (1 - its share at ``least``) of
    throughput; a gap past that factor needs more, and what the learner's model, which prices the bubble, each
    m's split and each micro-batch's size, says of it is read in the collapsed block (``fewer_detail``)."""
    shares, worth, gap = _bubble_worth(least, first)
    # it opens on the m, not on "fewer micro-batches": whether the fewer micro-batches caused it is the question
    said = (f"m={least.m} {slower}: {least.speedup:.2f}x against {first.speedup:.2f}x at "
            f"{fewest} ({gap:.2f}x apart), where the formula (p-1)/(m+p-1) puts the bubble at {shares[0]:.0f}% "
            f"of the step (equal stages, free micro-batches: not measured) against {shares[1]:.0f}%, ")
    if gap <= worth:
        return said + f"worth {worth:.2f}x by itself: the bubble alone can make that gap. "
    said += f"worth only {worth:.2f}x by itself: the bubble alone cannot make that gap"
    if least.key not in p.predicted or first.key not in p.predicted:
        return said + ". What else made it is not measured here. "
    return said + "; what your model says of the rest follows below. "


def _priced_beyond_bubble(p: Pipelined, least: Row, first: Row, gap: float) -> str:
    """Whether the learner's model, which prices more than the bubble (the split, each micro-batch's size),
    predicted a gap as large as the measured one between ``least`` and ``first`` (every branch written; the
    caller, ``fewer_detail``, has both predictions)."""
    low, high = p.predicted[least.key], p.predicted[first.key]
    apart = half_up(printed_ratio(high, low), 2)
    if list(least.split_points) != list(first.split_points):
        priced = (f"each m's best split{' that fits the cap' if p.cap is not None else ''} (m={least.m} "
                  f"{list(least.split_points)}, m={first.m} {list(first.split_points)}) and each micro-batch's size")
    else:
        priced = f"each micro-batch's size (the split is {list(first.split_points)} at both)"
    said = (f"Your model, bubble counted, also prices {priced}: it predicted {low:.2f}x against {high:.2f}x, "
            f"{apart:.2f}x apart")
    lo, hi = _gap_range(least, first)
    span = f"{lo:.2f}-{hi:.2f}x" if hi != float("inf") else f"{lo:.2f}x and more"
    noise_range = f"the rounds' noise ({span}, from the two rows' ±)"
    if lo <= apart <= hi:
        said += (f", within {noise_range} of the {gap:.2f}x measured: what it prices beyond the bubble "
                 "covers the gap. ")
    elif apart > hi:
        said += (f", more than the {gap:.2f}x measured, beyond {noise_range}: it prices more than the "
                 "gap that was measured. ")
    else:
        said += (f", less than the {gap:.2f}x measured, beyond {noise_range}: the rest is outside your "
                 "model (not measured here). ")
    return said + _cap_forced(p, least, first, high)


def _cap_forced(p: Pipelined, least: Row, first: Row, high: float) -> str:
    """Whether, by the learner's model, the fewer micro-batches or the split the cap forced at ``least.m``
    made it slower than ``first``: its prediction at the split the cap ruled out, against ``first``'s."""
    if least.m not in p.uncapped or not math.isfinite(p.uncapped[least.m][1]):
        return ""
    free, figure = p.uncapped[least.m]
    said = (f"The cap ruled out {list(free)} at m={least.m}, for which your model predicts {figure:.2f}x, ")
    if as_printed(figure, 2) <= as_printed(p.predicted[least.key], 2):
        return said + (f"no more than the split that fits: by your model the fewer micro-batches, not the cap, "
                       "make that gap. ")
    if as_printed(figure, 2) >= as_printed(high, 2):
        level = "above" if as_printed(figure, 2) > as_printed(high, 2) else "level with"
        return said + (f"{level} m={first.m}'s {high:.2f}x: by your model the split the cap forced, not the "
                       "fewer micro-batches, makes that gap. ")
    return said + (f"still below m={first.m}'s {high:.2f}x: by your model the fewer micro-batches cost some of "
                   "that gap, and the split the cap forced the rest. ")


def _gap_range(least: Row, first: Row) -> tuple[float, float]:
    """How far apart the two speed-ups may lie within their rounds' noise, worked from the figures as printed:
    (first - its ±) / (least + its ±) to (first + its ±) / (least - its ±), each half up to 2 decimals."""
    f, n_f = as_printed(first.speedup, 2), noise(first)
    l, n_l = as_printed(least.speedup, 2), noise(least)
    high = half_up((f + n_f) / (l - n_l), 2) if l > n_l else float("inf")  # a ± as large as the speed-up: no top
    return half_up((f - n_f) / (l + n_l), 2), high
